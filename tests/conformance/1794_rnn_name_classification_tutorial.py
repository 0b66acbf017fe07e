import torch
import torch.nn as nn

# PyTorch tutorial "NLP From Scratch: Classifying Names with a Character-Level RNN": the model
# (nn.RNN + Linear + LogSoftmax), a one-hot line tensor, one training step with NLLLoss.
all_letters = "abcdefghijklmnopqrstuvwxyz .,;'"
n_letters = len(all_letters)


def letterToIndex(letter):
    return all_letters.find(letter)


def lineToTensor(line):
    tensor = torch.zeros(len(line), 1, n_letters)
    for li, letter in enumerate(line):
        tensor[li][0][letterToIndex(letter)] = 1
    return tensor


class CharRNN(nn.Module):
    def __init__(self, input_size, hidden_size, output_size):
        super().__init__()
        self.rnn = nn.RNN(input_size, hidden_size)
        self.h2o = nn.Linear(hidden_size, output_size)
        self.softmax = nn.LogSoftmax(dim=1)

    def forward(self, line_tensor):
        rnn_out, hidden = self.rnn(line_tensor)
        output = self.h2o(hidden[0])
        output = self.softmax(output)
        return output


torch.manual_seed(0)
n_hidden = 128
rnn = CharRNN(n_letters, n_hidden, 18)
print(rnn)
input = lineToTensor("albert")
output = rnn(input)
print(output.shape, output.grad_fn)
print(output[0, :6])
criterion = nn.NLLLoss()
optimizer = torch.optim.SGD(rnn.parameters(), lr=0.15)
for step in range(5):
    output = rnn(lineToTensor("satoshi"))
    loss = criterion(output, torch.tensor([3]))
    optimizer.zero_grad()
    loss.backward()
    nn.utils.clip_grad_norm_(rnn.parameters(), 3)
    optimizer.step()
    print(step, round(loss.item(), 4))
print(output.topk(1))
