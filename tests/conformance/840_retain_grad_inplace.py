import torch

# retain_grad() belongs to the tensor: after an in-place op, .grad is the gradient of the new value
a = torch.tensor([2.0, 3.0], requires_grad=True)
r = a * 1
r.retain_grad()
r.mul_(3)
(r * r).sum().backward()
print(r.grad, a.grad, r.grad_fn)

# several in-place ops in a row
a.grad = None
r = a * 1
r.retain_grad()
r.mul_(3)
r.add_(1)
r.pow_(2)
(r * 2).sum().backward()
print(r.grad, a.grad)

# retain_grad after the in-place op, and asked twice (before and after)
a.grad = None
r = a * 1
r.mul_(3)
r.retain_grad()
(r * r).sum().backward()
print(r.grad, a.grad, r.retains_grad)
a.grad = None
r = a * 1
r.retain_grad()
r.pow_(2)
r.retain_grad()
r.sub_(1)
(r * r).sum().backward()
print(r.grad, a.grad)

# an in-place op on a view: the base's history becomes CopySlices, and its retained grad follows
a.grad = None
r = a * 1
r.retain_grad()
r[0].mul_(5)
(r * r).sum().backward()
print(r.grad, a.grad, type(r.grad_fn).__name__)

# a retained view whose base is modified: the view's regenerated history carries it
a.grad = None
r = a * 1
v = r[:1]
v.retain_grad()
r.mul_(2)
(v * v).sum().backward()
print(v.grad, a.grad, type(v.grad_fn).__name__)

# a retained view modified in place: its new history is not on the loss's path
a.grad = None
r = a * 1
v = r[1:]
v.retain_grad()
v.mul_(5)
(r * r).sum().backward()
print(v.grad, a.grad)

# hooks stay with the old value; retain_grad sees the gradient after the hooks of its node
a.grad = None
r = a * 1
r.retain_grad()
r.register_hook(lambda g: g * 10)
r.mul_(3)
(r * r).sum().backward()
print(r.grad, a.grad)
a.grad = None
y = a * 2
y.retain_grad()
y.register_hook(lambda g: g * 10)
y.sum().backward()
print(y.grad, a.grad)

# retained gradients are summed out of place; create_graph gives them a graph (CloneBackward0)
r = a * 1
r.retain_grad()
(r * r).sum().backward(create_graph=True)
g = r.grad
print(g, type(g.grad_fn).__name__)
(r * 2).sum().backward(retain_graph=True)
print(r.grad, r.grad is g, r.grad.requires_grad)
r = a * 1
r.retain_grad()
r.pow_(2)
(r * r).sum().backward(create_graph=True)
print(r.grad)

# autograd.grad leaves .grad alone except for retained tensors of the graph
r = a * 1
r.retain_grad()
r.mul_(3)
print(torch.autograd.grad((r * r).sum(), a), r.grad)


# a custom Function that marks its input dirty moves the retained grad too
class Double(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        x.mul_(2)
        ctx.mark_dirty(x)
        return x

    @staticmethod
    def backward(ctx, g):
        return g * 2


a.grad = None
r = a * 1
r.retain_grad()
out = Double.apply(r)
(out * out).sum().backward()
print(out is r, r.grad, a.grad, type(r.grad_fn).__name__)
