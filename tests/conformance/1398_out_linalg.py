# torch.linalg with out=: vector_norm, det and inv refuse autograd like the other out= functions;
# linalg.norm and matrix_norm copy their result into out, which then carries CopyBackwards.
import warnings

import torch

m = torch.tensor([[2.0, 1.0], [1.0, 3.0]])
x = torch.tensor([[2.0, 1.0], [1.0, 3.0]], requires_grad=True)
calls = [
    ("norm", lambda a, o: torch.linalg.norm(a, out=o)),
    ("norm dim", lambda a, o: torch.linalg.norm(a, dim=1, out=o)),
    ("vector_norm", lambda a, o: torch.linalg.vector_norm(a, out=o)),
    ("vector_norm ord", lambda a, o: torch.linalg.vector_norm(a, 1, dim=0, out=o)),
    ("matrix_norm", lambda a, o: torch.linalg.matrix_norm(a, out=o)),
    ("matrix_norm 1", lambda a, o: torch.linalg.matrix_norm(a, ord=1, out=o)),
    ("det", lambda a, o: torch.linalg.det(a, out=o)),
    ("inv", lambda a, o: torch.linalg.inv(a, out=o)),
]
for label, call in calls:
    for out in [torch.empty(0), torch.empty(0, dtype=torch.float64), torch.ones(5)]:
        try:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                result = call(m, out)
            print(label, out.dtype, result is out, result, len(caught))
        except RuntimeError as error:
            print(label, out.dtype, "RuntimeError:", error)
    out = torch.empty(0)
    try:
        result = call(x, out)
        print(label, result is out, result, result.grad_fn.name())
        result.sum().backward()
        print(x.grad)
        x.grad = None
    except RuntimeError as error:
        print(label, "RuntimeError:", error)
