# Exploring a graph node with dir(): the `_saved_*` names of each grad_fn (the tensors and
# values its backward formula uses), then reading them, as autograd-internals tutorials do
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
w = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
nodes = {
    "mul": x * w,
    "pow": x**3,
    "exp": x.exp(),
    "div": x / w,
    "sin": torch.sin(x),
    "sigmoid": torch.sigmoid(x),
    "tanh": torch.tanh(x),
    "relu": torch.relu(x - 2),
    "log": torch.log(x),
    "sqrt": x.sqrt(),
    "softmax": torch.softmax(x, 0),
    "clamp": x.clamp(0.5, 2.5),
}
for name, y in nodes.items():
    saved = [n for n in dir(y.grad_fn) if n.startswith("_saved")]
    print(name, type(y.grad_fn).__name__, saved)
    for n in saved:
        print("  ", n, getattr(y.grad_fn, n))
y = nodes["mul"]
print(y.grad_fn._saved_self is x, y.grad_fn._saved_other is w)
print(
    y.grad_fn._raw_saved_self, "next_functions" in dir(y.grad_fn), "register_hook" in dir(y.grad_fn)
)
print(nodes["exp"].grad_fn._saved_result.equal(nodes["exp"]))
