# warnings: catch_warnings(record=True) collects the script's and the engine's warnings;
# simplefilter/filterwarnings choose what is shown, ignored or raised.
# ruff: noqa: B028 - the warnings are the subject, at their default stack level
import warnings

import torch


def deprecated_step(x):
    warnings.warn("deprecated_step is deprecated", DeprecationWarning, stacklevel=2)
    return x + 1


with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    deprecated_step(1)
    warnings.warn("plain user warning")
    warnings.warn(RuntimeWarning("an instance"))
    x = torch.ones(2, requires_grad=True)
    y = x * 2
    print(y.grad)
print(len(caught))
for item in caught:
    print(item.category.__name__, str(item.message)[:40])
print([issubclass(item.category, Warning) for item in caught])
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("ignore")
    warnings.warn("hidden")
    warnings.simplefilter("always", UserWarning)
    warnings.warn("shown")
print([str(item.message) for item in caught])
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    warnings.filterwarnings("ignore", message="noisy")
    warnings.warn("noisy message")
    warnings.warn("Noisy too")
    warnings.warn("useful")
print([str(item.message) for item in caught])
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("once")
    for _ in range(3):
        warnings.warn("once only")
print(len(caught))
with warnings.catch_warnings(record=True) as caught:
    for _ in range(3):
        warnings.warn("default: once per line")
print(len(caught))
with warnings.catch_warnings():
    warnings.simplefilter("error")
    try:
        warnings.warn("now an exception", UserWarning)
    except UserWarning as error:
        print("raised", type(error).__name__, error)


class TrainingWarning(UserWarning):
    pass


with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    warnings.warn("custom category", TrainingWarning)
print(caught[0].category.__name__, issubclass(caught[0].category, UserWarning))
try:
    warnings.warn("bad", int)
except TypeError as error:
    print("TypeError:", error)
