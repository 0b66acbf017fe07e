# torch.finfo / torch.iinfo: eps for a safe log, min for a masked softmax (the attention
# pattern of the PyTorch tutorials), the limits of every dtype, and the errors.
import torch

for d in [torch.float32, torch.float64, torch.float16]:
    f = torch.finfo(d)
    print(f)
    print(
        f.bits, f.eps, f.max, f.min, f.tiny, f.smallest_normal, f.resolution, f.dtype, type(f.eps)
    )
print(torch.finfo())
print(torch.finfo(type=torch.float64).eps)
for d in [
    torch.int8,
    torch.uint8,
    torch.int16,
    torch.int32,
    torch.int64,
    torch.bool,
    torch.float32,
]:
    try:
        i = torch.iinfo(d)
        print(repr(i), i.bits, i.min, i.max, i.dtype, type(i.max))
    except TypeError as e:
        print("TypeError", e)
for bad in [torch.int32, torch.bool, 3, "float32"]:
    try:
        torch.finfo(bad)
    except TypeError as e:
        print("TypeError", e)
try:
    torch.iinfo()
except TypeError as e:
    print("TypeError", e)
print(
    torch.finfo(torch.float32) == torch.finfo(torch.float32),
    torch.finfo(torch.float32) == torch.finfo(torch.float64),
)
print(torch.iinfo(torch.int8) == torch.iinfo(torch.int8), torch.finfo(torch.float32) == 1)
print(type(torch.finfo(torch.float32)), torch.finfo.__name__)
x = torch.tensor([0.0, 1.0, 2.0], requires_grad=True)
y = torch.log(x + torch.finfo(x.dtype).eps)
y.sum().backward()
print(y, x.grad)
scores = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
mask = torch.tensor([[True, False], [False, True]])
print(scores.masked_fill(~mask, torch.finfo(scores.dtype).min).softmax(dim=-1))
print(
    torch.clamp(torch.tensor([300, -300]), torch.iinfo(torch.int8).min, torch.iinfo(torch.int8).max)
)
try:
    hash(torch.finfo(torch.float32))
except TypeError as e:
    print("TypeError", e)
