"""`torch.device`: autodiff computes on the CPU only, so every tensor's device is `cpu`. Other
devices can be named (scripts build `torch.device("cuda")` freely) but not used: moving a tensor
there fails as it does in a CPU-only PyTorch build."""

from __future__ import annotations

from typing import Any

DEVICE_TYPES = (
    "cpu", "cuda", "ipu", "xpu", "mkldnn", "opengl", "opencl", "ideep", "hip", "ve", "fpga",
    "maia", "xla", "lazy", "vulkan", "mps", "meta", "hpu", "mtia", "privateuseone",
)  # fmt: skip
_NO_CUDA = "Torch not compiled with CUDA enabled"


class device:  # noqa: N801 - PyTorch's name
    """A device name: a type (`cpu`, `cuda`, ...) and an optional index."""

    __slots__ = ("type", "index")

    def __init__(self, type: Any, index: int | None = None) -> None:  # noqa: A002
        if isinstance(type, device):
            self.type, self.index = type.type, type.index
            return
        if not isinstance(type, str):
            raise TypeError(
                "device() received an invalid combination of arguments - got "
                f"({_type_name(type)}), but expected one of:\n * (torch.device device)\n"
                "      didn't match because some of the arguments have invalid types: "
                f"(!{_type_name(type)}!)\n * (str type, int index = -1)\n"
            )
        name, _, number = type.partition(":")
        if name not in DEVICE_TYPES:
            raise RuntimeError(
                f"Expected one of {', '.join(DEVICE_TYPES)} device type at start of device "
                f"string: {type}"
            )
        if number:
            if not number.isdigit() or index is not None:
                raise RuntimeError(f"Invalid device string: '{type}'")
            index = int(number)
        self.type = name
        self.index = index

    def __repr__(self) -> str:
        if self.index is None:
            return f"device(type='{self.type}')"
        return f"device(type='{self.type}', index={self.index})"

    def __str__(self) -> str:
        return self.type if self.index is None else f"{self.type}:{self.index}"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, device):
            return False
        return self.type == other.type and self.index == other.index

    def __hash__(self) -> int:
        return hash((self.type, self.index))

    def __reduce__(self) -> Any:
        return (device, (self.type, self.index))


def _type_name(value: Any) -> str:
    return type(value).__name__


CPU = device("cpu")


def check_device(where: Any) -> None:
    """Raises unless `where` (a device, a device string or an index) names the CPU."""
    if where is None or where is CPU:
        return
    if isinstance(where, int) and not isinstance(where, bool):
        raise AssertionError(_NO_CUDA)  # a bare index means a CUDA device
    kind = device(where).type
    if kind == "cuda":
        raise AssertionError(_NO_CUDA)
    if kind != "cpu":
        raise RuntimeError(f"PyTorch is not linked with support for {kind} devices")


def is_device_arg(value: Any) -> bool:
    """Whether a positional argument of `.to(...)` names a device."""
    return isinstance(value, (device, str))


device.__module__ = "torch"
