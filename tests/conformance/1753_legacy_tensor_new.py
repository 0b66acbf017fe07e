# x.new(...) makes tensors of x's type (old RNN tutorials: weight.new(...).zero_() hidden states).
import torch

torch.manual_seed(2)
weight = torch.randn(4, 3, dtype=torch.float64)
hidden = weight.new(2, 4).zero_()
print(hidden, hidden.dtype)
print(weight.new([1, 2, 3]))
print(weight.new().shape, weight.new(torch.Size([1, 2])).zero_())
idx = torch.LongTensor([0, 2])
print(idx.new([1.7, 2.2]))
x = torch.tensor([1.0, 2.0], requires_grad=True)
alias = x.new(x)
print(alias, alias.grad_fn)
(alias * alias).sum().backward()
print(x.grad)
try:
    x.new(idx)
except TypeError as e:
    print("TypeError:", str(e)[:60])
