# creation functions called with size= (as in many courses' examples)
import torch

torch.manual_seed(0)
print(torch.zeros(size=(2, 3)))
print(torch.ones(size=[3], dtype=torch.int64))
print(torch.rand(size=(2, 2)))
print(torch.randn(size=(3,)))
print(torch.empty(size=(2, 4)).shape)
print(torch.randint(0, 10, size=(5,)))
print(torch.normal(0.0, 1.0, size=(2, 2)))
print(torch.full(size=(2,), fill_value=7.0))
x = torch.arange(6.0)
print(x.new_zeros(size=(2,)), x.new_ones(size=(3,)), x.new_full(size=(2,), fill_value=2.0))
print(x.view(size=(2, 3)), x.reshape(shape=(3, 2)).shape)
print(x.view(2, 3).permute(dims=(1, 0)).shape, x.expand(size=(2, 6)).shape)
print(x.repeat(repeats=(2,)).shape, torch.reshape(x, shape=(6, 1)).shape)
# a d2l-style synthetic data generator
w = torch.tensor([2, -3.4])
X = torch.normal(0, 1, size=(4, len(w)))
y = torch.matmul(X, w) + 4.2
y += torch.normal(0, 0.01, size=y.shape)
print(X, y.reshape((-1, 1)))
