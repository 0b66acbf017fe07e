# Building a model on the meta device and materialising it later, as the tutorials on
# big-model initialisation show: nn layers with device="meta", `with torch.device("meta")`,
# Module.to_empty(device=...), then reset_parameters() or load_state_dict(). Meta parameters draw
# no random numbers, so the generator is where it was.
import torch
import torch.nn as nn

torch.manual_seed(0)
lin = nn.Linear(4, 2, device="meta")
print(lin, lin.weight, lin.bias)
print(lin.weight.device, [p.is_meta for p in lin.parameters()])
out = lin(torch.empty(5, 4, device="meta"))
print(out, out.grad_fn)
print(torch.rand(2))  # the same numbers as without the meta layer above

with torch.device("meta"):
    model = nn.Sequential(nn.Linear(3, 8), nn.Tanh(), nn.Linear(8, 1))
print(model[0].weight, model[2].bias)
print(sum(p.numel() for p in model.parameters()), model[0].weight.requires_grad)
print(torch.ones(2))  # outside the block: the CPU again

same = model.to_empty(device="cpu")
print(same is model, model[0].weight.device, model[0].weight.shape, type(model[0].weight).__name__)
torch.manual_seed(1)
for layer in model:
    if isinstance(layer, nn.Linear):
        layer.reset_parameters()
print(model[0].weight)
x = torch.linspace(-1, 1, 6).unsqueeze(1).repeat(1, 3)
loss = model(x).pow(2).mean()
loss.backward()
print(loss, model[2].weight.grad)

reference = nn.Sequential(nn.Linear(3, 8), nn.Tanh(), nn.Linear(8, 1))
with torch.device("meta"):
    restored = nn.Sequential(nn.Linear(3, 8), nn.Tanh(), nn.Linear(8, 1))
restored.to_empty(device="cpu")
print(restored.load_state_dict(reference.state_dict()))
print(torch.equal(restored(x), reference(x)), restored[2].bias)

emb = nn.Embedding(10, 3, device="meta")
norm = nn.LayerNorm(3, device="meta")
print(emb.weight, norm(emb(torch.tensor([1, 2]).to("meta"))).shape)
moved = nn.Linear(2, 2).to("meta")
print(moved.weight, moved.weight.grad)
try:
    moved.to("cpu")
except NotImplementedError as e:
    print("NotImplementedError:", e)
try:
    moved(torch.ones(1, 2))
except RuntimeError as e:
    print("RuntimeError:", e)
