# what PyTorch says when both spellings of one argument are given
import torch

x = torch.arange(6.0).reshape(2, 3)
for call in (
    lambda: torch.sum(x, dim=0, axis=0),
    lambda: torch.sum(x, 0, axis=0),
    lambda: torch.sum(x, 0, keepdim=True, keepdims=True),
    lambda: x.sum(dim=0, axis=1),
    lambda: torch.cat((x, x), dim=1, axis=1),
    lambda: torch.split(x, 1, axis=0),
    lambda: torch.norm(x, axis=0),
    lambda: torch.nn.functional.softmax(x, axis=0),
    lambda: torch.zeros(2, size=(2,)),
):
    try:
        print(call())
    except TypeError as e:
        print("TypeError:", e)
print(torch.cat((x, x), axis=1).shape, torch.stack((x, x), axis=1).shape)
print(torch.concat((x, x), axis=0).shape, torch.unbind(x, axis=1))
print(torch.gather(x, axis=1, index=torch.tensor([[0], [2]])))
print(torch.index_select(x, axis=0, index=torch.tensor([1])))
print(torch.sort(x, axis=0, descending=True).values)
print(torch.squeeze(x[None], axis=0).shape, x.unsqueeze(axis=0).shape)
