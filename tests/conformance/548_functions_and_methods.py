import torch

x = torch.tensor([0.25, 0.5, 2.0], requires_grad=True)
pairs = [
    (torch.exp(x), x.exp()),
    (torch.log(x), x.log()),
    (torch.sin(x), x.sin()),
    (torch.cos(x), x.cos()),
    (torch.tanh(x), x.tanh()),
    (torch.sigmoid(x), x.sigmoid()),
    (torch.abs(x), x.abs()),
    (torch.pow(x, 2), x.pow(2)),
    (torch.sum(x), x.sum()),
    (torch.mean(x), x.mean()),
]
for fn_out, method_out in pairs:
    print(fn_out)
    print(torch.equal(fn_out, method_out))
