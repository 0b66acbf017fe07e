import torch

x = torch.randn(10, 10, requires_grad=True)
linear = torch.nn.Linear(10, 1)
coin = torch.rand(1) > 0.5
print(coin.dtype, coin.shape)
if coin:
    output = linear(x).relu()  # ReLU activation
else:
    output = linear(x).sigmoid()  # Sigmoid activation
loss = output.mean()
loss.backward()

# the values are random; the structure is not
print(output.shape, output.requires_grad)
print(type(output.grad_fn).__name__ in ("ReluBackward0", "SigmoidBackward0"))
print(loss.shape, loss.grad_fn.name())
print(linear.weight.shape, linear.bias.shape)
print(linear.weight.requires_grad, linear.weight.is_leaf)
print(x.grad.shape, linear.weight.grad.shape, linear.bias.grad.shape)
