# Tangents through torch.nn.functional: activations, normalisation, losses.
import torch
import torch.autograd.forward_ad as fwAD
import torch.nn.functional as F

torch.manual_seed(1)
x = torch.randn(4, 5)
tx = torch.randn(4, 5)
target = torch.tensor([1, 0, 4, 2])
y = torch.randn(4, 5)

with fwAD.dual_level():
    d = fwAD.make_dual(x, tx)
    for name, f in [
        ("leaky_relu", lambda v: F.leaky_relu(v, 0.1)),
        ("elu", F.elu),
        ("softmax", lambda v: F.softmax(v, dim=1)),
        ("log_softmax", lambda v: F.log_softmax(v, dim=1)),
        ("layer_norm", lambda v: F.layer_norm(v, (5,))),
        ("normalize", lambda v: F.normalize(v, dim=1)),
        ("dropout eval", lambda v: F.dropout(v, 0.5, training=False)),
        ("hardtanh", F.hardtanh),
        ("logsigmoid", F.logsigmoid),
    ]:
        print(name, fwAD.unpack_dual(f(d)).tangent[0])
    # relu: the tangent is zero where the input is negative (a sum, as -0.0 prints alike)
    print("relu", fwAD.unpack_dual(F.relu(d)).tangent.sum(dim=0))
    print("gelu", fwAD.unpack_dual(F.gelu(d)).tangent[1])
    for name, loss in [
        ("cross_entropy", F.cross_entropy(d, target)),
        ("nll_loss", F.nll_loss(F.log_softmax(d, dim=1), target)),
        ("mse_loss", F.mse_loss(d, y)),
        ("l1_loss", F.l1_loss(d, y)),
        ("smooth_l1_loss", F.smooth_l1_loss(d, y)),
        ("huber_loss", F.huber_loss(d, y, delta=0.5)),
        ("bce_with_logits", F.binary_cross_entropy_with_logits(d, torch.sigmoid(y))),
        ("binary_cross_entropy", F.binary_cross_entropy(torch.sigmoid(d), torch.sigmoid(y))),
    ]:
        print(f"{name:22s} {loss.item():.6f} {fwAD.unpack_dual(loss).tangent.item():.6f}")
