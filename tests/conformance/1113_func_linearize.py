import torch
from torch.func import jvp, linearize

x = torch.tensor([1.0, 2.0, 3.0])
out, jvp_fn = linearize(torch.sin, x)
print(out)
print(jvp_fn(torch.ones(3)))
print(jvp_fn(torch.tensor([1.0, 0.0, -1.0])))
print(torch.allclose(jvp_fn(torch.ones(3)), jvp(torch.sin, (x,), (torch.ones(3),))[1]))

out, jvp_fn = linearize(lambda a, b: (a * b, (a + b).sum()), x, x * 2)
print(out)
print(jvp_fn(torch.ones(3), torch.zeros(3)))
print(jvp_fn(torch.zeros(3), torch.ones(3)))
out, jvp_fn = linearize(lambda d: d["a"] * 2, {"a": x})
print(jvp_fn({"a": torch.ones(3)}))


def attempt(label, fn):
    try:
        print(label, fn())
    except Exception as e:
        print(label, type(e).__name__, "|", e)


_, jvp_fn = linearize(lambda a, b: a * b, x, x)
attempt("too few tangents", lambda: jvp_fn(torch.ones(3)))
attempt("wrong shape", lambda: jvp_fn(torch.ones(3), torch.ones(2)))
attempt("nested tangents", lambda: jvp_fn((torch.ones(3), torch.ones(3))))
