# register_post_accumulate_grad_hook: runs after .grad is accumulated (not for autograd.grad),
# refuses non-leaves, and can run the optimizer step inside backward.
import torch

a = torch.tensor([1.0, 2.0], requires_grad=True)
b = a * 2
for t, name in ((b, "nonleaf"), (torch.tensor([1.0]), "nograd")):
    try:
        t.register_post_accumulate_grad_hook(lambda p: None)
    except RuntimeError as e:
        print(name, e)
seen = []
h = a.register_post_accumulate_grad_hook(lambda p: seen.append(p.grad.clone()))
a.register_hook(lambda g: print("pre", g))
(a * 3).sum().backward()
(a * a).sum().backward()
print(seen, a.grad)
h.remove()
(a * 3).sum().backward()
print(len(seen), a.grad)
print(torch.autograd.grad((a * 3).sum(), a), len(seen))
w = torch.tensor([0.5, -0.5], requires_grad=True)
lr = 0.1


def sgd_in_backward(p):
    with torch.no_grad():
        p -= lr * p.grad
    p.grad = None


w.register_post_accumulate_grad_hook(sgd_in_backward)
for _ in range(3):
    loss = ((w - 1) ** 2).sum()
    loss.backward()
    print(w, w.grad)
