# Evaluating a model under inference_mode: same numbers as no_grad, outputs are inference tensors
import torch
import torch.nn as nn

torch.manual_seed(7)
model = nn.Sequential(nn.Linear(3, 5), nn.ReLU(), nn.Linear(5, 2))
data = torch.randn(4, 3)

with torch.no_grad():
    ref = model(data)
with torch.inference_mode():
    out = model(data)
    probs = torch.softmax(out, dim=1)
    pred = probs.argmax(dim=1)
print(ref)
print(out)
print(torch.equal(ref, out), out.is_inference(), ref.is_inference())
print(probs, pred, pred.is_inference())
print(out.requires_grad, out.grad_fn)
print([p.is_inference() for p in model.parameters()])

# the outputs cannot join a graph that saves them
target = torch.tensor([1, 0, 1, 1])
scale = torch.ones(2, requires_grad=True)
try:
    loss = nn.functional.cross_entropy(out * scale, target)
except RuntimeError as e:
    print("RuntimeError:", e)
loss = nn.functional.cross_entropy(out.clone() * scale, target)
loss.backward()
print(loss, scale.grad)

# a model built inside inference mode has inference parameters
with torch.inference_mode():
    frozen = nn.Linear(2, 2)
print(frozen.weight.is_inference(), frozen.weight.requires_grad)


@torch.inference_mode()
def evaluate(m, batch):
    return m(batch).mean(dim=0)


print(evaluate(model, data), evaluate(model, data).is_inference())
print(torch.is_inference_mode_enabled(), torch.is_grad_enabled())
