# Levels: entered by hand, as a context manager or a decorator; tangents end with the level.
import torch
import torch.autograd.forward_ad as fwAD

x = torch.tensor([1.0, 2.0])
level = fwAD.enter_dual_level()
print("level", level)
d = fwAD.make_dual(x, torch.tensor([1.0, -1.0]))
y = d.exp()
print(y)
fwAD.exit_dual_level(level=level)
print(y, fwAD.unpack_dual(y).tangent)

with fwAD.dual_level() as lvl:
    print("with level", lvl)
    print(fwAD.unpack_dual(y).tangent)
    z = fwAD.make_dual(x, torch.ones(2)) ** 2
    print(z)
print(z)


@fwAD.dual_level()
def directional(a, v):
    return fwAD.unpack_dual((fwAD.make_dual(a, v) ** 3).sum()).tangent


print(directional(x, torch.tensor([0.5, 0.25])))
print(directional(x, torch.tensor([1.0, 0.0])))
print(type(fwAD.dual_level()).__name__)

with fwAD.dual_level():
    a = fwAD.make_dual(torch.tensor(3.0), torch.tensor(1.0))
    b = a * a
    c = b.sin()
    print(a, b, c, sep="\n")
    with torch.no_grad():
        print(a * 4)
    print(a.detach(), fwAD.unpack_dual(a.detach()).tangent)
    print(fwAD.unpack_dual(c.clone()).tangent)
    print(a.item(), float(b))
