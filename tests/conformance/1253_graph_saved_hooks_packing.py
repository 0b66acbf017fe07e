# Pack hooks that keep something else than the tensor: an index into a store, a half
# precision copy, a scaled copy; and the errors of bad hooks.
import torch
from torch.autograd.graph import saved_tensors_hooks

torch.manual_seed(0)
store = []


def pack_to_store(t):
    store.append(t.detach().clone())
    return len(store) - 1


def unpack_from_store(i):
    return store[i]


x = torch.tensor([[0.1, -0.2], [0.3, 0.4]], requires_grad=True)
W = torch.tensor([[1.0, 2.0], [-1.0, 0.5]], requires_grad=True)
with saved_tensors_hooks(pack_to_store, unpack_from_store):
    h = torch.tanh(x @ W)
    loss = (h * h).sum()
print(len(store), [tuple(t.shape) for t in store])
loss.backward()
print(x.grad)
print(W.grad)

# the same computation without hooks gives the same gradients
x2 = x.detach().clone().requires_grad_()
W2 = W.detach().clone().requires_grad_()
(torch.tanh(x2 @ W2) ** 2).sum().backward()
print(torch.allclose(x.grad, x2.grad), torch.allclose(W.grad, W2.grad))

# compressing saved tensors: gradients computed from the rounded values
a = torch.tensor([1.0001, 2.0002, 3.0003], requires_grad=True)
with saved_tensors_hooks(lambda t: t.to(torch.float16), lambda t: t.to(torch.float32)):
    b = a * a
b.sum().backward()
print(a.grad)

# an unpack hook that changes the value changes the gradient
c = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
with saved_tensors_hooks(lambda t: t, lambda t: t * 10):
    d = c.pow(2)
d.sum().backward()
print(c.grad)

# an unpack hook must give a tensor
with saved_tensors_hooks(lambda t: t, lambda t: "not a tensor"):
    e = c.sin()
try:
    e.sum().backward()
except TypeError as err:
    print("TypeError:", err)


# an error in a pack hook reaches the caller
def failing_pack(t):
    raise ValueError("cannot pack " + str(tuple(t.shape)))


with saved_tensors_hooks(failing_pack, lambda t: t):
    try:
        c.exp()
    except ValueError as err:
        print("ValueError:", err)
    print(c * 2)

# after the hooks: in-place changes are caught again, but not for what the hooks packed
u = c * 1
with saved_tensors_hooks(lambda t: t, lambda t: t):
    v = u * u
u.add_(1)
v.sum().backward()
print(c.grad)
u = c * 1
v = u * u
u.add_(1)
try:
    v.sum().backward()
except RuntimeError as err:
    print("RuntimeError:", err)
