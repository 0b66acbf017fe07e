import torch
import torch.nn as nn

# PyTorch docs, torch.nn.RNNCell / LSTMCell / GRUCell: the loops of the reference pages.
torch.manual_seed(3)
rnn = nn.RNNCell(10, 20)
input = torch.randn(6, 3, 10)
hx = torch.randn(3, 20)
output = []
for i in range(6):
    hx = rnn(input[i], hx)
    output.append(hx)
print(rnn, len(output), output[-1].shape, output[-1].grad_fn)
print(output[-1][0, :5])

rnn = nn.LSTMCell(10, 20)
input = torch.randn(2, 3, 10)
hx = torch.randn(3, 20)
cx = torch.randn(3, 20)
output = []
for i in range(input.size()[0]):
    hx, cx = rnn(input[i], (hx, cx))
    output.append(hx)
output = torch.stack(output, dim=0)
print(rnn, output.shape, output.grad_fn, hx.grad_fn, cx.grad_fn)
print(output[1, 2, :5], cx[0, :5])

rnn = nn.GRUCell(10, 20)
input = torch.randn(6, 3, 10)
hx = torch.randn(3, 20)
output = []
for i in range(6):
    hx = rnn(input[i], hx)
    output.append(hx)
print(rnn, hx.grad_fn)
print(hx[2, :5])
hx.sum().backward()
print(rnn.weight_ih.grad[:2, :4])
print(nn.RNNCell(4, 3, bias=False, nonlinearity="relu"), nn.LSTMCell(4, 3, bias=False))
