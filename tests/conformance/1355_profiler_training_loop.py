# Profiling a small training loop: record_function around each phase, the backward nodes of
# nn.Linear / ReLU / MSELoss as the engine runs them, and tables sorted as tutorials sort them.
import torch
from torch import nn
from torch.profiler import ProfilerActivity, profile, record_function


def is_backward(name):
    return "Backward" in name or "AccumulateGrad" in name


torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
inputs = torch.randn(16, 4)
targets = torch.randn(16, 1)
phases = ("zero_grad", "forward", "loss", "backward", "optimizer_step")
with profile(activities=[ProfilerActivity.CPU], record_shapes=True) as prof:
    for epoch in range(3):
        with record_function("zero_grad"):
            optimizer.zero_grad()
        with record_function("forward"):
            out = model(inputs)
        with record_function("loss"):
            loss = nn.functional.mse_loss(out, targets)
        with record_function("backward"):
            loss.backward()
        with record_function("optimizer_step"):
            optimizer.step()
        print(epoch, round(loss.item(), 4))

averages = prof.key_averages()
print([(e.key, e.count) for e in averages if e.key in phases])
print(sorted((e.key, e.count) for e in averages if is_backward(e.key)))
backward_range = [e for e in prof.events() if e.name == "backward"][0]
# (PyTorch's first child is aten::ones_like, the implicit gradient: the engine records no op)
runs = [c for c in backward_range.cpu_children if c.name.startswith("autograd::")]
print([c.name for c in runs])
nodes = [c.cpu_children[0] for c in runs]
print([(n.name, n.input_shapes) for n in nodes])
for key in ("cpu_time_total", "self_cpu_time_total", "cuda_time_total", "count"):
    table = averages.table(sort_by=key, row_limit=5)
    print(key, len(table.splitlines()), table.splitlines()[1].split()[:3])
ranked = sorted(averages, key=lambda e: e.count, reverse=True)
print(all(a.count >= b.count for a, b in zip(ranked, ranked[1:])))
print([e.key for e in averages if e.is_user_annotation])
