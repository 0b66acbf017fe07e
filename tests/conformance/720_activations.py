import torch
import torch.nn.functional as F

x = torch.tensor([-2.0, -0.5, 0.0, 0.5, 2.0], requires_grad=True)
outs = [
    ("relu", F.relu(x)),
    ("leaky_relu", F.leaky_relu(x)),
    ("leaky_relu_0.2", F.leaky_relu(x, negative_slope=0.2)),
    ("gelu", F.gelu(x)),
    ("gelu_tanh", F.gelu(x, approximate="tanh")),
    ("elu", F.elu(x)),
    ("elu_2", F.elu(x, alpha=2.0)),
    ("silu", F.silu(x)),
]
for name, out in outs:
    print(name, out)
    print(out.grad_fn.name())
    out.sum().backward()
    print(x.grad)
    x.grad = None
print(torch.nn.functional.relu(torch.tensor([-1, 2])))
