import torch


def show(label, x, g):
    grad = x.grad
    print(label, grad, grad is g, grad.requires_grad, type(grad.grad_fn).__name__, grad.is_leaf)


# a .grad with a graph (create_graph) takes a later plain gradient in place: same tensor, same grad_fn
x = torch.tensor([1.0, 2.0], requires_grad=True)
(x * x).sum().backward(create_graph=True)
g = x.grad
node = g.grad_fn
print(g, type(node).__name__, len(node.next_functions))
(x * 2).sum().backward()
show("create_graph, then plain:", x, g)
print(g.grad_fn is node)
(x * 3).sum().backward()
show("and once more:", x, g)
g.sum().backward()  # the graph .grad still differentiates (its value was changed in place)
print(x.grad)

# both with create_graph: a new .grad (AddBackward0) each time
x = torch.tensor([1.0, 2.0], requires_grad=True)
(x * x).sum().backward(create_graph=True)
g = x.grad
(x * x * x).sum().backward(create_graph=True)
show("create_graph twice:", x, g)
print([type(n).__name__ for n, _ in x.grad.grad_fn.next_functions])

# neither: in place, no graph
x = torch.tensor([1.0, 2.0], requires_grad=True)
(x * x).sum().backward()
g = x.grad
(x * 2).sum().backward()
print("plain twice:", x.grad, x.grad is g, x.grad.grad_fn)

# the reverse order: plain, then create_graph makes a new .grad with a graph
x = torch.tensor([1.0, 2.0], requires_grad=True)
(x * 2).sum().backward()
g = x.grad
(x * x).sum().backward(create_graph=True)
show("plain, then create_graph:", x, g)
print(g)

# a .grad set by the user
x = torch.tensor([1.0, 2.0], requires_grad=True)
u = torch.tensor([10.0, 20.0])
x.grad = u
(x * 2).sum().backward()
print("user grad, then plain:", x.grad, x.grad is u, u)
x = torch.tensor([1.0, 2.0], requires_grad=True)
u = torch.tensor([10.0, 20.0])
x.grad = u
(x * x).sum().backward(create_graph=True)
show("user grad, then create_graph:", x, u)
print(u)

# a user .grad that has a graph of its own is added to in place too
x = torch.tensor([1.0, 2.0], requires_grad=True)
w = torch.tensor([1.0, 1.0], requires_grad=True)
u = w * 3
x.grad = u
(x * 2).sum().backward()
show("user grad with a graph, then plain:", x, u)
u.sum().backward()
print(w.grad)

# a .grad that is a view writes through to its base
x = torch.tensor([1.0, 2.0], requires_grad=True)
big = torch.zeros(2, 2)
x.grad = big[0]
(x * 2).sum().backward()
print("row view:", x.grad, big)
x = torch.tensor([1.0, 2.0], requires_grad=True)
big = torch.zeros(2, 2)
x.grad = big[:, 1]
(x * 2).sum().backward()
print("column view:", x.grad, big)
x = torch.tensor([1.0, 2.0], requires_grad=True)
big = torch.zeros(2, 2)
x.grad = big[0]
(x * x).sum().backward(create_graph=True)
print("view, then create_graph:", x.grad, big)

# an expanded .grad cannot take an in-place sum
x = torch.tensor([1.0, 2.0], requires_grad=True)
x.grad = torch.ones(1).expand(2)
try:
    (x * 2).sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)

# autograd.grad never touches .grad; zero_ on a graph .grad is recorded
x = torch.tensor([1.0, 2.0], requires_grad=True)
(x * x).sum().backward(create_graph=True)
g = x.grad
torch.autograd.grad((x * 2).sum(), x)
print(x.grad is g, x.grad)
x.grad.zero_()
print(x.grad, x.grad is g)
(x * 5).sum().backward()
print(x.grad, x.grad is g)
