# A node's hooks run in backward(), not when the node is called directly (PyTorch's
# Node.__call__ runs only the formula); the hook sees what the call returns.
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x.pow(3)
seen = []
y.grad_fn.register_hook(lambda grad_inputs, grad_outputs: seen.append(grad_inputs[0].clone()))
y.grad_fn.register_prehook(lambda grad_outputs: seen.append(("pre", grad_outputs[0].clone())))
direct = y.grad_fn(torch.ones(2))
print(direct, len(seen))
print(y.grad_fn._saved_self, y.grad_fn._saved_exponent)
y.backward(torch.ones(2))
print(seen)
print(x.grad, torch.equal(direct.detach(), x.grad))
