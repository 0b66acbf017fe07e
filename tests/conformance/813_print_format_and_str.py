import torch

x = torch.tensor([1.0, 2.5])
print(str(x))
print(repr(x))
print("value: " + str(x))
print(f"{x}")
print("%s" % x)  # noqa: UP031
print([torch.tensor(1), torch.tensor(2.0)])
print({"a": torch.tensor([1.0])})
print(torch.tensor(2.5).item(), f"{torch.tensor(2.5).item():.3f}")
print(f"{torch.tensor(2.5):.2f}")
print(format(torch.tensor(3.0)))
