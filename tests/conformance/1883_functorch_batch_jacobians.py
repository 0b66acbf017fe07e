# functorch's "Jacobians, Hessians, hvp, vhp, and more" tutorial: jacrev of a layer, batched
# Jacobians with vmap(jacrev), jacfwd vs jacrev, and a Hessian-vector product via jvp of grad.
import warnings

import torch
import torch.nn.functional as F
from functorch import grad, hessian, jacfwd, jacrev, jvp, vmap

warnings.filterwarnings("ignore", category=FutureWarning)
torch.manual_seed(0)
D = 4
weight = torch.randn(D, D)
bias = torch.randn(D)
x = torch.randn(D)


def predict(weight, bias, x):
    return F.linear(x, weight, bias).tanh()


jacobian = jacrev(predict, argnums=2)(weight, bias, x)
print(jacobian.shape)
print(jacobian)
jac_w, jac_b = jacrev(predict, argnums=(0, 1))(weight, bias, x)
print(jac_w.shape, jac_b.shape)
print(torch.allclose(jacfwd(predict, argnums=2)(weight, bias, x), jacobian, atol=1e-6))
batch = torch.randn(3, D)
batched = vmap(jacrev(predict, argnums=2), in_dims=(None, None, 0))(weight, bias, batch)
print(batched.shape)
print(torch.allclose(batched[1], jacrev(predict, argnums=2)(weight, bias, batch[1]), atol=1e-6))
h = hessian(lambda t: predict(weight, bias, t).sum())(x)
print(h.shape, torch.allclose(h, h.T, atol=1e-5))


def hvp(f, primals, tangents):
    return jvp(grad(f), primals, tangents)[1]


v = torch.ones(D)
print(hvp(lambda t: predict(weight, bias, t).sum(), (x,), (v,)))
print(h @ v)
