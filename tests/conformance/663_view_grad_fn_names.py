import torch

x = torch.arange(6.0).reshape(2, 3).requires_grad_()
outs = [
    x.reshape(3, 2),
    x.view(6),
    x.flatten(),
    x.unsqueeze(0),
    x.unsqueeze(0).squeeze(),
    x.unsqueeze(0).squeeze(0),
    x.expand(2, 2, 3),
    x.transpose(0, 1),
    x.permute(1, 0),
    x.T,
    x.mT,
    x.t(),
    x.t().contiguous(),
    x.clone(),
    x.repeat(2, 1),
    x.flip(0),
    torch.cat([x, x]),
    torch.stack([x, x]),
    x.split(1)[0],
    x.chunk(2)[1],
    x.unbind()[0],
    x.narrow(1, 0, 2),
    x.select(1, 0),
    x[0],
    x[:, 1],
    x[0, 1],
    x[None],
    x[..., 0],
    x.reshape(-1),
]
for out in outs:
    print(type(out.grad_fn).__name__, tuple(out.shape))
