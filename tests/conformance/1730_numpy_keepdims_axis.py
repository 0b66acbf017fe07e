# d2l 2.3 (linear algebra): sums and means along an axis, written with numpy's keywords
import torch

A = torch.arange(20, dtype=torch.float32).reshape(5, 4)
print(A.sum(axis=0))
print(A.sum(axis=[0, 1]))
sum_A = A.sum(axis=1, keepdims=True)
print(sum_A)
print(A / sum_A)
print(A.mean(axis=0), A.sum(axis=0) / A.shape[0])
print(A.cumsum(axis=0))
print(torch.sum(A, axis=0, keepdims=True).shape)
print(torch.max(A, axis=1, keepdims=True).values)
print(torch.amax(A, axis=0), torch.amin(A, axis=1, keepdims=True).shape)
print(torch.argmax(A, axis=1), A.argmin(axis=0))
print(torch.std(A, axis=0, keepdims=True), A.var(axis=1))
print(torch.logsumexp(A, axis=1, keepdims=True))
print(torch.prod(A[:2], axis=1), torch.any(A > 17, axis=1), torch.all(A >= 0, axis=0))
print(torch.linalg.norm(A, axis=1, keepdims=True))
