# The fused CPU kernel's node as PyTorch shows it: its saved mask (a bool mask made float), scale,
# dropout_p, is_causal, output and log-sum-exp, and its saved inputs.
import torch
import torch.nn.functional as F

torch.manual_seed(0)
q = torch.randn(1, 1, 2, 3, requires_grad=True)
o = F.scaled_dot_product_attention(q, q, q, attn_mask=torch.tensor([[True, False], [True, True]]))
f = o.grad_fn
print(f._saved_attn_mask, f._saved_scale, f._saved_dropout_p, f._saved_is_causal)
print(f._saved_logsumexp, f._saved_logsumexp.shape, f._saved_output.equal(o), f._saved_output is o)
o = F.scaled_dot_product_attention(q, q, q, is_causal=True, scale=0.3)
f = o.grad_fn
print(f._saved_attn_mask, f._saved_scale, f._saved_is_causal, f._saved_logsumexp)
m = torch.randn(2, 2)
o = F.scaled_dot_product_attention(q, q, q, attn_mask=m)
f = o.grad_fn
print(f._saved_attn_mask is m, f._saved_attn_mask.equal(m), f._saved_attn_mask.dtype)
print(f._saved_query is q, f._saved_key.shape)
o.sum().backward()
print(q.grad)
