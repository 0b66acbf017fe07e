import torch
import torch.nn.functional as F
from torch.func import vmap

torch.manual_seed(0)
x = torch.ones(3, 2)


def attempt(label, fn):
    try:
        print(label, fn())
    except Exception as e:
        print(label, type(e).__name__, "|", e)


# the default randomness="error" refuses random operations
attempt("rand", lambda: vmap(lambda a: a + torch.rand(2))(x))
attempt("dropout", lambda: vmap(lambda a: F.dropout(a, 0.5))(x))
attempt("nested", lambda: vmap(vmap(lambda a: a + torch.rand(())), randomness="same")(x))
# "same": one draw shared by the whole batch
attempt("same", lambda: vmap(lambda a: a + torch.randn(2), randomness="same")(x))
# "different": each element draws its own
attempt("different", lambda: vmap(lambda a: a + torch.rand(2), randomness="different")(x))
print(torch.rand(2))
attempt("bad flag", lambda: vmap(lambda a: a, randomness="bogus")(x))
# random numbers drawn outside and passed in are fine
noise = torch.rand(3, 2)
print(vmap(lambda a, n: a * n)(x, noise))
