# functorch as its README and the old "functorch" tutorials use it: grad, vmap, jacrev, jacfwd,
# hessian, vjp, jvp and grad_and_value from the `functorch` package (deprecated aliases of
# torch.func in PyTorch 2.x), with the FutureWarning each one gives.
import warnings

import functorch
import torch
from functorch import grad, grad_and_value, hessian, jacfwd, jacrev, jvp, vjp, vmap

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always", FutureWarning)
    x = torch.tensor([0.5, -1.0, 2.0])
    cos_x = grad(lambda t: torch.sin(t).sum())(x)
    print(cos_x, torch.allclose(cos_x, x.cos()))
    second = grad(grad(lambda t: torch.sin(t)))(torch.tensor(1.0))
    print(second)
    batched_dot = vmap(torch.dot)
    print(batched_dot(torch.ones(4, 3), torch.arange(12.0).reshape(4, 3)))
    print(jacrev(torch.sin)(x))
    print(jacfwd(lambda t: t**2)(x))
    print(hessian(lambda t: (t**3).sum())(x))
    g, value = grad_and_value(lambda t: (t * t).sum())(x)
    print(g, value)
    out, fn = vjp(torch.exp, x)
    print(out, fn(torch.ones(3)))
    print(jvp(torch.tanh, (x,), (torch.ones(3),)))
    print(functorch.functionalize(lambda t: t.mul_(2))(x.clone()))
for w in caught:
    print(w.category.__name__, w.lineno, str(w.message)[:95])
print(str(caught[0].message))
print(str(caught[2].message))
print(
    len(caught), [hasattr(functorch, n) for n in ("make_functional", "combine_state_for_ensemble")]
)
