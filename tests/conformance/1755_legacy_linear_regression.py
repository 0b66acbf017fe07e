# A 2017-style linear regression: data in FloatTensors, parameters as Variables, manual SGD.
import torch
from torch.autograd import Variable

x_data = Variable(torch.Tensor([[1.0], [2.0], [3.0]]))
y_data = Variable(torch.Tensor([[2.0], [4.0], [6.0]]))
w = Variable(torch.Tensor([1.0]), requires_grad=True)
for epoch in range(5):
    for x_val, y_val in zip(x_data, y_data):
        loss = (x_val * w - y_val).pow(2).sum()
        loss.backward()
        print("\tgrad:", x_val.item(), y_val.item(), w.grad.item())
        w.data = w.data - 0.01 * w.grad.data
        w.grad.data.zero_()
    print("progress:", epoch, loss.item())
print("predict (after training)", 4, (torch.Tensor([4.0]) * w).item())
