# disable_saved_tensors_hooks: entering saved_tensors_hooks inside it (or it inside hooks)
# raises its message.
import torch
from torch.autograd.graph import disable_saved_tensors_hooks, saved_tensors_hooks

x = torch.tensor([1.0, 2.0], requires_grad=True)
with disable_saved_tensors_hooks("saved tensors hooks are off in this block"):
    try:
        with saved_tensors_hooks(lambda t: t, lambda t: t):
            print("not reached")
    except RuntimeError as err:
        print("RuntimeError:", err)
    y = x.exp()
y.sum().backward()
print(x.grad)

with saved_tensors_hooks(lambda t: t, lambda t: t):
    try:
        with disable_saved_tensors_hooks("no disabling while hooks are on"):
            print("not reached")
    except RuntimeError as err:
        print("RuntimeError:", err)

# after the block, hooks work again
log = []
with saved_tensors_hooks(lambda t: log.append("pack") or t, lambda t: log.append("unpack") or t):
    z = x.sin()
z.sum().backward()
print(log)

# nested disables restore the outer message
with disable_saved_tensors_hooks("outer message"):
    with disable_saved_tensors_hooks("inner message"):
        pass
    try:
        with saved_tensors_hooks(lambda t: t, lambda t: t):
            pass
    except RuntimeError as err:
        print("RuntimeError:", err)
with saved_tensors_hooks(lambda t: t, lambda t: t):
    print("hooks allowed again")
