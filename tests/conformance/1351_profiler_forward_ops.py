# Which ops a profile records for a forward computation, with their input shapes, counts and
# nesting (ops whose PyTorch kernels call no other op, so every event is one the script made).
import torch
from torch.profiler import ProfilerActivity, profile, record_function

x = torch.linspace(-1.0, 1.0, 6).reshape(2, 3)

with profile(activities=[ProfilerActivity.CPU], record_shapes=True) as prof:
    with record_function("model"):
        h = torch.tanh(x * x + x)
        e = torch.exp(-h)
        s = torch.sin(e) / (torch.cos(e) + x)
        m = torch.sqrt(e) - s
    y = torch.sigmoid(m)

for e in prof.events():
    parent = e.cpu_parent.name if e.cpu_parent is not None else None
    children = [c.name for c in e.cpu_children]
    print(e.name, e.input_shapes, parent, children)

print([(e.key, e.count) for e in prof.key_averages()])
for e in prof.key_averages(group_by_input_shape=True):
    print(e.key, e.count, e.input_shapes)
total = prof.key_averages().total_average()
print(total.key, total.count)
top = [e.key for e in prof.key_averages() if e.cpu_parent is None]
print(top)
# times: a parent's total covers its children's
ev = prof.events()
model = [e for e in ev if e.name == "model"][0]
inner = sum(c.cpu_time_total for c in model.cpu_children)
print(model.cpu_time_total >= inner, model.self_cpu_time_total >= 0)
print(abs(model.self_cpu_time_total - (model.cpu_time_total - inner)) < 1e-6)
print(all(e.cpu_time_total >= 0 for e in ev), all(e.count == 1 for e in ev))
print(y.shape)
