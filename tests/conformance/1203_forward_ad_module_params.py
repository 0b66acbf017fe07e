# The tutorial's "usage with Modules": every parameter of nn.Linear made dual.
import torch
import torch.autograd.forward_ad as fwAD
import torch.nn as nn
from torch.func import functional_call

torch.manual_seed(0)
model = nn.Linear(5, 5)
input = torch.randn(16, 5)

params = {name: p.detach() for name, p in model.named_parameters()}
tangents = {name: torch.rand_like(p) for name, p in params.items()}

with fwAD.dual_level():
    del model.weight
    del model.bias
    model.weight = fwAD.make_dual(params["weight"], tangents["weight"])
    model.bias = fwAD.make_dual(params["bias"], tangents["bias"])

    out = model(input)
    jvp = fwAD.unpack_dual(out).tangent

print(jvp.shape)
print(jvp[:3])
expected = input @ tangents["weight"].T + tangents["bias"]
print(torch.allclose(jvp, expected, atol=1e-6))

# directional derivative of a loss along the same tangents
with fwAD.dual_level():
    model.weight = fwAD.make_dual(params["weight"], tangents["weight"])
    model.bias = fwAD.make_dual(params["bias"], tangents["bias"])
    loss = (model(input).tanh() ** 2).mean()
    print(loss)
    print(round(fwAD.unpack_dual(loss).tangent.item(), 5))

# the functional Module API: dual parameters given to functional_call
model = nn.Linear(5, 5)
params = {name: p.detach() for name, p in model.named_parameters()}
with fwAD.dual_level():
    dual_params = {name: fwAD.make_dual(p, tangents[name]) for name, p in params.items()}
    out = functional_call(model, dual_params, (input,))
    jvp2 = fwAD.unpack_dual(out).tangent
print(torch.allclose(jvp, jvp2))
print(jvp2[-1])
