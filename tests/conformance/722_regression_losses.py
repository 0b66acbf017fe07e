import torch
import torch.nn.functional as F

pred = torch.tensor([0.5, 2.0, -1.0, 3.0], requires_grad=True)
target = torch.tensor([1.0, 0.0, -1.0, 5.0])
for name, fn in (
    ("mse_loss", F.mse_loss),
    ("l1_loss", F.l1_loss),
    ("smooth_l1_loss", F.smooth_l1_loss),
):
    loss = fn(pred, target)
    print(name, loss)
    print(loss.grad_fn.name())
    loss.backward()
    print(pred.grad)
    pred.grad = None
    print(fn(pred, target, reduction="sum"))
    print(fn(pred, target, reduction="none"))
print(F.smooth_l1_loss(pred, target, beta=2.0))
