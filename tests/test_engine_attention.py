"""Attention: F.scaled_dot_product_attention (both of PyTorch's CPU paths, masks, dropout),
nn.MultiheadAttention and the Transformer modules (shapes, masks, reprs, gradients against
finite differences in float64), and a script using them through the CLI."""

from __future__ import annotations

import math

import numpy as np
import pytest
from cli_runner import autodiff

import autodiff_cli.engine as E
import autodiff_cli.engine.nn as nn
import autodiff_cli.engine.nn.functional as F


def _tensor(rng: np.random.RandomState, *shape: int, grad: bool = True) -> E.Tensor:
    return E.tensor(rng.uniform(-1.5, 1.5, shape).tolist(), dtype=E.float64, requires_grad=grad)


def _reference(q: np.ndarray, k: np.ndarray, v: np.ndarray, mask: np.ndarray | None, scale: float):
    scores = q @ np.swapaxes(k, -2, -1) * scale
    if mask is not None:
        scores = scores + mask
    scores = scores - scores.max(-1, keepdims=True)
    weights = np.exp(scores) / np.exp(scores).sum(-1, keepdims=True)
    return weights @ v


def _numeric_grad(fn, arrays: list[np.ndarray], index: int, eps: float = 1e-6) -> np.ndarray:
    """Central differences of the scalar `fn(*arrays)` with respect to arrays[index]."""
    grad = np.zeros_like(arrays[index])
    flat = arrays[index].reshape(-1)
    for i in range(flat.size):
        saved = flat[i]
        flat[i] = saved + eps
        up = fn(*arrays)
        flat[i] = saved - eps
        down = fn(*arrays)
        flat[i] = saved
        grad.reshape(-1)[i] = (up - down) / (2 * eps)
    return grad


@pytest.mark.parametrize(
    ("shape_q", "shape_kv", "grad_fn"),
    [
        ((2, 3, 4), (2, 5, 4), "UnsafeViewBackward0"),
        ((1, 2, 3, 4), (1, 2, 5, 4), "ScaledDotProductFlashAttentionForCpuBackward0"),
        ((3, 4), (5, 4), "MmBackward0"),
    ],
)
@pytest.mark.parametrize("mask_kind", ["none", "bool", "float", "causal"])
def test_sdpa_values_and_gradients_match_the_formula(shape_q, shape_kv, grad_fn, mask_kind):
    rng = np.random.RandomState(7)
    q, k, v = _tensor(rng, *shape_q), _tensor(rng, *shape_kv), _tensor(rng, *shape_kv)
    length, source = shape_q[-2], shape_kv[-2]
    kwargs: dict = {}
    additive = None
    if mask_kind == "bool":
        allowed = rng.uniform(size=(length, source)) > 0.3
        allowed[:, 0] = True
        kwargs["attn_mask"] = E.tensor(allowed.tolist())
        additive = np.where(allowed, 0.0, -np.inf)
    elif mask_kind == "float":
        additive = rng.uniform(-1, 1, (length, source))
        kwargs["attn_mask"] = E.tensor(additive.tolist(), dtype=E.float64)
    elif mask_kind == "causal":
        kwargs["is_causal"] = True
        additive = np.where(np.tril(np.ones((length, source))) > 0, 0.0, -np.inf)
    out = F.scaled_dot_product_attention(q, k, v, **kwargs)
    assert type(out.grad_fn).__name__ == grad_fn
    arrays = [np.array(x.detach().numpy()) for x in (q, k, v)]
    scale = 1 / math.sqrt(shape_q[-1])
    np.testing.assert_allclose(out.detach().numpy(), _reference(*arrays, additive, scale))
    weights = rng.uniform(-1, 1, out.shape)
    (out * E.tensor(weights.tolist(), dtype=E.float64)).sum().backward()

    def loss(qa, ka, va):
        return float((_reference(qa, ka, va, additive, scale) * weights).sum())

    for index, x in enumerate((q, k, v)):
        expected = _numeric_grad(loss, arrays, index)
        np.testing.assert_allclose(x.grad.numpy(), expected, atol=1e-7, rtol=1e-6)


def test_sdpa_kernel_choice_follows_pytorch():
    rng = np.random.RandomState(1)
    q, k = _tensor(rng, 1, 2, 3, 4), _tensor(rng, 1, 2, 5, 4)
    v_other_size = _tensor(rng, 1, 2, 5, 6)
    name = lambda out: type(out.grad_fn).__name__  # noqa: E731
    assert name(F.scaled_dot_product_attention(q, k, v_other_size)) == "UnsafeViewBackward0"
    mask_needing_grad = _tensor(rng, 3, 5)
    assert name(F.scaled_dot_product_attention(q, k, k, attn_mask=mask_needing_grad)) == (
        "UnsafeViewBackward0"
    )
    three_d_mask = _tensor(rng, 2, 3, 5, grad=False)
    assert name(F.scaled_dot_product_attention(q, k, k, attn_mask=three_d_mask)) == (
        "UnsafeViewBackward0"
    )
    assert name(F.scaled_dot_product_attention(q, k, k, scale=0.2)) == (
        "ScaledDotProductFlashAttentionForCpuBackward0"
    )


def test_sdpa_fully_masked_row_gives_zeros_and_finite_gradients():
    rng = np.random.RandomState(2)
    for shape in ((1, 2, 4), (1, 1, 2, 4)):
        q = _tensor(rng, *shape)
        mask = E.tensor([[True, False], [False, False]])
        out = F.scaled_dot_product_attention(q, q, q, attn_mask=mask)
        assert np.all(out.detach().numpy()[..., 1, :] == 0)
        out.sum().backward()
        assert np.all(np.isfinite(q.grad.numpy()))


def test_sdpa_dropout_is_the_math_path_and_follows_the_seed():
    rng = np.random.RandomState(3)
    q = _tensor(rng, 1, 2, 4, 4)
    E.manual_seed(0)
    first = F.scaled_dot_product_attention(q, q, q, dropout_p=0.5)
    E.manual_seed(0)
    second = F.scaled_dot_product_attention(q, q, q, dropout_p=0.5)
    assert type(first.grad_fn).__name__ == "UnsafeViewBackward0"
    np.testing.assert_array_equal(first.detach().numpy(), second.detach().numpy())
    no_dropout = F.scaled_dot_product_attention(q, q, q)
    assert not np.allclose(first.detach().numpy(), no_dropout.detach().numpy())


def test_sdpa_errors_are_pytorchs():
    q = E.randn(1, 2, 3)
    with pytest.raises(RuntimeError, match="Expected attn_mask dtype to be bool or float"):
        F.scaled_dot_product_attention(q, q, q, attn_mask=E.tensor([[1, 2, 3]] * 2))
    with pytest.raises(RuntimeError, match="same dtype"):
        F.scaled_dot_product_attention(q, q.double(), q)
    with pytest.raises(TypeError, match="must be Tensor"):
        F.scaled_dot_product_attention(q, [1.0], q)
    with pytest.raises(RuntimeError, match=r"between 0 and 1, but got 1.5$"):
        F.scaled_dot_product_attention(q, q, q, dropout_p=1.5)
    q4, k4 = E.randn(1, 2, 3, 4), E.randn(1, 2, 5, 4)
    with pytest.raises(RuntimeError, match=r"a \(5\) must match .* b \(3\) .* dimension 3$"):
        F.scaled_dot_product_attention(q4, k4, k4, attn_mask=E.ones(2, 3, dtype=E.bool))
    mha, x = nn.MultiheadAttention(4, 2), E.randn(3, 2, 4)
    with pytest.raises(AssertionError, match=r"key_padded_mask.shape\[0\] to be 2, but got 3"):
        mha(x, x, x, key_padding_mask=E.zeros(3, 3, dtype=E.bool))


def test_multihead_attention_repr_parameters_and_init():
    E.manual_seed(0)
    mha = nn.MultiheadAttention(8, 2)
    assert repr(mha) == (
        "MultiheadAttention(\n"
        "  (out_proj): NonDynamicallyQuantizableLinear(in_features=8, out_features=8, "
        "bias=True)\n)"
    )
    names = [name for name, _ in mha.named_parameters()]
    assert names == ["in_proj_weight", "in_proj_bias", "out_proj.weight", "out_proj.bias"]
    assert np.all(mha.in_proj_bias.detach().numpy() == 0)
    assert np.all(mha.out_proj.bias.detach().numpy() == 0)
    bound = math.sqrt(6 / (8 + 24))  # xavier_uniform_ over (24, 8)
    assert np.abs(mha.in_proj_weight.detach().numpy()).max() <= bound
    separate = nn.MultiheadAttention(8, 4, kdim=6, vdim=4, bias=False)
    assert [name for name, _ in separate.named_parameters()] == [
        "q_proj_weight", "k_proj_weight", "v_proj_weight", "out_proj.weight",
    ]  # fmt: skip
    with pytest.raises(AssertionError, match="embed_dim must be divisible by num_heads"):
        nn.MultiheadAttention(6, 4)


@pytest.mark.parametrize("batch_first", [False, True])
def test_multihead_attention_shapes_and_need_weights_paths_agree(batch_first):
    E.manual_seed(0)
    mha = nn.MultiheadAttention(8, 2, batch_first=batch_first).double()
    x = E.randn(3, 5, 8, dtype=E.float64)  # (L, N, E), or (N, L, E) with batch_first
    out, weights = mha(x, x, x)
    assert tuple(out.shape) == (3, 5, 8)
    batch, length = (3, 5) if batch_first else (5, 3)
    assert tuple(weights.shape) == (batch, length, length)
    per_head = mha(x, x, x, average_attn_weights=False)[1]
    assert tuple(per_head.shape) == (batch, 2, length, length)
    fast, none = mha(x, x, x, need_weights=False)
    assert none is None
    np.testing.assert_allclose(out.detach().numpy(), fast.detach().numpy(), atol=1e-12)
    np.testing.assert_allclose(weights.detach().numpy().sum(-1), 1.0)


def test_multihead_attention_padding_mask_hides_keys():
    E.manual_seed(0)
    mha = nn.MultiheadAttention(4, 2).double()
    x = E.randn(4, 2, 4, dtype=E.float64)
    padding = E.tensor([[False, False, True, True], [False, False, False, False]])
    out, weights = mha(x, x, x, key_padding_mask=padding)
    assert np.all(weights.detach().numpy()[0, :, 2:] == 0)
    changed = x.clone()
    changed[2:, 0] = 100.0  # the padded keys of batch 0: its output must not move
    out2, _ = mha(changed, changed, changed, key_padding_mask=padding)
    np.testing.assert_allclose(out2.detach().numpy()[:2, 0], out.detach().numpy()[:2, 0])
    causal = E.triu(E.ones(4, 4, dtype=E.bool), diagonal=1)
    _, causal_weights = mha(x, x, x, attn_mask=causal)
    assert np.all(np.triu(causal_weights.detach().numpy(), 1) == 0)


def test_multihead_attention_gradient_matches_finite_differences():
    E.manual_seed(0)
    mha = nn.MultiheadAttention(4, 2, kdim=3, vdim=2).double()
    rng = np.random.RandomState(4)
    q, k, v = (
        rng.uniform(-1, 1, (3, 2, 4)),
        rng.uniform(-1, 1, (5, 2, 3)),
        rng.uniform(-1, 1, (5, 2, 2)),
    )
    padding = E.tensor([[False, False, False, True, True], [False] * 5])

    def loss(qa, ka, va):
        with E.no_grad():
            args = [E.tensor(a.tolist(), dtype=E.float64) for a in (qa, ka, va)]
            out = mha(*args, key_padding_mask=padding)[0]
            return float((out * out).sum())

    tensors = [E.tensor(a.tolist(), dtype=E.float64, requires_grad=True) for a in (q, k, v)]
    out = mha(*tensors, key_padding_mask=padding)[0]
    (out * out).sum().backward()
    for index, tensor in enumerate(tensors):
        expected = _numeric_grad(loss, [q, k, v], index)
        np.testing.assert_allclose(tensor.grad.numpy(), expected, atol=1e-7, rtol=1e-6)


def test_encoder_layer_repr_and_modes():
    E.manual_seed(0)
    layer = nn.TransformerEncoderLayer(8, 2, dim_feedforward=16, dropout=0.1)
    text = repr(layer)
    assert text.startswith("TransformerEncoderLayer(\n  (self_attn): MultiheadAttention(")
    assert "(linear1): Linear(in_features=8, out_features=16, bias=True)" in text
    assert "(norm2): LayerNorm((8,), eps=1e-05, elementwise_affine=True, bias=True)" in text
    x = E.randn(5, 3, 8)
    layer.eval()
    first, second = layer(x), layer(x)
    np.testing.assert_array_equal(first.detach().numpy(), second.detach().numpy())
    layer.train()
    assert not np.allclose(layer(x).detach().numpy(), first.detach().numpy())
    with pytest.raises(RuntimeError, match="activation should be relu/gelu, not tanh"):
        nn.TransformerEncoderLayer(8, 2, activation="tanh")


def test_encoder_warns_and_zeroes_padding_on_the_nested_path():
    E.manual_seed(0)
    with pytest.warns(UserWarning, match="batch_first was not True"):
        nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2, 16), 2)
    layer = nn.TransformerEncoderLayer(8, 2, 16, batch_first=True)
    encoder = nn.TransformerEncoder(layer, 2).eval()
    assert encoder.layers[0] is not encoder.layers[1]
    x = E.randn(2, 4, 8)
    padding = E.tensor([[False, False, True, True], [False] * 4])
    with E.no_grad():
        out = encoder(x, src_key_padding_mask=padding)
    assert np.all(out.numpy()[0, 2:] == 0)
    with_grad = encoder(x, src_key_padding_mask=padding)
    assert not np.all(with_grad.detach().numpy()[0, 2:] == 0)
    np.testing.assert_allclose(with_grad.detach().numpy()[0, :2], out.numpy()[0, :2], atol=1e-6)


def test_encoder_layer_gradient_matches_finite_differences():
    E.manual_seed(0)
    layer = nn.TransformerEncoderLayer(4, 2, 6, dropout=0.0, norm_first=True).double()
    rng = np.random.RandomState(5)
    src = rng.uniform(-1, 1, (3, 2, 4))
    padding = E.tensor([[False, False, True], [False] * 3])
    target = rng.uniform(-1, 1, (3, 2, 4))

    def loss(a):
        with E.no_grad():
            out = layer(E.tensor(a.tolist(), dtype=E.float64), src_key_padding_mask=padding)
            return float((out.numpy() * target).sum())

    x = E.tensor(src.tolist(), dtype=E.float64, requires_grad=True)
    out = layer(x, src_key_padding_mask=padding)
    (out * E.tensor(target.tolist(), dtype=E.float64)).sum().backward()
    expected = _numeric_grad(loss, [src], 0)
    np.testing.assert_allclose(x.grad.numpy(), expected, atol=1e-7, rtol=1e-6)


def test_transformer_shapes_and_square_subsequent_mask():
    E.manual_seed(0)
    model = nn.Transformer(8, 2, 1, 1, 16, dropout=0.0, batch_first=True)
    mask = model.generate_square_subsequent_mask(3)
    assert mask.tolist() == [
        [0.0, -math.inf, -math.inf], [0.0, 0.0, -math.inf], [0.0, 0.0, 0.0],
    ]  # fmt: skip
    out = model(E.randn(2, 4, 8), E.randn(2, 3, 8), tgt_mask=mask)
    assert tuple(out.shape) == (2, 3, 8)
    with pytest.raises(RuntimeError, match="the batch number of src and tgt must be equal"):
        model(E.randn(2, 4, 8), E.randn(3, 3, 8))


SCRIPT = """\
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
mha = nn.MultiheadAttention(4, 2, batch_first=True)
x = torch.randn(2, 3, 4, requires_grad=True)
out, w = mha(x, x, x)
out.sum().backward()
print(tuple(out.shape), tuple(w.shape), out.grad_fn.name(), tuple(x.grad.shape))
q = torch.randn(1, 2, 3, 4)
print(F.scaled_dot_product_attention(q, q, q, is_causal=True).shape)
nn.MultiheadAttention(5, 2)
"""


def test_script_uses_attention_and_bad_input_is_one_located_error(tmp_path):
    script = tmp_path / "attention.py"
    script.write_text(SCRIPT)
    result = autodiff("run", str(script))
    assert result.returncode == 1
    assert "(2, 3, 4) (2, 3, 3) TransposeBackward0 (2, 3, 4)" in result.stdout
    assert "torch.Size([1, 2, 3, 4])" in result.stdout
    assert "embed_dim must be divisible by num_heads" in result.stderr
    assert "attention.py:12:1: error" in result.stderr
    assert "Traceback (most recent call last)" not in result.stderr


def test_torch_dropout_is_functional_dropout():
    x = E.ones(4, 5)
    E.manual_seed(3)
    dropped = E.dropout(x, 0.5, True)
    E.manual_seed(3)
    np.testing.assert_array_equal(dropped.numpy(), F.dropout(x, 0.5, True).numpy())
    assert set(np.unique(dropped.numpy())) <= {0.0, 2.0}
    assert E.dropout(x, 0.5, False) is x
    with pytest.raises(TypeError, match=r"dropout\(\): argument 'input' \(position 1\) must be"):
        E.dropout([1.0], 0.5, True)
