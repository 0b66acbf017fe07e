# out= on the unary functions (those the op table generates and the hand-written ones).
import torch

x = torch.tensor([[0.25, -1.5, 2.0], [3.0, -0.75, 0.5]])
p = x.abs() + 0.5
u = torch.tensor([0.25, -0.5, 0.75])

for name, fn in [
    ("exp", torch.exp),
    ("expm1", torch.expm1),
    ("exp2", torch.exp2),
    ("sin", torch.sin),
    ("cos", torch.cos),
    ("tan", torch.tan),
    ("sinh", torch.sinh),
    ("cosh", torch.cosh),
    ("tanh", torch.tanh),
    ("sigmoid", torch.sigmoid),
    ("atan", torch.atan),
    ("arctan", torch.arctan),
    ("abs", torch.abs),
    ("absolute", torch.absolute),
    ("neg", torch.neg),
    ("negative", torch.negative),
    ("sign", torch.sign),
    ("sgn", torch.sgn),
    ("floor", torch.floor),
    ("ceil", torch.ceil),
    ("trunc", torch.trunc),
    ("frac", torch.frac),
    ("round", torch.round),
    ("erf", torch.erf),
    ("erfc", torch.erfc),
    ("square", torch.square),
]:
    out = torch.empty(0)
    result = fn(x, out=out)
    print(name, result is out, out)

for name, fn in [
    ("log", torch.log),
    ("log2", torch.log2),
    ("log10", torch.log10),
    ("log1p", torch.log1p),
    ("sqrt", torch.sqrt),
    ("rsqrt", torch.rsqrt),
    ("reciprocal", torch.reciprocal),
]:
    print(name, fn(p, out=torch.empty(0)))

for name, fn in [
    ("asin", torch.asin),
    ("arcsin", torch.arcsin),
    ("acos", torch.acos),
    ("arccos", torch.arccos),
]:
    print(name, fn(u, out=torch.empty(0)))

print(torch.round(x * 10.123, decimals=1, out=torch.empty(0)))
print(torch.logical_not(x > 0, out=torch.empty(0, dtype=torch.bool)))
print(torch.logical_not(x, out=torch.empty(0)))
print(torch.bitwise_not(torch.tensor([0, 5, -3]), out=torch.empty(0, dtype=torch.long)))

# into a double out: computed in float, then cast
print(torch.exp(x, out=torch.empty(0, dtype=torch.float64)))
print(torch.sqrt(p, out=torch.empty(0, dtype=torch.float64)))
