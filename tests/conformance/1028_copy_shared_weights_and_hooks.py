# deepcopy keeps what is shared shared (tied weights, a model with its optimizer, one module
# in two places), copies forward hooks with the module, and runs a script class's own
# __copy__/__deepcopy__; the copy trains apart from the original.
import copy

import torch
from torch import nn

torch.manual_seed(1)


class Tied(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(5, 3)
        self.out = nn.Linear(3, 5, bias=False)
        self.out.weight = self.embed.weight
        self.blocks = nn.ModuleList([nn.Linear(3, 3), nn.Tanh()])
        self.blocks.append(self.blocks[0])

    def forward(self, idx):
        h = self.embed(idx)
        for block in self.blocks:
            h = block(h)
        return self.out(h)


model = Tied()
calls = []
model.blocks[1].register_forward_hook(lambda m, i, o: calls.append(tuple(o.shape)))
opt = torch.optim.SGD(model.parameters(), lr=0.5)
twin, twin_opt = copy.deepcopy((model, opt))
print(twin.out.weight is twin.embed.weight, twin.blocks[0] is twin.blocks[2])
print(twin_opt.param_groups[0]["params"][0] is twin.embed.weight)
print(len(list(twin.parameters())), twin_opt.param_groups[0]["lr"])
idx = torch.tensor([0, 3, 4])
for net, optimizer in ((model, opt), (twin, twin_opt)):
    optimizer.zero_grad()
    nn.functional.cross_entropy(net(idx), torch.tensor([1, 2, 0])).backward()
    optimizer.step()
print(calls)
print(torch.equal(model.embed.weight, twin.embed.weight))
twin_opt.zero_grad()
twin(idx).pow(2).mean().backward()
twin_opt.step()
print(torch.equal(model.embed.weight, twin.embed.weight), twin.out.weight is twin.embed.weight)
print(model.embed.weight.grad is None, twin.embed.weight.grad is None)


class Snapshot:
    def __init__(self, module, note):
        self.module = module
        self.note = note

    def __copy__(self):
        return Snapshot(self.module, self.note + " (shallow)")

    def __deepcopy__(self, memo):
        print("deep-copying", self.note)
        return Snapshot(copy.deepcopy(self.module, memo), self.note + " (deep)")


snap = Snapshot(model, "epoch 1")
shallow, deep = copy.copy(snap), copy.deepcopy(snap)
print(shallow.note, shallow.module is model)
print(deep.note, deep.module is model, torch.equal(deep.module.out.weight, model.out.weight))
pair = copy.deepcopy({"a": snap, "b": [snap]})
print(pair["a"] is pair["b"][0], pair["a"].module.blocks[0] is pair["a"].module.blocks[2])
