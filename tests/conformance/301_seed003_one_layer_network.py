import torch

x = torch.ones(5)  # input tensor
y = torch.zeros(3)  # expected output
w = torch.tensor(
    [
        [0.3367, 0.1288, 0.2345],
        [0.2303, -1.1229, -0.1863],
        [2.2082, -0.6380, 0.4617],
        [0.2674, 0.5349, 0.8094],
        [1.1103, -1.6898, -0.9890],
    ],
    requires_grad=True,
)
b = torch.tensor([0.9580, 1.3221, 0.8172], requires_grad=True)
z = torch.matmul(x, w) + b
loss = torch.nn.functional.binary_cross_entropy_with_logits(z, y)
print(z)
print(loss)

print(f"Gradient function for z = {z.grad_fn}")
print(f"Gradient function for loss = {loss.grad_fn}")

loss.backward()
print(w.grad)
print(b.grad)
