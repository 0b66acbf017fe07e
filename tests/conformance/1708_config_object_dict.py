# A hyper-parameter object filled with self.__dict__.update(**kwargs) and printed through its
# __dict__ (an argparse-Namespace stand-in common in course notebooks), driving a short training
import torch
from torch import nn


class Config:
    def __init__(self, **kwargs):
        self.lr = 0.1
        self.epochs = 2
        self.__dict__.update(kwargs)

    def __repr__(self):
        items = ", ".join(f"{k}={v!r}" for k, v in self.__dict__.items())
        return f"Config({items})"


cfg = Config(lr=0.05, hidden=4, seed=5)
print(cfg)
print(cfg.__dict__, sorted(vars_ for vars_ in cfg.__dict__))
cfg.__dict__["epochs"] = 3
for key, value in {"momentum": 0.9, "name": "mlp"}.items():
    setattr(cfg, key, value)
print(cfg.epochs, cfg.momentum, len(cfg.__dict__))
torch.manual_seed(cfg.seed)
model = nn.Sequential(nn.Linear(2, cfg.hidden), nn.Sigmoid(), nn.Linear(cfg.hidden, 1))
opt = torch.optim.SGD(model.parameters(), lr=cfg.lr, momentum=cfg.momentum)
x = torch.randn(10, 2)
y = (x[:, :1] > 0).float()
for epoch in range(cfg.epochs):
    opt.zero_grad()
    loss = nn.functional.binary_cross_entropy_with_logits(model(x), y)
    loss.backward()
    opt.step()
    print(epoch, round(loss.item(), 6))
state = {k: v for k, v in cfg.__dict__.items() if not k.startswith("_")}
print(state)
