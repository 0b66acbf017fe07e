# ruff: noqa: B010 - setattr is the subject
# Transfer-learning style surgery: replacing the head through model._modules[...] and with
# setattr, freezing the rest, and checking which parameters still get gradients
import torch
from torch import nn

torch.manual_seed(9)
backbone = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 3))
for p in backbone.parameters():
    p.requires_grad = False
backbone._modules["2"] = nn.Linear(8, 2)
print(backbone)
print([n for n, p in backbone.named_parameters() if p.requires_grad])


class Wrapper(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Linear(4, 4)
        self.classifier = nn.Linear(4, 5)


m = Wrapper()
setattr(m, "classifier", nn.Sequential(nn.Dropout(0.0), nn.Linear(4, 2)))
print(m._modules.keys(), m.classifier)
x = torch.randn(3, 4)
out = backbone(x)
out.sum().backward()
print(out.grad_fn, backbone[0].weight.grad, backbone[2].bias.grad)
print(sum(p.numel() for p in m.parameters()), len(m._modules["classifier"]._modules))
