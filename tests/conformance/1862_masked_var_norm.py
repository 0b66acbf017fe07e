# Statistics of the valid entries only: masked var/std (Bessel's correction), norm, logsumexp,
# prod and the running sums, including a row with nothing kept.
import torch

x = torch.tensor(
    [[1.0, 2.0, 4.0, 8.0], [3.0, -1.0, 0.5, 2.0], [5.0, 6.0, 7.0, 8.0]], requires_grad=True
)
mask = torch.tensor(
    [[True, True, True, False], [True, False, True, True], [False, False, False, False]]
)
print(torch.masked.var(x, 1, mask=mask))
print(torch.masked.var(x, 1, False, mask=mask))
print(torch.masked.std(x, 1, mask=mask))
print(torch.masked.norm(x, 2.0, 1, mask=mask))
print(torch.masked.logsumexp(x, 1, mask=mask))
print(torch.masked.prod(x, 1, mask=mask))
print(torch.masked.cumsum(x, 1, mask=mask))
print(torch.masked.cumprod(x, 1, mask=mask))
loss = (
    torch.masked.std(x[:2], 1, mask=mask[:2]).sum() + torch.masked.norm(x, 2.0, 1, mask=mask).sum()
)
loss.backward()
print(x.grad)
