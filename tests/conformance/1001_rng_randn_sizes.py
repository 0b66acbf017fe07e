import torch

# randn makes normals one pair at a time for small tensors and 16 at a time from 16 elements on:
# every size must still give PyTorch's numbers.
for n in (1, 2, 5, 15, 16, 17, 31, 32, 33, 50):
    torch.manual_seed(3)
    x = torch.randn(n)
    print(n, x[:4], x[-3:], round(x.sum().item(), 3))

torch.manual_seed(3)
print(torch.randn(4, 4))
print(torch.randn(2, 3, 4).mean(dim=(1, 2)))
torch.manual_seed(3)
print(torch.randn(20, dtype=torch.float64)[-4:])

# odd counts keep the second normal of a pair for the next call
torch.manual_seed(5)
print(torch.randn(1), torch.randn(1), torch.randn(3), torch.randn(1))
torch.manual_seed(5)
print(torch.randn(2))

big = torch.randn(1000)
print(round(big.mean().item(), 4), round(big.std().item(), 4))
print(big.min(), big.max())
torch.manual_seed(11)
m = torch.randn(100, 100)
print(m[0, :5], m[-1, -5:])
print(m.abs().max(), m.sum(dim=0)[:3])
