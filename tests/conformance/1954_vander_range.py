# Polynomial features with torch.vander (the polynomial-regression pattern of d2l's underfitting
# and overfitting chapter: features x^0..x^n, fitted by least squares / gradient descent), its
# grad_fn chain, and the deprecated torch.range (inclusive end, float by default)
import torch

x = torch.tensor([1.0, 2.0, 3.0, 5.0])
print(torch.vander(x))
print(torch.vander(x, N=3))
print(torch.vander(x, N=3, increasing=True))
print(torch.vander(torch.tensor([1, 2, 3]), 4), torch.vander(x, 0).shape)

# fit y = 1 + 2x - 0.5x^2 with increasing Vandermonde features
torch.manual_seed(0)
xs = torch.linspace(-1, 1, 20)
features = torch.vander(xs, N=3, increasing=True)
true_w = torch.tensor([1.0, 2.0, -0.5])
ys = features @ true_w
w = torch.zeros(3, requires_grad=True)
opt = torch.optim.SGD([w], lr=0.3)
for _ in range(200):
    opt.zero_grad()
    loss = ((features @ w - ys) ** 2).mean()
    loss.backward()
    opt.step()
print(loss.item() < 1e-4, w.detach().round(decimals=3))


def chain(node, depth=0):
    if node is None:
        return
    print("  " * depth + type(node).__name__)
    for child, _ in node.next_functions:
        chain(child, depth + 1)


v = torch.tensor([2.0, 3.0], requires_grad=True)
chain(torch.vander(v).grad_fn)
chain(torch.vander(v, N=2, increasing=True).grad_fn)
try:
    torch.vander(v, N=-1)
except RuntimeError as e:
    print("RuntimeError:", e)

print(torch.range(1, 4), torch.arange(1, 4))
print(torch.range(1, 4, 0.5), torch.range(0, 1, 0.3))
print(torch.range(1, 4, dtype=torch.int64), torch.range(4, 1, -1))
for args in ((4, 1), (1, 4, 0)):
    try:
        torch.range(*args)
    except RuntimeError as e:
        print("RuntimeError:", e)
