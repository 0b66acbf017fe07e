import io

import torch
import torch.nn as nn


# PyTorch tutorial "Saving and Loading Models": state_dict printing, saving a state_dict and a
# few tensors to a BytesIO, seek(0), loading them back, load_state_dict into a fresh model.
class TheModelClass(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(6, 4)
        self.bn = nn.BatchNorm1d(4)
        self.fc2 = nn.Linear(4, 2)

    def forward(self, x):
        return self.fc2(self.bn(self.fc1(x)))


torch.manual_seed(0)
model = TheModelClass()
model(torch.randn(8, 6))
print("Model's state_dict:")
for param_tensor in model.state_dict():
    print(param_tensor, "\t", model.state_dict()[param_tensor].size())
buffer = io.BytesIO()
torch.save(model.state_dict(), buffer)
print(buffer.tell() == len(buffer.getvalue()))
buffer.seek(0)
state = torch.load(buffer)
print(list(state.keys()))
print(state["bn.running_mean"], state["bn.num_batches_tracked"])
fresh = TheModelClass()
fresh.load_state_dict(state)
fresh.eval()
model.eval()
x = torch.randn(3, 6)
print(torch.allclose(fresh(x), model(x)))
tensors = io.BytesIO()
t = torch.arange(6.0).reshape(2, 3)
torch.save([t, t.double(), torch.tensor([True, False]), {"ints": torch.arange(4)}], tensors)
tensors.seek(0)
loaded = torch.load(tensors)
print(loaded)
print([x.dtype for x in loaded[:3]])
w = nn.Parameter(torch.ones(2))
b2 = io.BytesIO()
torch.save({"w": w}, b2)
b2.seek(0)
print(torch.load(b2))
