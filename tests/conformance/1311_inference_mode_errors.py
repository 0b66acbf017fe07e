# Inference tensors used outside inference mode: PyTorch's errors
import torch

x = torch.ones(3, requires_grad=True)
with torch.inference_mode():
    y = torch.tensor([1.0, 2.0, 3.0]) * 2
    idx = torch.arange(3)


def attempt(label, fn):
    try:
        result = fn()
        print(label, "ok:", result)
    except RuntimeError as e:
        print(label, "RuntimeError:", e)


# saving an inference tensor for backward
attempt("x * y", lambda: x * y)
attempt("y * x", lambda: y * x)
attempt("exp(x) * y", lambda: torch.exp(x) * y)
attempt("x / y", lambda: x / y)
attempt("x @ y", lambda: x @ y)
attempt("x + y", lambda: x + y)  # add saves nothing
attempt("x * y.clone()", lambda: x * y.clone())

# in-place updates: PyTorch writes the values, then refuses to count the version
attempt("y.add_", lambda: y.add_(1))
print(y)
attempt("y.zero_", lambda: y.zero_())
print(y)
attempt("idx.add_", lambda: idx.add_(10))
print(idx)
try:
    y[0] = 5.0
except RuntimeError as e:
    print("setitem RuntimeError:", e)
print(y)
with torch.no_grad():
    attempt("no_grad mul_", lambda: y.mul_(2))
print(y)
with torch.inference_mode():
    y.add_(1)  # inside the mode: fine
print(y)

# the version counter
attempt("_version", lambda: y._version)
with torch.inference_mode():
    attempt("_version inside", lambda: y._version)

# requires_grad
attempt("requires_grad_()", lambda: y.requires_grad_())
attempt("requires_grad_(False)", lambda: y.requires_grad_(False))
attempt("Parameter", lambda: torch.nn.Parameter(y))


def set_flag():
    y.requires_grad = True


attempt("requires_grad =", set_flag)
attempt("y * 3", lambda: y * 3)
attempt("sum", lambda: y.sum().item())
