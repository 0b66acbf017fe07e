"""`torch.save`/`torch.load` into the scripts' `io.BytesIO`: what round-trips, what is refused
(files, objects that are not data, forged or truncated bytes), and the buffer's own semantics."""

from __future__ import annotations

import collections

import pytest
from cli_runner import autodiff

import autodiff_cli.engine as E
from autodiff_cli.engine import serialization
from autodiff_cli.lang.pylib.modules.io_module import BytesIO


def _round_trip(obj: object) -> object:
    buffer = BytesIO()
    E.save(obj, buffer)
    assert buffer.tell() == len(buffer.getvalue()) > 0
    buffer.seek(0)
    return E.load(buffer)


def test_state_dicts_and_checkpoints_round_trip() -> None:
    model = E.nn.Sequential(E.nn.Linear(3, 2), E.nn.BatchNorm1d(2))
    opt = E.optim.NAdam(model.parameters())
    model(E.randn(4, 3)).sum().backward()
    opt.step()
    loss = (model[0].weight * 2).sum()
    loaded = _round_trip(
        {"epoch": 3, "model": model.state_dict(), "opt": opt.state_dict(), "loss": loss}
    )
    assert loaded["epoch"] == 3
    assert type(loaded["model"]) is collections.OrderedDict
    assert list(loaded["model"]) == list(model.state_dict())
    for key, value in model.state_dict().items():
        assert loaded["model"][key].dtype == value.dtype
        assert E.equal(loaded["model"][key], value)
    assert loaded["opt"]["param_groups"][0]["betas"] == (0.9, 0.999)  # a tuple stays a tuple
    assert set(loaded["opt"]["state"]) == {0, 1, 2, 3}  # int keys stay ints
    assert loaded["loss"].requires_grad and loaded["loss"].is_leaf
    fresh = E.nn.Sequential(E.nn.Linear(3, 2), E.nn.BatchNorm1d(2))
    fresh.load_state_dict(loaded["model"])
    opt2 = E.optim.NAdam(fresh.parameters())
    opt2.load_state_dict(loaded["opt"])
    assert float(opt2.state[fresh[0].weight]["mu_product"]) == float(
        opt.state[model[0].weight]["mu_product"]
    )


def test_values_keep_their_types_and_shared_tensors_stay_shared() -> None:
    t = E.arange(6).reshape(2, 3)
    p = E.nn.Parameter(E.ones(2))
    obj = [t, t, p, None, True, 2.5, float("inf"), "text", b"\x00\xff", E.float64, (1, [2])]
    out = _round_trip(obj)
    assert out[0] is out[1] and E.equal(out[0], t) and out[0].dtype == E.int64
    assert type(out[2]) is E.nn.Parameter and out[2].requires_grad
    assert out[3:] == [None, True, 2.5, float("inf"), "text", b"\x00\xff", E.float64, (1, [2])]


@pytest.mark.parametrize("path", ["model.pt", b"model.pt"])
def test_files_are_refused(path: object) -> None:
    with pytest.raises(PermissionError, match="scripts may not write files"):
        E.save({"w": E.ones(1)}, path)
    with pytest.raises(PermissionError, match="scripts may not read files"):
        E.load(path)


def test_objects_that_are_not_data_are_refused() -> None:
    for value in (E.nn.Linear(2, 2), print, object(), {1, 2}):
        with pytest.raises(TypeError, match="torch.save in scripts saves tensors"):
            E.save(value, BytesIO())


def _forged(header: str, sizes: str = "[]", blobs: bytes = b"") -> BytesIO:
    payload = serialization.MAGIC + len(header).to_bytes(8, "little") + header.encode()
    payload += len(sizes).to_bytes(8, "little") + sizes.encode() + blobs
    return BytesIO(payload)


@pytest.mark.parametrize(
    ("buffer", "error"),
    [
        (BytesIO(b"garbage that is long enough"), RuntimeError),
        (_forged('{"tensor":0,"dtype":"object","shape":[1]}', "[8]", bytes(8)), RuntimeError),
        (_forged('{"tensor":0,"dtype":"float32","shape":[3]}', "[8]", bytes(8)), RuntimeError),
        (_forged('{"tensor":5,"dtype":"float32","shape":[1]}', "[4]", bytes(4)), RuntimeError),
        (_forged('{"tensor":0,"dtype":"float32","shape":[99999,99999,99999]}', "[4]", bytes(4)),
         RuntimeError),
        (_forged('{"list":[{"v":1.5}]}'), RuntimeError),
        (_forged('{"dict":[[{"list":[]},{"v":1}]]}'), RuntimeError),
        (_forged("[" * 100000 + "]" * 100000), RuntimeError),
        (_forged('{"v":1}', "[4]"), RuntimeError),  # truncated
        (BytesIO(), EOFError),
    ],
)  # fmt: skip
def test_forged_or_truncated_bytes_end_in_one_error(buffer: BytesIO, error: type) -> None:
    with pytest.raises(error):
        E.load(buffer)


def test_bytes_io_semantics() -> None:
    b = BytesIO(b"abc")
    assert b.read() == b"abc" and b.read() == b""
    assert b.seek(1) == 1 and b.read(1) == b"b" and b.tell() == 2
    b.seek(0, 2)
    b.write(b"de")
    assert b.getvalue() == b"abcde"
    b.seek(7)
    b.write(b"!")
    assert b.getvalue() == b"abcde\x00\x00!"
    assert b.truncate(2) == 2 and b.getvalue() == b"ab"
    with pytest.raises(TypeError, match="bytes-like"):
        b.write("text")
    with pytest.raises(ValueError, match="negative seek"):
        b.seek(-1)
    with b:
        pass
    assert b.closed
    with pytest.raises(ValueError, match="closed file"):
        b.read()


LOAD_WITHOUT_COLLECTIONS = """\
import io
import torch
model = torch.nn.Linear(2, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
model(torch.ones(2)).sum().backward()
opt.step()
buffer = io.BytesIO()
torch.save({"model": model.state_dict(), "opt": opt.state_dict()}, buffer)
buffer.seek(0)
loaded = torch.load(buffer)
print(type(loaded["model"]), list(loaded["model"]))
print(sorted(loaded["opt"]["state"]), type(opt.state).__name__)
"""


@pytest.mark.parametrize("isolation", ["1", "0"])
def test_a_loaded_state_dict_reaches_a_script_that_never_imported_collections(
    tmp_path, isolation: str
) -> None:
    """The OrderedDict `torch.load` makes is a class scripts may hold whatever they imported,
    in the jailed child and in the in-process fallback alike."""
    path = tmp_path / "checkpoint.py"
    path.write_text(LOAD_WITHOUT_COLLECTIONS)
    done = autodiff("run", str(path), AUTODIFF_ISOLATION=isolation)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout == (
        "<class 'collections.OrderedDict'> ['weight', 'bias']\n[0, 1] defaultdict\n"
    )
