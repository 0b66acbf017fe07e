# A small MLP with learnable PReLU slopes (He et al. 2015), trained a few SGD steps on a toy
# regression, as the PyTorch docs' nn.PReLU example and d2l's MLP chapter combine them.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
X = torch.randn(16, 3)
y = (X[:, :1] * 2 - X[:, 1:2].abs()).clone()

model = nn.Sequential(nn.Linear(3, 8), nn.PReLU(), nn.Linear(8, 4), nn.PReLU(4), nn.Linear(4, 1))
print(model)
print([(name, tuple(p.shape)) for name, p in model.named_parameters()])
print(model[1].weight, model[3].num_parameters, model[1].init)

opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(5):
    opt.zero_grad()
    out = model(X)
    loss = F.mse_loss(out, y)
    loss.backward()
    opt.step()
    print(step, round(loss.item(), 5), model[1].weight.grad, model[3].weight.grad)

print(model[1].weight, model[3].weight)
h = model[1](model[0](X[:2]))
print(h.grad_fn.name(), [f.name() if f else None for f, _ in h.grad_fn.next_functions])
print(model.state_dict()["3.weight"])

# the functional form: one slope, or one per channel of an (N, C, H, W) input
x = torch.tensor([[-2.0, -0.5, 0.0, 1.5]], requires_grad=True)
w = torch.tensor([0.25], requires_grad=True)
out = F.prelu(x, w)
out.sum().backward()
print(out, x.grad, w.grad)
img = torch.arange(-8.0, 8.0).reshape(1, 2, 2, 4)
slopes = torch.tensor([0.1, 0.5], requires_grad=True)
res = torch.prelu(img, slopes)
print(res)
(res * res).sum().backward()
print(slopes.grad)
print(img.prelu(torch.tensor(0.3)).grad_fn)
