# Functions with out= do not record a graph: PyTorch refuses them when grad mode is on and an
# argument (or out) requires grad, and allows them under no_grad; out's version is bumped.
import torch

x = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
w = torch.tensor([[0.5, 1.0, -1.0]], requires_grad=True)
out = torch.empty(0)

calls = [
    ("add", lambda: torch.add(x, 1, out=out)),
    ("absolute", lambda: torch.absolute(x, out=out)),
    ("arctan", lambda: torch.arctan(x, out=out)),
    ("clip", lambda: torch.clip(x, 0, 1, out=out)),
    ("square", lambda: torch.square(x, out=out)),
    ("outer", lambda: torch.outer(x, x, out=out)),
    ("divide", lambda: torch.divide(x, 2, out=out)),
    ("sum", lambda: torch.sum(x, 0, out=out)),
    ("std", lambda: torch.std(x, 0, out=out)),
    ("norm", lambda: torch.norm(x, out=out)),
    ("max", lambda: torch.max(x, 0, out=(torch.empty(0), torch.empty(0, dtype=torch.long)))),
    ("max other", lambda: torch.max(x, x, out=out)),
    ("sort", lambda: torch.sort(x, out=(torch.empty(0), torch.empty(0, dtype=torch.long)))),
    ("matmul", lambda: torch.matmul(w, x, out=out)),
    ("concat", lambda: torch.concat([x, x], out=out)),
    ("stack", lambda: torch.stack([x, x.detach()], out=out)),
    ("where", lambda: torch.where(x > 0, x, 0.0 * x.detach(), out=out)),
    ("cumsum", lambda: torch.cumsum(x, 0, out=out)),
    ("gather", lambda: torch.gather(x, 0, torch.tensor([2, 0]), out=out)),
]
for label, call in calls:
    try:
        call()
        print(label, "no error")
    except RuntimeError as error:
        print(label, "->", error)
print(out.shape)

# out itself requiring grad
leaf = torch.zeros(3, requires_grad=True)
for label, call in [
    ("exp", lambda: torch.exp(torch.ones(3), out=leaf)),
    ("zeros", lambda: torch.zeros(3, out=leaf)),
    ("full", lambda: torch.full((3,), 2.0, out=leaf)),
    ("arange", lambda: torch.arange(3.0, out=leaf)),
    ("linspace", lambda: torch.linspace(0, 1, 3, out=leaf)),
    ("rand", lambda: torch.rand(3, out=leaf)),
    ("randn", lambda: torch.randn(3, out=leaf)),
    ("randint", lambda: torch.randint(5, (3,), out=leaf)),
]:
    try:
        call()
    except RuntimeError as error:
        print(label, "->", error)

with torch.no_grad():
    r = torch.mul(x, 2, out=out)
    print(r is out, out, out.requires_grad, out.grad_fn)
    torch.exp(torch.tensor([0.0, 1.0, 2.0]), out=leaf)
print(leaf, leaf.is_leaf, leaf.grad_fn)

# the version counter moves once per write
buf = torch.zeros(3)
v0 = buf._version
torch.add(torch.ones(3), 1, out=buf)
torch.mul(buf, buf, out=buf)
print(buf, buf._version - v0)
