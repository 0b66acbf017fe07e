# torch.autograd.detect_anomaly / set_detect_anomaly: the switches, the warning, argument checks
import warnings

import torch

print(torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    manager = torch.autograd.detect_anomaly()
    print("made:", torch.is_anomaly_enabled())
    with manager:
        print("inside:", torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())
    print("after:", torch.is_anomaly_enabled())
    with torch.autograd.detect_anomaly(check_nan=False):
        print("check_nan=False:", torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())
    print("after:", torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())
for w in caught:
    print(w.category.__name__, "-", w.message)

# set_detect_anomaly sets at once, and restores what it found when used with `with`
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    torch.autograd.set_detect_anomaly(True)
    print("set:", torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())
    with torch.autograd.set_detect_anomaly(False):
        print("inside False:", torch.is_anomaly_enabled())
    print("restored:", torch.is_anomaly_enabled())
    with torch.autograd.set_detect_anomaly(True, check_nan=False):
        print("inside check_nan=False:", torch.is_anomaly_check_nan_enabled())
    print("restored:", torch.is_anomaly_check_nan_enabled())
    torch.autograd.set_detect_anomaly(False)
print("warnings from set_detect_anomaly:", len(caught))
print(type(torch.autograd.set_detect_anomaly(False)).__name__)

# a detect_anomaly object restores the state it saw when it was made
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    manager = torch.autograd.detect_anomaly()
with manager:
    with manager:
        print("nested:", torch.is_anomaly_enabled())
    print("after inner exit:", torch.is_anomaly_enabled())

for args in [(1,), ("yes",), (True, 0), (None, True)]:
    try:
        torch.autograd.set_detect_anomaly(*args)
    except TypeError as e:
        print("TypeError:", e)
print(torch.is_anomaly_enabled())

# neither is a decorator in PyTorch 2.13
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    for make in (
        lambda: torch.autograd.detect_anomaly(),
        lambda: torch.autograd.set_detect_anomaly(False),
    ):
        try:
            make()(print)
        except TypeError as e:
            print("TypeError:", e)
