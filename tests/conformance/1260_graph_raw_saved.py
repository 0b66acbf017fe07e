# grad_fn._raw_saved_<name>: SavedTensor objects and their register_hooks; _saved_<name>.
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
log = []


def pack(t):
    log.append(("pack", t.tolist(), t.requires_grad))
    return t * 2


def unpack(t):
    log.append(("unpack", t.tolist()))
    return t


y = x.pow(2)
saved = y.grad_fn._raw_saved_self
print(type(saved).__name__)
saved.register_hooks(pack, unpack)
print(log)
print(y.grad_fn._saved_self)
print(log)
y.sum().backward()
print(x.grad, log)
try:
    _ = y.grad_fn._saved_self
except RuntimeError as err:
    print("RuntimeError:", str(err)[:60])
print(type(y.grad_fn._raw_saved_self).__name__)

z = x.exp()
r = z.grad_fn._raw_saved_result
r.register_hooks(lambda t: t, lambda t: t)
try:
    r.register_hooks(lambda t: t, lambda t: t)
except RuntimeError as err:
    print("RuntimeError:", err)
x.grad = None
z.sum().backward()
print(x.grad)

m = x * 2
print(m.grad_fn._saved_other, m.grad_fn._saved_self)
print(type(m.grad_fn._raw_saved_other).__name__)
try:
    _ = x.sin().grad_fn._raw_saved_other
except AttributeError as err:
    print("AttributeError:", err)
e = x.exp()
print(e.grad_fn._saved_result is e, e.grad_fn._saved_result.grad_fn.name())
