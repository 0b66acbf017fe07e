import math

import torch
import torch.nn as nn

# A blog classic: predicting a sine wave's next value with an LSTM (float64, as the PyTorch
# examples/time_sequence_prediction does with .double()).
torch.manual_seed(0)
t = torch.linspace(0, 4 * math.pi, 41, dtype=torch.float64)
wave = torch.sin(t)
x = wave[:-1].reshape(1, -1, 1)
y = wave[1:].reshape(1, -1, 1)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(1, 8, batch_first=True)
        self.head = nn.Linear(8, 1)

    def forward(self, x):
        out, _ = self.lstm(x)
        return self.head(out)


net = Net().double()
out = net(x)
print(out.shape, out.dtype, net.lstm(x)[0].grad_fn)
opt = torch.optim.Adam(net.parameters(), lr=0.05)
for epoch in range(20):
    opt.zero_grad()
    loss = nn.functional.mse_loss(net(x), y)
    loss.backward()
    opt.step()
    if epoch % 5 == 0:
        print(epoch, f"{loss.item():.6f}")
print(net(x)[0, :5, 0])
