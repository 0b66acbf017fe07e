# attention scores with einsum (as in transformer tutorials), grads through both factors
import torch

torch.manual_seed(1)
q = torch.randn(2, 3, 4, requires_grad=True)
k = torch.randn(2, 5, 4, requires_grad=True)
v = torch.randn(2, 5, 4, requires_grad=True)
scores = torch.einsum("bqd,bkd->bqk", q, k) / 2.0
attn = scores.softmax(dim=-1)
out = torch.einsum("bqk,bkd->bqd", attn, v)
print(out.shape, out.grad_fn)
out.pow(2).sum().backward()
print(q.grad[0], k.grad[1, 0], v.grad[0, 0])
w = torch.randn(4, 2, requires_grad=True)
y = torch.einsum("bkd,de->bke", v, w)
print(y.shape, y.grad_fn)
print(torch.einsum("ij->j", w), torch.einsum("ij->", w), torch.einsum("ij,ij->ij", w, w).grad_fn)
for eq, ops in (("ij,jk->ik", (w,)), ("ij,jk->ik", (w, w)), ("ijk->ik", (w,))):
    try:
        torch.einsum(eq, *ops)
    except RuntimeError as e:
        print(e)
