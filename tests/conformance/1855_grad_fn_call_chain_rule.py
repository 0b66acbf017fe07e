# Walking the graph by hand (the "autograd mechanics" exercise): call each grad_fn with the
# incoming gradient and compare with backward().
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
a = x * 2
b = a.pow(2)
c = b.sum()
g_c = torch.tensor(1.0)
g_b = c.grad_fn(g_c)
print("SumBackward0 ->", g_b)
g_a = b.grad_fn(g_b)
print("PowBackward0 ->", g_a)
g_x, g_two = a.grad_fn(g_a) if isinstance(a.grad_fn(g_a), tuple) else (a.grad_fn(g_a), None)
print("MulBackward0 ->", g_x, g_two)
print(a.grad_fn.next_functions)
print(type(a.grad_fn.next_functions[0][0]).__name__)
c.backward()
print(x.grad)
print(torch.allclose(x.grad, g_x))
