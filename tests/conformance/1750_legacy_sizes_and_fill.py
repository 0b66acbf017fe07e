# torch.FloatTensor(sizes) allocates uninitialised memory; tutorials fill it before use
# (uniform_, normal_, zero_, fill_), so only the filled values are printed.
import torch

torch.manual_seed(1)
w = torch.FloatTensor(3, 2).uniform_(-1, 1)
print(w.shape, w.dtype)
print(w)
b = torch.FloatTensor(2).zero_()
print(b)
h = torch.DoubleTensor(torch.Size([2, 2])).fill_(0.5)
print(h)
e = torch.LongTensor()
print(e, e.shape, e.numel())
n = torch.Tensor(2, 3).normal_(0, 0.1)
print(n.shape, n.type())
x = torch.FloatTensor([[1, 2]])
print((x @ w.t()).shape)
