import torch


# PyTorch docs, "How to use an optimizer: optimizer.step(closure)": L-BFGS on the Rosenbrock
# function and on a least-squares fit, with and without the strong-Wolfe line search. Rosenbrock
# in float64: L-BFGS there without a line search is chaotic, float32 rounding (the order of a
# BLAS dot product) changes the path after a few iterations, in PyTorch as here.
def rosenbrock(xy):
    x, y = xy
    return (1 - x) ** 2 + 100 * (y - x**2) ** 2


for line_search in (None, "strong_wolfe"):
    xy = torch.tensor([-1.5, 2.0], requires_grad=True, dtype=torch.float64)
    optimizer = torch.optim.LBFGS([xy], lr=1, max_iter=20, line_search_fn=line_search)

    def closure(optimizer=optimizer, xy=xy):
        optimizer.zero_grad()
        loss = rosenbrock(xy)
        loss.backward()
        return loss

    for i in range(4):
        loss = optimizer.step(closure)
        print(line_search, i, f"{loss.item():.5f}", xy.data)
    state = optimizer.state[xy]
    print(state["func_evals"], state["n_iter"], len(state["old_dirs"]))

torch.manual_seed(0)
X = torch.randn(30, 2)
y = X @ torch.tensor([1.0, -1.0]) + 0.5
model = torch.nn.Linear(2, 1)
optimizer = torch.optim.LBFGS(model.parameters(), history_size=5, max_iter=4)


def closure():
    optimizer.zero_grad()
    loss = torch.nn.functional.mse_loss(model(X).squeeze(1), y)
    loss.backward()
    return loss


for i in range(3):
    print(i, f"{optimizer.step(closure).item():.6f}")
print(model.weight.data, model.bias.data)
print(optimizer)
