import torch
import torch.nn as nn

# The initialisation U(-1/sqrt(hidden), 1/sqrt(hidden)) drawn in parameter order, so that
# manual_seed gives PyTorch's weights; nonlinearity='relu', bias=False, all_weights, and a
# custom re-initialisation as blog posts write it.
torch.manual_seed(7)
rnn = nn.RNN(2, 3, nonlinearity="relu", bias=False, num_layers=2)
print(rnn, rnn.nonlinearity, rnn.mode)
print(rnn.weight_ih_l0)
print(rnn.weight_hh_l1)
print([len(w) for w in rnn.all_weights])
out, h = rnn(torch.randn(4, 1, 2))
print(out.grad_fn, out[:, 0])
for name, param in rnn.named_parameters():
    if "weight_hh" in name:
        nn.init.orthogonal_(param)
    else:
        nn.init.xavier_uniform_(param)
print(rnn.weight_hh_l0)
gru = nn.GRU(2, 2)
print(gru.state_dict().keys())
print(gru.bias_ih_l0)
