import torch
import torch.nn as nn

# Checkpoint tutorials: an optimizer's state_dict saved and loaded into a fresh optimizer, which
# then continues exactly as the original (RAdam, NAdam, Adadelta, Rprop, ASGD).
for cls in (
    torch.optim.RAdam,
    torch.optim.NAdam,
    torch.optim.Adadelta,
    torch.optim.Rprop,
    torch.optim.ASGD,
    torch.optim.Adamax,
):
    torch.manual_seed(0)
    model = nn.Linear(2, 1)
    opt = cls(model.parameters())
    x = torch.randn(8, 2)
    for _ in range(3):
        opt.zero_grad()
        model(x).pow(2).mean().backward()
        opt.step()
    saved = opt.state_dict()
    opt2 = cls(model.parameters())
    opt2.load_state_dict(saved)
    print(cls.__name__, sorted(opt2.state_dict()["state"][0]))
    opt2.zero_grad()
    model(x).pow(2).mean().backward()
    opt2.step()
    print(model.weight.data, opt2.state_dict()["state"][1]["step"])
