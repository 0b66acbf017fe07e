"""Room for Python frames, and for the C stack, that no memory limit can refuse.

CPython 3.11 keeps its frames on a stack of chunks, taking a new 16 KiB chunk from the system
when one fills. When the memory limit refuses that chunk, the call fails without an exception
set (`SystemError: error return without exception set`) and the called function loses one
reference too many: the next call or clean-up may free it while it is still in use and the
process crashes (SIGSEGV). A script that fills its memory and then calls functions would hit
this, and any exception raised there runs our own functions.

`run_on_reserve(work)` runs `work` on top of one frame made large enough (its code is given
`FRAME_RESERVE` more stack slots than it uses) that CPython takes a chunk of twice that size
for it, and the frames called from it fill the unused half. A script recursing to its limit uses
about 1 MiB of frames, so its calls never ask the system for memory. The reserve is address
space, counted against the memory limit, not memory written to.
"""

from __future__ import annotations

import struct
import sys
from collections.abc import Callable
from typing import TypeVar

FRAME_RESERVE = 4 << 20  # bytes of frames free above the first one (a power of two)

Result = TypeVar("Result")


def run_on_reserve(work: Callable[[], Result]) -> Result:
    """`work()`, with `FRAME_RESERVE` bytes of frame stack already taken from the system, and
    the C stack's pages for deep calls already mapped (`map_c_stack`)."""
    map_c_stack()
    return work()


C_STACK_DEPTH = 4_000  # nested calls through C that `map_c_stack` makes (~220 KiB of stack)


def _nested(depth: int) -> tuple:
    nested: tuple = ()
    for _ in range(depth):
        nested = (nested,)
    return nested


_NESTED: list[tuple] = []  # the tuples `map_c_stack` hashes, once made


def make_c_stack_map() -> None:
    """Make the nested tuples `map_c_stack` hashes, once: in the parent before it forks
    (`warm_up`), a child only reads them (hashing a tuple writes nothing to it, so none of their
    pages is copied): ~0.4 ms less in each child than making them there."""
    if not _NESTED:
        _NESTED.append(_nested(C_STACK_DEPTH))


def map_c_stack() -> None:
    """Make the kernel map C stack pages now, while the memory limit leaves room for them.

    The main thread's stack grows on demand, page by page, and each new page counts against the
    address-space limit: in a script that filled its memory, code that needs one more page of C
    stack is a SIGSEGV, not an error (tests/hostile/memory_full_then_deep_calls.ad). A stack
    region once mapped stays mapped, so one recursion through C here (the hash of tuples nested
    `C_STACK_DEPTH` deep, `make_c_stack_map`) leaves that room."""
    make_c_stack_map()  # (made already in a warmed-up parent's child)
    hash(_NESTED[0])


def _widen(function: Callable, extra_bytes: int) -> None:
    """Gives `function`'s frame `extra_bytes` of stack slots it never uses."""
    code = function.__code__
    slots = extra_bytes // struct.calcsize("P")
    function.__code__ = code.replace(co_stacksize=code.co_stacksize + slots)


# Frames live on chunks of one stack from CPython 3.11 on; before, each frame is an object of
# its own whose slots are cleared when made (a wide frame would cost 4 MiB written per call).
if sys.implementation.name == "cpython" and sys.version_info >= (3, 11):
    _widen(run_on_reserve, FRAME_RESERVE)
