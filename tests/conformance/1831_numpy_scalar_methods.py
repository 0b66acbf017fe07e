# numpy scalars coming out of a numpy computation have the array methods
import numpy as np
import torch

losses = np.array([0.5, 0.25, 0.125], dtype=np.float32)
last = losses[-1]
print(last.mean(), last.item(), last.astype(np.float64), type(last.astype(np.float64)))
print(np.float32(1.5).mean(), np.float64(2.0).sum(), np.float32(3.0).max(), np.int64(4).min())
t = torch.tensor(losses)
print(t.mean().item(), type(losses.mean()), losses.mean().item())
