import torch
from torch import nn

# d2l 9.1/9.2 (zh: 门控循环单元 / 长短期记忆网络 简洁实现): nn.GRU and nn.LSTM layers in the
# RNNModel, their parameter shapes and the state each returns.
torch.manual_seed(0)
vocab_size, num_hiddens = 28, 16
gru_layer = nn.GRU(vocab_size, num_hiddens)
lstm_layer = nn.LSTM(vocab_size, num_hiddens)
print(gru_layer, lstm_layer)
for name, param in gru_layer.named_parameters():
    print("gru", name, param.shape)
for name, param in lstm_layer.named_parameters():
    print("lstm", name, param.shape)
X = torch.rand((4, 2, vocab_size))
Y, H = gru_layer(X, torch.zeros(1, 2, num_hiddens))
print(Y.shape, H.shape, Y.grad_fn)
print(Y[-1, 0, :4])
Y2, (H2, C2) = lstm_layer(X, (torch.zeros(1, 2, num_hiddens), torch.zeros(1, 2, num_hiddens)))
print(Y2.shape, H2.shape, C2.shape, Y2.grad_fn, H2.grad_fn)
print(Y2[-1, 0, :4], C2[0, 1, :4])
(Y.sum() + Y2.sum()).backward()
print(gru_layer.weight_ih_l0.grad.sum(dim=1)[:6])
print(lstm_layer.weight_hh_l0.grad.sum(dim=1)[:6])
