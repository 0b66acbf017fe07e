# Inspecting gradients with module hooks across a whole network, as blog tutorials do.
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_printoptions(precision=4)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 8), nn.Sigmoid())
        self.head = nn.Linear(8, 3)

    def forward(self, x):
        return self.head(self.body(x))


net = Net()
report = {}
handles = []


def make_hook(name):
    def hook(module, grad_input, grad_output):
        report[name] = (
            None if grad_input[0] is None else round(grad_input[0].norm().item(), 4),
            round(grad_output[0].norm().item(), 4),
        )

    return hook


for name, module in net.named_modules():
    if name and not isinstance(module, nn.Sequential):
        handles.append(module.register_full_backward_hook(make_hook(name)))

x = torch.randn(5, 4)
target = torch.tensor([0, 2, 1, 1, 0])
loss = nn.functional.cross_entropy(net(x), target)
print(loss)
loss.backward()
for name in sorted(report):
    print(name, report[name])
for name, p in net.named_parameters():
    print(name, p.grad.norm())

for h in handles:
    h.remove()
report.clear()
net(x).sum().backward()
print(report)
