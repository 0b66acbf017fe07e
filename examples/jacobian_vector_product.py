# backward(v) on a non-scalar output computes the vector-Jacobian product v^T J.
import torch

inp = torch.eye(3, 4, requires_grad=True)
out = (inp + 1).pow(2).t()
v = torch.ones_like(out)

out.backward(v, retain_graph=True)
print(f"First call\n{inp.grad}")
out.backward(v, retain_graph=True)
print(f"\nSecond call (accumulated)\n{inp.grad}")
inp.grad.zero_()
out.backward(v)
print(f"\nAfter zeroing\n{inp.grad}")

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x**2 + 2 * x  # dy_i/dx_i = 2 x_i + 2
y.backward(torch.tensor([1.0, 0.1, 0.01]))
print("\nv^T J for y = x**2 + 2x:", x.grad)
