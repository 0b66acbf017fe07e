# softmax from scratch (d2l 3.6) with numpy-style axis=/keepdims=, then its gradient
import torch

X = torch.tensor([[1.0, 2.0, 3.0], [0.5, -1.0, 2.0]], requires_grad=True)


def softmax(X):
    X_exp = torch.exp(X)
    partition = X_exp.sum(axis=1, keepdims=True)
    return X_exp / partition


P = softmax(X)
print(P, P.sum(axis=1))
loss = -torch.log(P[[0, 1], [2, 0]]).mean()
print(loss)
loss.backward()
print(X.grad)
print(torch.softmax(X, axis=1))
Y = X.detach().max(axis=1, keepdims=True)
print(Y.values, Y.indices)
