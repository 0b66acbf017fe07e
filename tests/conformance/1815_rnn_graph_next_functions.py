import torch
import torch.nn as nn


# The autograd tutorial's graph walk (grad_fn, next_functions) applied to recurrent layers: the
# nodes PyTorch records for an RNN step, a GRU cell and a float32 LSTM layer.
def walk(fn, depth=0, limit=4):
    if fn is None or depth > limit:
        return
    print("  " * depth + type(fn).__name__, len(fn.next_functions))
    for nxt, _ in fn.next_functions:
        walk(nxt, depth + 1, limit)


torch.manual_seed(0)
x = torch.randn(2, 1, 3)
out, h = nn.RNN(3, 2)(x)
walk(out.grad_fn, limit=5)
cell = nn.GRUCell(3, 2)
walk(cell(x[0]).grad_fn, limit=3)
lstm = nn.LSTM(3, 2, num_layers=2)
out, (h, c) = lstm(x)
print(out.grad_fn.next_functions)
print(
    [type(n).__name__ for n, _ in h.grad_fn.next_functions],
    [i for _, i in h.grad_fn.next_functions],
)
print([i for _, i in c.grad_fn.next_functions])
