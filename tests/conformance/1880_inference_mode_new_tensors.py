# torch.inference_mode as its docs show it: tensors made inside are inference tensors, the new_*
# constructors included, and they cannot be saved for backward outside the mode.
import torch

x = torch.ones(2, 3, requires_grad=True)
with torch.inference_mode():
    y = x * 2
    z = y.new_zeros(2)
    w = y.new_full((2, 2), 3.0)
    e = y.new_empty(4)
    o = y.new_ones(1, 3)
    t = y.new_tensor([1.0, 2.0])
    r = torch.randn(2)
print(y.requires_grad, y.is_inference(), y.grad_fn)
print([v.is_inference() for v in (z, w, e, o, t, r)])
print(z, w, o, t)
fresh = x.new_zeros(2)
print(fresh.is_inference(), torch.is_inference_mode_enabled())
try:
    (w * x[:, :2]).sum().backward()
except RuntimeError as err:
    print("RuntimeError:", err)
with torch.inference_mode():
    k = x.new_ones(3, requires_grad=True)
print(k.requires_grad, k.is_inference(), k.is_leaf)
