# The meta device as PyTorch's docs ("Meta device", torch.device) show it: tensors with a shape
# and a dtype but no data, ops that compute only shapes, and what cannot be done without data.
import torch

x = torch.empty(3, device="meta")
print(x, x.device, x.is_meta, x.shape, x.dtype)
w = torch.randn(4, 3, device="meta", requires_grad=True)
print(w, w.is_leaf)
y = (w @ x).relu() * 2
print(y, y.grad_fn, y.grad_fn.next_functions[0][0])
print(torch.zeros(2, 2, dtype=torch.float64, device="meta"))
print(torch.ones(5, dtype=torch.int64, device=torch.device("meta")))
print(torch.arange(6, device="meta").reshape(2, 3).t().shape)
print(torch.tensor([1.0, 2.0], device="meta"), torch.full((2,), 7, device="meta"))
print(torch.empty_like(w), torch.zeros_like(torch.ones(2, 5), device="meta"))
print(x.new_zeros(2, 2), x.new_empty(4), x.new_tensor([3.0]))
print(torch.ones(2, 3).to("meta"), torch.ones(2).to(device="meta").is_meta)
big = torch.empty(1000, 1000, device="meta")
print(big.sum(0).shape, (big @ big.T).shape, big.mean(), big[::2, 1:].shape)
print(torch.cat([x, x]).shape, torch.stack([x, x], 1).shape, x.unsqueeze(0).expand(4, 3).shape)
print(x > 0, (x + torch.tensor(1.0)).device, torch.ones(2, device="meta").float().dtype)
s = w.sum()
s.backward()
print(s, w.grad)
print(torch.randn(2, device="meta").exp().device, torch.device("meta"), str(torch.device("meta")))
for code in [
    "x.item()",
    "torch.empty((), device='meta').item()",
    "float(torch.empty((), device='meta'))",
    "x.tolist()",
    "x.cpu()",
    "x.to('cpu')",
    "x.numpy()",
    "x + torch.ones(3)",
    "torch.ones(3) * x",
    "bool(torch.empty(1, device='meta'))",
    "x.nonzero()",
]:
    try:
        eval(code)
    except (RuntimeError, NotImplementedError, TypeError) as e:
        print(f"{code}: {type(e).__name__}: {str(e)[:90]}")
