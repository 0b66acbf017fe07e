import numpy as np
import torch

np.random.seed(1)
W1 = np.random.randn(3, 4)
W2 = np.random.randn(4, 1)
X = np.random.randn(5, 3)


def forward_np(X, W1, W2):
    h = np.tanh(X @ W1)
    return (h @ W2).sum(), h


out, h = forward_np(X, W1, W2)
dW2 = h.sum(axis=0, keepdims=True).T
dh = np.ones((5, 1)) @ W2.T
dW1 = X.T @ (dh * (1 - h**2))

w1 = torch.tensor(W1, requires_grad=True)
w2 = torch.tensor(W2, requires_grad=True)
x = torch.from_numpy(X)
y = (torch.tanh(x @ w1) @ w2).sum()
y.backward()
print(round(float(out), 6), round(y.item(), 6))
print(np.allclose(w1.grad.numpy(), dW1), np.allclose(w2.grad.numpy(), dW2))
print(np.round(w2.grad.numpy().ravel(), 4))
print(np.round(dW1, 4))
