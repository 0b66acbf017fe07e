# nn.Flatten and nn.Unflatten in a conv autoencoder-style Sequential (PyTorch docs' examples)
import torch
import torch.nn as nn

torch.manual_seed(0)
input = torch.randn(32, 1, 5, 5)
m = nn.Sequential(nn.Conv2d(1, 32, 5, 1, 1), nn.Flatten())
output = m(input)
print(output.size())
m = nn.Sequential(nn.Flatten(0, 2))
print(m(input).size())
input = torch.randn(2, 50)
m = nn.Sequential(nn.Linear(50, 50), nn.Unflatten(1, (2, 5, 5)))
output = m(input)
print(m, output.size(), output.grad_fn)
decoder = nn.Sequential(
    nn.Linear(4, 8 * 2 * 2),
    nn.ReLU(),
    nn.Unflatten(1, (8, 2, 2)),
    nn.ConvTranspose2d(8, 4, 3, stride=2, padding=1, output_padding=1),
    nn.ReLU(),
    nn.ConvTranspose2d(4, 1, 3, stride=2, padding=1, output_padding=1),
    nn.Sigmoid(),
)
print(decoder)
z = torch.randn(3, 4)
img = decoder(z)
print(img.shape)
print(img[0, 0])
img.mean().backward()
print(decoder[3].weight.grad.shape, decoder[3].bias.grad)
