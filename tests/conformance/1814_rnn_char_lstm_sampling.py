import torch
import torch.nn as nn

# A char-level LSTM language model (Karpathy's char-rnn, ported in many blog posts): training a
# few steps on a tiny text and sampling with torch.multinomial, carrying (h, c) step to step.
text = "hello world, hello lstm"
chars = sorted(set(text))
stoi = {ch: i for i, ch in enumerate(chars)}
itos = {i: ch for ch, i in stoi.items()}
data = torch.tensor([stoi[c] for c in text])
torch.manual_seed(3)


class CharLSTM(nn.Module):
    def __init__(self, vocab, hidden):
        super().__init__()
        self.embed = nn.Embedding(vocab, 8)
        self.lstm = nn.LSTM(8, hidden, batch_first=True)
        self.out = nn.Linear(hidden, vocab)

    def forward(self, x, state=None):
        y, state = self.lstm(self.embed(x), state)
        return self.out(y), state


model = CharLSTM(len(chars), 16)
opt = torch.optim.RMSprop(model.parameters(), lr=0.01)
xb, yb = data[:-1].unsqueeze(0), data[1:].unsqueeze(0)
for step in range(15):
    logits, _ = model(xb)
    loss = nn.functional.cross_entropy(logits.view(-1, len(chars)), yb.view(-1))
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 5 == 0:
        print(step, f"{loss.item():.4f}")
with torch.no_grad():
    x = torch.tensor([[stoi["h"]]])
    state = None
    out = "h"
    for _ in range(10):
        logits, state = model(x, state)
        probs = torch.softmax(logits[0, -1], dim=0)
        ix = torch.multinomial(probs, 1).item()
        out += itos[ix]
        x = torch.tensor([[ix]])
    print(repr(out), state[0].shape)
