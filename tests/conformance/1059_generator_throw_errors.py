# Exceptions into and out of generators: throw(), PEP 479, running generators, bad sends.
import torch


def guarded_updates(param):
    while True:
        try:
            grad = yield param.clone()
            with torch.no_grad():
                param -= 0.5 * grad
        except ValueError as error:
            print("skipped update:", error)


p = torch.tensor([1.0, 1.0])
updates = guarded_updates(p)
print(next(updates))
print(updates.send(torch.tensor([0.2, 0.4])))
print(updates.throw(ValueError("gradient has NaN")))
print(updates.send(torch.tensor([1.0, 0.0])))


def leaky():
    yield 1
    next(iter([]))
    yield 2


try:
    list(leaky())
except RuntimeError as error:
    print("RuntimeError:", error)


def fresh():
    yield torch.zeros(2)


try:
    fresh().send(torch.ones(2))
except TypeError as error:
    print("TypeError:", error)


def self_reference():
    yield next(me)


me = self_reference()
try:
    next(me)
except ValueError as error:
    print("ValueError:", error)


def failing():
    yield torch.ones(2)
    raise RuntimeError("shape mismatch in step 2")


it = failing()
print(next(it))
try:
    next(it)
except RuntimeError as error:
    print("caught:", error)
print(next(it, "exhausted"))
