# expect: AttributeError
import torch

print(torch.float32.np.type)
