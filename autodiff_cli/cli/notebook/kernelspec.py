"""`autodiff kernel install`: registers the kernel with Jupyter (a kernel.json naming this
interpreter), through jupyter_client's own installer, so that Jupyter finds it where it looks
(the user's data directory, the environment's prefix, or the system's)."""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

KERNEL_NAME = "autodiff"
DISPLAY_NAME = "autodiff (PyTorch autograd on numpy)"
EXTRA_HINT = "it needs the jupyter extra: pip install 'autodiff-cli[jupyter]'"


try:  # the `jupyter` extra: `install_kernel` says how to get it when it is missing
    import ipykernel  # noqa: F401 - the kernel itself needs it
    from jupyter_client.kernelspec import KernelSpecManager

    MISSING = None
except ImportError as error:
    MISSING = error.name


class KernelInstallError(Exception):
    """The kernel cannot be installed: the message says why and what to do."""


def kernel_json() -> dict:
    return {
        "argv": [
            sys.executable,
            "-m",
            "autodiff_cli.cli.notebook.kernel",
            "-f",
            "{connection_file}",
        ],
        "display_name": DISPLAY_NAME,
        "language": "python",
        "interrupt_mode": "signal",
        "metadata": {"debugger": False},
    }


def install_kernel(
    *, user: bool = False, prefix: str | None = None, name: str = KERNEL_NAME
) -> str:
    """Install the kernel spec; its directory. `user`: the user's Jupyter data directory;
    `prefix`: PREFIX/share/jupyter (--sys-prefix gives sys.prefix); neither: the system's."""
    if MISSING is not None:
        raise KernelInstallError(f"{MISSING} is not installed: {EXTRA_HINT}")
    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "kernel.json").write_text(json.dumps(kernel_json(), indent=1) + "\n")
        try:
            return KernelSpecManager().install_kernel_spec(
                folder, kernel_name=name, user=user, prefix=prefix
            )
        except OSError as error:
            where = error.filename or "the system's Jupyter directory"
            raise KernelInstallError(
                f"cannot write {where}: {error.strerror} (use --user or --sys-prefix)"
            ) from None
