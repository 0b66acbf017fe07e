# The examples of PyTorch's autograd notes on hooks for saved tensors.
import torch


def pack_hook(x):
    print("Packing", x)
    return x


def unpack_hook(x):
    print("Unpacking", x)
    return x


a = torch.ones(5, requires_grad=True)
b = torch.ones(5, requires_grad=True) * 2
with torch.autograd.graph.saved_tensors_hooks(pack_hook, unpack_hook):
    y = a * b
y.sum().backward()

torch.manual_seed(0)
x = torch.randn(5, requires_grad=True)
y = x.pow(2)
y.grad_fn._raw_saved_self.register_hooks(pack_hook, unpack_hook)
print(y.grad_fn._saved_self is x)

# keeping every saved tensor in a dictionary, as the notes do with temporary files
storage = {}


def pack_to_storage(t):
    key = "tensor" + str(len(storage))
    storage[key] = t.detach().clone()
    return key


def unpack_from_storage(key):
    return storage[key]


torch.manual_seed(0)
w = torch.randn(3, 3, requires_grad=True)
inp = torch.randn(2, 3)
with torch.autograd.graph.saved_tensors_hooks(pack_to_storage, unpack_from_storage):
    hidden = torch.relu(inp @ w)
    loss = hidden.pow(2).mean()
print(sorted(storage))
loss.backward()
print(w.grad)

# only pack tensors above a size, as the notes suggest
SAVE_ON_DISK_THRESHOLD = 4


def pack_large(t):
    if t.numel() < SAVE_ON_DISK_THRESHOLD:
        return t
    storage["large" + str(len(storage))] = t
    return ("stored", "large" + str(len(storage) - 1))


def unpack_large(packed):
    if isinstance(packed, tuple):
        return storage[packed[1]]
    return packed


storage.clear()
v = torch.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
s = torch.tensor([0.5, 0.25], requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(pack_large, unpack_large):
    out = v.sin().sum() + s.cos().sum()
out.backward()
print(sorted(storage), v.grad, s.grad)
