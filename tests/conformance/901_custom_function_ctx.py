import torch


class ScaledExp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, scale, note):
        result = x.exp() * scale
        ctx.save_for_backward(x, result)
        ctx.scale = scale
        ctx.note = note
        print("needs_input_grad", ctx.needs_input_grad)
        return result

    @staticmethod
    def backward(ctx, grad_output):
        x, result = ctx.saved_tensors
        print("backward sees", ctx.note, ctx.scale)
        return grad_output * result, None, None


x = torch.tensor([0.0, 0.5, 1.0], requires_grad=True)
y = ScaledExp.apply(x, 2.0, "hello")
print(y)
print(type(y.grad_fn).__name__)
print(y.grad_fn.scale, y.grad_fn.needs_input_grad)
print(y.grad_fn.saved_tensors)
y.sum().backward()
print(x.grad)


class SplitMax(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        values = x * 2
        index = x.argmax()
        ctx.mark_non_differentiable(index)
        ctx.save_for_backward(x)
        return values, index, x.sum()

    @staticmethod
    def backward(ctx, grad_values, grad_index, grad_sum):
        print("grads received:", grad_values, grad_index, grad_sum)
        return grad_values * 2 + grad_sum


w = torch.tensor([1.0, 3.0, 2.0], requires_grad=True)
values, index, total = SplitMax.apply(w)
print(values, index, total)
print(index.requires_grad, values.grad_fn, total.grad_fn is values.grad_fn)
values.sum().backward()
print(w.grad)
w.grad = None
(values.sum() + total * 10).backward()
print(w.grad)


class MulConst(torch.autograd.Function):
    @staticmethod
    def forward(x, k):
        return x * k

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, k = inputs
        ctx.k = k

    @staticmethod
    def backward(ctx, grad):
        return grad * ctx.k, None


z = MulConst.apply(x, 4.0)
print(z)
x.grad = None
z.sum().backward()
print(x.grad)

with torch.no_grad():
    print(MulConst.apply(x, 3.0))
plain = torch.tensor([1.0, 2.0])
print(MulConst.apply(plain, 3.0))
print(MulConst.apply(plain, 3.0).requires_grad)


class Identity(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x

    @staticmethod
    def backward(ctx, g):
        return g


same = Identity.apply(x)
print(same is x, same, same.is_leaf)
chain = Identity.apply(ScaledExp.apply(x, 1.0, "chained") * 3)
print(chain.grad_fn.name(), chain.grad_fn.next_functions[0][0].name())
print(chain.grad_fn.next_functions[0][0].next_functions[0][0].name())
