# torch.autograd.profiler: profile's options and results, record_function as a context
# manager and a decorator.
import warnings

import torch
from torch.autograd import profiler

x = torch.tensor([1.0, 2.0, 3.0])


@profiler.record_function("double")
def double(t):
    return t * t


prof = profiler.profile()
print(str(prof))
print(repr(prof.key_averages()), len(prof.key_averages()))

with profiler.profile() as prof:
    for _ in range(3):
        double(x)
    with profiler.record_function("by_hand"):
        y = torch.tanh(x)
    with profiler.record_function("outer"):
        with profiler.record_function("inner") as r:
            z = x * y
print(type(r).__name__, double.__name__)
events = prof.function_events
print(type(events).__name__, len(events))
print([e.name for e in events])
print([(e.name, [c.name for c in e.cpu_children]) for e in events if e.cpu_children])
print([(e.key, e.count) for e in prof.key_averages()])
print(prof.table() == str(prof), prof.table() == prof.key_averages().table())
print(len(prof.table().splitlines()), len(prof.key_averages().table().splitlines()))
print(isinstance(prof.self_cpu_time_total, float), prof.self_cpu_time_total > 0)
avg = prof.key_averages().total_average()
print(avg.key, avg.count)
first = prof.key_averages()[0]
print(first.key, first.count, repr(first.input_shapes))
print(first.cpu_time_total >= first.self_cpu_time_total)
print(abs(first.cpu_time - first.cpu_time_total / first.count) < 1e-6)
print(first.cpu_time_total_str[-2:] in ("us", "ms"), first.self_cpu_time_total_str[-1])

with profiler.profile(enabled=False) as off:
    x + 1
print(off)

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    with profiler.profile(use_cuda=True) as p2:
        x * 2
    print(p2.key_averages()[0].key)
for w in caught:
    print(w.category.__name__, w.message)

with profiler.profile(record_shapes=True, profile_memory=True, with_stack=False) as p3:
    with profiler.record_function("block"):
        pass
print(p3.key_averages().table().splitlines()[1].split())
print(p3.key_averages(group_by_input_shape=True)[0].input_shapes)
