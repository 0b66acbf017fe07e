# Dive into Deep Learning's style: a shuffled data_iter generator (random.shuffle), linear
# regression from scratch, and a Counter-based vocabulary with sorted token frequencies.
import collections
import random

import torch

random.seed(7)
true_w = torch.tensor([2.0, -3.4])
true_b = 4.2
features = torch.tensor([[random.gauss(0, 1), random.gauss(0, 1)] for _ in range(100)])
labels = (features @ true_w + true_b).reshape(-1, 1)


def data_iter(batch_size, features, labels):
    num_examples = len(features)
    indices = list(range(num_examples))
    random.shuffle(indices)
    for i in range(0, num_examples, batch_size):
        batch_indices = torch.tensor(indices[i : min(i + batch_size, num_examples)])
        yield features[batch_indices], labels[batch_indices]


w = torch.zeros((2, 1), requires_grad=True)
b = torch.zeros(1, requires_grad=True)
lr, batch_size = 0.03, 10
for epoch in range(3):
    for X, y in data_iter(batch_size, features, labels):
        loss = ((X @ w + b - y) ** 2 / 2).sum()
        loss.backward()
        with torch.no_grad():
            for param in (w, b):
                param -= lr * param.grad / batch_size
                param.grad.zero_()
    with torch.no_grad():
        train_l = ((features @ w + b - labels) ** 2 / 2).mean()
    print(f"epoch {epoch + 1}, loss {float(train_l):f}")
print(f"error in estimating w: {(true_w - w.reshape(true_w.shape)).tolist()}")
print(f"error in estimating b: {(true_b - b).tolist()}")

lines = ["the time machine by h g wells", "the time traveller for so it will be", "it was"]
tokens = [token for line in lines for token in line.split()]
counter = collections.Counter(tokens)
token_freqs = sorted(counter.items(), key=lambda x: x[1], reverse=True)
idx_to_token = ["<unk>"] + [token for token, freq in token_freqs if freq >= 1]
token_to_idx = {token: idx for idx, token in enumerate(idx_to_token)}
print(token_freqs[:4], len(idx_to_token), [token_to_idx[t] for t in lines[2].split()])
