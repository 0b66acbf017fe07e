# torch.poisson for count data (simulated spike counts / event counts with given rates, as in
# the torch.poisson docs and Poisson-noise augmentation): the same counts as PyTorch under
# manual_seed and with a Generator, small and large rates, PoissonBackward0's zero gradient
import torch

torch.manual_seed(0)
rates = torch.rand(4, 4) * 5
print(rates)
print(torch.poisson(rates))

g = torch.Generator().manual_seed(42)
print(torch.poisson(torch.tensor([0.0, 0.5, 3.0, 9.9, 10.0, 50.0, 1000.0]), generator=g))

# Poisson noise on an "image" of photon counts
torch.manual_seed(1)
image = torch.tensor([[10.0, 20.0], [30.0, 40.0]], dtype=torch.float64)
noisy = torch.poisson(image)
print(noisy, noisy.dtype)
print(torch.poisson(torch.full((1000,), 4.0)).mean())

lam = torch.tensor([2.0, 7.0], requires_grad=True)
counts = torch.poisson(lam)
print(counts, counts.grad_fn)
counts.sum().backward()
print(lam.grad)
try:
    torch.poisson(torch.tensor([-1.0]))
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.poisson(torch.tensor([1, 2]))
except NotImplementedError as e:
    print("NotImplementedError:", e)
