# 4-D (batch, heads, seq, head_dim) attention as in the SDPA tutorial's CausalSelfAttention:
# PyTorch's CPU kernel (one fused backward node), masks, causal, scale, gradients.
import torch
import torch.nn.functional as F

torch.manual_seed(0)
batch, heads, seq, head_dim = 2, 2, 4, 3
qkv = torch.randn(batch, seq, 3 * heads * head_dim, requires_grad=True)
q, k, v = qkv.split(heads * head_dim, dim=2)
q = q.view(batch, seq, heads, head_dim).transpose(1, 2)
k = k.view(batch, seq, heads, head_dim).transpose(1, 2)
v = v.view(batch, seq, heads, head_dim).transpose(1, 2)
y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
print(y.grad_fn.name(), y.shape)
print(y[0, 1])
y = y.transpose(1, 2).contiguous().view(batch, seq, heads * head_dim)
loss = (y**2).sum()
loss.backward()
print(loss)
print(qkv.grad[0])

a = torch.randn(1, 2, 3, 4, requires_grad=True)
b = torch.randn(1, 2, 5, 4, requires_grad=True)
c = torch.randn(1, 2, 5, 4, requires_grad=True)
mask = torch.tensor([[True, False, True, True, False]]).expand(3, 5)
out = F.scaled_dot_product_attention(a, b, c, attn_mask=mask)
print(out.grad_fn.name())
print(out[0, 0])
out.backward(torch.ones_like(out))
print(a.grad[0, 1])
print(b.grad[0, 0])
print(c.grad[0, 0])

float_mask = torch.randn(1, 1, 3, 5)
print(F.scaled_dot_product_attention(a, b, c, attn_mask=float_mask, scale=0.25)[0, 1])
dropped = F.scaled_dot_product_attention(a, b, c, dropout_p=0.5)
print(dropped.grad_fn.name())
needs_grad_mask = torch.zeros(3, 5, requires_grad=True)
print(F.scaled_dot_product_attention(a, b, c, attn_mask=needs_grad_mask).grad_fn.name())
other_head_size = torch.randn(1, 2, 5, 6)
print(F.scaled_dot_product_attention(a, b, other_head_size).shape)
all_masked = torch.tensor([[False] * 5, [True] * 5, [True] * 5])
print(F.scaled_dot_product_attention(a, b, c, attn_mask=all_masked)[0, 0])
