"""`torch.utils.data`: datasets, samplers, the default collate and a single-process DataLoader.

A DataLoader is a sampler of indices, grouped into batches, each batch's samples fetched from the
dataset and collated: tensors stacked, numbers made tensors (floats float64, ints int64), dicts
and sequences collated field by field (tuples come out as lists). Shuffling draws from PyTorch's
random stream as PyTorch does (a seed for the sampler's own generator, a base seed per
iterator), so `torch.manual_seed` gives PyTorch's order.
`num_workers` is accepted and ignored: loading always runs in the calling process.

Collating builds new dicts and lists; it never copies a sample object (which could run a
script's `__reduce_ex__` or write its attributes).
"""

from __future__ import annotations

import bisect
import itertools
import math
import warnings
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any

import numpy as np

from ..core import generator as stream
from ..core.dtypes import float64
from ..core.generator import Generator
from ..core.script_data import NumpyWrapper, unwrapped
from ..core.tensor import Tensor
from ..ops.creation import as_tensor
from ..ops.creation import tensor as _make_tensor
from ..ops.random import default_generator
from ..ops.views import stack

__all__ = [
    "BatchSampler",
    "ConcatDataset",
    "DataLoader",
    "Dataset",
    "IterableDataset",
    "RandomSampler",
    "Sampler",
    "SequentialSampler",
    "Subset",
    "SubsetRandomSampler",
    "TensorDataset",
    "default_collate",
    "default_convert",
    "get_worker_info",
    "random_split",
]


def _generator(generator: Any) -> Generator:
    """The generator to draw from: the default one, or the given `torch.Generator`."""
    if generator is None:
        return default_generator
    if not isinstance(generator, Generator):
        raise TypeError(f"expected a torch.Generator, but got {type(generator).__name__}")
    return generator


def _permutation(n: int, generator: Any) -> list[int]:
    return stream.permutation(_generator(generator), int(n)).tolist()


def _seed_draw(generator: Any) -> int:
    """`torch.empty((), dtype=torch.int64).random_(generator=...)`: a fresh 63-bit seed."""
    return int(stream.integers(_generator(generator), 1, 0, 1 << 63)[0])


# -- datasets -------------------------------------------------------------------------------------
class Dataset:
    """A map-style dataset: subclasses define `__getitem__` (and usually `__len__`)."""

    def __getitem__(self, index: Any) -> Any:
        raise NotImplementedError("Subclasses of Dataset should implement __getitem__.")

    def __add__(self, other: Dataset) -> ConcatDataset:
        return ConcatDataset([self, other])


class IterableDataset(Dataset):
    """A dataset read by iterating it: subclasses define `__iter__`."""

    def __iter__(self) -> Iterator[Any]:
        raise NotImplementedError("Subclasses of IterableDataset should implement __iter__.")


class TensorDataset(Dataset):
    """Sample `i` is `tuple(t[i] for t in tensors)`; all tensors share their first dimension."""

    def __init__(self, *tensors: Tensor) -> None:
        if any(t.size(0) != tensors[0].size(0) for t in tensors):
            raise AssertionError("Size mismatch between tensors")
        self.tensors = tensors

    def __getitem__(self, index: Any) -> tuple:
        return tuple(t[index] for t in self.tensors)

    def __len__(self) -> int:
        return self.tensors[0].size(0)


class ConcatDataset(Dataset):
    """The datasets one after the other; `cumulative_sizes[i]` ends dataset `i`."""

    def __init__(self, datasets: Iterable[Dataset]) -> None:
        self.datasets = list(datasets)
        if not self.datasets:
            raise AssertionError("datasets should not be an empty iterable")
        if any(isinstance(d, IterableDataset) for d in self.datasets):
            raise AssertionError("ConcatDataset does not support IterableDataset")
        self.cumulative_sizes = list(itertools.accumulate(len(d) for d in self.datasets))

    def __len__(self) -> int:
        return self.cumulative_sizes[-1]

    def __getitem__(self, index: int) -> Any:
        if index < 0:
            if -index > len(self):
                raise ValueError("absolute value of index should not exceed dataset length")
            index += len(self)
        which = bisect.bisect_right(self.cumulative_sizes, index)
        start = self.cumulative_sizes[which - 1] if which else 0
        return self.datasets[which][index - start]


class Subset(Dataset):
    """The samples of `dataset` at `indices`."""

    def __init__(self, dataset: Dataset, indices: Sequence[int]) -> None:
        self.dataset = dataset
        self.indices = indices

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, list):
            return self.dataset[[self.indices[i] for i in index]]
        return self.dataset[self.indices[index]]

    def __getitems__(self, indices: list[int]) -> list:
        return [self.dataset[self.indices[i]] for i in indices]

    def __len__(self) -> int:
        return len(self.indices)


def _split_sizes(total: int, fractions: Sequence[float]) -> list[int]:
    """Lengths for fractions of `total`: floors, the remainder handed out one by one."""
    for i, fraction in enumerate(fractions):
        if not 0 <= fraction <= 1:
            raise ValueError(f"Fraction at index {i} is not between 0 and 1")
    sizes = [math.floor(total * f) for f in fractions]
    for i in range(total - sum(sizes)):
        sizes[i % len(sizes)] += 1
    for i, size in enumerate(sizes):
        if size == 0:
            warnings.warn(
                f"Length of split at index {i} is 0. This might result in an empty dataset.",
                stacklevel=3,
            )
    return sizes


def random_split(
    dataset: Dataset, lengths: Sequence[int | float], generator: Any = None
) -> list[Subset]:
    """Non-overlapping random Subsets of the given lengths, or fractions summing to 1."""
    if math.isclose(sum(lengths), 1) and sum(lengths) <= 1:
        lengths = _split_sizes(len(dataset), lengths)
    if sum(lengths) != len(dataset):
        raise ValueError("Sum of input lengths does not equal the length of the input dataset!")
    order = _permutation(sum(lengths), generator)
    ends = list(itertools.accumulate(lengths))
    return [Subset(dataset, order[end - n : end]) for end, n in zip(ends, lengths)]


# -- samplers -------------------------------------------------------------------------------------
class Sampler:
    """Yields dataset indices (or lists of them)."""

    def __init__(self, data_source: Any = None) -> None:
        pass

    def __iter__(self) -> Iterator[Any]:
        raise NotImplementedError


class SequentialSampler(Sampler):
    """0, 1, ..., len(data_source) - 1."""

    def __init__(self, data_source: Any) -> None:
        self.data_source = data_source

    def __iter__(self) -> Iterator[int]:
        return iter(range(len(self.data_source)))

    def __len__(self) -> int:
        return len(self.data_source)


class RandomSampler(Sampler):
    """Whole random permutations of the indices, or `num_samples` draws with replacement."""

    def __init__(
        self,
        data_source: Any,
        replacement: bool = False,
        num_samples: int | None = None,
        generator: Any = None,
    ) -> None:
        self.data_source = data_source
        self.replacement = replacement
        self._num_samples = num_samples
        self.generator = generator
        if not isinstance(replacement, bool):
            raise TypeError(
                f"replacement should be a boolean value, but got replacement={replacement}"
            )
        if not isinstance(self.num_samples, int) or self.num_samples <= 0:
            raise ValueError(
                "num_samples should be a positive integer value, but got "
                f"num_samples={self.num_samples}"
            )

    @property
    def num_samples(self) -> int:
        return len(self.data_source) if self._num_samples is None else self._num_samples

    def __iter__(self) -> Iterator[int]:
        """As PyTorch: without a generator, one seeded by a draw from the default generator;
        whole permutations, then the start of one more (drawn when iteration reaches it)."""
        n, wanted = len(self.data_source), self.num_samples
        generator = self.generator
        if generator is None:
            generator = Generator().manual_seed(_seed_draw(None))
        if self.replacement:
            return iter(stream.integers(generator, wanted, 0, n).tolist())
        rounds, rest = divmod(wanted, n)
        parts = (_permutation(n, generator)[: n if i < rounds else rest] for i in range(rounds + 1))
        return itertools.chain.from_iterable(parts)

    def __len__(self) -> int:
        return self.num_samples


class SubsetRandomSampler(Sampler):
    """The given indices in a random order."""

    def __init__(self, indices: Sequence[int], generator: Any = None) -> None:
        self.indices = indices
        self.generator = generator

    def __iter__(self) -> Iterator[Any]:
        return (self.indices[i] for i in _permutation(len(self.indices), self.generator))

    def __len__(self) -> int:
        return len(self.indices)


class BatchSampler(Sampler):
    """Another sampler's indices in lists of `batch_size` (the last one shorter or dropped)."""

    def __init__(self, sampler: Iterable[int], batch_size: int, drop_last: bool) -> None:
        _check_batching(batch_size, drop_last)
        self.sampler = sampler
        self.batch_size = batch_size
        self.drop_last = drop_last

    def __iter__(self) -> Iterator[list[int]]:
        indices = iter(self.sampler)
        while batch := list(itertools.islice(indices, self.batch_size)):
            if len(batch) < self.batch_size and self.drop_last:
                return
            yield batch

    def __len__(self) -> int:
        if self.drop_last:
            return len(self.sampler) // self.batch_size
        return -(-len(self.sampler) // self.batch_size)


# -- collate --------------------------------------------------------------------------------------
_COLLATE_ERROR = (
    "default_collate: batch must contain tensors, numpy arrays, numbers, dicts or lists; found {}"
)


def default_convert(data: Any) -> Any:
    """What the DataLoader applies to each sample when automatic batching is off: numpy data
    becomes tensors, inside dicts and sequences too (tuples come out as lists)."""
    if isinstance(data, Tensor) or isinstance(data, (str, bytes)):
        return data
    if isinstance(data, (np.ndarray, np.generic)) and not isinstance(data, np.str_):
        return as_tensor(data)
    if isinstance(data, Mapping):
        return {key: default_convert(data[key]) for key in data}
    if isinstance(data, (list, tuple)):
        return [default_convert(item) for item in data]
    return data


def default_collate(batch: Sequence[Any]) -> Any:
    """One batch from a list of samples, by the type of the first sample."""
    first = batch[0]
    if issubclass(type(first), NumpyWrapper):  # a script's numpy arrays and scalars: raw data
        batch = [unwrapped(b) for b in batch]
        first = batch[0]
    if isinstance(first, Tensor):
        return stack(list(batch), 0)
    if isinstance(first, np.ndarray):
        return stack([as_tensor(b) for b in batch], 0)
    if isinstance(first, (np.bool_, np.number)):
        return as_tensor(np.asarray(batch))
    if isinstance(first, float):
        return _make_tensor(list(batch), dtype=float64)
    if isinstance(first, int):  # bools included: they give a bool tensor
        return _make_tensor(list(batch))
    if isinstance(first, (str, bytes)):
        return batch
    if isinstance(first, Mapping):
        return {key: default_collate([sample[key] for sample in batch]) for key in first}
    if isinstance(first, (list, tuple)):
        if any(len(sample) != len(first) for sample in batch):
            raise RuntimeError("each element in list of batch should be of equal size")
        return [default_collate(field) for field in zip(*batch)]
    raise TypeError(_COLLATE_ERROR.format(type(first)))


def get_worker_info() -> None:
    """None: loading always runs in the main process."""
    return None


# -- DataLoader -----------------------------------------------------------------------------------
_FROZEN = frozenset(
    {"batch_size", "batch_sampler", "sampler", "drop_last", "dataset", "persistent_workers"}
)


def _check_worker_options(
    num_workers: int, timeout: float, prefetch_factor: int | None, persistent_workers: bool
) -> None:
    """PyTorch's checks of the multiprocessing options (which then have no effect here)."""
    if num_workers < 0:
        raise ValueError(
            "num_workers option should be non-negative; "
            "use num_workers=0 to disable multiprocessing."
        )
    if timeout < 0:
        raise ValueError("timeout option should be non-negative")
    if num_workers == 0 and prefetch_factor is not None:
        raise ValueError(
            "prefetch_factor option could only be specified in multiprocessing."
            "let num_workers > 0 to enable multiprocessing, otherwise set prefetch_factor "
            "to None."
        )
    if prefetch_factor is not None and prefetch_factor < 0:
        raise ValueError("prefetch_factor option should be non-negative")
    if persistent_workers and num_workers == 0:
        raise ValueError("persistent_workers option needs num_workers > 0")


def _check_iterable_options(shuffle: Any, sampler: Any, batch_sampler: Any) -> None:
    """An IterableDataset gives its own order: no shuffle, sampler or batch_sampler."""
    for name, value, unset in (
        ("shuffle", shuffle, shuffle is None or shuffle is False),
        ("sampler", sampler, sampler is None),
        ("batch_sampler", batch_sampler, batch_sampler is None),
    ):
        if not unset:
            raise ValueError(
                f"DataLoader with IterableDataset: expected unspecified {name} option, "
                f"but got {name}={value}"
            )


def _check_batching(batch_size: Any, drop_last: Any) -> None:
    if not isinstance(batch_size, int) or isinstance(batch_size, bool) or batch_size <= 0:
        raise ValueError(
            f"batch_size should be a positive integer value, but got batch_size={batch_size}"
        )
    if not isinstance(drop_last, bool):
        raise ValueError(f"drop_last should be a boolean value, but got drop_last={drop_last}")


class DataLoader:
    """Batches a dataset: `for batch in DataLoader(ds, batch_size=4, shuffle=True)`."""

    def __init__(
        self,
        dataset: Any,
        batch_size: int | None = 1,
        shuffle: bool | None = None,
        sampler: Any = None,
        batch_sampler: Any = None,
        num_workers: int = 0,
        collate_fn: Callable | None = None,
        pin_memory: bool = False,
        drop_last: bool = False,
        timeout: float = 0,
        worker_init_fn: Callable | None = None,
        multiprocessing_context: Any = None,
        generator: Any = None,
        *,
        prefetch_factor: int | None = None,
        persistent_workers: bool = False,
        pin_memory_device: str = "",
        in_order: bool = True,
    ) -> None:
        object.__setattr__(self, "_initialized", False)
        _check_worker_options(num_workers, timeout, prefetch_factor, persistent_workers)
        iterable = isinstance(dataset, IterableDataset)
        if iterable:
            _check_iterable_options(shuffle, sampler, batch_sampler)
        shuffle = bool(shuffle)
        if sampler is not None and shuffle:
            raise ValueError("sampler option is mutually exclusive with shuffle")
        if batch_sampler is not None:
            if batch_size != 1 or shuffle or sampler is not None or drop_last:
                raise ValueError(
                    "batch_sampler option is mutually exclusive with batch_size, shuffle, "
                    "sampler, and drop_last"
                )
            batch_size, drop_last = None, False
        elif batch_size is None and drop_last:
            raise ValueError(
                "batch_size=None option disables auto-batching and is mutually exclusive with "
                "drop_last"
            )
        if sampler is None and not iterable:
            sampler = (
                RandomSampler(dataset, generator=generator)
                if shuffle
                else SequentialSampler(dataset)
            )
        if batch_size is not None:
            _check_batching(batch_size, drop_last)
            if not iterable:
                batch_sampler = BatchSampler(sampler, batch_size, drop_last)
        self.dataset = dataset
        self.batch_size = batch_size
        self.drop_last = drop_last
        self.sampler = sampler
        self.batch_sampler = batch_sampler
        self.generator = generator
        self.num_workers = num_workers
        self.prefetch_factor = 2 if num_workers > 0 and prefetch_factor is None else prefetch_factor
        self.pin_memory = pin_memory
        self.pin_memory_device = pin_memory_device
        self.timeout = timeout
        self.worker_init_fn = worker_init_fn
        self.multiprocessing_context = multiprocessing_context
        self.in_order = in_order
        self.persistent_workers = persistent_workers
        batched = batch_size is not None or batch_sampler is not None
        self.collate_fn = collate_fn or (default_collate if batched else default_convert)
        object.__setattr__(self, "_initialized", True)

    def __setattr__(self, name: str, value: Any) -> None:
        if self._initialized and name in _FROZEN:
            raise ValueError(
                f"{name} attribute should not be set after {type(self).__name__} is initialized"
            )
        object.__setattr__(self, name, value)

    def _batches(self) -> Iterator[Any]:
        """The collated batches of one pass (samples, when batching is off)."""
        collate = self.collate_fn
        if isinstance(self.dataset, IterableDataset):
            samples = iter(self.dataset)
            if self.batch_size is None:
                yield from (collate(sample) for sample in samples)
                return
            while batch := list(itertools.islice(samples, self.batch_size)):
                if len(batch) < self.batch_size and self.drop_last:
                    return
                yield collate(batch)
            return
        if self.batch_sampler is None:
            yield from (collate(self.dataset[index]) for index in self.sampler)
            return
        for indices in self.batch_sampler:
            yield collate([self.dataset[index] for index in indices])

    def __iter__(self) -> _LoaderIterator:
        _seed_draw(self.generator)  # PyTorch's iterator draws its workers' base seed
        return _LoaderIterator(self._batches(), len(self) if self._has_len() else None)

    def _has_len(self) -> bool:
        try:
            len(self)
        except TypeError:
            return False
        return True

    def __len__(self) -> int:
        if isinstance(self.dataset, IterableDataset):
            length = len(self.dataset)
            if self.batch_size is None:
                return length
            if self.drop_last:
                return length // self.batch_size
            return -(-length // self.batch_size)
        return len(self.batch_sampler if self.batch_sampler is not None else self.sampler)


class _LoaderIterator:
    """One pass over a DataLoader (an iterator that also knows its length)."""

    def __init__(self, batches: Iterator[Any], length: int | None) -> None:
        self._batches = batches
        self._length = length

    def __iter__(self) -> _LoaderIterator:
        return self

    def __next__(self) -> Any:
        return next(self._batches)

    def __len__(self) -> int:
        if self._length is None:
            raise TypeError("this DataLoader's dataset has no len()")
        return self._length


for _cls in (Dataset, IterableDataset, TensorDataset, ConcatDataset, Subset):
    _cls.__module__ = "torch.utils.data.dataset"
for _cls in (Sampler, SequentialSampler, RandomSampler, SubsetRandomSampler, BatchSampler):
    _cls.__module__ = "torch.utils.data.sampler"
DataLoader.__module__ = "torch.utils.data.dataloader"
_LoaderIterator.__module__ = "torch.utils.data.dataloader"
del _cls
