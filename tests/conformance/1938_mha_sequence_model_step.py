# A tiny sequence model (embedding, self-attention with a residual and LayerNorm, mean pooling,
# a classifier) trained a few steps with Adam, as in attention-classifier tutorials.
import torch
import torch.nn as nn
import torch.nn.functional as F


class AttentionClassifier(nn.Module):
    def __init__(self, vocab_size, embed_dim, num_heads, num_classes):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, embed_dim, padding_idx=0)
        self.attn = nn.MultiheadAttention(embed_dim, num_heads, dropout=0.1, batch_first=True)
        self.norm = nn.LayerNorm(embed_dim)
        self.fc = nn.Linear(embed_dim, num_classes)

    def forward(self, tokens):
        padding = tokens == 0
        x = self.embedding(tokens)
        attended, weights = self.attn(x, x, x, key_padding_mask=padding)
        x = self.norm(x + attended)
        keep = (~padding).unsqueeze(-1).float()
        pooled = (x * keep).sum(1) / keep.sum(1)
        return self.fc(pooled), weights


torch.manual_seed(0)
model = AttentionClassifier(vocab_size=12, embed_dim=8, num_heads=2, num_classes=3)
print(model)
print(sum(p.numel() for p in model.parameters()))
tokens = torch.tensor([[3, 5, 7, 0, 0], [2, 4, 6, 8, 10], [11, 1, 0, 0, 0]])
labels = torch.tensor([0, 2, 1])
optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
for step in range(3):
    optimizer.zero_grad()
    logits, weights = model(tokens)
    loss = F.cross_entropy(logits, labels)
    loss.backward()
    optimizer.step()
    print(step, loss.item())
print(weights[0])
print(model.attn.in_proj_weight.grad[:2])
print(model.attn.out_proj.bias.grad)
print(model.embedding.weight.grad[0])
model.eval()
with torch.no_grad():
    logits, weights = model(tokens)
print(logits)
print(logits.argmax(1))
