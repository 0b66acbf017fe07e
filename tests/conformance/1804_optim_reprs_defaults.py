import torch

# Each optimizer's repr, defaults and state_dict after one step (PyTorch docs' defaults).
w = torch.nn.Parameter(torch.tensor([1.0, -2.0, 3.0]))
classes = [
    torch.optim.ASGD,
    torch.optim.Adadelta,
    torch.optim.Adamax,
    torch.optim.NAdam,
    torch.optim.RAdam,
    torch.optim.Rprop,
    torch.optim.LBFGS,
]
for cls in classes:
    opt = cls([w])
    print(opt)
    print(opt.defaults)
for cls in classes[:-1]:
    opt = cls([w])
    w.grad = torch.tensor([0.5, -1.0, 2.0])
    opt.step()
    print(cls.__name__, w.data)
    print(opt.state_dict())
opt = torch.optim.NAdam([w], lr=0.01, weight_decay=0.1, decoupled_weight_decay=True)
print(opt)
try:
    torch.optim.Adamax([w], lr=-1)
except ValueError as e:
    print(e)
try:
    torch.optim.Rprop([w], etas=(1.5, 1.2))
except ValueError as e:
    print(e)
