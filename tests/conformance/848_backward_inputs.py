import torch


def attempt(label, run, *args, **kwargs):
    try:
        print(label, run(*args, **kwargs))
    except (RuntimeError, TypeError) as e:
        print(label, type(e).__name__ + ":", e)


# backward(inputs=[non-leaf]) retains its grad: summed out of place, kept for later passes
x = torch.tensor([1.0, 2.0], requires_grad=True)
z = x * 3
loss = (z * z).sum()
loss.backward(inputs=[z], retain_graph=True)
g = z.grad
print(z.grad, x.grad, z.retains_grad)
loss.backward(inputs=[z], retain_graph=True)
print(z.grad, z.grad is g, g)
loss.backward(inputs=[z, x], retain_graph=True)
print(z.grad, x.grad)
loss.backward(retain_graph=True)
print(z.grad, x.grad)

# with create_graph the retained grad is a CloneBackward0
z2 = x * 3
(z2 * z2).sum().backward(inputs=[z2], create_graph=True)
print(z2.grad)
(z2 * 2).sum().backward(inputs=[z2])
print(z2.grad)

# an input off the loss's path gets nothing; a single tensor is accepted
v = z[0]
(z * z).sum().backward(inputs=[v], retain_graph=True)
print(v.grad, v.retains_grad)
x.grad = None
(x * 2).sum().backward(inputs=x)
print(x.grad)
w = torch.ones(2, requires_grad=True)
(x * 2).sum().backward(inputs=[w])
print(w.grad)
z3 = x * 3
torch.autograd.backward([(z3 * z3).sum()], inputs=[z3])
print(z3.grad)

# errors
attempt("empty:", (x * 2).sum().backward, inputs=[])
attempt("not requiring grad:", (x * 2).sum().backward, inputs=[torch.ones(2)])
attempt("a list:", (x * 2).sum().backward, inputs=[[1.0]])
