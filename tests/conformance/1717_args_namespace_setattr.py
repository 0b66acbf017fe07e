# Command-line style arguments built without argparse: defaults set with setattr from a dict,
# overridden, inspected through __dict__, then used to train and to name the run
import torch
from torch import nn


class Args:
    pass


defaults = {"lr": 0.1, "batch_size": 4, "epochs": 2, "weight_decay": 0.0, "seed": 11}
args = Args()
for key, value in defaults.items():
    setattr(args, key, value)
for override in ["lr=0.2", "epochs=3"]:
    key, value = override.split("=")
    setattr(args, key, type(getattr(args, key))(value))
print(args.__dict__)
run_name = (
    "_".join(f"{k}{v}" for k, v in sorted(vars_dict.items()) if k != "seed")
    if (vars_dict := args.__dict__)
    else ""
)
print(run_name)
torch.manual_seed(args.seed)
model = nn.Linear(2, 1)
opt = torch.optim.SGD(model.parameters(), lr=args.lr, weight_decay=args.weight_decay)
data = torch.randn(8, 2)
target = data.sum(1, keepdim=True)
for epoch in range(args.epochs):
    for i in range(0, len(data), args.batch_size):
        xb, yb = data[i : i + args.batch_size], target[i : i + args.batch_size]
        opt.zero_grad()
        loss = ((model(xb) - yb) ** 2).mean()
        loss.backward()
        opt.step()
    print(epoch, round(loss.item(), 6))
delattr(args, "weight_decay")
print(sorted(args.__dict__), getattr(args, "weight_decay", "removed"))
