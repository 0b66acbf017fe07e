# nn.Bilinear as its documentation shows it (a batch through y = x1ᵀ A x2 + b) and F.bilinear:
# weights under manual_seed, the repr, the graph (AddBackward0 <- ViewBackward0 <-
# TrilinearBackward0), gradients of both inputs, the weight and the bias, batch dimensions, a
# one-sample call and the shape errors; then a tiny bilinear scorer trained a few SGD steps
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
m = nn.Bilinear(3, 4, 2)
print(m)
print(nn.Bilinear(5, 2, 7, bias=False))
print(m.weight, m.bias)
input1 = torch.randn(5, 3, requires_grad=True)
input2 = torch.randn(5, 4, requires_grad=True)
output = m(input1, input2)
print(output.size(), output)
node = output.grad_fn
print(node.name(), [f.name() for f, _ in node.next_functions if f is not None])
inner = node.next_functions[0][0].next_functions[0][0]
print(inner.name(), [f.name() if f is not None else None for f, _ in inner.next_functions])
output.pow(2).sum().backward()
print(input1.grad, input2.grad)
print(m.weight.grad, m.bias.grad)

x1 = torch.randn(2, 3, 3, dtype=torch.float64, requires_grad=True)
x2 = torch.randn(2, 3, 4, dtype=torch.float64)
w = torch.randn(2, 3, 4, dtype=torch.float64, requires_grad=True)
y = F.bilinear(x1, x2, w)
print(y.shape, y.grad_fn.name(), y)
y.sum().backward()
print(x1.grad, w.grad)
print(F.bilinear(torch.ones(3), torch.ones(4), m.weight.detach(), m.bias.detach()))

# score pairs: label 1 when the two vectors agree
scorer = nn.Bilinear(2, 2, 1)
optimizer = torch.optim.SGD(scorer.parameters(), lr=0.5)
a = torch.tensor([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [1.0, -1.0]])
b = torch.tensor([[1.0, 0.0], [1.0, 0.0], [1.0, 1.0], [-1.0, 1.0]])
labels = torch.tensor([[1.0], [0.0], [1.0], [1.0]])
for step in range(4):
    optimizer.zero_grad()
    loss = F.binary_cross_entropy_with_logits(scorer(a, b), labels)
    loss.backward()
    optimizer.step()
    print(step, round(loss.item(), 5))
print(scorer.weight, scorer.bias)
for bad in [
    lambda: m(input1, torch.randn(5, 6)),
    lambda: m(input1, torch.randn(4, 4)),
    lambda: F.bilinear(input1, input2, torch.randn(2, 3)),
    lambda: F.bilinear(input1, input2, m.weight, torch.randn(3)),
]:
    try:
        bad()
    except Exception as ex:
        print(type(ex).__name__, ex)
