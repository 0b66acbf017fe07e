# Watching the gradients flow through a network, layer by layer.
import torch
import torch.nn as nn

net = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))
with torch.no_grad():
    net[0].weight.copy_(torch.tensor([[1.0, -1.0], [0.5, 0.5], [-2.0, 1.0]]))
    net[0].bias.copy_(torch.tensor([0.0, 0.1, 0.2]))
    net[2].weight.copy_(torch.tensor([[1.0, 2.0, -1.0]]))
    net[2].bias.fill_(0.5)

for i, layer in enumerate(net):
    layer.register_full_backward_pre_hook(
        lambda m, go, i=i: print(f"pre  {i} {type(m).__name__:6} grad_output {go[0].tolist()}")
    )
    layer.register_full_backward_hook(
        lambda m, gi, go, i=i: print(
            f"hook {i} {type(m).__name__:6} grad_input {None if gi[0] is None else gi[0].tolist()}"
        )
    )
net.register_full_backward_hook(
    lambda m, gi, go: print("net hook", [None if g is None else tuple(g.shape) for g in gi])
)
net.register_full_backward_pre_hook(lambda m, go: print("net pre hook"))

x = torch.tensor([[1.0, 2.0], [-1.0, 0.5]], requires_grad=True)
loss = net(x).pow(2).mean()
print(loss)
loss.backward()
print(x.grad)

print("-- input without grad")
net(torch.tensor([[1.0, 2.0]])).sum().backward()

print("-- no_grad")
with torch.no_grad():
    print(net(x))
print(net[0].weight.grad)
