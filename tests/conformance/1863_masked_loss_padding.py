# A masked token loss for padded batches (the seq2seq tutorials' pattern, with torch.masked):
# per-token cross entropy, masked mean, one SGD step.
import torch
import torch.nn.functional as F

torch.manual_seed(4)
vocab, batch, steps = 5, 2, 3
logits = torch.randn(batch, steps, vocab, requires_grad=True)
targets = torch.tensor([[1, 2, 0], [3, 0, 0]])
valid = targets != 0
per_token = F.cross_entropy(
    logits.reshape(-1, vocab), targets.reshape(-1), reduction="none"
).reshape(batch, steps)
print(per_token)
loss = torch.masked.mean(per_token, mask=valid)
print(loss)
loss.backward()
print(logits.grad[0, 2], logits.grad[1, 0])
print(logits.grad.abs().sum())
with torch.no_grad():
    logits -= 0.5 * logits.grad
print(
    torch.masked.mean(
        F.cross_entropy(logits.reshape(-1, vocab), targets.reshape(-1), reduction="none").reshape(
            batch, steps
        ),
        mask=valid,
    )
)
