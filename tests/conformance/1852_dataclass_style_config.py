# A training configuration as a class with annotated defaults (the d2l / lightning style), read
# back through __annotations__ to print the hyperparameters.
import torch


class Config:
    lr: float = 0.05
    epochs: int = 4
    batch_size: int = 8
    momentum: float = 0.9
    name: str = "sgd-momentum"


def describe(cfg_class) -> str:
    parts = []
    for key, kind in cfg_class.__annotations__.items():
        parts.append(f"{key}: {kind.__name__} = {getattr(cfg_class, key)}")
    return "; ".join(parts)


print(describe(Config))
torch.manual_seed(3)
w = torch.randn(3, requires_grad=True)
opt = torch.optim.SGD([w], lr=Config.lr, momentum=Config.momentum)
X = torch.randn(Config.batch_size, 3)
for step in range(Config.epochs):
    opt.zero_grad()
    loss = (X @ w).pow(2).mean()
    loss.backward()
    opt.step()
    print(step, f"{loss.item():.5f}", w.grad)
