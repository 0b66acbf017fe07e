import torch

# A tiny character-level RNN in the style of the classic min-char-rnn tutorials:
# weights from randn * 0.01, a tanh recurrence, sampling with multinomial.
torch.manual_seed(0)
vocab = list("hello world")
chars = sorted(set(vocab))
V, H = len(chars), 12
Wxh = torch.randn(H, V) * 0.01
Whh = torch.randn(H, H) * 0.01
Why = torch.randn(V, H) * 0.01
bh = torch.zeros(H, 1)
by = torch.zeros(V, 1)
for p in (Wxh, Whh, Why, bh, by):
    p.requires_grad_()
print(Wxh[:2, :4])

data = [chars.index(c) for c in "hello world"]
params = [Wxh, Whh, Why, bh, by]
for step in range(60):
    h = torch.zeros(H, 1)
    loss = 0
    for t in range(len(data) - 1):
        x = torch.zeros(V, 1)
        x[data[t]] = 1
        h = torch.tanh(Wxh @ x + Whh @ h + bh)
        logits = (Why @ h + by).t()
        loss = loss + torch.nn.functional.cross_entropy(logits, torch.tensor([data[t + 1]]))
    for p in params:
        p.grad = None
    loss.backward()
    with torch.no_grad():
        for p in params:
            p -= 0.1 * p.grad
    if step % 20 == 0:
        print(step, round(loss.item(), 4))


def sample(seed_ix, n):
    x = torch.zeros(V, 1)
    x[seed_ix] = 1
    h = torch.zeros(H, 1)
    out = []
    with torch.no_grad():
        for _ in range(n):
            h = torch.tanh(Wxh @ x + Whh @ h + bh)
            p = torch.softmax((Why @ h + by).flatten(), dim=0)
            ix = torch.multinomial(p, 1).item()
            x = torch.zeros(V, 1)
            x[ix] = 1
            out.append(chars[ix])
    return "".join(out)


torch.manual_seed(1)
print(repr(sample(chars.index("h"), 20)))
