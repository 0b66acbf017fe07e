# expect: AttributeError
import torch

x = torch.ones(3)
x.numpy().tofile("pwned.bin")
