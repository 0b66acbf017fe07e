import torch
import torch.nn as nn

# A common blog pattern: a batch_first LSTM/GRU sequence classifier taking the last time step,
# trained a few steps with Adam.
torch.manual_seed(42)


class SeqClassifier(nn.Module):
    def __init__(self, input_size, hidden_size, num_layers, num_classes, cell=nn.LSTM):
        super().__init__()
        self.rnn = cell(input_size, hidden_size, num_layers, batch_first=True)
        self.fc = nn.Linear(hidden_size, num_classes)

    def forward(self, x):
        out, _ = self.rnn(x)
        return self.fc(out[:, -1, :])


x = torch.randn(8, 5, 4)
y = torch.randint(0, 3, (8,))
for cell in (nn.LSTM, nn.GRU, nn.RNN):
    model = SeqClassifier(4, 10, 2, 3, cell)
    out, h = model.rnn(x)
    print(model.rnn, out.shape, out.grad_fn)
    opt = torch.optim.Adam(model.parameters(), lr=0.01)
    crit = nn.CrossEntropyLoss()
    for _step in range(5):
        opt.zero_grad()
        loss = crit(model(x), y)
        loss.backward()
        opt.step()
    print(cell.__name__, round(loss.item(), 4))
    print(model(x).argmax(1))
