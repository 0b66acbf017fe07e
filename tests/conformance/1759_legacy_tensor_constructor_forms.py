# torch.Tensor(...) in all its forms: data, sizes, a torch.Size, another tensor, nothing.
import torch

print(torch.Tensor([1, 2]), torch.Tensor([[1.5], [2]]))
print(torch.Tensor(2, 3).shape, torch.Tensor(torch.Size([4])).shape, torch.Tensor().shape)
print(torch.Tensor((2, 3)), torch.Tensor([]).shape, torch.Tensor(0, 3).shape)
i = torch.tensor([1, 2])
same = torch.Tensor(i)
print(same, same.dtype)
w = torch.tensor([3.0], requires_grad=True)
a = torch.Tensor(w)
print(a, a.requires_grad, a.grad_fn)
(a * 2).sum().backward()
print(w.grad)
print(torch.Tensor(size=(1, 2)).shape, torch.Tensor(data=[5]), torch.FloatTensor(other=w).grad_fn)
print(type(torch.Tensor([1])), type(torch.LongTensor([1])) is torch.Tensor)
