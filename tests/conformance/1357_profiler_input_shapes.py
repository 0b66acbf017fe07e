# record_shapes=True: each event's input shapes, key_averages(group_by_input_shape=True) keeping
# one row per name and shapes, and the table's Input Shapes column (times masked).
import torch
from torch.profiler import profile, record_function

a = torch.ones(2, 3)
b = torch.full((2, 3), 0.5)
c = torch.ones(4)
d = torch.ones(3)
with profile(record_shapes=True) as prof:
    with record_function("shapes"):
        for _ in range(2):
            a * b
        c * c
        a * d
        torch.tanh(a)
        torch.tanh(c)
        a + b
        torch.exp(torch.sigmoid(c))

for event in prof.events():
    print(event.name, event.input_shapes)
grouped = prof.key_averages(group_by_input_shape=True)
for event in grouped:
    print(event.key, event.count, event.input_shapes)
print([(e.key, e.count) for e in prof.key_averages()])
print(repr(prof.key_averages()[1].input_shapes))

table = grouped.table(sort_by="count")
lines = table.splitlines()
print(len(lines), [len(line) for line in lines[:-1]])
print(lines[1].split("  ")[-2].strip())
width = len("aten::sigmoid") + 4
for line in lines[3:-2]:
    name = line[:width].strip()
    shapes = line[-26:].strip()
    calls = line[:-26].split()[-1]
    print(name, calls, shapes)

with profile() as prof:
    a * b
print(prof.events()[0].input_shapes, "Input Shapes" in prof.key_averages(True).table())
