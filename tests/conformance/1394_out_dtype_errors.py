# out's dtype: a result that cannot be cast to it (float to integral or bool, integral to bool)
# is an error; some ops require out's dtype to be exactly the result's, each in its own words.
import torch

m = torch.tensor([[0.5, -1.5, 2.0], [1.0, 3.0, -0.25]])
v = torch.tensor([1.0, 2.0, 3.0])
i = torch.tensor([1, 2, 3])
cases = [
    ("add", lambda o: torch.add(m, 1, out=o)),
    ("exp", lambda o: torch.exp(m, out=o)),
    ("sub int", lambda o: torch.sub(i, i, out=o)),
    ("floor", lambda o: torch.floor(m, out=o)),
    ("abs", lambda o: torch.abs(m, out=o)),
    ("neg", lambda o: torch.neg(m, out=o)),
    ("round", lambda o: torch.round(m, out=o)),
    ("sign", lambda o: torch.sign(m, out=o)),
    ("clamp", lambda o: torch.clamp(m, 0, 1, out=o)),
    ("mean", lambda o: torch.mean(m, 1, out=o)),
    ("std", lambda o: torch.std(m, 1, out=o)),
    ("amax", lambda o: torch.amax(m, 1, out=o)),
    ("amin", lambda o: torch.amin(m, 0, out=o)),
    ("argmax", lambda o: torch.argmax(m, 1, out=o)),
    ("logsumexp", lambda o: torch.logsumexp(m, 1, out=o)),
    ("all", lambda o: torch.all(m > 0, 1, out=o)),
    ("any", lambda o: torch.any(m > 0, 1, out=o)),
    ("where", lambda o: torch.where(m > 0, m, 0 * m, out=o)),
    ("dot", lambda o: torch.dot(v, v, out=o)),
    ("vdot", lambda o: torch.vdot(v, v, out=o)),
    ("inner", lambda o: torch.inner(v, v, out=o)),
    ("index_select", lambda o: torch.index_select(m, 1, i - 1, out=o)),
    ("softmax", lambda o: torch.softmax(m, 1, out=o)),
    ("norm", lambda o: torch.norm(m, dim=1, out=o)),
    ("nansum", lambda o: torch.nansum(m, 1, out=o)),
    ("nanmean", lambda o: torch.nanmean(m, 1, out=o)),
    ("sum", lambda o: torch.sum(m, 1, out=o)),
    ("eq", lambda o: torch.eq(m, 0.5, out=o)),
]
for label, call in cases:
    for dtype in (torch.float64, torch.long, torch.bool, torch.int32):
        try:
            r = call(torch.empty(0, dtype=dtype))
            print(label, dtype, "ok", r)
        except (RuntimeError, TypeError, NotImplementedError) as error:
            print(label, dtype, type(error).__name__, error)

# dtype= given with out=: it must be out's dtype
for label, call in [
    ("sum", lambda o: torch.sum(m, 0, dtype=torch.float64, out=o)),
    ("cumsum", lambda o: torch.cumsum(m, 0, dtype=torch.float64, out=o)),
    ("mean", lambda o: torch.mean(m, 1, dtype=torch.float64, out=o)),
    ("zeros", lambda o: torch.zeros(2, dtype=torch.float64, out=o)),
    ("arange", lambda o: torch.arange(3, dtype=torch.float64, out=o)),
    ("full", lambda o: torch.full((2,), 1.0, dtype=torch.float64, out=o)),
    ("rand", lambda o: torch.rand(2, dtype=torch.float64, out=o)),
    ("randn", lambda o: torch.randn(2, dtype=torch.float64, out=o)),
]:
    for dtype in (torch.float32, torch.float64):
        try:
            print(label, dtype, "ok", call(torch.empty(0, dtype=dtype)).dtype)
        except RuntimeError as error:
            print(label, dtype, "RuntimeError:", error)
