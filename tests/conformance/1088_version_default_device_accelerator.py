import torch

v = torch.__version__
print(v >= "2.0", v < (2, 14), v >= (2, 13), v < "2.10", v > "1.13.1")
print(v.split(".")[0], int(v.split(".")[1]) >= 13, isinstance(v, str))
print(f"major {v.split('.')[0]}")
torch.set_default_device("cpu")
print(torch.get_default_device())
print(torch.accelerator.is_available(), torch.accelerator.current_accelerator())
print(torch.accelerator.device_count())
device = torch.accelerator.current_accelerator() if torch.accelerator.is_available() else "cpu"
print(device, torch.ones(2, device=device))
