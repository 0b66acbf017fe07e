import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
seen = []
h = x.register_post_accumulate_grad_hook(lambda t: seen.append(t.grad.clone()))
(x * x).sum().backward()
(x * 3).sum().backward()
print(seen)
print(x.grad)
h.remove()
(x * 3).sum().backward()
print(len(seen))


# an optimizer step inside backward, as PyTorch's tutorial does it
params = [torch.tensor([1.0, -1.0], requires_grad=True), torch.tensor([0.5], requires_grad=True)]


def sgd_step(p):
    with torch.no_grad():
        p.sub_(0.1 * p.grad)
    p.grad = None


for p in params:
    p.register_post_accumulate_grad_hook(sgd_step)
for step in range(3):
    loss = (params[0] ** 2).sum() + (params[1] * params[0][0]).sum()
    loss.backward()
    print(step, [p.tolist() for p in params], [p.grad for p in params])


def attempt(label, hook):
    t = torch.tensor([1.0, 2.0], requires_grad=True)
    t.register_post_accumulate_grad_hook(hook)
    try:
        (t * t).sum().backward()
        print(label, "ok", t.grad)
    except Exception as e:
        print(label, type(e).__name__, "|", e)


attempt("returns None", lambda t: None)
attempt("returns an int", lambda t: 5)
attempt("returns a tensor", lambda t: torch.zeros(2))
attempt("returns the tensor", lambda t: t)
try:
    torch.tensor([1.0]).register_post_accumulate_grad_hook(lambda t: None)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    (torch.tensor([1.0], requires_grad=True) * 2).register_post_accumulate_grad_hook(lambda t: None)
except RuntimeError as e:
    print("RuntimeError:", e)
