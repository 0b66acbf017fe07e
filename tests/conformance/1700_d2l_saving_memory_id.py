# d2l 2.1.6 "Saving Memory": id() tells whether an operation made a new tensor or wrote in place;
# the same checks on parameters updated during training
import torch

X = torch.arange(12, dtype=torch.float32).reshape((3, 4))
Y = torch.tensor([[2.0, 1, 4, 3], [1, 2, 3, 4], [4, 3, 2, 1]])
before = id(Y)
Y = Y + X
print(id(Y) == before)
Z = torch.zeros_like(Y)
z_id = id(Z)
Z[:] = X + Y
print("id(Z) kept:", id(Z) == z_id)
before = id(X)
X += Y
print(id(X) == before)
print(type(id(X)).__name__, id(X) == id(X), id(X) != id(Y))

w = torch.tensor([1.0, -2.0, 0.5], requires_grad=True)
w_id = id(w)
x = torch.tensor([[1.0, 2.0, 3.0], [0.5, -1.0, 2.0]])
y = torch.tensor([1.0, 0.0])
for step in range(3):
    loss = ((x @ w - y) ** 2).mean()
    loss.backward()
    with torch.no_grad():
        w -= 0.1 * w.grad
        w.grad.zero_()
    print(step, round(loss.item(), 6), id(w) == w_id, w)
g = w.grad
g_id = id(g)
((x @ w) ** 2).sum().backward()
print(id(w.grad) == g_id, w.grad)
v = w.detach()
print(id(v) == id(w), v.data_ptr() == w.data_ptr())
