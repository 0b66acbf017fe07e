# Karpathy's makemore: loss = -probs[torch.arange(n), ys].log().mean(), written with range
import torch

g = torch.Generator().manual_seed(2147483647)
W = torch.randn((27, 27), generator=g, requires_grad=True)
xs = torch.tensor([0, 5, 13, 13, 1])
ys = torch.tensor([5, 13, 13, 1, 0])
for k in range(3):
    xenc = torch.nn.functional.one_hot(xs, num_classes=27).float()
    logits = xenc @ W
    counts = logits.exp()
    probs = counts / counts.sum(1, keepdims=True)
    loss = -probs[range(5), ys].log().mean()
    print(k, loss.item())
    W.grad = None
    loss.backward()
    W.data += -50 * W.grad
print(W.grad[0, :5])
