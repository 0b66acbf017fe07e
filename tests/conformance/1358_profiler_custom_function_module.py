# A custom autograd.Function and an nn.Module whose forward is decorated with record_function:
# the Function's backward runs as the node `<Name>Backward`, and the ops its backward calls
# are recorded inside that node; a record_function range wraps every forward call.
import torch
from torch import nn
from torch.autograd import profiler


class Cube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x * x

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * 3 * x * x


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.scale = nn.Parameter(torch.tensor([2.0, -1.0]))

    @profiler.record_function("Block.forward")
    def forward(self, x):
        return Cube.apply(x * self.scale)


block = Block()
x = torch.tensor([0.5, 1.5], requires_grad=True)
with profiler.profile() as prof:
    y = block(x).sum() + block(x).prod()
    y.backward()

SCRIPT_LEVEL = (
    "Block.forward",
    "Cube",
    "CubeBackward",
)  # ranges running the script's code


def show(event, depth):
    # (the ops inside PyTorch's own nodes are its kernels' internals: not printed)
    if event.name.startswith("aten::") and event.cpu_parent.name not in SCRIPT_LEVEL:
        return
    if event.name == "detach":
        return
    print("  " * depth + event.name)
    for child in event.cpu_children:
        show(child, depth + 1)


for event in prof.function_events:
    if event.cpu_parent is None and not event.name.startswith("aten::"):
        show(event, 0)
print(sorted((e.key, e.count) for e in prof.key_averages() if e.key[0].isupper()))
print(x.grad, block.scale.grad)
