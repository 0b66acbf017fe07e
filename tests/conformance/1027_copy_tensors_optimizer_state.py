# copy.copy / copy.deepcopy of tensors (leaf only, grad copied, requires_grad kept, shared or not),
# of containers holding them, and of an optimizer's state_dict saved as a checkpoint.
import copy

import torch

a = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
(a**2).sum().backward()
b = copy.deepcopy(a)
print(b, b.grad, b.is_leaf, b.grad is a.grad)
with torch.no_grad():
    b.mul_(10)
print(a)
c = copy.copy(a)
print(c, c.grad, c.is_leaf)
with torch.no_grad():
    c.add_(1)
print(a)
h = a * 2
try:
    copy.deepcopy(h)
except RuntimeError as e:
    print("RuntimeError:", e)
shallow = copy.copy(h)
print(shallow, shallow.grad_fn, shallow.is_leaf)
i = torch.arange(4).reshape(2, 2)
j = copy.deepcopy({"ints": i, "pair": (i, i), "nested": [i[0], {"x": 1.5}]})
print(j["pair"][0] is j["pair"][1], j["ints"] is j["pair"][0], j["nested"], j["ints"].dtype)

p = torch.nn.Parameter(torch.tensor([0.5, 0.5]))
opt = torch.optim.Adam([p], lr=0.1, betas=(0.8, 0.9))
for _ in range(3):
    opt.zero_grad()
    (p**2).sum().backward()
    opt.step()
checkpoint = copy.deepcopy(opt.state_dict())
before = copy.deepcopy(p)
for _ in range(2):
    opt.zero_grad()
    (p**2).sum().backward()
    opt.step()
print(checkpoint["state"][0]["step"], opt.state_dict()["state"][0]["step"])
print(checkpoint["param_groups"][0]["betas"], checkpoint["param_groups"][0]["params"])
opt.load_state_dict(checkpoint)
with torch.no_grad():
    p.copy_(before)
for _ in range(2):
    opt.zero_grad()
    (p**2).sum().backward()
    opt.step()
print(p)
print(type(before).__name__, before.grad)
