import torch
from torch import nn

# d2l 10.3/10.4 (zh: 深度循环神经网络 / 双向循环神经网络): num_layers=2, bidirectional=True.
torch.manual_seed(0)
vocab_size, num_hiddens, num_layers = 8, 6, 2
lstm_layer = nn.LSTM(vocab_size, num_hiddens, num_layers)
bi_layer = nn.LSTM(vocab_size, num_hiddens, num_layers, bidirectional=True)
gru_bi = nn.GRU(vocab_size, num_hiddens, bidirectional=True)
print(lstm_layer, bi_layer, gru_bi)
print([name for name, _ in bi_layer.named_parameters()])
X = torch.randn(3, 2, vocab_size)
out, (h, c) = lstm_layer(X)
print(out.shape, h.shape, c.shape, out.grad_fn)
out, (h, c) = bi_layer(X)
print(out.shape, h.shape, c.shape, out.grad_fn)
print(out[0, 0], h[3, 0])
print(torch.allclose(out[-1, :, :num_hiddens], h[2]), torch.allclose(out[0, :, num_hiddens:], h[3]))
out, h = gru_bi(X)
print(out.shape, h.shape, out.grad_fn)
print(out[1, 1])
out.sum().backward()
print(gru_bi.bias_hh_l0_reverse.grad)
