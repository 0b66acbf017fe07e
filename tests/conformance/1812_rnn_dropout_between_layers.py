import torch
import torch.nn as nn

# dropout between stacked layers (drawn from the global generator in training only), train()
# and eval(), and the warning for dropout with one layer.
torch.manual_seed(0)
rnn = nn.GRU(3, 4, num_layers=3, dropout=0.5)
print(rnn)
x = torch.randn(2, 1, 3)
out1, _ = rnn(x)
out2, _ = rnn(x)
print(out1[-1], out2[-1])
rnn.eval()
out3, _ = rnn(x)
out4, _ = rnn(x)
print(torch.equal(out3, out4), out3[-1])
print(torch.rand(2))
lstm = nn.LSTM(3, 4, num_layers=2, dropout=0.25)
print(lstm(x)[0][-1])
