# A "neural network from scratch" class (blog/course pattern): private helpers `_sigmoid`,
# `_sigmoid_prime`, a `self._cache` of activations for the hand-written backward pass,
# checked against autograd
import torch

torch.manual_seed(0)


class ScratchMLP:
    def __init__(self, n_in, n_hidden, n_out):
        self.W1 = torch.randn(n_in, n_hidden, dtype=torch.float64) * 0.5
        self.b1 = torch.zeros(n_hidden, dtype=torch.float64)
        self.W2 = torch.randn(n_hidden, n_out, dtype=torch.float64) * 0.5
        self.b2 = torch.zeros(n_out, dtype=torch.float64)
        self._cache = {}

    def _sigmoid(self, z):
        return 1.0 / (1.0 + torch.exp(-z))

    def _sigmoid_prime(self, a):
        return a * (1 - a)

    def forward(self, X):
        z1 = X @ self.W1 + self.b1
        a1 = self._sigmoid(z1)
        z2 = a1 @ self.W2 + self.b2
        self._cache["X"], self._cache["a1"] = X, a1
        return z2

    def backward(self, d_out):
        X, a1 = self._cache["X"], self._cache["a1"]
        dW2 = a1.T @ d_out
        db2 = d_out.sum(0)
        da1 = d_out @ self.W2.T
        dz1 = da1 * self._sigmoid_prime(a1)
        return {"W1": X.T @ dz1, "b1": dz1.sum(0), "W2": dW2, "b2": db2}


net = ScratchMLP(3, 4, 2)
X = torch.randn(5, 3, dtype=torch.float64)
T = torch.randn(5, 2, dtype=torch.float64)
out = net.forward(X)
loss = ((out - T) ** 2).sum() / 2
manual = net.backward(out - T)
print(sorted(net._cache), net._cache["a1"].shape)
print(hasattr(net, "_sigmoid"), callable(net._sigmoid), net._sigmoid(torch.tensor(0.0)))

params = {name: getattr(net, name).clone().requires_grad_() for name in ("W1", "b1", "W2", "b2")}
for name, p in params.items():
    setattr(net, name, p)
out = net.forward(X)
loss = ((out - T) ** 2).sum() / 2
loss.backward()
print(round(loss.item(), 10))
for name, p in params.items():
    print(name, torch.allclose(p.grad, manual[name]), p.grad.abs().max().item() > 0)
print(net._cache["a1"].grad_fn)
