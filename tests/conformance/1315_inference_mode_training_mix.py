# Training and inference mixed: normal tensors updated inside the mode, parameters made inside it
import torch
import torch.nn as nn

torch.manual_seed(1)
model = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))
x = torch.randn(5, 2)
seen = torch.zeros(1)
running = torch.zeros(1)
with torch.inference_mode():
    out = model(x)
    seen.add_(x.shape[0])  # normal tensors may be written inside the mode
    running.mul_(0.9).add_(out.mean() * 0.1)
print(out.is_inference(), seen.is_inference(), running.is_inference())
print(seen, running, seen._version, running._version)

opt = torch.optim.SGD(model.parameters(), lr=0.1)
loss = model(x).pow(2).mean()
loss.backward()
opt.step()
print(loss)

# a model whose parameters were made in inference mode cannot be trained outside it
with torch.inference_mode():
    frozen = nn.Linear(2, 1)
frozen_opt = torch.optim.SGD(frozen.parameters(), lr=0.1)
try:
    with torch.no_grad():
        frozen.weight.mul_(0.5)
except RuntimeError as e:
    print("RuntimeError:", e)

# cloned into normal tensors, they train
fresh = nn.Linear(2, 1)
with torch.no_grad():
    fresh.weight.copy_(frozen.weight.clone())
    fresh.bias.copy_(frozen.bias.clone())
fresh_loss = fresh(x).pow(2).mean()
fresh_loss.backward()
print(fresh.weight.grad is not None, fresh.weight.is_inference())

# evaluation after training, in eval mode
model.eval()
with torch.inference_mode():
    pred = model(x)
print(pred, pred.is_inference())
