# A saved tensor modified in place: the hint of the error changes when anomaly mode is on
import warnings

import torch


def show(message):
    for line in str(message).split("\n"):
        if line.startswith('  File "'):
            path = line[len('  File "') : line.index('", line')]
            print('  File "' + path.split("/")[-1] + line[line.index('", line') :])
        else:
            print(line)


def forward(x):
    y = x.exp()
    y.add_(1)  # exp saved its result: now changed
    return y.sum()


x = torch.ones(3, requires_grad=True)
try:
    forward(x).backward()
except RuntimeError as e:
    print("off:", e)

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    with torch.autograd.detect_anomaly():
        try:
            forward(x).backward()
        except RuntimeError as e:
            print("on:", e)
for w in caught[1:]:
    show(w.message)

# a view written in place, sigmoid's result saved
w = torch.tensor([0.5, -0.5], requires_grad=True)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    torch.autograd.set_detect_anomaly(True)
    s = torch.sigmoid(w)
    s[0] = 2.0
    try:
        s.sum().backward()
    except RuntimeError as e:
        print("on:", e)
    torch.autograd.set_detect_anomaly(False)
for m in caught:
    show(m.message)
try:
    s2 = torch.sigmoid(w)
    s2.mul_(2)
    s2.sum().backward()
except RuntimeError as e:
    print("off again:", e)
