# A Jacobian column by column with forward mode, against autograd.functional.jacobian.
import torch
import torch.autograd.forward_ad as fwAD


def f(x):
    return torch.stack([x[0] * x[1], x[1].sin() + x[2] ** 2, (x * x).sum().sqrt(), x.prod()])


x = torch.tensor([0.5, -1.25, 2.0], dtype=torch.float64)
columns = []
with fwAD.dual_level():
    for i in range(3):
        e = torch.zeros(3, dtype=torch.float64)
        e[i] = 1.0
        out = f(fwAD.make_dual(x, e))
        columns.append(fwAD.unpack_dual(out).tangent)
J = torch.stack(columns, dim=1)
print(J)
print(torch.allclose(J, torch.autograd.functional.jacobian(f, x)))

# a directional derivative is J @ v
v = torch.tensor([1.0, 2.0, -1.0], dtype=torch.float64)
with fwAD.dual_level():
    jv = fwAD.unpack_dual(f(fwAD.make_dual(x, v))).tangent
print(jv)
print(torch.allclose(jv, J @ v))
_, jvp = torch.autograd.functional.jvp(f, x, v)
print(torch.allclose(jv, jvp))
_, fjvp = torch.func.jvp(f, (x,), (v,))
print(torch.allclose(jv, fjvp))
