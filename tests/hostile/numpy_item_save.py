# expect: AttributeError
import torch

data = torch.arange(4).numpy()
data.dump("pwned.pkl")
