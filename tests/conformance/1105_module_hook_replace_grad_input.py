# Clipping and rescaling gradients with full backward hooks.
import torch
import torch.nn as nn

torch.set_printoptions(precision=4)


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(2, 2)
        with torch.no_grad():
            self.lin.weight.copy_(torch.tensor([[2.0, -1.0], [0.5, 3.0]]))
            self.lin.bias.zero_()

    def forward(self, x):
        return torch.tanh(self.lin(x)) * 5


block = Block()


def clip_hook(module, grad_input, grad_output):
    print("before clipping", grad_input)
    return tuple(None if g is None else g.clamp(-0.5, 0.5) for g in grad_input)


handle = block.register_full_backward_hook(clip_hook)
x = torch.tensor([[0.1, 0.2], [0.3, -0.4]], requires_grad=True)
block(x).sum().backward()
print("clipped x.grad", x.grad)
handle.remove()
x.grad = None
block(x).sum().backward()
print("unclipped x.grad", x.grad)


class TwoInputs(nn.Module):
    def forward(self, a, b):
        return a * 2


a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0, 4.0], requires_grad=True)
t = TwoInputs()
t.register_full_backward_hook(lambda m, gi, go: print("grad_input", gi))
t(a, b).sum().backward()
print(a.grad, b.grad)


def attempt(label, hook):
    m = TwoInputs()
    m.register_full_backward_hook(hook)
    try:
        m(a, b).sum().backward()
        print(label, "ok", a.grad)
    except Exception as e:
        print(label, type(e).__name__, "|", e)


a.grad = None
attempt("replace", lambda m, gi, go: (torch.tensor([10.0, 10.0]), None))
attempt("list", lambda m, gi, go: [gi[0] * 0, gi[1]])
attempt("too few", lambda m, gi, go: (gi[0],))
attempt("an int", lambda m, gi, go: 5)
attempt("wrong size", lambda m, gi, go: (torch.ones(3), None))
