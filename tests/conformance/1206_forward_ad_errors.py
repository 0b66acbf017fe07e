# PyTorch's errors of the forward-mode API.
import torch
import torch.autograd.forward_ad as fwAD

x = torch.tensor([1.0, 2.0, 3.0])
t = torch.ones(3)


def attempt(label, f):
    try:
        out = f()
        print(label, "->", out)
    except Exception as e:
        print(label, "->", type(e).__name__ + ":", e)


attempt("make_dual outside a level", lambda: fwAD.make_dual(x, t))
attempt("unpack_dual outside a level", lambda: fwAD.unpack_dual(x))
attempt("unpack_dual level=0 outside", lambda: fwAD.unpack_dual(x, level=0))
attempt("exit without a level", lambda: fwAD.exit_dual_level())
attempt("exit level=3", lambda: fwAD.exit_dual_level(level=3))

with fwAD.dual_level():
    attempt("size mismatch", lambda: fwAD.make_dual(x, torch.ones(2)))
    attempt("2-d size mismatch", lambda: fwAD.make_dual(torch.ones(2, 3), torch.ones(3, 2)))
    attempt("integer primal", lambda: fwAD.make_dual(torch.tensor([1, 2]), torch.ones(2)))
    attempt("integer tangent", lambda: fwAD.make_dual(x, torch.tensor([1, 2, 3])))
    attempt("float64 tangent", lambda: fwAD.make_dual(x, torch.ones(3, dtype=torch.float64)))
    attempt("level=5", lambda: fwAD.make_dual(x, t, level=5))
    attempt("level=-1", lambda: fwAD.make_dual(x, t, level=-1))
    attempt("level=0", lambda: fwAD.make_dual(x, t, level=0))
    d = fwAD.make_dual(x, t)
    attempt("dual of a dual", lambda: fwAD.make_dual(d, t))
    attempt("unpack level=3", lambda: fwAD.unpack_dual(d, level=3))
    attempt("unpack a float", lambda: fwAD.unpack_dual(3.0))
    attempt("nested level", lambda: fwAD.enter_dual_level())
    attempt("exit level=2", lambda: fwAD.exit_dual_level(level=2))
    try:
        with fwAD.dual_level():
            print("not reached")
    except RuntimeError as e:
        print("nested with:", e)
    print(d)
print(d)
