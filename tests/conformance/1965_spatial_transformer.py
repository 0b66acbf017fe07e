# The PyTorch "Spatial Transformer Networks" tutorial's network on a small image batch: a
# localisation net regresses theta (initialised to the identity), F.affine_grid builds the
# sampling grid and F.grid_sample warps the input; one forward/backward/SGD step, then the
# samplers' modes, padding modes and align_corners on a hand-made rotation, and their errors
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim

torch.manual_seed(0)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 4, kernel_size=3)
        self.fc = nn.Linear(4 * 7 * 7, 3)
        # Spatial transformer localization-network
        self.localization = nn.Sequential(
            nn.Conv2d(1, 4, kernel_size=5),
            nn.MaxPool2d(2, stride=2),
            nn.ReLU(True),
            nn.Conv2d(4, 6, kernel_size=3),
            nn.MaxPool2d(2, stride=2),
            nn.ReLU(True),
        )
        # Regressor for the 3 * 2 affine matrix
        self.fc_loc = nn.Sequential(nn.Linear(6 * 2 * 2, 16), nn.ReLU(True), nn.Linear(16, 3 * 2))
        # Initialize the weights/bias with identity transformation
        self.fc_loc[2].weight.data.zero_()
        self.fc_loc[2].bias.data.copy_(torch.tensor([1, 0, 0, 0, 1, 0], dtype=torch.float))

    # Spatial transformer network forward function
    def stn(self, x):
        xs = self.localization(x)
        xs = xs.view(-1, 6 * 2 * 2)
        theta = self.fc_loc(xs)
        theta = theta.view(-1, 2, 3)
        grid = F.affine_grid(theta, x.size(), align_corners=False)
        x = F.grid_sample(x, grid, align_corners=False)
        return x, theta, grid

    def forward(self, x):
        x, theta, grid = self.stn(x)
        x = F.relu(F.max_pool2d(self.conv1(x), 2))
        x = x.view(-1, 4 * 7 * 7)
        return F.log_softmax(self.fc(x), dim=1), x, theta, grid


model = Net()
optimizer = optim.SGD(model.parameters(), lr=0.1)
data = torch.randn(2, 1, 16, 16)
target = torch.tensor([2, 0])
for step in range(2):
    optimizer.zero_grad()
    output, features, theta, grid = model(data)
    loss = F.nll_loss(output, target)
    loss.backward()
    print("step", step, "loss", round(loss.item(), 5))
    print(theta.grad_fn.name(), grid.grad_fn.name(), grid.shape)
    print(theta)
    print(model.fc_loc[2].weight.grad.abs().sum(), model.fc_loc[2].bias.grad)
    optimizer.step()
warped, theta, grid = model.stn(data)
print(warped.grad_fn.name(), warped.shape, warped[0, 0, 5:8, 5:8])

# A rotation by 30 degrees and a shift, sampled every way
angle = math.pi / 6
theta = torch.tensor(
    [[[math.cos(angle), -math.sin(angle), 0.2], [math.sin(angle), math.cos(angle), -0.1]]],
    requires_grad=True,
)
image = torch.arange(20.0).view(1, 1, 4, 5).requires_grad_()
for align in (True, False):
    grid = F.affine_grid(theta, (1, 1, 3, 4), align_corners=align)
    print(align, grid)
    for mode in ("bilinear", "nearest"):
        for padding in ("zeros", "border", "reflection"):
            out = F.grid_sample(image, grid, mode=mode, padding_mode=padding, align_corners=align)
            gx, gt = torch.autograd.grad(out.pow(2).sum(), (image, theta))
            print(mode, padding, out)
            print(gx, gt)
print(F.affine_grid(torch.eye(2, 3).unsqueeze(0), [1, 3, 1, 3], align_corners=False))
print(
    F.grid_sample(
        torch.ones(1, 2, 2, 2, dtype=torch.float64),
        torch.zeros(1, 1, 1, 2, dtype=torch.float64),
        align_corners=True,
    )
)
for bad in [
    lambda: F.grid_sample(image, grid, mode="linear"),
    lambda: F.grid_sample(image, grid, padding_mode="wrap"),
    lambda: F.grid_sample(image, torch.zeros(2, 3, 4, 2), align_corners=True),
    lambda: F.grid_sample(image, torch.zeros(1, 3, 4, 3), align_corners=True),
    lambda: F.grid_sample(image.detach().double(), grid, align_corners=True),
    lambda: F.affine_grid(torch.zeros(1, 3, 3), (1, 1, 4, 5), align_corners=False),
    lambda: F.affine_grid(torch.zeros(1, 2, 3), (1, 1, 4), align_corners=False),
    lambda: F.affine_grid(
        torch.zeros(1, 2, 3, dtype=torch.long), (1, 1, 4, 4), align_corners=False
    ),
]:
    try:
        bad()
    except Exception as ex:
        print(type(ex).__name__, ex)
