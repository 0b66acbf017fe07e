# The regularised incomplete gamma functions (the chi-square / Poisson CDFs of statistics
# courses, scipy.special.gammainc's torch spelling): torch.igamma / igammac, special.gammainc /
# gammaincc, the Tensor methods and in-place forms, edges, dtypes, broadcasting, the gradient
# with respect to x and PyTorch's NotImplementedError for the shape parameter.
import torch

a = torch.tensor([0.5, 1.0, 2.0, 3.5, 10.0])
x = torch.tensor([0.3, 1.0, 2.5, 3.0, 12.0], requires_grad=True)
p = torch.igamma(a, x)
q = torch.igammac(a, x)
print(p, q, p + q)
print(torch.special.gammainc(a, x), torch.special.gammaincc(a, x))
print(a.igamma(x), a.igammac(x.detach()))
# chi-square CDF with k degrees of freedom: P(k/2, t/2)
k = torch.tensor([1.0, 2.0, 5.0])
t = torch.tensor([[0.5], [3.84], [11.07]])
print(torch.special.gammainc(k / 2, t / 2))
# the Poisson CDF: P(N <= n) = Q(n + 1, λ)
lam = torch.tensor(4.0)
print(torch.igammac(torch.arange(0.0, 8.0) + 1, lam))

p.sum().backward()
print(x.grad)
x.grad = None
torch.special.gammaincc(a, x).sum().backward()
print(x.grad)
d = torch.tensor([1.5, 4.0], dtype=torch.float64)
print(torch.igamma(d, torch.tensor([2.0, 3.0])), torch.igamma(torch.tensor([2.0]), torch.tensor(1)))
print(
    torch.igamma(torch.tensor([0.0, 0.0, 1.0, -1.0, 2.0]), torch.tensor([0.0, 2.0, 0.0, 1.0, -1.0]))
)
print(
    torch.igammac(torch.tensor([1.0, float("inf"), 3.0]), torch.tensor([float("inf"), 1.0, 1e-8]))
)
z = torch.tensor([2.0, 3.0])
z.igamma_(torch.tensor([1.0, 1.0]))
print(z)
z.igammac_(torch.tensor(0.5))
print(z)

shape = torch.tensor([2.0, 3.0], requires_grad=True)
out = torch.igamma(shape, torch.tensor([1.0, 2.0]))
print(out.grad_fn.name())
for bad in [
    lambda: out.sum().backward(),
    lambda: torch.igammac(shape, torch.tensor([1.0, 2.0])).sum().backward(),
    lambda: torch.igamma(torch.tensor([1, 2]), torch.tensor([1, 2])),
    lambda: torch.igamma(torch.tensor([1.0]), 2.0),
]:
    try:
        bad()
    except Exception as ex:
        print(type(ex).__name__, ex)
