# d2l 3.6: picking the predicted probability of each label with y_hat[range(len(y_hat)), y]
import torch

y = torch.tensor([0, 2])
y_hat = torch.tensor([[0.1, 0.3, 0.6], [0.3, 0.2, 0.5]], requires_grad=True)
print(y_hat[[0, 1], y])
print(y_hat[range(len(y_hat)), y])


def cross_entropy(y_hat, y):
    return -torch.log(y_hat[range(len(y_hat)), y])


loss = cross_entropy(y_hat, y)
print(loss, loss.grad_fn)
loss.sum().backward()
print(y_hat.grad)
picked = y_hat[range(2), y]
print(picked.grad_fn, picked.grad_fn._saved_indices)
