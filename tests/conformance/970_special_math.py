# torch's element-wise math: inverse hyperbolics, degrees, sinc, the gamma family at poles,
# erfinv, i0, logaddexp2, fmax/fmin with NaN, float_power, heaviside, ldexp, gcd/lcm, frexp,
# positive; values, dtypes (integer inputs promoted), grad_fns, gradients and refusals
import math

import torch

x = torch.tensor([-2.5, -0.5, 0.0, 0.5, 2.0], requires_grad=True)
ints = torch.tensor([0, 1, 2, 3])
unary = [
    ("asinh", torch.asinh),
    ("acosh", torch.acosh),
    ("atanh", torch.atanh),
    ("deg2rad", torch.deg2rad),
    ("rad2deg", torch.rad2deg),
    ("sinc", torch.sinc),
    ("lgamma", torch.lgamma),
    ("digamma", torch.digamma),
    ("erfinv", torch.erfinv),
    ("i0", torch.i0),
]
for name, fn in unary:
    y = fn(x)
    (g,) = torch.autograd.grad(y.sum(), x)
    print(name, y, g)
    print(name, "int", fn(ints))
print(torch.arcsinh(x), torch.arctanh(x * 0.1), x.arccosh())

poles = torch.tensor(
    [-3.0, -2.5, -0.0, 0.0, 1e-8, 1.0, math.inf, -math.inf, math.nan], dtype=torch.float64
)
print("lgamma", torch.lgamma(poles))
print("digamma", torch.digamma(poles))
for n in [0, 1, 2, 3]:
    print(
        "polygamma",
        n,
        torch.polygamma(n, torch.tensor([0.25, 1.0, 4.5, -1.5], dtype=torch.float64)),
    )
print(x.polygamma(2))
print(torch.mvlgamma(torch.tensor([[1.5, 2.0], [3.0, 4.5]], requires_grad=True), 2))
print(torch.erfinv(torch.tensor([-1.0, -0.999, 0.3, 0.999999, 1.0, 1.5])))
print(torch.i0(torch.tensor([-30.0, 0.0, 10.0, 88.0, 89.0])))

a = torch.tensor([1.0, 2.0, math.nan, -3.0], requires_grad=True)
b = torch.tensor([1.0, math.nan, 5.0, 4.0], requires_grad=True)
for name, fn in [
    ("fmax", torch.fmax),
    ("fmin", torch.fmin),
    ("logaddexp2", torch.logaddexp2),
    ("ldexp", torch.ldexp),
]:
    y = fn(a, b)
    ga, gb = torch.autograd.grad(y.sum(), (a, b))
    print(name, y, ga, gb)
print(torch.fmax(torch.tensor([3, -1]), torch.tensor([2, 5])))
print(torch.ldexp(torch.tensor([3, -1]), torch.tensor([2, 5])))

p = torch.float_power(x, 2)
print(p, p.grad_fn, p.grad_fn.next_functions[0][0])
print(torch.float_power(2, x), torch.float_power(torch.tensor([2, 3]), torch.tensor([-1, 2])))
d = torch.tensor([1.5, 2.0], dtype=torch.float64)
print(d.float_power_(2))

print(torch.heaviside(torch.tensor([-1.0, 0.0, 2.0, math.nan]), torch.tensor([0.5])))
print(torch.heaviside(torch.tensor([-1, 0, 2]), torch.tensor(7)))
print(torch.gcd(torch.tensor([4, -6, 0, 9]), torch.tensor([6, 4, 5, 0])))
print(torch.lcm(torch.tensor([4, -6, 0, 9]), torch.tensor([6, 4, 5, 0])))
m, e = torch.frexp(torch.tensor([0.0, 3.0, -7.5, 1e-40, math.inf]))
print(m, e)
f = torch.frexp(x)
print(f)
print(torch.autograd.grad(f.mantissa.sum(), x))
print(torch.positive(x) is x, torch.positive(ints))

for bad in [
    lambda: torch.logaddexp2(ints, ints),
    lambda: torch.fmax(x, 2.0),
    lambda: torch.heaviside(x, torch.tensor([1])),
    lambda: torch.heaviside(x, torch.tensor(0.5)).sum().backward(),
    lambda: torch.gcd(x, x),
    lambda: torch.lcm(ints, torch.ones(3, dtype=torch.int64)),
    lambda: torch.frexp(ints),
    lambda: torch.positive(torch.tensor([True])),
    lambda: torch.polygamma(-1, x),
    lambda: torch.mvlgamma(x, 0),
    lambda: torch.tensor([1.0]).float_power_(2),
    lambda: ints.asinh_(),
]:
    try:
        bad()
    except Exception as err:
        print(type(err).__name__, err)
