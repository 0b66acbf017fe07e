# Inference with a batch_first TransformerEncoder (the "Transformer building blocks" tutorial's
# padded batches): under no_grad in eval mode PyTorch runs nested tensors, so padded positions
# come out as zeros; with gradients they do not. Also a pre-norm decoder over padded memory.
import torch
import torch.nn as nn

torch.manual_seed(0)
layer = nn.TransformerEncoderLayer(d_model=8, nhead=2, dim_feedforward=16, batch_first=True)
encoder = nn.TransformerEncoder(layer, num_layers=2, norm=nn.LayerNorm(8))
print(encoder.use_nested_tensor, encoder.num_layers, encoder.layers[0] is encoder.layers[1])
print(encoder.norm)
x = torch.randn(3, 4, 8)
padding = torch.tensor([[False, False, True, True], [False] * 4, [False, False, False, True]])
encoder.eval()
with torch.no_grad():
    out = encoder(x, src_key_padding_mask=padding)
print(out[0])
print(out[2, 3])
graded = encoder(x, src_key_padding_mask=padding)
print(graded.grad_fn.name())
print(graded[0, 2])
print(torch.allclose(graded[1], out[1], atol=1e-6))
mask = nn.Transformer.generate_square_subsequent_mask(4)
with torch.no_grad():
    print(encoder(x, mask=mask)[1, 0])
    print(encoder(x, mask=mask, is_causal=True)[1, 0])

torch.manual_seed(0)
gelu_layer = nn.TransformerEncoderLayer(
    8, 2, 16, dropout=0.0, activation=nn.GELU(), batch_first=True
)
print(gelu_layer.activation_relu_or_gelu)
print(gelu_layer)

torch.manual_seed(0)
dec_layer = nn.TransformerDecoderLayer(8, 2, 16, dropout=0.0, batch_first=True, norm_first=True)
decoder = nn.TransformerDecoder(dec_layer, num_layers=2)
print(decoder)
tgt = torch.randn(3, 2, 8, requires_grad=True)
memory = out
y = decoder(
    tgt,
    memory,
    tgt_mask=nn.Transformer.generate_square_subsequent_mask(2),
    memory_key_padding_mask=padding,
)
print(y.shape, y.grad_fn.name())
print(y[2])
(y**2).sum().backward()
print(tgt.grad[0])
print(decoder.layers[1].multihead_attn.in_proj_weight.grad[16])
