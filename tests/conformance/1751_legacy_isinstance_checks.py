# Old utilities branch on isinstance(x, torch.FloatTensor) and friends.
import torch


def describe(t):
    for cls in (
        torch.FloatTensor,
        torch.DoubleTensor,
        torch.LongTensor,
        torch.IntTensor,
        torch.ByteTensor,
        torch.BoolTensor,
        torch.HalfTensor,
    ):
        if isinstance(t, cls):
            return cls.__name__
    return "other"


for t in (
    torch.randn(2),
    torch.zeros(2, dtype=torch.float64),
    torch.arange(3),
    torch.tensor([1, 2], dtype=torch.int32),
    torch.tensor([1], dtype=torch.uint8),
    torch.tensor([True]),
    torch.ones(1).half(),
    torch.nn.Parameter(torch.ones(2)),
):
    print(describe(t), type(t).__name__, t.type())
print(isinstance(3.0, torch.FloatTensor), isinstance([1.0], torch.FloatTensor))
print(issubclass(torch.FloatTensor, torch.Tensor), issubclass(torch.Tensor, torch.FloatTensor))
print(isinstance(torch.ones(1), (torch.DoubleTensor, torch.FloatTensor)))
print(torch.FloatTensor, torch.LongTensor, torch.BFloat16Tensor, torch.cuda.FloatTensor)
print(torch.FloatTensor.dtype, torch.ByteTensor.dtype, torch.FloatTensor.is_cuda)
