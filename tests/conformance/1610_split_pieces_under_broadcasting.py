import torch

# Splitting a parameter tensor into pieces, then using each piece under broadcasting:
# every piece's gradient must reach its own element (w, b = params in tutorials).
t = torch.tensor([1.0, 2.0, 3.0])

p = torch.tensor([2.0, 3.0], requires_grad=True)
w, b = p
print(type(w.grad_fn).__name__, type(b.grad_fn).__name__, w.grad_fn is b.grad_fn)
(w * t + b).sum().backward()
print("unpacking", p.grad)

p = torch.tensor([2.0, 3.0], requires_grad=True)
w, b = p
((b * t) ** 2).sum().backward()
print("second piece only", p.grad)

p = torch.tensor([2.0, 3.0, 4.0], requires_grad=True)
pieces = [x for x in p]
print([type(x.grad_fn).__name__ for x in pieces])
loss = sum(((x + i) * t).sum() for i, x in enumerate(pieces))
loss.backward()
print("iteration", p.grad)

p = torch.tensor([2.0, 3.0, 4.0], requires_grad=True)
a, *rest = p
print(type(a.grad_fn).__name__, len(rest))
(a * t + rest[0] * t * t - rest[1] / t).sum().backward()
print("starred", p.grad)

p = torch.tensor([2.0, 3.0, 4.0], requires_grad=True)
total = 0
for x, s in zip(p, [1.0, -1.0, 0.5]):
    total = total + (x * s * t).sum()
total.backward()
print("zip", p.grad)

p = torch.tensor([2.0, 3.0, 4.0], requires_grad=True)
items = list(p)
print(type(items[2].grad_fn).__name__)
(items[2] * t + items[0]).prod().backward()
print("list", p.grad)

p = torch.tensor([2.0, 3.0, 4.0], requires_grad=True)
total = 0
for i, x in enumerate(p):
    total = total + (x ** (i + 1) * t).sum()
total.backward()
print("enumerate", p.grad)

p = torch.tensor([2.0, 3.0], requires_grad=True)
w, b = p.unbind()
print(type(w.grad_fn).__name__)
(torch.sigmoid(w * t) * b).sum().backward()
print("unbind", p.grad)

m = torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], requires_grad=True)
r0, r1, r2 = m.unbind(0)
c0, c1 = m.unbind(1)
print(type(r0.grad_fn).__name__, r0.grad_fn is c0.grad_fn)
(r0 * t[:2] + r2 * 2 + (c1 * t).sum()).sum().backward()
print("unbind rows and columns", m.grad)

q = torch.arange(6.0).requires_grad_()
first, second = q.split(3)
print(type(first.grad_fn).__name__)
(first * t + second.unsqueeze(1) * t).sum().backward()
print("split", q.grad)

q = torch.arange(6.0).requires_grad_()
a, b, c = q.split([1, 2, 3])
print(type(a.grad_fn).__name__)
(a * t + (b.sum() * t) + c * t).sum().backward()
print("split sizes", q.grad)

q = torch.arange(6.0).requires_grad_()
a, b = q.chunk(2)
print(type(a.grad_fn).__name__)
(a * t.unsqueeze(0).T + b).sum().backward()
print("chunk", q.grad)

q = torch.arange(5.0).requires_grad_()
a, b, c = torch.chunk(q, 3)
print(type(c.grad_fn).__name__, a.shape, c.shape)
(a.sum() * t + c.sum() * t * t).sum().backward()
print("uneven chunk", q.grad)

q = torch.arange(6.0).requires_grad_()
a, b = torch.split(q.view(2, 3), 1, dim=0)
(a * t + b * t * 2).sum().backward()
print("split dim 0", q.grad)

q = torch.arange(6.0, dtype=torch.float64).requires_grad_()
a, b, c = q.view(3, 2).unbind()
(a.unsqueeze(0) * b.unsqueeze(1) + c).pow(2).sum().backward()
print("outer product of rows", q.grad)

q = torch.tensor([0.5, -1.0], requires_grad=True)
w, b = q
y = torch.relu(w * t + b)
y.backward(torch.ones(3))
print("relu", q.grad)

q = torch.arange(7.0).requires_grad_()
a, b, c = q.tensor_split(3)
print(type(a.grad_fn).__name__, a.shape, c.shape)
(a.sum() * t + b[0] * t + c[1] * t * t).sum().backward()
print("tensor_split", q.grad)
m = torch.arange(6.0).view(2, 3).requires_grad_()
top, bottom = torch.vsplit(m, 2)
left, right = torch.hsplit(m, [1])
print(type(top.grad_fn).__name__, type(left.grad_fn).__name__)
(top * t + bottom * 2 + left.sum() * t).sum().backward()
print("vsplit hsplit", m.grad)
