import torch
import torch.nn.functional as F

x = torch.tensor([0.2, 0.4], requires_grad=True)
y = torch.tensor([0.3, 0.1], requires_grad=True)
outs = [
    x.log2(),
    x.log10(),
    x.log1p(),
    x.expm1(),
    x.sqrt(),
    x.rsqrt(),
    x.tan(),
    x.asin(),
    x.acos(),
    x.atan(),
    torch.atan2(x, y),
    x.sinh(),
    x.cosh(),
    F.softplus(x),
    x.sign(),
    x.clamp(0.1, 0.3),
    x.clamp(min=0.3),
    torch.minimum(x, y),
    torch.maximum(x, y),
    torch.where(x > y, x, y),
    x.floor(),
    x.ceil(),
    x.round(),
    x.trunc(),
    x.reciprocal(),
    x.square(),
    x.erf(),
    x % 0.3,
    x // 0.3,
    x.exp2(),
    x.sigmoid(),
    x.relu(),
]
for out in outs:
    print(type(out.grad_fn).__name__)
