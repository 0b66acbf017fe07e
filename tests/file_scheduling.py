"""pytest-xdist's `--dist loadfile` scheduling (whole files to each worker, in collection order),
with its bookkeeping made linear. xdist (3.8) counts a worker's pending tests by walking every
test ever given to it, on each report and each turn of its loop, and finds each test's index in
the worker's collection by a list search: on the suite's ~13,000 tests that was the controller's
main cost. Here each worker's pending count is kept as reports arrive and the indexes come from a
dict; which files go to which worker, and when, is xdist's own logic, unchanged."""

from __future__ import annotations

from typing import Any

from xdist.scheduler import LoadFileScheduling


class FileScheduling(LoadFileScheduling):
    """`LoadFileScheduling` whose `_pending_of` is a lookup, not a count."""

    def __init__(self, config: Any, log: Any = None) -> None:
        super().__init__(config, log)
        self._pending: dict[int, int] = {}  # id(a worker's workload) -> its tests not reported
        self._positions: dict[Any, dict[str, int]] = {}  # worker -> test id -> its index

    def _pending_of(self, workload: dict[str, dict[str, bool]]) -> int:
        return self._pending.get(id(workload), 0)

    def mark_test_complete(self, node: Any, item_index: int, duration: float = 0) -> None:
        nodeid = self.registered_collections[node][item_index]
        workload = self.assigned_work[node]
        if not workload[self._split_scope(nodeid)][nodeid]:
            self._pending[id(workload)] -= 1
        super().mark_test_complete(node, item_index, duration)

    def remove_node(self, node: Any) -> str | None:
        key = id(self.assigned_work[node])
        try:
            return super().remove_node(node)
        finally:
            self._pending.pop(key, None)
            self._positions.pop(node, None)

    def _assign_work_unit(self, node: Any) -> None:
        assert self.workqueue
        scope, work_unit = self.workqueue.popitem(last=False)
        workload = self.assigned_work.setdefault(node, {})
        workload[scope] = work_unit
        positions = self._positions.get(node)
        if positions is None:
            positions = self._positions[node] = {}
            for index, nodeid in enumerate(self.registered_collections[node]):
                positions.setdefault(nodeid, index)  # (the first, as `list.index` finds)
        indexes = [positions[nodeid] for nodeid, done in work_unit.items() if not done]
        self._pending[id(workload)] = self._pending.get(id(workload), 0) + len(indexes)
        node.send_runtest_some(indexes)
