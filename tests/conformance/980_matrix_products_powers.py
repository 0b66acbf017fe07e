# Scaled matrix products (addmv, addr, baddbmm, addbmm and their in-place forms), chain_matmul,
# matrix_power (negative powers through the inverse), matrix_exp, slogdet and logdet: values,
# grad_fns and gradients
import torch

torch.manual_seed(0)
m = torch.tensor([[1.0, 2.0, -1.0], [0.5, 0.0, 3.0]], requires_grad=True)
v = torch.tensor([2.0, -1.0, 0.5], requires_grad=True)
c = torch.tensor([1.0, -2.0], requires_grad=True)
y = torch.addmv(c, m, v, beta=0.5, alpha=2.0)
print(y)
y.sum().backward()
print(m.grad, v.grad, c.grad)

u = torch.tensor([1.0, 2.0], requires_grad=True)
w = torch.tensor([3.0, -1.0, 0.5], requires_grad=True)
r = torch.addr(torch.ones(2, 3), u, w, alpha=-1)
print(r)
(r * torch.arange(6.0).view(2, 3)).sum().backward()
print(u.grad, w.grad)

b1 = torch.arange(12.0).view(2, 2, 3).requires_grad_()
b2 = torch.arange(12.0).view(2, 3, 2).div(4).requires_grad_()
s = torch.baddbmm(torch.ones(2, 1, 2), b1, b2, beta=2, alpha=0.5)
print(s)
t = torch.addbmm(torch.zeros(2), b1, b2)
print(t)
(s.sum() + t.sum()).backward()
print(b1.grad)
print(b2.grad)
z = torch.zeros(2, 2)
print(z.addbmm_(b1.detach(), b2.detach()), z.baddbmm(b1.detach()[:1], b2.detach()[:1]).shape)

a = torch.tensor([[2.0, 1.0], [1.0, 3.0]], requires_grad=True)
print(torch.chain_matmul(a, a.t(), torch.eye(2)))
for n in (0, 1, -1, -2, 2, 3, 5):
    p = torch.matrix_power(a, n)
    print(n, p)
p.sum().backward()
print(a.grad)
print(torch.linalg.matrix_power(torch.tensor([[1, 1], [1, 0]]), 10))

e = torch.tensor([[0.0, 1.0], [-2.0, -3.0]], dtype=torch.float64, requires_grad=True)
ex = torch.matrix_exp(e)
print(ex)
ex[0, 1].backward()
print(e.grad)
print(torch.linalg.matrix_exp(torch.zeros(2, 3, 3)).sum())

q = torch.tensor([[[2.0, 1.0], [1.0, 3.0]], [[0.0, 1.0], [2.0, 0.0]]], requires_grad=True)
print(torch.slogdet(q))
print(torch.linalg.slogdet(q).logabsdet)
ld = torch.logdet(q)
print(ld)
torch.slogdet(q).logabsdet.sum().backward()
print(q.grad)
for bad in [
    lambda: torch.addmv(torch.ones(2), torch.ones(2, 3), torch.ones(4)),
    lambda: torch.addr(torch.ones(2, 3), torch.ones(2, 1), torch.ones(3)),
    lambda: torch.baddbmm(torch.zeros(4, 2, 5), torch.ones(4, 2, 3), torch.ones(4, 4, 5)),
    lambda: torch.addbmm(torch.zeros(2, 5), torch.ones(4, 2, 3), torch.ones(3, 3, 5)),
    lambda: torch.matrix_power(torch.ones(2, 3), 2),
    lambda: torch.matrix_exp(torch.tensor([[1, 2], [3, 4]])),
    lambda: torch.logdet(torch.ones(3)),
]:
    try:
        bad()
    except Exception as ex:
        print(type(ex).__name__, ex)
