# torch.profiler.schedule and prof.step(): which steps are recorded, when on_trace_ready runs,
# the ProfilerStep#N events (grouped as ProfilerStep*).
import torch
from torch.profiler import ProfilerAction, ProfilerActivity, profile, record_function, schedule

s = schedule(wait=1, warmup=1, active=2, repeat=2)
print([s(i) for i in range(10)])
print([str(s(i)) for i in range(4)], s(3) == ProfilerAction.RECORD_AND_SAVE)
s2 = schedule(skip_first=2, wait=0, warmup=1, active=1)
print([s2(i).name for i in range(6)])
for args in (dict(wait=1, warmup=1, active=0), dict(wait=-1, warmup=0, active=1)):
    try:
        schedule(**args)
    except AssertionError as error:
        print("AssertionError:", error)

x = torch.tensor([1.0, 2.0, 3.0])
seen = []


def handler(p):
    names = sorted((e.key, e.count) for e in p.key_averages())
    seen.append(p.step_num)
    print("trace ready at step", p.step_num, names)
    print([e.name for e in p.events() if e.name.startswith("ProfilerStep")])


with profile(activities=[ProfilerActivity.CPU], schedule=s, on_trace_ready=handler) as prof:
    for step in range(9):
        with record_function(f"iteration{step}"):
            y = torch.exp(x) * x
        prof.step()
print(seen, prof.step_num)
print(sorted((e.key, e.count) for e in prof.key_averages()))

# without a schedule every step is recorded and no step events are added
with profile() as prof:
    for _ in range(3):
        y = torch.sin(x)
        prof.step()
print([e.name for e in prof.events()], prof.step_num)

# a profile ending in the middle of its active steps saves what it recorded
with profile(schedule=schedule(wait=0, warmup=1, active=3), on_trace_ready=handler) as prof:
    for _ in range(3):
        y = torch.cos(x)
        prof.step()
print(sorted((e.key, e.count) for e in prof.key_averages()))
