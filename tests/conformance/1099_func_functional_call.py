import torch
import torch.nn as nn
from torch.func import functional_call, stack_module_state, vmap

lin = nn.Linear(2, 1)
with torch.no_grad():
    lin.weight.copy_(torch.tensor([[0.5, -1.0]]))
    lin.bias.fill_(0.25)
x = torch.tensor([[1.0, 2.0], [3.0, -1.0], [0.0, 0.5]])
p = {"weight": torch.ones(1, 2), "bias": torch.zeros(1)}
print(functional_call(lin, p, x))
print(functional_call(lin, p, (x,)))
print(functional_call(lin, {"weight": torch.ones(1, 2)}, (x,)))
print(lin.weight, lin(x))

# gradients flow to the tensors given
w = torch.tensor([[2.0, 0.0]], requires_grad=True)
out = functional_call(lin, {"weight": w}, (x,))
out.sum().backward()
print(w.grad, lin.weight.grad)


class Tied(nn.Module):
    def __init__(self):
        super().__init__()
        self.a = nn.Linear(2, 2, bias=False)
        self.b = nn.Linear(2, 2, bias=False)
        self.b.weight = self.a.weight
        self.register_buffer("scale", torch.tensor(2.0))

    def forward(self, x):
        return self.b(self.a(x)) * self.scale


t = Tied()
with torch.no_grad():
    t.a.weight.copy_(torch.tensor([[1.0, 2.0], [3.0, 4.0]]))
one = torch.ones(2)
print(functional_call(t, {"a.weight": torch.eye(2)}, (one,)))
print(functional_call(t, {"a.weight": torch.eye(2)}, (one,), tie_weights=False))
print(functional_call(t, ({"a.weight": torch.eye(2)}, {"scale": torch.tensor(10.0)}), (one,)))


class Scale(nn.Module):
    def forward(self, x, factor=1.0):
        return x * factor


print(functional_call(Scale(), {}, (one,), {"factor": torch.tensor(3.0)}))


def attempt(label, fn):
    try:
        print(label, fn())
    except Exception as e:
        print(label, type(e).__name__, "|", e)


attempt("strict", lambda: functional_call(lin, {"weight": torch.ones(1, 2)}, (x,), strict=True))
attempt(
    "strict extra",
    lambda: functional_call(lin, {"weight": torch.ones(1, 2), "foo": one}, (x,), strict=True),
)
attempt("repeated", lambda: functional_call(lin, ({"bias": one[:1]}, {"bias": one[:1]}), (x,)))
attempt("not a tensor", lambda: functional_call(lin, {"weight": 3.0}, (x,)))
attempt("not a dict", lambda: functional_call(lin, 5, (x,)))

# model ensembling: stack the parameters of several models and vmap over them
models = [nn.Linear(2, 1) for _ in range(3)]
with torch.no_grad():
    for k, m in enumerate(models):
        m.weight.copy_(torch.tensor([[k + 1.0, -k]]))
        m.bias.fill_(k * 0.5)
params, buffers = stack_module_state(models)
print({k: tuple(v.shape) for k, v in params.items()}, buffers)
print(params["weight"].requires_grad, params["weight"].is_leaf)
base = nn.Linear(2, 1)


def fmodel(params, buffers, x):
    return functional_call(base, (params, buffers), (x,))


print(vmap(fmodel, in_dims=(0, 0, None))(params, buffers, x).detach())
print(torch.stack([m(x) for m in models]).detach())
attempt("no models", lambda: stack_module_state([]))
attempt("mixed modes", lambda: stack_module_state([nn.Linear(2, 1), nn.Linear(2, 1).eval()]))
