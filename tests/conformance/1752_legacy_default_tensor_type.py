# Physics and numerics tutorials switch to double precision with set_default_tensor_type.
import torch

print(torch.get_default_dtype(), torch.Tensor([1]).dtype)
torch.set_default_tensor_type(torch.DoubleTensor)
print(torch.get_default_dtype())
x = torch.tensor([1.0, 2.0], requires_grad=True)
print(x.dtype, torch.Tensor(2).dtype, torch.Tensor([1, 2]).type(), torch.zeros(1).dtype)
print(torch.FloatTensor([1]).dtype, torch.arange(3.0).dtype)
y = (x**3 / 3).sum()
y.backward()
print(x.grad)
torch.set_default_tensor_type("torch.FloatTensor")
print(torch.get_default_dtype(), torch.tensor([0.1]).dtype)
try:
    torch.set_default_tensor_type(torch.LongTensor)
except TypeError as e:
    print("TypeError:", e)
print(torch.get_default_dtype())
