# Likelihood losses for regression: count data with nn.PoissonNLLLoss (log-rate outputs, or
# rates with log_input=False and Stirling's term with full=True), and heteroscedastic regression
# with nn.GaussianNLLLoss (a net predicting a mean and, through softplus, a variance), as in
# uncertainty-estimation tutorials; homoscedastic var shapes, a float var, errors.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
x = torch.randn(8, 3)
counts = torch.tensor([0.0, 1.0, 3.0, 2.0, 5.0, 0.0, 4.0, 1.0])
rate_model = nn.Linear(3, 1)
poisson = nn.PoissonNLLLoss()
print(poisson, poisson.log_input, poisson.full, poisson.eps)
optimizer = torch.optim.SGD(rate_model.parameters(), lr=0.05)
for step in range(3):
    optimizer.zero_grad()
    loss = poisson(rate_model(x).squeeze(1), counts)
    print(step, round(loss.item(), 6), loss.grad_fn.name())
    loss.backward()
    print(rate_model.weight.grad)
    optimizer.step()
rates = torch.tensor([0.5, 1.5, 2.5, 4.0], requires_grad=True)
k = torch.tensor([0.0, 2.0, 3.0, 6.0])
for kwargs in (
    {"log_input": False},
    {"log_input": False, "full": True},
    {"full": True, "reduction": "none"},
    {"reduction": "sum"},
):
    out = F.poisson_nll_loss(rates, k, **kwargs)
    print(kwargs, out, out.grad_fn.name())
F.poisson_nll_loss(rates, k, log_input=False, full=True).backward()
print(rates.grad)

net = nn.Linear(3, 2)
y = torch.randn(8, 1)
gauss = nn.GaussianNLLLoss()
print(gauss, gauss.full, gauss.eps)
optimizer = torch.optim.SGD(net.parameters(), lr=0.05)
for step in range(3):
    optimizer.zero_grad()
    out = net(x)
    mean, var = out[:, :1], F.softplus(out[:, 1:]) + 1e-3
    loss = gauss(mean, y, var)
    print(step, round(loss.item(), 6), loss.grad_fn.name())
    loss.backward()
    print(net.weight.grad)
    optimizer.step()
mu = torch.tensor([[0.5, 1.0], [2.0, -1.0], [0.0, 0.3]], requires_grad=True)
target = torch.tensor([[0.0, 1.5], [2.5, -1.0], [0.2, 0.0]])
var = torch.tensor([[0.5, 1.0], [0.1, 2.0], [1.0, 0.0]], requires_grad=True)
out = F.gaussian_nll_loss(mu, target, var, reduction="none")
print(out, out.grad_fn.name())
node = out.grad_fn.next_functions[0][0]
print(node.name(), [f[0].name() for f in node.next_functions])
F.gaussian_nll_loss(mu, target, var, full=True).backward()
print(mu.grad, var.grad, sep="\n")
print(F.gaussian_nll_loss(mu, target, torch.ones(3), reduction="sum"))
print(F.gaussian_nll_loss(mu, target, torch.ones(3, 1)))
print(F.gaussian_nll_loss(mu, target, 0.25, full=True))
print(nn.GaussianNLLLoss(full=True, reduction="sum")(mu, target, var).grad_fn.name())
for bad in (
    lambda: F.gaussian_nll_loss(mu, target, -var),
    lambda: F.gaussian_nll_loss(mu, target, torch.ones(2)),
    lambda: F.gaussian_nll_loss(mu, target, var, reduction="avg"),
    lambda: F.gaussian_nll_loss(mu, target, -1.0),
    lambda: F.poisson_nll_loss(rates, k, reduction="avg"),
    lambda: F.poisson_nll_loss(rates, k[:3]),
):
    try:
        bad()
    except (RuntimeError, ValueError) as e:
        print(type(e).__name__, e)
