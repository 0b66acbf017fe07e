# An nn.TransformerEncoderLayer forward/backward on a padded batch (the "Transformer from
# scratch" / PyTorch docs pattern): src_key_padding_mask, dropout in train mode under a seed,
# gradients of the input and of the attention's packed weights; post-norm and pre-norm.
# golden-tolerance: 8 float32 ulps at 0.01 (weight gradients summed over the 15 positions)
import torch
import torch.nn as nn

torch.manual_seed(0)
layer = nn.TransformerEncoderLayer(d_model=8, nhead=2, dim_feedforward=16, dropout=0.1)
print(layer)
print(layer.activation_relu_or_gelu, layer.norm_first)
src = torch.randn(5, 3, 8, requires_grad=True)  # (S, N, E)
lengths = torch.tensor([3, 5, 4])
padding = torch.arange(5)[None, :] >= lengths[:, None]
print(padding)
torch.manual_seed(1)
out = layer(src, src_key_padding_mask=padding)
print(out.shape, out.grad_fn.name())
print(out[0])
target = torch.randn(5, 3, 8)
loss = ((out - target) ** 2).mean()
loss.backward()
print(loss)
print(src.grad[:, 0])
print(layer.self_attn.in_proj_weight.grad[0])
print(layer.linear2.bias.grad)
print(layer.norm1.weight.grad)

layer.eval()
evaluated = layer(src, src_key_padding_mask=padding)
print(evaluated[2])
mask = torch.triu(torch.full((5, 5), float("-inf")), diagonal=1)
print(layer(src, src_mask=mask)[4, 1])

torch.manual_seed(0)
pre = nn.TransformerEncoderLayer(
    8, 2, 16, dropout=0.0, activation="gelu", batch_first=True, norm_first=True
)
x = torch.randn(3, 5, 8, requires_grad=True)  # (N, S, E)
y = pre(x, src_key_padding_mask=padding)
print(y.shape)
print(y[0, 1])
y.sum().backward()
print(x.grad[2])
print(pre.linear1.weight.grad[0])
