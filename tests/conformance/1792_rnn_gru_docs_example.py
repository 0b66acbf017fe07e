import torch
import torch.nn as nn

# PyTorch docs, torch.nn.GRU: the example of the reference page, then a backward pass.
torch.manual_seed(2)
rnn = nn.GRU(10, 20, 2)
input = torch.randn(5, 3, 10)
h0 = torch.randn(2, 3, 20)
output, hn = rnn(input, h0)
print(rnn)
print(output.shape, hn.shape)
print(output.grad_fn, hn.grad_fn)
print(output[2, 1, :5])
output.sum().backward()
print(rnn.weight_hh_l0.grad.shape)
print(rnn.weight_hh_l0.grad[:3, :3])
print(rnn.bias_ih_l1.grad[:8])
