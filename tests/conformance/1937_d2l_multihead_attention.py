# d2l "Multi-Head Attention" (10.5): the from-scratch version with transpose_qkv, its
# DotProductAttention with masked softmax, and the same computation by nn.MultiheadAttention.
import math

import torch
from torch import nn


def masked_softmax(X, valid_lens):
    def _sequence_mask(X, valid_len, value=0):
        maxlen = X.size(1)
        mask = torch.arange((maxlen), dtype=torch.float32)[None, :] < valid_len[:, None]
        X[~mask] = value
        return X

    if valid_lens is None:
        return nn.functional.softmax(X, dim=-1)
    shape = X.shape
    if valid_lens.dim() == 1:
        valid_lens = torch.repeat_interleave(valid_lens, shape[1])
    else:
        valid_lens = valid_lens.reshape(-1)
    X = _sequence_mask(X.reshape(-1, shape[-1]), valid_lens, value=-1e6)
    return nn.functional.softmax(X.reshape(shape), dim=-1)


class DotProductAttention(nn.Module):
    def __init__(self, dropout):
        super().__init__()
        self.dropout = nn.Dropout(dropout)

    def forward(self, queries, keys, values, valid_lens=None):
        d = queries.shape[-1]
        scores = torch.bmm(queries, keys.transpose(1, 2)) / math.sqrt(d)
        self.attention_weights = masked_softmax(scores, valid_lens)
        return torch.bmm(self.dropout(self.attention_weights), values)


def transpose_qkv(X, num_heads):
    X = X.reshape(X.shape[0], X.shape[1], num_heads, -1)
    X = X.permute(0, 2, 1, 3)
    return X.reshape(-1, X.shape[2], X.shape[3])


def transpose_output(X, num_heads):
    X = X.reshape(-1, num_heads, X.shape[1], X.shape[2])
    X = X.permute(0, 2, 1, 3)
    return X.reshape(X.shape[0], X.shape[1], -1)


class MultiHeadAttention(nn.Module):
    def __init__(self, num_hiddens, num_heads, dropout, bias=False):
        super().__init__()
        self.num_heads = num_heads
        self.attention = DotProductAttention(dropout)
        self.W_q = nn.LazyLinear(num_hiddens, bias=bias)
        self.W_k = nn.LazyLinear(num_hiddens, bias=bias)
        self.W_v = nn.LazyLinear(num_hiddens, bias=bias)
        self.W_o = nn.LazyLinear(num_hiddens, bias=bias)

    def forward(self, queries, keys, values, valid_lens):
        queries = transpose_qkv(self.W_q(queries), self.num_heads)
        keys = transpose_qkv(self.W_k(keys), self.num_heads)
        values = transpose_qkv(self.W_v(values), self.num_heads)
        if valid_lens is not None:
            valid_lens = torch.repeat_interleave(valid_lens, repeats=self.num_heads, dim=0)
        output = self.attention(queries, keys, values, valid_lens)
        output_concat = transpose_output(output, self.num_heads)
        return self.W_o(output_concat)


torch.manual_seed(0)
num_hiddens, num_heads = 8, 2
attention = MultiHeadAttention(num_hiddens, num_heads, 0.5)
batch_size, num_queries, num_kvpairs = 2, 4, 6
valid_lens = torch.tensor([3, 2])
X = torch.ones((batch_size, num_queries, num_hiddens))
Y = torch.ones((batch_size, num_kvpairs, num_hiddens))
attention.eval()
print(attention(X, Y, Y, valid_lens).shape)

torch.manual_seed(0)
mha = nn.MultiheadAttention(num_hiddens, num_heads, batch_first=True)
print(mha)
X = torch.randn(batch_size, num_queries, num_hiddens)
Y = torch.randn(batch_size, num_kvpairs, num_hiddens)
key_padding_mask = torch.arange(num_kvpairs)[None, :] >= valid_lens[:, None]
print(key_padding_mask)
out, weights = mha(X, Y, Y, key_padding_mask=key_padding_mask)
print(out.shape, weights.shape)
print(out[0])
print(weights[1])

# the same numbers by hand, d2l-style, from the packed weights
w_q, w_k, w_v = mha.in_proj_weight.chunk(3)
b_q, b_k, b_v = mha.in_proj_bias.chunk(3)
scratch = DotProductAttention(0.0)
q = transpose_qkv(X @ w_q.T + b_q, num_heads)
k = transpose_qkv(Y @ w_k.T + b_k, num_heads)
v = transpose_qkv(Y @ w_v.T + b_v, num_heads)
heads = scratch(q, k, v, torch.repeat_interleave(valid_lens, repeats=num_heads, dim=0))
by_hand = mha.out_proj(transpose_output(heads, num_heads))
print(torch.allclose(by_hand, out, atol=1e-6))
print(torch.allclose(scratch.attention_weights.reshape(2, 2, 4, 6).mean(1), weights, atol=1e-6))
