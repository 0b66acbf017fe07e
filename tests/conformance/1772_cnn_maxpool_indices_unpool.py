# max_pool2d with return_indices and ceil_mode; ties take the first maximum; gradient lands at the argmax
import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.tensor(
    [
        [
            [
                [1.0, 2.0, 3.0, 4.0, 5.0],
                [6.0, 7.0, 8.0, 9.0, 10.0],
                [11.0, 12.0, 13.0, 14.0, 15.0],
                [16.0, 17.0, 18.0, 19.0, 20.0],
                [21.0, 22.0, 23.0, 24.0, 25.0],
            ]
        ]
    ],
    requires_grad=True,
)
pool = nn.MaxPool2d(2, stride=2, return_indices=True)
out, idx = pool(x)
print(out, idx)
out, idx = F.max_pool2d(x, 2, ceil_mode=True, return_indices=True)
print(out, idx)
out.sum().backward()
print(x.grad)
t = torch.zeros(1, 1, 4, 4, requires_grad=True)
y, i = F.max_pool2d(t, 2, return_indices=True)
print(i)
y.sum().backward()
print(t.grad)
z = torch.tensor([[[[1.0, 5.0, 5.0], [2.0, 3.0, 1.0], [0.0, 4.0, 6.0]]]], requires_grad=True)
y = F.max_pool2d(z, 2, stride=1, padding=1)
print(y)
(y * torch.arange(16.0).reshape(1, 1, 4, 4)).sum().backward()
print(z.grad)
print(F.max_pool2d(z, 3, stride=2, padding=1, ceil_mode=True))
print(F.max_pool2d(z, 2, stride=1, dilation=2))
