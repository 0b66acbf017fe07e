# Every legacy class from the same data: dtype, printed value, .type() and element size.
import torch

data = [[-1.5, 0.0], [2.7, 3.2]]
for cls in (
    torch.FloatTensor,
    torch.DoubleTensor,
    torch.HalfTensor,
    torch.LongTensor,
    torch.IntTensor,
    torch.ShortTensor,
    torch.CharTensor,
    torch.BoolTensor,
):
    t = cls(data)
    print(cls.__name__, t.dtype, t.type(), t.element_size())
    print(t)
print(torch.ByteTensor([[1, 0], [255, 7]]), torch.ByteTensor([-1]))
print(torch.FloatTensor([True, False]), torch.FloatTensor(range(3)), torch.FloatTensor((1, 2)))
print(torch.FloatTensor([torch.tensor(1.5), torch.tensor(2)]))
