# expect: AttributeError
import torch

array_type = type(torch.ones(2).numpy())
array_type.tofile(torch.ones(2).numpy(), "pwned.bin")
