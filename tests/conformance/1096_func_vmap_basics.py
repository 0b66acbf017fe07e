import torch
from torch.func import vmap

x = torch.arange(6.0).reshape(2, 3)
y = torch.tensor([1.0, 2.0, 3.0])
print(vmap(torch.sum)(x))
print(vmap(torch.sum, in_dims=1)(x))
print(vmap(torch.dot, in_dims=(0, None))(x, y))
print(vmap(lambda a, b: a * b, in_dims=(0, None))(x, y))
print(vmap(lambda a: a * 2, out_dims=1)(x))
print(vmap(lambda a: (a, a.sum()), out_dims=(1, 0))(x))
print(vmap(lambda a, b: a + b, in_dims=(0, 1))(x, x.t()))
print(vmap(lambda a: a, in_dims=-1)(x))

# batched matrix-vector products and outer products
mats = torch.arange(12.0).reshape(3, 2, 2)
vecs = torch.tensor([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
print(vmap(torch.mv)(mats, vecs))
print(vmap(torch.outer)(vecs, vecs))

# nested vmap: all pairs
print(vmap(vmap(torch.dot, in_dims=(0, None)), in_dims=(None, 0))(x, x))
print(vmap(vmap(lambda a: a * 10))(x))

# trees of inputs and outputs
print(vmap(lambda d: d["a"] + d["b"])({"a": x, "b": x}))
print(vmap(lambda d: d["a"] * d["b"], in_dims=({"a": 0, "b": None},))({"a": x, "b": y}))
print(vmap(lambda a: {"double": a * 2, "total": a.sum()})(x))
print(vmap(lambda p: p[0] - p[1])((x, x * 3)))

# keyword arguments are not mapped; unmapped results are broadcast
print(vmap(lambda a, scale=1.0: a * scale)(x, scale=5.0))
print(vmap(lambda a: y.sum())(x))
print(vmap(lambda a: torch.ones(2))(x))
print(vmap(lambda a: a.sum(), out_dims=0)(x))
print(vmap(lambda a: (a.sum(), 7), out_dims=(0, None))(x))
print(vmap(lambda a: a)(torch.ones(0, 2)))


# the same function on one example and on a batch
def model(features):
    return torch.tanh(features @ torch.tensor([0.5, -0.25, 1.0]))


print(vmap(model)(x))
print(torch.stack([model(row) for row in x]))
