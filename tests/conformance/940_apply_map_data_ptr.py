# Tensor.apply_ / map_ (a Python function element by element, in place; refused on tensors that
# require grad; results cast to the dtype, with its overflow errors) and data_ptr (views share memory)
import torch

x = torch.tensor([1.5, -2.0], requires_grad=True)
with torch.no_grad():
    try:
        print(x.apply_(lambda v: v * 2), x._version)
    except Exception as e:
        print(type(e).__name__, e)
try:
    x.map_(torch.ones(2), lambda a, b: a)
except Exception as e:
    print(type(e).__name__, e)
y = torch.ones(2, 3)
print(y.map_(torch.tensor([1.0, 2.0, 3.0]), lambda a, b: a + b), y._version)
for bad in [
    lambda: y.map_(torch.ones(2), lambda a, b: a),
    lambda: y.apply_(lambda a: "x"),
    lambda: y.apply_(lambda a: None),
    lambda: y.apply_(5),
    lambda: torch.tensor([3]).apply_(lambda v: 2**70),
    lambda: torch.ones(2).map_(torch.tensor([1, 2]), lambda a, b: a),
]:
    try:
        bad()
    except Exception as e:
        print(type(e).__name__, e)
b = torch.tensor([True, False])
print(b.apply_(lambda v: type(v).__name__ == "bool"))
print(torch.tensor([1, 2]).apply_(lambda v: type(v).__name__ == "int"))
print(
    torch.tensor([1.0]).apply_(lambda v: 1e40),
    torch.tensor([3]).apply_(lambda v: 2.7),
    torch.tensor([3]).apply_(lambda v: -2.7),
)
z = torch.ones(3)
v = z[1:]
v.apply_(lambda a: 7.0)
print(z, z._version, v._version)
m = torch.arange(6.0).reshape(2, 3).t()
print(m.apply_(lambda a: a * 10), m.is_contiguous())
print(torch.tensor([1, 2], dtype=torch.int8).apply_(lambda a: a + 20))
print(torch.tensor([]).apply_(lambda a: 1), torch.tensor(2.5).apply_(lambda a: a * a))
y = torch.tensor([1.0, 2.0])
print(
    y.data_ptr() == y[0:].data_ptr(),
    y[1:].data_ptr() - y.data_ptr(),
    torch.tensor([]).data_ptr(),
    torch.tensor(1.0).data_ptr() > 0,
)
print(
    y.view(2, 1).data_ptr() == y.data_ptr(),
    y.clone().data_ptr() == y.data_ptr(),
    y.t().data_ptr() == y.data_ptr(),
)
s = (y * 2).sum()
print(s.data_ptr() == s.data_ptr(), s.detach().data_ptr() == s.data_ptr())
for bad in [
    lambda: torch.tensor([1, 2], dtype=torch.int8).apply_(lambda a: a + 200),
    lambda: torch.tensor([1], dtype=torch.uint8).apply_(lambda a: -1),
    lambda: torch.tensor([1], dtype=torch.int32).apply_(lambda a: 2.0**40),
]:
    try:
        print(bad())
    except Exception as e:
        print(type(e).__name__, e)
print(
    torch.tensor([1.0], dtype=torch.float16).apply_(lambda a: 70000.0),
    torch.tensor([1.0], dtype=torch.float64).apply_(lambda a: True),
)
