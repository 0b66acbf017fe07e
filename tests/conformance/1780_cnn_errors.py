# the messages of bad shapes, as a learner meets them (wrong channels, too small input, flatten size)
import torch
import torch.nn as nn
import torch.nn.functional as F


def attempt(f):
    try:
        f()
        print("ok")
    except Exception as e:
        print(type(e).__name__ + ":", e)


x = torch.randn(2, 3, 8, 8)
attempt(lambda: nn.Conv2d(1, 6, 5)(x))
attempt(lambda: F.conv2d(x, torch.randn(4, 3, 9, 9)))
attempt(lambda: F.conv2d(torch.randn(8, 8), torch.randn(4, 3, 3, 3)))
attempt(lambda: nn.Conv2d(3, 6, 5, groups=2))
attempt(lambda: F.conv2d(x, torch.randn(4, 3, 3, 3), stride=2, padding="same"))
attempt(lambda: F.conv2d(x, torch.randn(4, 3, 3, 3), padding="foo"))
attempt(lambda: F.conv2d(x, torch.randn(4, 3, 3, 3), bias=torch.randn(3)))
attempt(lambda: F.max_pool2d(x, 9))
attempt(lambda: F.max_pool2d(x, 2, padding=2))
attempt(lambda: nn.Linear(16 * 5 * 5, 120)(torch.randn(4, 16 * 4 * 4)))
attempt(lambda: F.conv2d(x, torch.randn(4, 3, 3, 3), stride=0))
attempt(lambda: F.conv2d(x, torch.randn(4, 3, 3, 3), padding=-1))
attempt(lambda: F.adaptive_avg_pool2d(torch.randn(8), 2))
attempt(lambda: F.interpolate(x, mode="bilinear"))
attempt(lambda: F.interpolate(x, size=3, scale_factor=2))
attempt(lambda: F.interpolate(x, size=4, mode="nearest", align_corners=True))
attempt(lambda: F.fold(torch.randn(1, 27, 35), (8, 8), 3))
attempt(lambda: F.conv_transpose2d(x, torch.randn(4, 3, 3, 3)))
attempt(lambda: F.conv_transpose2d(x, torch.randn(3, 2, 3, 3), stride=2, output_padding=2))
attempt(lambda: F.conv2d(x.double(), torch.randn(4, 3, 3, 3)))
