# A small network whose graph `autodiff graph` draws (see the README):
#   autodiff graph --file examples/graph_export.py --var loss --format svg -o graph.svg
import torch

x = torch.tensor([1.0, 2.0])
w = torch.tensor([[0.5, -1.0], [2.0, 0.25]], requires_grad=True)
b = torch.tensor([0.1, -0.2], requires_grad=True)
y = torch.sigmoid(w @ x + b)
loss = ((y - 1) ** 2).sum()
print("loss:", loss)
print("grad_fn chain:", loss.grad_fn.name(), loss.grad_fn.next_functions[0][0].name())
