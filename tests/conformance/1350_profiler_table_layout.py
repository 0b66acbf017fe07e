# The profiler's table layout (times masked: they differ on every run): record_function ranges
# only, so every row is an event the script named.
from torch.profiler import profile, record_function


def masked(table):
    """Each line's words, times and percentages replaced by '*', and the line's length."""
    lines = []
    for line in table.splitlines():
        words = []
        for word in line.split():
            if word[0].isdigit() and (word.endswith("s") or word.endswith("%")):
                word = "*"
            words.append(word)
        footer = line.startswith("Self CPU time total: ")  # its time's width varies
        lines.append((" ".join(words), "" if footer else len(line)))
    return lines


def show(table):
    for words, width in masked(table):
        print(repr(words[:70]), width)


with profile() as prof:
    with record_function("forward"):
        with record_function("layer1"):
            pass
        with record_function("layer2"):
            pass
    for _ in range(3):
        with record_function("step"):
            pass

averages = prof.key_averages()
print(type(averages).__name__, len(averages), [e.key for e in averages])
print([(e.key, e.count) for e in sorted(averages, key=lambda e: e.key)])
show(averages.table())
show(averages.table(sort_by="count", row_limit=2))
show(averages.table(sort_by="count", header="My header"))
show(averages.table(top_level_events_only=True, sort_by="count"))
print(averages.table().endswith("\n"), averages.table().count("\n"))
print(str(averages) == averages.table())

with profile() as prof:
    with record_function("a" * 51):
        pass
    with record_function("b" * 52):
        pass
    with record_function("c" * 80):
        pass
for line in prof.key_averages().table().splitlines()[3:6]:
    print(line[:55], len(line))

with profile() as prof:
    pass
print(repr(prof.key_averages().table()), len(prof.events()))

with profile(profile_memory=True) as prof:
    with record_function("mem"):
        pass
show(prof.key_averages().table())
