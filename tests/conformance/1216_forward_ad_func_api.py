# The tutorial's functional API beside dual tensors: torch.func.jvp, jacfwd, vmap over jvp.
import torch
import torch.autograd.forward_ad as fwAD
from torch.func import jacfwd, jacrev, jvp, vmap

torch.manual_seed(0)
W = torch.randn(3, 4, dtype=torch.float64)
b = torch.randn(3, dtype=torch.float64)


def layer(x):
    return torch.tanh(W @ x + b)


x = torch.randn(4, dtype=torch.float64)
v = torch.randn(4, dtype=torch.float64)

out, jvp_out = jvp(layer, (x,), (v,))
print(out)
print(jvp_out)
with fwAD.dual_level():
    dual_out = layer(fwAD.make_dual(x, v))
    print(torch.allclose(fwAD.unpack_dual(dual_out).tangent, jvp_out))

J = jacfwd(layer)(x)
print(J)
print(torch.allclose(J, jacrev(layer)(x)))

with fwAD.dual_level():
    columns = []
    for i in range(4):
        unit = torch.zeros(4, dtype=torch.float64)
        unit[i] = 1.0
        columns.append(fwAD.unpack_dual(layer(fwAD.make_dual(x, unit))).tangent)
print(torch.allclose(torch.stack(columns, 1), J))

# several directions at once: vmap over the tangent argument
directions = torch.eye(4, dtype=torch.float64)[:2]
_, batched = vmap(lambda t: jvp(layer, (x,), (t,)))(directions)
print(batched)
print(torch.allclose(batched, (J @ directions.T).T))
