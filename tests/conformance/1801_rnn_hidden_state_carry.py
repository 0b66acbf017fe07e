import torch
import torch.nn as nn

# Truncated backpropagation through time (d2l 9.5 / the word language model example): the hidden
# state carried between batches is detached; unbatched input; the errors a wrong shape gives.
torch.manual_seed(0)
rnn = nn.GRU(3, 4)
h = None
for chunk in torch.randn(3, 2, 2, 3):
    out, h = rnn(chunk, h)
    print(out.grad_fn, h.grad_fn, h.requires_grad)
    h = h.detach()
    print(h.grad_fn, h.requires_grad)
lstm = nn.LSTM(3, 4)
out, (h, c) = lstm(torch.randn(5, 3))
print(out.shape, h.shape, c.shape, out.grad_fn, h.grad_fn)
cell = nn.RNNCell(3, 4)
y = cell(torch.randn(3))
print(y.shape, y.grad_fn)
for bad in (
    lambda: rnn(torch.randn(2, 2, 5)),
    lambda: rnn(torch.randn(2, 2, 3), torch.zeros(1, 3, 4)),
    lambda: lstm(torch.randn(2, 2, 3, 1)),
    lambda: cell(torch.randn(2, 5)),
    lambda: nn.RNN(3, 4, nonlinearity="sigmoid"),
):
    try:
        bad()
    except (RuntimeError, ValueError) as e:
        print(type(e).__name__, e)
