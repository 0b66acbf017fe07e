# Least-squares line fit (d2l's linear-regression chapter and courses' "normal equations vs
# lstsq"): the design matrix [1, x], torch.linalg.lstsq with each driver, its named fields
# (solution, residuals, rank, singular_values), a vector right-hand side, a batch, a
# rank-deficient design and gradients of the fit with respect to the data.
import torch

x = torch.tensor([0.0, 1.0, 2.0, 3.0, 4.0, 5.0])
y = torch.tensor([1.1, 2.9, 5.2, 7.1, 8.8, 11.2])
X = torch.stack([torch.ones_like(x), x], dim=1)
fit = torch.linalg.lstsq(X, y.unsqueeze(1))
print(fit)
print(fit.solution.squeeze(), fit.rank, fit.residuals.shape, fit.singular_values.shape)
for driver in ("gelsy", "gelsd", "gelss", "gels"):
    r = torch.linalg.lstsq(X, y.unsqueeze(1), driver=driver)
    print(driver, r.solution.flatten(), r.residuals, r.rank, r.singular_values)

normal = torch.linalg.solve(X.T @ X, X.T @ y)
print(normal, torch.allclose(normal, fit.solution.squeeze(), atol=1e-5))
print(torch.linalg.lstsq(X, y).solution)

Xd = X.double().requires_grad_()
yd = y.double().requires_grad_()
sol = torch.linalg.lstsq(Xd, yd.unsqueeze(1), driver="gelsd")
print(sol.solution.grad_fn.name(), sol.residuals.grad_fn.name(), sol.rank.dtype)
(sol.solution.sum() + sol.residuals.sum()).backward()
print(Xd.grad)
print(yd.grad)

# a batch of two fits, and a quadratic design
batch_X = torch.stack([X, X * 0.5 + 1.0])
batch_y = torch.stack([y, y.flip(0)]).unsqueeze(-1)
print(torch.linalg.lstsq(batch_X, batch_y, driver="gelsd"))
Q = torch.stack([torch.ones_like(x), x, x**2], dim=1)
print(torch.linalg.lstsq(Q, y.unsqueeze(1)).solution)

deficient = torch.tensor([[1.0, 2.0], [2.0, 4.0], [3.0, 6.0]])
print(torch.linalg.lstsq(deficient, torch.tensor([[1.0], [2.0], [3.0]])))
for bad in [
    lambda: torch.linalg.lstsq(X, y.unsqueeze(1), driver="qr"),
    lambda: torch.linalg.lstsq(X[:3], y.unsqueeze(1)),
    lambda: torch.linalg.lstsq(x, y),
    lambda: torch.linalg.lstsq(X.double(), y.unsqueeze(1)),
]:
    try:
        bad()
    except Exception as ex:
        print(type(ex).__name__, ex)
