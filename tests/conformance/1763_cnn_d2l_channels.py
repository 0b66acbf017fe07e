# d2l 6.4 multiple input and output channels; 1x1 convolution as a matmul
import torch
from torch.nn import functional as F


def corr2d_multi_in(X, K):
    return sum(
        F.conv2d(x.reshape(1, 1, *x.shape), k.reshape(1, 1, *k.shape)).squeeze()
        for x, k in zip(X, K)
    )


X = torch.tensor(
    [
        [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0], [6.0, 7.0, 8.0]],
        [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]],
    ]
)
K = torch.tensor([[[0.0, 1.0], [2.0, 3.0]], [[1.0, 2.0], [3.0, 4.0]]])
print(corr2d_multi_in(X, K))
K = torch.stack((K, K + 1, K + 2), 0)
print(K.shape)
print(F.conv2d(X.unsqueeze(0), K))


def corr2d_multi_in_out_1x1(X, K):
    c_i, h, w = X.shape
    c_o = K.shape[0]
    X = X.reshape((c_i, h * w))
    K = K.reshape((c_o, c_i))
    Y = torch.matmul(K, X)
    return Y.reshape((c_o, h, w))


torch.manual_seed(0)
X = torch.normal(0, 1, (3, 3, 3))
K = torch.normal(0, 1, (2, 3, 1, 1))
Y1 = corr2d_multi_in_out_1x1(X, K)
Y2 = F.conv2d(X, K)
print(float(torch.abs(Y1 - Y2).sum()) < 1e-6)
print(Y2)
