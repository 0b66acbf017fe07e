import torch
from torch import nn
from torch.nn import functional as F

# d2l 8.6 / 9.6 (zh: 循环神经网络的简洁实现): nn.RNN with a Linear head over one-hot tokens,
# begin_state, the output shapes, one step of gradient clipping and SGD.
torch.manual_seed(0)
num_hiddens, vocab_size = 32, 28
rnn_layer = nn.RNN(vocab_size, num_hiddens)
state = torch.zeros((1, 2, num_hiddens))
print(state.shape)
X = torch.rand((5, 2, vocab_size))
Y, state_new = rnn_layer(X, state)
print(Y.shape, state_new.shape)


class RNNModel(nn.Module):
    def __init__(self, rnn_layer, vocab_size, **kwargs):
        super().__init__(**kwargs)
        self.rnn = rnn_layer
        self.vocab_size = vocab_size
        self.num_hiddens = self.rnn.hidden_size
        if not self.rnn.bidirectional:
            self.num_directions = 1
            self.linear = nn.Linear(self.num_hiddens, self.vocab_size)
        else:
            self.num_directions = 2
            self.linear = nn.Linear(self.num_hiddens * 2, self.vocab_size)

    def forward(self, inputs, state):
        X = F.one_hot(inputs.T.long(), self.vocab_size)
        X = X.to(torch.float32)
        Y, state = self.rnn(X, state)
        output = self.linear(Y.reshape((-1, Y.shape[-1])))
        return output, state

    def begin_state(self, batch_size=1):
        if not isinstance(self.rnn, nn.LSTM):
            return torch.zeros(
                (self.num_directions * self.rnn.num_layers, batch_size, self.num_hiddens)
            )
        else:
            return (
                torch.zeros(
                    (self.num_directions * self.rnn.num_layers, batch_size, self.num_hiddens)
                ),
                torch.zeros(
                    (self.num_directions * self.rnn.num_layers, batch_size, self.num_hiddens)
                ),
            )


net = RNNModel(rnn_layer, vocab_size=vocab_size)
print(net)
inputs = torch.randint(0, vocab_size, (2, 5))
targets = torch.randint(0, vocab_size, (2, 5))
updater = torch.optim.SGD(net.parameters(), 1)
loss = nn.CrossEntropyLoss()
for step in range(3):
    state = net.begin_state(batch_size=2)
    y_hat, state = net(inputs, state)
    loss_value = loss(y_hat, targets.T.reshape(-1)).mean()
    updater.zero_grad()
    loss_value.backward()
    params = [p for p in net.parameters() if p.requires_grad]
    norm = torch.sqrt(sum(torch.sum(p.grad**2) for p in params))
    if norm > 1:
        for param in params:
            param.grad[:] *= 1 / norm
    updater.step()
    print(step, round(loss_value.item(), 4), round(norm.item(), 4))
print(y_hat.shape, state.shape, y_hat.grad_fn)
