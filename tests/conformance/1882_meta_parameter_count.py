# "How big is this model?" without allocating it: build it on the meta device (the trick of the
# large-model tutorials), count parameters and bytes, check shapes through a forward pass.
import torch
import torch.nn as nn


class Block(nn.Module):
    def __init__(self, dim: int, hidden: int) -> None:
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        self.up = nn.Linear(dim, hidden)
        self.down = nn.Linear(hidden, dim)

    def forward(self, x):
        return x + self.down(torch.relu(self.up(self.norm(x))))


class TinyLM(nn.Module):
    def __init__(self, vocab: int, dim: int, depth: int) -> None:
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.blocks = nn.Sequential(*[Block(dim, 4 * dim) for _ in range(depth)])
        self.rnn = nn.GRU(dim, dim, batch_first=True)
        self.head = nn.Linear(dim, vocab, bias=False)

    def forward(self, ids):
        h, _ = self.rnn(self.blocks(self.embed(ids)))
        return self.head(h)


torch.manual_seed(0)
with torch.device("meta"):
    model = TinyLM(vocab=1000, dim=64, depth=3)
total = sum(p.numel() for p in model.parameters())
nbytes = sum(p.numel() * p.element_size() for p in model.parameters())
print(total, nbytes, all(p.is_meta for p in model.parameters()))
for name, p in list(model.named_parameters())[:6]:
    print(name, tuple(p.shape), p.device)
ids = torch.zeros(2, 7, dtype=torch.long, device="meta")
logits = model(ids)
print(logits.shape, logits.device, logits.grad_fn)
print(model.rnn.weight_hh_l0)
print(torch.randn(3))  # no draw happened while building on the meta device
model.to_empty(device="cpu")
print(model.head.weight.device, model.embed.weight.shape)
