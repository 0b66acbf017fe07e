# torch.inference_mode: the switch, its decorator forms, and which tensors are inference tensors
import torch

print(torch.is_inference_mode_enabled(), torch.is_grad_enabled())
x = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
with torch.inference_mode():
    print(torch.is_inference_mode_enabled(), torch.is_grad_enabled())
    y = x * 2 + 1
    s = y.sum()
    ones = torch.ones(2)
    t = torch.tensor([[1, 2], [3, 4]])
    r = torch.arange(4.0)
    z = torch.zeros_like(x)
    print(y, s, ones, t, r, z)
    print(y.requires_grad, y.grad_fn, y.is_leaf)
    print([v.is_inference() for v in (y, s, ones, t, r, z)])
    print("x itself:", x.is_inference(), x.requires_grad)
print(torch.is_inference_mode_enabled(), torch.is_grad_enabled())
print(y.is_inference(), torch.is_inference(y), (x * 2).is_inference())


@torch.inference_mode()
def predict(v):
    return torch.tanh(v), torch.is_inference_mode_enabled()


@torch.inference_mode
def predict_bare(v):
    return torch.sigmoid(v)


@torch.inference_mode(mode=False)
def not_inference():
    return torch.is_inference_mode_enabled(), torch.is_grad_enabled()


out, flag = predict(x)
print(out, flag, out.is_inference())
print(predict_bare(x), predict_bare(x).is_inference(), predict.__name__, predict_bare.__name__)
with torch.inference_mode():
    print(not_inference())
print(torch.is_inference_mode_enabled())

# requires_grad inside the mode: allowed on factories, yet nothing is recorded
with torch.inference_mode():
    w = torch.ones(2, requires_grad=True)
    print(w, w.is_inference(), w.is_leaf)
    v = w * 3
    print(v, v.requires_grad)
with torch.inference_mode(True):
    with torch.enable_grad():
        u = x * x
        print(torch.is_grad_enabled(), u.requires_grad, u.is_inference())
print(type(torch.inference_mode()).__name__)
