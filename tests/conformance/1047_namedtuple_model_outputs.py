# A model returning a namedtuple of tensors: unpacking, field access, _replace with detach.
from collections import namedtuple

import torch

Output = namedtuple("Output", ["logits", "loss", "aux"], defaults=[None])


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.weight = torch.nn.Parameter(torch.tensor([[0.5, -1.0], [2.0, 0.25]]))

    def forward(self, x, target):
        logits = x @ self.weight
        loss = torch.nn.functional.cross_entropy(logits, target)
        return Output(logits, loss)


net = Net()
out = net(torch.tensor([[1.0, 2.0], [0.5, -1.0]]), torch.tensor([1, 0]))
logits, loss, aux = out
print(type(out).__name__, out._fields, aux)
print(logits)
print(out.loss)
loss.backward()
print(net.weight.grad)
frozen = out._replace(logits=out.logits.detach(), aux="detached")
print(frozen.logits.requires_grad, frozen.aux, frozen.loss.grad_fn.name())
print(len(out), out[1] is loss, out._asdict().keys())
