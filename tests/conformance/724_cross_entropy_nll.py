import torch
import torch.nn.functional as F

logits = torch.tensor([[2.0, 1.0, 0.1], [0.5, 2.5, 0.3]], requires_grad=True)
target = torch.tensor([0, 2])
loss = F.cross_entropy(logits, target)
print(loss)
print(loss.grad_fn.name())
loss.backward()
print(logits.grad)
logits.grad = None
logp = F.log_softmax(logits, dim=1)
nll = F.nll_loss(logp, target)
print(nll)
print(nll.grad_fn.name())
nll.backward()
print(logits.grad)
print(F.cross_entropy(logits, target, reduction="none"))
print(F.cross_entropy(logits, target, reduction="sum"))
print(F.nll_loss(logp, target, reduction="none"))
print(F.cross_entropy(logits, torch.tensor([[1.0, 0.0, 0.0], [0.0, 0.5, 0.5]])))
print(F.cross_entropy(torch.tensor([1.0, 2.0, 3.0]), torch.tensor(1)))
try:
    F.cross_entropy(logits, torch.tensor([0, 3]))
except IndexError as e:
    print(type(e).__name__, e)
