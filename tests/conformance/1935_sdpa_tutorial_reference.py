# PyTorch tutorial "Implementing High-Performance Transformers with Scaled Dot Product
# Attention" and the reference implementation in the F.scaled_dot_product_attention docs.
import math

import torch
import torch.nn.functional as F

torch.manual_seed(0)
query, key, value = torch.randn(2, 3, 8), torch.randn(2, 3, 8), torch.randn(2, 3, 8)
print(F.scaled_dot_product_attention(query, key, value))


def reference_sdpa(query, key, value, attn_mask=None, dropout_p=0.0, is_causal=False, scale=None):
    L, S = query.size(-2), key.size(-2)
    scale_factor = 1 / math.sqrt(query.size(-1)) if scale is None else scale
    attn_bias = torch.zeros(L, S, dtype=query.dtype)
    if is_causal:
        temp_mask = torch.ones(L, S, dtype=torch.bool).tril(diagonal=0)
        attn_bias.masked_fill_(temp_mask.logical_not(), float("-inf"))
    if attn_mask is not None:
        if attn_mask.dtype == torch.bool:
            attn_bias.masked_fill_(attn_mask.logical_not(), float("-inf"))
        else:
            attn_bias = attn_mask + attn_bias
    attn_weight = query @ key.transpose(-2, -1) * scale_factor
    attn_weight += attn_bias
    attn_weight = torch.softmax(attn_weight, dim=-1)
    attn_weight = torch.dropout(attn_weight, dropout_p, train=True)
    return attn_weight @ value


q = torch.randn(2, 4, 6, requires_grad=True)
k = torch.randn(2, 5, 6, requires_grad=True)
v = torch.randn(2, 5, 3, requires_grad=True)
out = F.scaled_dot_product_attention(q, k, v)
print(out.shape, out.grad_fn.name(), out.grad_fn.next_functions[0][0].name())
print(torch.allclose(out, reference_sdpa(q, k, v), atol=1e-6))
out.sum().backward()
print(q.grad)
print(k.grad[0])
print(v.grad[1])

causal = F.scaled_dot_product_attention(q, k, v, is_causal=True)
print(causal[0])
print(torch.allclose(causal, reference_sdpa(q, k, v, is_causal=True), atol=1e-6))
mask = torch.tensor([[True, True, False, True, False]] * 4)
masked = F.scaled_dot_product_attention(q, k, v, attn_mask=mask, scale=0.5)
print(masked[1], masked.grad_fn.name())
print(torch.allclose(masked, reference_sdpa(q, k, v, attn_mask=mask, scale=0.5), atol=1e-6))
bias = torch.randn(4, 5)
print(F.scaled_dot_product_attention(q, k, v, attn_mask=bias)[0, 0])

unbatched = F.scaled_dot_product_attention(q[0], k[0], v[0])
print(unbatched.grad_fn.name(), unbatched.shape)
with torch.no_grad():
    print(F.scaled_dot_product_attention(q, k, v).grad_fn)
