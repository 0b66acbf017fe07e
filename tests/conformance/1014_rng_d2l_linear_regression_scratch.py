import torch

# golden-tolerance: 4 float32 ulps at 3.4
# `true_w - w` below cancels w (|w| <= 3.4) down to 7e-4, so its printed digits show w's last
# bits. Each SGD step's matmul sums its batch in an order set by the CPU's BLAS kernel (OpenBLAS's
# AVX-512 kernel differs from its AVX2 one) and rounds w to float32 again; SGD on this quadratic
# shrinks older rounding errors, so w ends within a few float32 ulps at 3.4 (2.4e-7 each) of
# PyTorch's: 1 ulp is seen (-7.1406e-04 against -7.1383e-04), 4 are allowed (9.5e-7 absolute).


# Dive into Deep Learning, 3.2: linear regression from scratch.
def synthetic_data(w, b, num_examples):
    X = torch.normal(0, 1, (num_examples, len(w)))
    y = torch.matmul(X, w) + b
    y += torch.normal(0, 0.01, y.shape)
    return X, y.reshape((-1, 1))


torch.manual_seed(0)
true_w = torch.tensor([2, -3.4])
true_b = 4.2
features, labels = synthetic_data(true_w, true_b, 1000)
print("features:", features[0], "\nlabel:", labels[0])


def data_iter(batch_size, features, labels):
    num_examples = len(features)
    indices = torch.randperm(num_examples)
    batches = []
    for i in range(0, num_examples, batch_size):
        batch_indices = indices[i : min(i + batch_size, num_examples)]
        batches.append((features[batch_indices], labels[batch_indices]))
    return batches


w = torch.normal(0, 0.01, size=(2, 1), requires_grad=True)
b = torch.zeros(1, requires_grad=True)
print(w)


def linreg(X, w, b):
    return torch.matmul(X, w) + b


def squared_loss(y_hat, y):
    return (y_hat - y.reshape(y_hat.shape)) ** 2 / 2


def sgd(params, lr, batch_size):
    with torch.no_grad():
        for param in params:
            param -= lr * param.grad / batch_size
            param.grad.zero_()


lr, num_epochs, batch_size = 0.03, 3, 10
for epoch in range(num_epochs):
    for X, y in data_iter(batch_size, features, labels):
        loss = squared_loss(linreg(X, w, b), y)
        loss.sum().backward()
        sgd([w, b], lr, batch_size)
    with torch.no_grad():
        train_l = squared_loss(linreg(features, w, b), labels)
        print(f"epoch {epoch + 1}, loss {float(train_l.mean()):f}")

print(f"error in w: {true_w - w.reshape(true_w.shape)}")
print(f"error in b: {true_b - b}")
