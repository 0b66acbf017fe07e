# Old autograd tutorials (PyTorch 0.3 era, "Variables"): data made with torch.FloatTensor and
# wrapped in Variable, then a gradient taken.
import torch
from torch.autograd import Variable

x = Variable(torch.FloatTensor([[1, 2], [3, 4]]), requires_grad=True)
y = x + 2
z = y * y * 3
out = z.mean()
print(x)
print(y.grad_fn)
print(z, out)
out.backward()
print(x.grad)
print(x.type(), x.grad.type(), isinstance(x, torch.FloatTensor))
