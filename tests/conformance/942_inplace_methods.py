# In-place variants (Tensor.foo_) on non-leaves, leaves, integer tensors and a view: grad_fn names,
# versions, values and gradients
import torch

names = [
    "log2_",
    "log10_",
    "log1p_",
    "expm1_",
    "rsqrt_",
    "tan_",
    "asin_",
    "arcsin_",
    "acos_",
    "arccos_",
    "atan_",
    "arctan_",
    "sinh_",
    "cosh_",
    "erf_",
    "erfc_",
    "absolute_",
    "fix_",
    "square_",
    "sgn_",
    "frac_",
    "exp2_",
    "logit_",
    "nan_to_num_",
    "clamp_min_",
    "clamp_max_",
    "cumsum_",
    "cumprod_",
    "divide_",
    "multiply_",
    "subtract_",
    "true_divide_",
    "fmod_",
    "remainder_",
    "hypot_",
    "lerp_",
    "atan2_",
    "arctan2_",
    "tril_",
    "triu_",
]
METHODS = {
    "log2_": lambda t: t.log2_,
    "log10_": lambda t: t.log10_,
    "log1p_": lambda t: t.log1p_,
    "expm1_": lambda t: t.expm1_,
    "rsqrt_": lambda t: t.rsqrt_,
    "tan_": lambda t: t.tan_,
    "asin_": lambda t: t.asin_,
    "arcsin_": lambda t: t.arcsin_,
    "acos_": lambda t: t.acos_,
    "arccos_": lambda t: t.arccos_,
    "atan_": lambda t: t.atan_,
    "arctan_": lambda t: t.arctan_,
    "sinh_": lambda t: t.sinh_,
    "cosh_": lambda t: t.cosh_,
    "erf_": lambda t: t.erf_,
    "erfc_": lambda t: t.erfc_,
    "absolute_": lambda t: t.absolute_,
    "fix_": lambda t: t.fix_,
    "square_": lambda t: t.square_,
    "sgn_": lambda t: t.sgn_,
    "frac_": lambda t: t.frac_,
    "exp2_": lambda t: t.exp2_,
    "logit_": lambda t: t.logit_,
    "nan_to_num_": lambda t: t.nan_to_num_,
    "clamp_min_": lambda t: t.clamp_min_,
    "clamp_max_": lambda t: t.clamp_max_,
    "cumsum_": lambda t: t.cumsum_,
    "cumprod_": lambda t: t.cumprod_,
    "divide_": lambda t: t.divide_,
    "multiply_": lambda t: t.multiply_,
    "subtract_": lambda t: t.subtract_,
    "true_divide_": lambda t: t.true_divide_,
    "fmod_": lambda t: t.fmod_,
    "remainder_": lambda t: t.remainder_,
    "hypot_": lambda t: t.hypot_,
    "lerp_": lambda t: t.lerp_,
    "atan2_": lambda t: t.atan2_,
    "arctan2_": lambda t: t.arctan2_,
    "tril_": lambda t: t.tril_,
    "triu_": lambda t: t.triu_,
}
args = {
    "cumsum_": (0,),
    "cumprod_": (1,),
    "clamp_min_": (0.2,),
    "clamp_max_": (0.2,),
    "divide_": (2.0,),
    "multiply_": (2.0,),
    "subtract_": (2.0,),
    "true_divide_": (2.0,),
    "fmod_": (0.3,),
    "remainder_": (-0.3,),
    "hypot_": (torch.ones(2, 3, dtype=torch.float64),),
    "lerp_": (torch.ones(2, 3, dtype=torch.float64), 0.3),
    "atan2_": (torch.ones(2, 3, dtype=torch.float64),),
    "arctan2_": (torch.ones(3, dtype=torch.float64),),
    "tril_": (0,),
    "triu_": (1,),
}
for n in names:
    base = torch.tensor(
        [[0.2, 0.35, 0.5], [0.15, 0.4, 0.3]], dtype=torch.float64, requires_grad=True
    )
    x = base * 1.0
    y = METHODS[n](x)(*args.get(n, ()))
    y.sum().backward()
    print(
        n,
        y is x,
        y.grad_fn.name(),
        x._version,
        [round(v, 6) for v in y.detach().flatten().tolist()],
        [round(v, 6) for v in (torch.zeros_like(base) + base.grad).flatten().tolist()],
    )
for n in names:
    x = torch.tensor([[0.2, 0.35, 0.5], [0.15, 0.4, 0.3]], requires_grad=True)
    try:
        METHODS[n](x)(*args.get(n, ()))
    except RuntimeError as e:
        print(n, "leaf:", e)
for n in [
    "log2_",
    "sgn_",
    "frac_",
    "clamp_min_",
    "cumsum_",
    "square_",
    "fmod_",
    "remainder_",
    "tril_",
    "exp2_",
    "divide_",
    "multiply_",
    "subtract_",
    "nan_to_num_",
    "fix_",
    "absolute_",
]:
    z = torch.tensor([[3, -4, 5], [1, 2, -7]])
    a = {
        "clamp_min_": (2,),
        "cumsum_": (1,),
        "fmod_": (3,),
        "remainder_": (3,),
        "tril_": (),
        "divide_": (2,),
        "multiply_": (3,),
        "subtract_": (1,),
    }.get(n, ())
    try:
        print(n, METHODS[n](z)(*a), z.dtype)
    except Exception as e:
        print(n, type(e).__name__, e)
v = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
w = v * 1
row = w[0]
row.log2_()
print(w, w.grad_fn.name(), row.grad_fn.name())
w.sum().backward()
print(v.grad)
