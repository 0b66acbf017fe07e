# PyTorch's "MaskedTensor Overview" tutorial (prototype): building MaskedTensors, printing, the
# reductions that skip masked-out elements (sum/mean/amax over the kept ones), masked softmax,
# gradients that exist only where the mask keeps an element, and the prototype warning.
import warnings

import torch
from torch.masked import as_masked_tensor, masked_tensor

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    data = torch.arange(24).reshape(2, 3, 4)
    mask = data % 2 == 0
    mt = masked_tensor(data.float(), mask)
print(str(caught[0].message), caught[0].category.__name__)
warnings.simplefilter("ignore", UserWarning)
print("data:\n", data)
print("mask:\n", mask)
print("mt:\n", mt)
print(mt.shape, mt.dtype, mt.dim())
print(mt.sum(), mt.sum(0), mt.sum(dim=2, keepdim=True))
print(mt.mean(1), mt.amax(), mt.amin(-1), mt.prod(0)[0])
print((2 * mt + 1).sum(0), (mt - 1)[1], -mt[0, 0])
x = torch.tensor([[3.0, -1.0, 2.0], [0.5, 4.0, -2.0]])
keep = torch.tensor([[True, True, False], [False, True, True]])
print(masked_tensor(x, keep).softmax(1))
print(masked_tensor(x, keep).exp(), masked_tensor(x, keep).tanh()[1])
print(masked_tensor(x, keep).to_tensor(0.0), masked_tensor(x, keep).get_mask())
mx = masked_tensor(x, keep, requires_grad=True)
loss = (mx * mx).sum()
print(loss, loss.requires_grad)
loss.backward()
print(mx.grad)
leaf = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
amt = as_masked_tensor(leaf * 2, torch.tensor([True, False, True]))
amt.sum().backward()
print(amt, leaf.grad is not None)
for bad in [lambda: masked_tensor(x, keep.float()), lambda: masked_tensor(x, keep[0]),
            lambda: masked_tensor(x, keep) + masked_tensor(x, ~keep)]:  # fmt: skip
    try:
        bad()
    except (TypeError, ValueError) as e:
        print(type(e).__name__, e)
