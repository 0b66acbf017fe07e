# torch functions given None, a tuple, a string, a number where they take tensors
import torch

x = torch.ones(2, 2)
calls = [
    ("torch.add(x, 'a')", lambda: torch.add(x, "a")),
    ("torch.add(x, other=[1.])", lambda: torch.add(x, other=[1.0])),
    ("torch.mul(x, None)", lambda: torch.mul(x, None)),
    ("torch.matmul(x, [1])", lambda: torch.matmul(x, [1])),
    ("torch.matmul([1.], x)", lambda: torch.matmul([1.0], x)),
    ("torch.mm(x, [1])", lambda: torch.mm(x, [1])),
    ("torch.relu(None)", lambda: torch.relu(None)),
    ("torch.tanh((1.,))", lambda: torch.tanh((1.0,))),
    ("torch.sqrt(4)", lambda: torch.sqrt(4)),
    ("torch.log(2.0)", lambda: torch.log(2.0)),
    ("torch.reshape([1.], (1,))", lambda: torch.reshape([1.0], (1,))),
    ("torch.zeros_like([1.])", lambda: torch.zeros_like([1.0])),
    ("torch.sum(input=[1.])", lambda: torch.sum(input=[1.0])),
    ("torch.exp(torch.float32)", lambda: torch.exp(torch.float32)),
]
for label, call in calls:
    try:
        call()
    except TypeError as e:
        print(label, "->", e)
