# torch.device, torch.cuda and torch.backends of a CPU-only build: the usual
# `device = torch.device("cuda" if torch.cuda.is_available() else "cpu")` idiom, .to(device),
# device= arguments, and the errors for devices that are not there.
import torch
import torch.nn as nn

d = torch.device("cpu")
print(d, repr(d), d.type, d.index, str(d))
print(d == torch.device("cpu"), d == "cpu", torch.device("cpu", 0), torch.device("cpu:0"))
print(torch.device("cuda"), torch.device("cuda:1").index, torch.device(d))
x = torch.ones(2)
print(x.device, repr(x.device), x.device == d, x.device.type)
print(torch.zeros(2, device=d), torch.ones(1, device=torch.device("cpu")))
print(hash(d) == hash(torch.device("cpu")))
print({d: 1}[torch.device("cpu")])
for bad in ("gpu", "cpu:x", 3.5):
    try:
        torch.device(bad)
    except Exception as e:
        print(type(e).__name__, e)
try:
    x.to(torch.device("cuda"))
except Exception as e:
    print(type(e).__name__, e)
try:
    x.to("cuda")
except Exception as e:
    print(type(e).__name__, e)
try:
    torch.ones(2, device="cuda")
except Exception as e:
    print(type(e).__name__, e)
print(x.to(d) is x, x.cpu() is x)
print(type(d).__name__, isinstance(d, torch.device))


m = nn.Linear(2, 1)
print(m.to("cpu") is m, m.cpu() is m)
print(m.to(torch.device("cpu")) is m)
m2 = m.double()
print(m2.weight.dtype, m.to(torch.float32).weight.dtype)
print(m.to("cpu", torch.float64).weight.dtype)
print(m.to(dtype=torch.float16).bias.dtype)
x = torch.ones(2, 3)
print(x.to("cpu").dtype, x.to("cpu", torch.int64), x.cpu().dtype)
print(torch.device("cpu"), x.device, m.weight.device)
t = torch.zeros(2, device="cpu")
print(t, x.is_cuda, torch.cuda.is_available())
device = "cuda" if torch.cuda.is_available() else "cpu"
print(device, torch.ones(2).to(device))

d = torch.device("cpu")
fns = {
    "linspace": lambda: torch.linspace(0, 1, 3, device=d),
    "logspace": lambda: torch.logspace(0, 1, 3, device=d),
    "empty": lambda: torch.empty(2, device=d).shape,
    "randint": lambda: torch.randint(0, 5, (2,), device=d).shape,
    "randperm": lambda: torch.randperm(3, device=d).shape,
    "randn_like": lambda: torch.randn_like(torch.ones(2), device=d).shape,
    "rand_like": lambda: torch.rand_like(torch.ones(2), device=d).shape,
    "empty_like": lambda: torch.empty_like(torch.ones(2), device=d).shape,
    "normal": lambda: torch.normal(0.0, 1.0, (2,), device=d).shape,
    "tensor_to": lambda: torch.ones(2).to(device=d, dtype=torch.float64),
    "from_numpy-like": lambda: torch.as_tensor([1, 2], device=d),
    "zeros_dev_str": lambda: torch.zeros(2, device="cpu:0"),
    "new_zeros": lambda: torch.ones(2).new_zeros(3, device=d),
    "new_tensor": lambda: torch.ones(2).new_tensor([1.0], device=d),
    "arange": lambda: torch.arange(3, device="cpu"),
    "full": lambda: torch.full((2,), 1.5, device=d),
    "eye": lambda: torch.eye(2, device=d),
    "tril_indices": lambda: torch.zeros(1, device=d).device,
}
for k, f in fns.items():
    try:
        print(k, f())
    except Exception as e:
        print(k, type(e).__name__, e)

torch.manual_seed(0)
torch.cuda.manual_seed_all(0)
torch.backends.cudnn.deterministic = True
torch.backends.cudnn.benchmark = False
print(torch.backends.cudnn.deterministic, torch.backends.mps.is_available())
try:
    nn.Linear(1, 1).cuda()
except AssertionError as e:
    print("AssertionError:", e)
try:
    torch.ones(1).cuda()
except AssertionError as e:
    print("AssertionError:", e)
try:
    torch.cuda.current_device()
except AssertionError as e:
    print("AssertionError:", e)
