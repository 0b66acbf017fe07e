import torch


def attempt(label, run, *args, **kwargs):
    try:
        print(label, run(*args, **kwargs))
    except (RuntimeError, TypeError) as e:
        print(label, type(e).__name__ + ":", e)


def pre(hook, dtype=torch.float32):
    a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True, dtype=dtype)
    y = a * 2
    y.grad_fn.register_prehook(hook)
    y.sum().backward()
    return a.grad


def accumulate_pre(hook):
    a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = a * 2
    y.grad_fn.next_functions[0][0].register_prehook(hook)
    y.sum().backward()
    return a.grad


pre_hooks = [
    ("resized", lambda gs: (torch.ones(2),)),
    ("long", lambda gs: (gs[0].long(),)),
    ("long and resized", lambda gs: (torch.ones(2, dtype=torch.long),)),
    ("double", lambda gs: (gs[0].double(),)),
    ("a tensor", lambda gs: gs[0] * 2),
    ("a list", lambda gs: [gs[0] * 2]),
    ("two values", lambda gs: (gs[0], gs[0])),
    ("no values", lambda gs: ()),
    ("a number", lambda gs: 3),
    ("None inside", lambda gs: (None,)),
    ("a float inside", lambda gs: (1.0,)),
    ("scaled", lambda gs: (gs[0] * 5,)),
]
for where, run in [("pre", pre), ("AccumulateGrad pre", accumulate_pre)]:
    for name, hook in pre_hooks:
        attempt(f"{where} {name}:", run, hook)
attempt("pre float64 to float32:", lambda: pre(lambda gs: (gs[0].float(),), torch.float64))


def post(hook):
    a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    b = torch.tensor([4.0, 5.0, 6.0], requires_grad=True)
    y = a * b
    y.grad_fn.register_hook(hook)
    y.sum().backward()
    return a.grad, b.grad


post_hooks = [
    ("scaled first", lambda gi, go: (gi[0] * 5, None)),
    ("resized", lambda gi, go: (torch.ones(2), gi[1])),
    ("zero-dim", lambda gi, go: (torch.tensor(2.0), gi[1])),
    ("long", lambda gi, go: (gi[0].long(), gi[1])),
    ("double second", lambda gi, go: (gi[0], gi[1].double())),
    ("a number inside", lambda gi, go: (gi[0], 3)),
    ("a list", lambda gi, go: [gi[0], gi[1]]),
    ("a tensor", lambda gi, go: gi[0]),
    ("one value", lambda gi, go: (gi[0],)),
    ("printing", lambda gi, go: print("grad_inputs", gi, "grad_outputs", go)),
]
for name, hook in post_hooks:
    attempt(f"post {name}:", post, hook)


def post_one_input(hook):
    a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = a * 2  # the constant 2 has an empty edge: its gradient is None
    y.grad_fn.register_hook(hook)
    y.sum().backward()
    return a.grad


attempt("post replaces None:", lambda: post_one_input(lambda gi, go: (gi[0], torch.ones(3))))
attempt("post number for None:", lambda: post_one_input(lambda gi, go: (gi[0], 3)))
attempt("post keeps None:", lambda: post_one_input(lambda gi, go: (gi[0] * 3, None)))


def accumulate_post(hook):
    a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = a * 2
    y.grad_fn.next_functions[0][0].register_hook(hook)
    y.sum().backward()
    return a.grad


attempt("AccumulateGrad post printing:", lambda: accumulate_post(lambda gi, go: print(gi, go)))
attempt("AccumulateGrad post one value:", lambda: accumulate_post(lambda gi, go: (None,)))
attempt("AccumulateGrad post empty:", lambda: accumulate_post(lambda gi, go: ()))
attempt("AccumulateGrad post number:", lambda: accumulate_post(lambda gi, go: 3))


def post_accumulate(hook):
    a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    a.register_post_accumulate_grad_hook(hook)
    (a * 2).sum().backward()
    return a.grad


for name, hook in [
    ("None", lambda t: None),
    ("the tensor itself", lambda t: t),
    ("a new tensor", lambda t: t * 2),
    ("its grad", lambda t: t.grad),
    ("a number", lambda t: 3),
    ("a list", lambda t: [1]),
    ("resized", lambda t: torch.ones(2)),
    ("double", lambda t: t.double()),
    ("long grad", lambda t: t.grad.long()),
]:
    attempt(f"post-accumulate {name}:", post_accumulate, hook)

# a multi-output node: the pre-hook sees None for the output that got no gradient
x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
for name, hook in [
    ("printing", lambda gs: print("grad_outputs", gs)),
    ("one value", lambda gs: (gs[0],)),
    ("fills the None", lambda gs: (gs[0], torch.ones(2))),
    ("keeps the None", lambda gs: (gs[0] * 3, None)),
]:
    x.grad = None
    p, q = x.unbind(0)
    p.grad_fn.register_prehook(hook)
    attempt(f"unbind pre {name}:", (p * 2).sum().backward)
    print(x.grad)
