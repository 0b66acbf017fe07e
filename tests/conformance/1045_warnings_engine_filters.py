# The engine's warnings go through the script's filters: recorded, ignored by message, raised.
import warnings

import torch

x = torch.ones(2, requires_grad=True)
y = x * 3
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    print(y.grad)
    print(y.grad)
print(len(caught), caught[0].category.__name__, "retain_grad" in str(caught[0].message))
with warnings.catch_warnings():
    warnings.simplefilter("error")
    try:
        print(y.grad)
    except UserWarning as error:
        print("raised", type(error).__name__, "leaf" in str(error))
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    warnings.filterwarnings("ignore", message="The .grad attribute")
    print(y.grad)
    warnings.warn("mine", RuntimeWarning, stacklevel=1)
print([str(item.message) for item in caught])
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("ignore", UserWarning)
    print(y.grad)
print(len(caught))
