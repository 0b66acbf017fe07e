import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = torch.tensor([3.0, 4.0], requires_grad=True)
c = torch.tensor([5.0, 6.0])


def describe(fn):
    if fn is None:
        return "None"
    return type(fn).__name__


def show(fn, depth=0):
    print("  " * depth + describe(fn))
    if fn is None:
        return
    for next_fn, index in fn.next_functions:
        print("  " * depth + "  input", index)
        show(next_fn, depth + 2)


z = (x * y + c * x).sum() / 2
show(z.grad_fn)
print(z.grad_fn.next_functions)
print(len((x * 2).grad_fn.next_functions), (x * 2).grad_fn.next_functions[1])
print((c * x).grad_fn.next_functions[0])
print((x + c).grad_fn.next_functions[1])
acc = (x * y).grad_fn.next_functions[0][0]
print(type(acc).__name__, acc.name())
print(acc.next_functions)
print(acc.variable is x)
print(acc is (x + 1).grad_fn.next_functions[0][0])
