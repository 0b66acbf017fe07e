# A hand-written training loop whose parameter updates write through out= under no_grad (the
# parameters stay leaves; their version counters move), with preallocated buffers for the loss.
import torch

torch.manual_seed(0)
x = torch.linspace(-1, 1, 8).unsqueeze(1)
y = 3 * x - 0.5
w = torch.zeros(1, 1, requires_grad=True)
b = torch.zeros(1, requires_grad=True)
pred = torch.empty(0)
losses = torch.zeros(5)
lr = 0.5
for step in range(5):
    out = torch.addmm(b, x, w)
    loss = torch.mean((out - y) ** 2)
    loss.backward()
    with torch.no_grad():
        torch.sub(w, w.grad, alpha=lr, out=w)
        torch.sub(b, lr * b.grad, out=b)
        torch.mul(loss, 1.0, out=losses[step])
        torch.addmm(b, x, w, out=pred)
    w.grad = None
    b.grad = None
    print(step, round(loss.item(), 4), w, b)
print(losses)
print(pred.squeeze(1))
print(w.is_leaf, w.requires_grad, w.grad_fn, w._version, b._version)
try:
    torch.sub(w, 0.1, out=w)
except RuntimeError as error:
    print("RuntimeError:", error)
