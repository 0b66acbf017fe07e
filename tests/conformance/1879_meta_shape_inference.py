# Working out layer sizes without computing (the trick of the CNN tutorials that ask "what is the
# input size of the first Linear?"): run the feature extractor on a meta tensor, read the shape,
# then build the real model on the CPU.
import torch
import torch.nn as nn
import torch.nn.functional as F

features = nn.Sequential(
    nn.Conv2d(1, 6, 5),
    nn.ReLU(),
    nn.MaxPool2d(2),
    nn.Conv2d(6, 16, 5),
    nn.ReLU(),
    nn.MaxPool2d(2),
)
probe = features.to("meta")(torch.empty(1, 1, 28, 28, device="meta"))
print(probe, probe.shape, probe.flatten(1).shape[1])
flat = probe.flatten(1).shape[1]

with torch.device("meta"):
    sized = nn.Linear(flat, 10)
    pooled = F.adaptive_avg_pool2d(torch.empty(2, 16, 4, 4), 1)
print(sized, sized.weight.shape, pooled.shape, pooled.device)

torch.manual_seed(0)
model = nn.Sequential(
    nn.Conv2d(1, 6, 5),
    nn.ReLU(),
    nn.MaxPool2d(2),
    nn.Conv2d(6, 16, 5),
    nn.ReLU(),
    nn.MaxPool2d(2),
    nn.Flatten(),
    nn.Linear(flat, 10),
)
x = torch.randn(2, 1, 28, 28)
out = model(x)
print(out.shape, out.grad_fn)
loss = F.cross_entropy(out, torch.tensor([3, 7]))
loss.backward()
print(round(loss.item(), 3), model[-1].bias.grad.shape)
meta_model = nn.Sequential(*[m for m in model]).to("meta")
h = torch.empty(4, 1, 28, 28, device="meta")
for layer in meta_model:
    h = layer(h)
    print(type(layer).__name__, tuple(h.shape), h.grad_fn)
