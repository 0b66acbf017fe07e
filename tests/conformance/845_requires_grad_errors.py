import torch


def attempt(label, run, *args, **kwargs):
    try:
        print(label, run(*args, **kwargs))
    except (RuntimeError, TypeError) as e:
        print(label, type(e).__name__ + ":", e)


# factory functions: "Only Tensors of floating point and complex dtype ..."
attempt("tensor of ints:", torch.tensor, [1, 2], requires_grad=True)
attempt("tensor of bools:", torch.tensor, [True], requires_grad=True)
attempt("tensor, dtype long:", torch.tensor, [1.0, 2.0], dtype=torch.long, requires_grad=True)
attempt("zeros long:", torch.zeros, 2, dtype=torch.long, requires_grad=True)
attempt("ones int32:", torch.ones, 2, dtype=torch.int32, requires_grad=True)
attempt("full of an int:", torch.full, (2,), 3, requires_grad=True)
attempt("full of a float:", torch.full, (2,), 3.0, requires_grad=True)
attempt("arange of ints:", torch.arange, 3, requires_grad=True)
attempt("arange of floats:", torch.arange, 3.0, requires_grad=True)
attempt("empty bool:", torch.empty, 2, dtype=torch.bool, requires_grad=True)
attempt("randint:", torch.randint, 0, 5, (2,), requires_grad=True)
attempt("zeros_like int:", torch.zeros_like, torch.tensor([1, 2]), requires_grad=True)
attempt("ones_like int:", torch.ones_like, torch.tensor([1, 2]), requires_grad=True)
attempt("eye long:", torch.eye, 2, dtype=torch.long, requires_grad=True)
attempt("linspace long:", torch.linspace, 0, 4, 3, dtype=torch.long, requires_grad=True)
attempt("new_ones:", torch.tensor([1, 2]).new_ones, 2, requires_grad=True)
attempt("new_zeros:", torch.tensor([1, 2]).new_zeros, 2, requires_grad=True)
attempt("new_tensor:", torch.tensor([1, 2]).new_tensor, [1, 2], requires_grad=True)
attempt(
    "new_ones, float dtype:",
    torch.tensor([1, 2]).new_ones,
    2,
    dtype=torch.float32,
    requires_grad=True,
)

# requires_grad_(): "only Tensors of floating point dtype ..."
attempt("requires_grad_ on ints:", torch.tensor([1, 2]).requires_grad_)
attempt("requires_grad_ on bools:", torch.tensor([True]).requires_grad_, True)
attempt("requires_grad_(False) on ints:", torch.tensor([1, 2]).requires_grad_, False)
attempt("requires_grad_ on as_tensor:", torch.as_tensor([1, 2]).requires_grad_)
attempt("requires_grad_ with a str:", torch.tensor([1.0, 2.0]).requires_grad_, "yes")
attempt("requires_grad_ with None:", torch.tensor([1.0, 2.0]).requires_grad_, None)
attempt("requires_grad_ with 1:", torch.tensor([1.0, 2.0]).requires_grad_, 1)
y = torch.tensor([1.0, 2.0], requires_grad=True) * 2
attempt("requires_grad_(True) on a non-leaf:", y.requires_grad_)
attempt("requires_grad_(False) on a non-leaf:", y.requires_grad_, False)

# the setter: "only Tensors of floating point and complex dtype ..."
for label, t, value in [
    ("int tensor, True:", torch.tensor([1, 2]), True),
    ("bool tensor, True:", torch.tensor([True]), True),
    ("int tensor, False:", torch.tensor([1, 2]), False),
    ("float tensor, True:", torch.tensor([1.0]), True),
    ("float tensor, 1:", torch.tensor([1.0]), 1),
    ("float tensor, 'yes':", torch.tensor([1.0]), "yes"),
    ("float tensor, None:", torch.tensor([1.0]), None),
    ("non-leaf, True:", y, True),
    ("non-leaf, False:", y, False),
]:
    try:
        t.requires_grad = value
        print("setter", label, t.requires_grad)
    except (RuntimeError, TypeError) as e:
        print("setter", label, type(e).__name__ + ":", e)

attempt("Variable of ints:", torch.autograd.Variable, torch.tensor([1, 2]), requires_grad=True)
attempt("full_like int:", torch.full_like, torch.tensor([1, 2]), 3, requires_grad=True)
attempt("empty_like int:", torch.empty_like, torch.tensor([1, 2]), requires_grad=True)
attempt("randperm:", torch.randperm, 3, requires_grad=True)
attempt("new_empty:", torch.tensor([1, 2]).new_empty, 2, requires_grad=True)
attempt("Module.requires_grad_(1):", torch.nn.Linear(2, 2).requires_grad_, 1)

# nn.Parameter keeps the factory wording
attempt("Parameter of ints:", torch.nn.Parameter, torch.tensor([1, 2]))
print(torch.nn.Parameter(torch.tensor([1, 2]), requires_grad=False))
