# inference_mode nested with no_grad, enable_grad, set_grad_enabled and inference_mode(False)
import torch


def state(label):
    print(label, torch.is_inference_mode_enabled(), torch.is_grad_enabled())


x = torch.ones(2, requires_grad=True)
state("start")
with torch.inference_mode():
    state("inference")
    with torch.inference_mode(False):
        state("  inference(False)")
        a = x * 2
        print("  ", a.requires_grad, a.is_inference(), a.grad_fn)
    with torch.no_grad():
        state("  no_grad")
    with torch.enable_grad():
        state("  enable_grad")
        b = x * 2
        print("  ", b.requires_grad, b.is_inference())
    with torch.set_grad_enabled(True):
        state("  set_grad_enabled(True)")
    state("inference again")
state("after")
with torch.no_grad():
    state("no_grad")
    with torch.inference_mode(False):
        state("  inference(False)")
    with torch.inference_mode():
        state("  inference")
    state("no_grad again")
with torch.inference_mode(False):
    state("inference(False) at top")
with torch.inference_mode():
    with torch.inference_mode():
        state("twice")
    state("once")
state("end")
try:
    with torch.inference_mode():
        raise ValueError("inside")
except ValueError as e:
    print("ValueError:", e)
state("after an exception")
