import torch
import torch.nn as nn

# PyTorch docs, torch.nn.RNN: the example from the reference page, then the shapes and grad_fns.
torch.manual_seed(0)
rnn = nn.RNN(10, 20, 2)
input = torch.randn(5, 3, 10)
h0 = torch.randn(2, 3, 20)
output, hn = rnn(input, h0)
print(rnn)
print(output.shape, hn.shape)
print(output.grad_fn)
print(hn.grad_fn)
print(output[0, 0, :5])
print(hn[1, 2, :5])
for name, p in rnn.named_parameters():
    print(name, tuple(p.shape))
print(rnn.weight_ih_l0[:2, :4])
print(rnn.bias_hh_l1[:6])
