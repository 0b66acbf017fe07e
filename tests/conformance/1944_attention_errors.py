# The messages a user sees for attention inputs of the wrong shape or type (PyTorch's checks).
import torch
import torch.nn as nn
import torch.nn.functional as F


def attempt(label, fn):
    try:
        fn()
        print(label, "ok")
    except Exception as e:
        print(label, type(e).__name__, e)


q = torch.randn(1, 2, 3, 4)
k = torch.randn(1, 2, 5, 4)
attempt(
    "mask shape",
    lambda: F.scaled_dot_product_attention(q, k, k, attn_mask=torch.ones(2, 3, dtype=torch.bool)),
)
attempt(
    "mask dtype",
    lambda: F.scaled_dot_product_attention(q, k, k, attn_mask=torch.ones(3, 5, dtype=torch.long)),
)
attempt(
    "1-D", lambda: F.scaled_dot_product_attention(torch.randn(3), torch.randn(3), torch.randn(3))
)
attempt("dtypes", lambda: F.scaled_dot_product_attention(q, k.double(), k))
attempt("dropout_p", lambda: F.scaled_dot_product_attention(q, k, k, dropout_p=1.5))
attempt("heads", lambda: nn.MultiheadAttention(6, 4))
attempt("zero heads", lambda: nn.MultiheadAttention(6, 0))
mha = nn.MultiheadAttention(4, 2)
x = torch.randn(3, 2, 4)
attempt("embed", lambda: mha(torch.randn(3, 2, 5), torch.randn(3, 2, 5), torch.randn(3, 2, 5)))
attempt("padding", lambda: mha(x, x, x, key_padding_mask=torch.zeros(3, 3, dtype=torch.bool)))
attempt(
    "padding dims", lambda: mha(x, x, x, key_padding_mask=torch.zeros(2, 3, 1, dtype=torch.bool))
)
attempt("attn_mask 2D", lambda: mha(x, x, x, attn_mask=torch.zeros(2, 2)))
attempt("attn_mask 3D", lambda: mha(x, x, x, attn_mask=torch.zeros(2, 3, 3)))
attempt("attn_mask 4D", lambda: mha(x, x, x, attn_mask=torch.zeros(1, 2, 3, 3)))
attempt("mask type", lambda: mha(x, x, x, attn_mask=torch.zeros(3, 3, dtype=torch.long)))
attempt("is_causal", lambda: mha(x, x, x, is_causal=True))
attempt("key/value", lambda: mha(x, x, torch.randn(4, 2, 4)))
attempt("4-D query", lambda: mha(torch.randn(1, 3, 2, 4), x, x))
attempt("key dims", lambda: mha(x, torch.randn(3, 4), x))
attempt("activation", lambda: nn.TransformerEncoderLayer(4, 2, activation="tanh"))
model = nn.Transformer(4, 2, 1, 1, 8)
attempt("batch", lambda: model(torch.randn(3, 2, 4), torch.randn(3, 1, 4)))
attempt("d_model", lambda: model(torch.randn(3, 2, 5), torch.randn(3, 2, 5)))
