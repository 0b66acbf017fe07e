# Forward-mode AD tutorial style: make_dual, unpack_dual, the named tuple it returns.
import torch
import torch.autograd.forward_ad as fwAD

torch.manual_seed(0)
primal = torch.randn(3, 3)
tangent = torch.randn(3, 3)


def fn(x, y):
    return x**2 + y**2


with fwAD.dual_level():
    dual_input = fwAD.make_dual(primal, tangent)
    print(dual_input)
    assert fwAD.unpack_dual(dual_input).tangent is tangent
    dual_input_alt = fwAD.make_dual(primal, tangent.T)
    assert fwAD.unpack_dual(dual_input_alt).tangent is not tangent
    print(fwAD.unpack_dual(dual_input_alt).tangent.is_contiguous())
    print(fwAD.unpack_dual(dual_input_alt).tangent.equal(tangent.T))
    plain_tensor = torch.randn(3, 3)
    dual_output = fn(dual_input, plain_tensor)
    print(dual_output)
    unpacked = fwAD.unpack_dual(dual_output)
    print(type(unpacked).__name__, len(unpacked))
    print(unpacked)
    jvp = unpacked.tangent
    print(jvp)
    p, t = unpacked
    print(p, t)
    print(unpacked[0].equal(p), unpacked[1] is t)
    print(fwAD.unpack_dual(plain_tensor).tangent)
    print(dual_input.requires_grad, dual_input.is_leaf, dual_input.grad_fn)
    print(dual_input.shape, dual_input.dtype)
    print(fwAD.unpack_dual(dual_output).primal.sum().item())

print(fwAD.unpack_dual(dual_output))
print(dual_output)
