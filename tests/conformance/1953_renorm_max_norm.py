# torch.renorm as a max-norm weight constraint (the "max-norm regularization" of dropout papers:
# after each step each unit's incoming weight vector is rescaled to norm <= c), in place with
# renorm_ under no_grad, and RenormBackward0's gradient for p = 1, 2, 3 and inf
import torch

x = torch.ones(3, 3)
x[1].fill_(2)
x[2].fill_(3)
print(x)
print(torch.renorm(x, 1, 0, 5))

torch.manual_seed(0)
layer = torch.nn.Linear(4, 3)
opt = torch.optim.SGD(layer.parameters(), lr=0.5)
data = torch.randn(8, 4)
target = torch.randn(8, 3)
for step in range(3):
    opt.zero_grad()
    loss = torch.nn.functional.mse_loss(layer(data), target)
    loss.backward()
    opt.step()
    with torch.no_grad():
        layer.weight.renorm_(2, 0, 0.5)
    print(step, round(loss.item(), 4), layer.weight.norm(dim=1))

w = torch.tensor([[1.0, -2.0, 3.0], [0.1, 0.2, -0.1], [4.0, 0.5, -1.0]], requires_grad=True)
weights = torch.arange(9.0).view(3, 3)
for p in (1, 2, 3, float("inf")):
    out = torch.renorm(w, p, 0, 1.5)
    print(p, out, out.grad_fn)
    (out * weights).sum().backward()
    print(w.grad)
    w.grad = None
print(w.renorm(2, 1, 2.0))
for args in ((w, 2, 0, -1.0), (w, -1, 0, 1.0), (torch.ones(3), 2, 0, 1.0)):
    try:
        torch.renorm(*args)
    except RuntimeError as e:
        print("RuntimeError:", e)
