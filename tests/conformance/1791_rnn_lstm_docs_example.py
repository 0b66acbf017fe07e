import torch
import torch.nn as nn

# PyTorch docs, torch.nn.LSTM: the example of the reference page (h0 and c0 given).
torch.manual_seed(1)
rnn = nn.LSTM(10, 20, 2)
input = torch.randn(5, 3, 10)
h0 = torch.randn(2, 3, 20)
c0 = torch.randn(2, 3, 20)
output, (hn, cn) = rnn(input, (h0, c0))
print(rnn)
print(output.size(), hn.size(), cn.size())
print(type(output.grad_fn).__name__, type(hn.grad_fn).__name__, type(cn.grad_fn).__name__)
print(output[-1, 0, :6])
print(hn[-1, 0, :6])
print(cn[0, 2, :6])
print(torch.allclose(output[-1], hn[-1]))
loss = output.pow(2).mean()
loss.backward()
print(loss)
print(rnn.weight_ih_l0.grad[:2, :4])
print(rnn.bias_hh_l1.grad[:6])
