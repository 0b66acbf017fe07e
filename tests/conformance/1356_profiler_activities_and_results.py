# torch.profiler's small types (ProfilerActivity, ProfilerAction), an unstarted profile, start()
# and stop() by hand, and an EventList's own methods.
import torch
from torch.profiler import ProfilerAction, ProfilerActivity, profile, record_function

print(ProfilerActivity.CPU, repr(ProfilerActivity.CPU), ProfilerActivity.CPU.name)
print(ProfilerActivity.CPU == ProfilerActivity.CPU, ProfilerActivity.CPU == ProfilerActivity.CUDA)
print(torch.profiler.supported_activities())
print(ProfilerAction.RECORD, repr(ProfilerAction.WARMUP), ProfilerAction.NONE.value)
print(len({ProfilerActivity.CPU, ProfilerActivity.CPU, ProfilerActivity.CUDA}))
try:
    profile(activities=["cpu"])
except AssertionError as error:
    print("AssertionError:", error)

prof = profile(activities=[ProfilerActivity.CPU])
print(prof.step_num)
for method in (prof.events, prof.key_averages):
    try:
        method()
    except Exception as error:
        print(type(error).__name__, error)
x = torch.tensor([0.5, 1.5])
prof.start()
with record_function("by_start"):
    y = torch.exp(x)
prof.stop()
torch.exp(x)  # after stop: not recorded
print([e.name for e in prof.events()])
events = prof.events()
print(type(events).__name__, isinstance(events, list), len(events))
averages = events.key_averages()
print([(a.key, a.count) for a in averages])
total = averages.total_average()
print(total.key, total.count)
print(isinstance(events.self_cpu_time_total, float))
print(events.table() == str(events))
print(averages[0].key, averages[-1].key)
names = [e.name for e in events]
names.sort()
print(names)
print(sorted(events, key=lambda e: e.name)[0].name)

with profile() as p2:
    with record_function("outer"):
        with record_function("outer"):
            torch.sin(x)
print([(a.key, a.count) for a in p2.key_averages()])
print([e.cpu_parent.name if e.cpu_parent else None for e in p2.events()])

print(repr(profile()), repr(record_function("r")))
with torch.autograd.profiler.profile() as empty:
    pass
print(repr(empty), repr(str(empty)))
print(int(ProfilerActivity.CUDA), [a.value for a in (ProfilerActivity.CPU, ProfilerActivity.MTIA)])
