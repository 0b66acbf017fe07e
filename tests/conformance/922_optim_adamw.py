import torch


def run(title, steps, **options):
    w = torch.tensor([2.0, -1.0, 0.5], requires_grad=True)
    opt = torch.optim.AdamW([w], **options)
    print(title)
    for step in range(steps):
        opt.zero_grad()
        loss = (w**4).sum() / 4 - (w * torch.tensor([1.0, 2.0, 3.0])).sum()
        loss.backward()
        opt.step()
        print(step, w)
    return opt


opt = run("adamw defaults", 4)
print(opt)
run("adamw lr=0.1 wd=0.5", 6, lr=0.1, weight_decay=0.5)
run("adamw amsgrad", 5, lr=0.2, amsgrad=True, betas=(0.5, 0.9))
opt = run("adamw no decay", 3, lr=0.1, weight_decay=0.0)
print(opt.state_dict())
