# Jacobians, Hessians, hvp, vhp, in the style of PyTorch's torch.func tutorial.
import torch
import torch.nn.functional as F
from torch.func import grad, hessian, jacfwd, jacrev, jvp, vjp, vmap

D = 4
weight = torch.linspace(-1.0, 1.0, D * D).reshape(D, D)
bias = torch.linspace(0.0, 0.3, D)
x = torch.tensor([0.5, -0.2, 0.1, 0.9])


def predict(weight, bias, x):
    return F.linear(x, weight, bias).tanh()


jacobian = jacrev(predict, argnums=2)(weight, bias, x)
print(jacobian.shape)
print(jacobian)


# the row-by-row way, with vjp
def compute_jac(xp):
    jacobian_rows = [
        torch.autograd.grad(predict(weight, bias, xp), xp, vec)[0] for vec in unit_vectors
    ]
    return torch.stack(jacobian_rows)


xp = x.clone().requires_grad_()
unit_vectors = torch.eye(D)
print(torch.allclose(compute_jac(xp), jacobian))
_, vjp_fn = vjp(lambda xx: predict(weight, bias, xx), x)
print(torch.allclose(vmap(vjp_fn)(unit_vectors)[0], jacobian))

# jacobians w.r.t. the parameters, by reverse and by forward mode
ft_jac_weight, ft_jac_bias = jacrev(predict, argnums=(0, 1))(weight, bias, x)
print(ft_jac_weight.shape, ft_jac_bias.shape)
print(ft_jac_bias)
fwd_jac_weight, fwd_jac_bias = jacfwd(predict, argnums=(0, 1))(weight, bias, x)
print(torch.allclose(ft_jac_weight, fwd_jac_weight), torch.allclose(ft_jac_bias, fwd_jac_bias))

# batch jacobians with vmap
batch = torch.tensor([[0.5, -0.2, 0.1, 0.9], [1.0, 0.0, -1.0, 0.5], [0.0, 0.3, 0.3, 0.0]])
compute_batch_jacobian = vmap(jacrev(predict, argnums=2), in_dims=(None, None, 0))
batch_jacobian0 = compute_batch_jacobian(weight, bias, batch)
print(batch_jacobian0.shape)
print(batch_jacobian0[1])

# hessians
hess_api = hessian(predict, argnums=2)(weight, bias, x)
hess_fwdrev = jacfwd(jacrev(predict, argnums=2), argnums=2)(weight, bias, x)
print(hess_api.shape, torch.allclose(hess_api, hess_fwdrev))
print(hess_api[0])


# Hessian-vector products: forward over reverse
def hvp(f, primals, tangents):
    return jvp(grad(f), primals, tangents)[1]


def f(x):
    return x.sin().sum()


tangent = torch.tensor([1.0, 0.0, -1.0, 2.0])
print(hvp(f, (x,), (tangent,)))
print(-x.sin() * tangent)
