# F.unfold / F.fold (nn.Unfold, nn.Fold): convolution as unfold + matmul, as in PyTorch's docs
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
inp = torch.randn(1, 3, 10, 12)
w = torch.randn(2, 3, 4, 5)
inp_unf = F.unfold(inp, (4, 5))
print(inp_unf.shape)
out_unf = inp_unf.transpose(1, 2).matmul(w.view(w.size(0), -1).t()).transpose(1, 2)
out = F.fold(out_unf, (7, 8), (1, 1))
print((F.conv2d(inp, w) - out).abs().max() < 1e-4)
unfold = nn.Unfold(kernel_size=(2, 3))
x = torch.arange(16.0).reshape(1, 1, 4, 4).requires_grad_()
cols = unfold(x)
print(unfold, cols.shape, cols.grad_fn)
print(cols)
fold = nn.Fold(output_size=(4, 4), kernel_size=(2, 3))
print(fold)
back = fold(cols)
print(back, back.grad_fn)
back.sum().backward()
print(x.grad)
print(F.unfold(x, 2, padding=1, stride=2))
