# In-place ops update the tangent in place, through views too.
import torch
import torch.autograd.forward_ad as fwAD

x = torch.tensor([1.0, 2.0, 3.0])
t = torch.tensor([1.0, 1.0, 1.0])
with fwAD.dual_level():
    d = fwAD.make_dual(x, t)
    d.mul_(2)
    print(d)
    print(t, x)
    d[0] = 5.0
    print(d, t)
    d.add_(torch.tensor([1.0, 1.0, 1.0]))
    d.exp_()
    print(d)
    d.div_(d.sum())
    print(d)

    base = fwAD.make_dual(torch.zeros(3), torch.zeros(3))
    y = fwAD.make_dual(torch.tensor([1.0, 2.0, 3.0]), torch.tensor([1.0, 0.0, 0.5]))
    base[1:].add_(y[:2])
    print(base)

    p = torch.zeros(3)
    p.add_(y)
    print(p)
    p2 = torch.zeros(4)
    p2[:3].copy_(y)
    print(p2)
    q = torch.zeros(3)
    q.copy_(y)
    print(q, fwAD.unpack_dual(q).tangent is fwAD.unpack_dual(y).tangent)
    r = torch.ones(3)
    r += y
    print(r)
    s = torch.zeros(3)
    s[1] = y[2]
    print(s)
    m = torch.ones(2, 3)
    m[0] = y * 2
    m.t()[2].mul_(10)
    print(m)
    v = y.view(3, 1)
    v.sigmoid_()
    print(y)
    z = y.clone()
    z.clamp_(0.6, 0.8)
    print(z)
