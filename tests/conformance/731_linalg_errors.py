import torch

a = torch.ones(2, 3)
checks = [
    lambda: torch.mm(a, torch.ones(2, 3)),
    lambda: torch.mm(torch.ones(3), a),
    lambda: torch.mm(a, torch.ones(3, 2, dtype=torch.float64)),
    lambda: torch.mv(a, torch.ones(2)),
    lambda: torch.mv(a, a),
    lambda: torch.bmm(a, a),
    lambda: torch.bmm(torch.ones(2, 2, 3), torch.ones(3, 3, 4)),
    lambda: torch.dot(a, a),
    lambda: torch.dot(torch.ones(2), torch.ones(2, dtype=torch.float64)),
    lambda: torch.outer(a, torch.ones(2)),
    lambda: torch.inner(a, torch.ones(4)),
    lambda: torch.matmul(torch.tensor(1.0), a),
    lambda: torch.matmul(torch.ones(3, 2, 3), torch.ones(4, 3, 5)),
    lambda: torch.matmul(torch.ones(2, 4, 3), torch.ones(4, 5)),
    lambda: torch.ones(2, 2) @ torch.ones(3),
    lambda: torch.trace(torch.ones(3)),
    lambda: torch.diag(torch.ones(2, 2, 2)),
    lambda: torch.tril(torch.ones(3)),
    lambda: torch.det(a),
    lambda: torch.linalg.det(torch.ones(3)),
    lambda: torch.linalg.inv(torch.ones(2, 2, dtype=torch.int64)),
    lambda: torch.linalg.inv(torch.zeros(2, 2)),
    lambda: torch.inverse(torch.tensor([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [1.0, 1.0, 1.0]])),
    lambda: torch.linalg.norm(torch.ones(2, 2, 2), 1),
    lambda: torch.linalg.matrix_norm(torch.ones(3)),
    lambda: torch.linalg.matrix_norm(torch.ones(3, 3), 3),
    lambda: torch.linalg.vector_norm(torch.ones(3, dtype=torch.int64)),
]
for check in checks:
    try:
        check()
        print("no error")
    except Exception as e:
        print(type(e).__name__, isinstance(e, RuntimeError), e)
try:
    torch.linalg.inv(torch.zeros(3, 3))
except RuntimeError as e:
    print("caught as RuntimeError:", type(e).__name__)
print(torch.det(torch.tensor([[1.0, 2.0], [2.0, 4.0]])))
