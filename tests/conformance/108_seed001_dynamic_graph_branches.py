import torch

# both branches of the seed's example 6, with fixed weights instead of random ones
x = torch.tensor([[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]], requires_grad=True)
linear = torch.nn.Linear(3, 1)
with torch.no_grad():
    linear.weight.copy_(torch.tensor([[0.2, -0.4, 0.1]]))
    linear.bias.fill_(0.05)
for use_relu in (True, False):
    if use_relu:
        output = linear(x).relu()
    else:
        output = linear(x).sigmoid()
    loss = output.mean()
    loss.backward()
    print(output)
    print(loss)
    print(x.grad)
    print(linear.weight.grad)
    print(linear.bias.grad)
    x.grad = None
    linear.weight.grad = None
    linear.bias.grad = None
