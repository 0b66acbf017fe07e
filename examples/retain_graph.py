# Gradients accumulate across backward calls; a second backward needs retain_graph=True.
import torch

w = torch.tensor([1.0, 2.0], requires_grad=True)
x = torch.tensor([3.0, 4.0])
loss = (w * x).sum()

loss.backward(retain_graph=True)
print("after one backward:", w.grad)
loss.backward(retain_graph=True)
print("after two (accumulated):", w.grad)

w.grad.zero_()
loss.backward()
print("after zero_ and a third:", w.grad)

try:
    loss.backward()  # the graph's saved tensors were freed by the previous call
except RuntimeError as error:
    print("fourth backward fails:", str(error).split(".")[0])
