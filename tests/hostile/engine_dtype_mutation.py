# expect: AttributeError
import torch

torch.float32.name = "pwned"
