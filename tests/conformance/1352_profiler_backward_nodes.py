# The backward pass in a profile: one `autograd::engine::evaluate_function: X` event per node
# run, holding the node's own event `X` (a leaf's is torch::autograd::AccumulateGrad), in the
# order the engine runs them. (The ops inside a node are PyTorch's kernels: not printed.)
import torch
from torch.autograd import profiler


def is_backward(name):
    return name.startswith("autograd::") or "Backward" in name or "AccumulateGrad" in name


x = torch.tensor([[0.5, -1.0, 2.0], [1.5, 0.25, -0.5]], requires_grad=True)
w = torch.tensor([[1.0, 2.0], [-1.0, 0.5], [0.0, 1.0]], requires_grad=True)
b = torch.tensor([0.1, -0.2], requires_grad=True)
with profiler.profile(record_shapes=True) as prof:
    h = torch.tanh(torch.mm(x, w) + b)
    loss = (h * h).sum()
    with profiler.record_function("backward_pass"):
        loss.backward(retain_graph=True)
    loss.backward()

for e in prof.function_events:
    if is_backward(e.name) or e.name == "backward_pass":
        parent = e.cpu_parent.name if e.cpu_parent is not None else None
        print(e.name, e.input_shapes, "<-", parent)
counts = [(e.key, e.count) for e in prof.key_averages() if is_backward(e.key)]
print(sorted(counts))
print(x.grad)
print(w.grad)

# a second graph with a node used twice and a leaf reached by two paths
a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
with profiler.profile() as prof:
    c = a * 2
    d = (c * c + c.exp() * a).mean()
    d.backward()
print([e.name for e in prof.function_events if is_backward(e.name) and "evaluate" not in e.name])
print(a.grad)
