# ruff: noqa: B018 - reading the unmangled name is the point
# Double-underscore attributes in a hand-written optimizer class: Python mangles `self.__lr` to
# `_SGDScratch__lr`, as its __dict__ shows
import torch


class SGDScratch:
    def __init__(self, params, lr):
        self.params = list(params)
        self.__lr = lr
        self._steps = 0

    def __update(self, p):
        p -= self.__lr * p.grad

    def step(self):
        with torch.no_grad():
            for p in self.params:
                self.__update(p)
        self._steps += 1

    def zero_grad(self):
        for p in self.params:
            p.grad = None

    def lr(self):
        return self.__lr


w = torch.tensor([1.0, 2.0], requires_grad=True)
opt = SGDScratch([w], lr=0.25)
print(sorted(opt.__dict__), opt.lr(), opt._SGDScratch__lr)
for _ in range(3):
    opt.zero_grad()
    loss = (w**2).sum()
    loss.backward()
    opt.step()
    print(loss.item(), w)
print(opt._steps, hasattr(opt, "__lr"), hasattr(opt, "_SGDScratch__lr"))
try:
    opt.__lr
except AttributeError as e:
    print("AttributeError:", e)


class Counter:
    __count = 0

    def __init__(self):
        Counter.__count += 1
        self.__id = Counter.__count

    def ident(self):
        return self.__id


a, b = Counter(), Counter()
print(a.ident(), b.ident(), Counter._Counter__count, sorted(a.__dict__))
print([k for k in sorted(vars_ for vars_ in dir(SGDScratch)) if "update" in k])
