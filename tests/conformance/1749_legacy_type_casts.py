# `.type(torch.FloatTensor)` casts as older code writes them (and their string forms).
import torch

a = torch.LongTensor([1, 2, 3])
b = a.type(torch.FloatTensor)
print(b, b.type())
c = b.type("torch.DoubleTensor")
print(c, c.dtype)
print(c.type(torch.float32).dtype, c.type(torch.IntTensor))
print(b.type(torch.FloatTensor) is b, b.type(torch.float32) is b)
mask = (b > 1.5).type(torch.ByteTensor)
print(mask, mask.type())
w = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
print(w.type(torch.DoubleTensor))
print(w.type(torch.FloatTensor))
loss = (w.type(torch.DoubleTensor) * c).sum()
loss.backward()
print(loss, w.grad)
