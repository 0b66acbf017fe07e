"""The suite's `--dist loadfile` scheduler (`file_scheduling.py`, chosen by conftest) hands out
the same files to the same workers in the same order as xdist's own, reports a worker's pending
tests the same way, and gives back the same test when a worker dies: run side by side on
simulated workers."""

from __future__ import annotations

import types

import pytest
from file_scheduling import FileScheduling
from xdist.scheduler import LoadFileScheduling

# 40 files of 1 to 30 tests: enough for xdist to hand several files to each worker
COLLECTION = [
    f"tests/test_f{file:02d}.py::test_{case}" for file in range(40) for case in range(1 + file % 30)
]


class Worker:
    """What the scheduler calls on a worker: the indexes it is told to run, in order."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.queue: list[int] = []
        self.shutting_down = False
        self.gateway = types.SimpleNamespace(id=name)

    def send_runtest_some(self, indexes: list[int]) -> None:
        self.queue.extend(indexes)

    def shutdown(self) -> None:
        self.shutting_down = True


def _config() -> types.SimpleNamespace:
    option = types.SimpleNamespace(loadscopereorder=False, tx=[], numprocesses=3, dist="loadfile")
    return types.SimpleNamespace(option=option, getvalue=lambda name: vars(option).get(name))


def _run(kind: type, crash_after: int | None = None) -> list:
    """Workers that each finish one test in turn; everything the scheduler says, in order."""
    scheduler = kind(_config())
    workers = [Worker(f"gw{i}") for i in range(3)]
    for worker in workers:
        scheduler.add_node(worker)
    for worker in workers:
        scheduler.add_node_collection(worker, list(COLLECTION))
    scheduler.schedule()
    said: list = []
    done = 0
    for _ in range(len(COLLECTION) + 1):  # (each turn but the last finishes a test)
        if not scheduler.has_pending:
            break
        for worker in list(workers):
            if worker.queue:
                index = worker.queue.pop(0)
                scheduler.mark_test_complete(worker, index)
                done += 1
                said.append((worker.name, index, scheduler.tests_finished))
                said.append([scheduler._pending_of(scheduler.assigned_work[w]) for w in workers])
            if crash_after is not None and done == crash_after:
                said.append(("crashed on", scheduler.remove_node(workers[1])))
                said.append(list(scheduler.workqueue))
                return said
    else:
        raise AssertionError(f"still pending after {done} tests: {said[-1]}")
    said.append(("finished", scheduler.tests_finished, done))
    return said


@pytest.fixture(autouse=True)
def _three_workers(monkeypatch: pytest.MonkeyPatch) -> None:
    """The schedulers count their workers from `-n`/`--tx`: three here, whatever this run has."""
    import xdist.scheduler.loadscope as loadscope

    monkeypatch.setattr(loadscope, "parse_tx_spec_config", lambda config: ["popen"] * 3)


def test_same_files_to_the_same_workers_in_the_same_order() -> None:
    ours = _run(FileScheduling)
    assert ours == _run(LoadFileScheduling)
    assert ours[-1] == ("finished", True, len(COLLECTION))


def test_a_dead_worker_gives_back_the_same_test_and_files() -> None:
    ours = _run(FileScheduling, crash_after=100)
    assert ours == _run(LoadFileScheduling, crash_after=100)
    assert ours[-2][0] == "crashed on" and ours[-2][1] in COLLECTION
