# Generators and cleanup: close(), GeneratorExit, finally blocks and grad mode.
import torch


def evaluation(model_weight, inputs):
    print("entering evaluation, grad enabled:", torch.is_grad_enabled())
    try:
        for row in inputs:
            with torch.no_grad():
                out = row * model_weight
            yield out, out.requires_grad
    except GeneratorExit:
        print("evaluation closed early")
        raise
    finally:
        print("cleanup, grad enabled:", torch.is_grad_enabled())


w = torch.tensor([2.0, -1.0], requires_grad=True)
data = torch.arange(6.0).reshape(3, 2)
gen = evaluation(w, data)
first, needs_grad = next(gen)
print(first, needs_grad)
gen.close()
print(list(gen))

results = [out for out, _ in evaluation(w, data)]
print(torch.stack(results))


def resource(name):
    print("open", name)
    try:
        yield name.upper()
    finally:
        print("release", name)


for item in resource("weights"):
    print("using", item)
g = resource("cache")
print(next(g))
del g
print("done")
