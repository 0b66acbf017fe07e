import torch

# gradgradcheck draws its random grad_outputs from the global generator (uniform_(-1, 1), one
# tensor per differentiable output); gradcheck draws nothing. The numbers drawn after them show
# the stream's position.


def cube(x):
    return x**3


def two_outputs(x, y):
    return x * y, (x + y).sum()


torch.manual_seed(0)
x = torch.randn(3, dtype=torch.float64, requires_grad=True)
y = torch.randn(3, dtype=torch.float64, requires_grad=True)
print(torch.autograd.gradcheck(cube, (x,)), torch.rand(2))
print(torch.autograd.gradgradcheck(cube, (x,)), torch.rand(2))
print(torch.autograd.gradgradcheck(two_outputs, (x, y)), torch.randn(3))
print(torch.autograd.gradgradcheck(cube, (x,), torch.ones(3, dtype=torch.float64)), torch.rand(1))

# dropout draws nothing when p is 0 or 1, in eval mode, or for an empty input
d = torch.nn.Dropout(0.5)
d.eval()
print(
    torch.nn.functional.dropout(torch.ones(4), 0.0), torch.nn.functional.dropout(torch.ones(4), 1.0)
)
print(d(torch.ones(3)), torch.rand(2))

# every DataLoader iterator draws a base seed, shuffled or not
loader = torch.utils.data.DataLoader(torch.arange(6), batch_size=4)
print([b.tolist() for b in loader], torch.rand(2))
shuffled = torch.utils.data.DataLoader(torch.arange(6), batch_size=4, shuffle=True)
print(next(iter(shuffled)), torch.randint(0, 100, (3,)))
