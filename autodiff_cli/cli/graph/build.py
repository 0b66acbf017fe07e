"""The grad_fn graph of a tensor as plain data, built without recursion, and its long chains collapsed.

`build_graph` walks `next_functions` from a result's `grad_fn` iteratively (10,000-node chains are
common in loops). `collapse_chains` replaces long runs of one op (`y = y * 1.01` in a loop) by a
single "… 9,990 × MulBackward0 …" node. The exporters in `export` and the tree in
`tree` draw a `Graph`; the REPL's `:graph` and `autodiff grad` use the same code.
"""

from __future__ import annotations

from typing import Any

import autodiff_cli.engine as torch
from autodiff_cli.cli.graph.node_values import node_outputs
from autodiff_cli.lang.runtime.provenance import note_of

OP, LEAF, COLLAPSED, RESULT = "op", "leaf", "collapsed", "result"
SMALL_TENSOR = 6  # tensors with at most this many elements show their values
CHAIN_MIN = 12  # runs of one op longer than this are collapsed
CHAIN_KEEP = 2  # nodes kept visible at each end of a collapsed run


class GraphError(Exception):
    """Nothing to draw (not a tensor, no grad_fn): exit status 1."""


def graph_of_checked(value: Any, label: str) -> None:
    """GraphError saying why `value` has no graph to draw, unless it is a tensor with a grad_fn."""
    if not isinstance(value, torch.Tensor):
        raise GraphError(f"{label} is not a tensor (it is {type(value).__name__})")
    if value.grad_fn is None:
        kind = "a leaf tensor" if value.requires_grad else "a tensor that does not require grad"
        raise GraphError(f"{label} has no grad_fn: it is {kind}, so it has no graph to draw")


class Record:
    """A plain record (what `dataclass` would make; the one-liner does not import `dataclasses`,
    ~2 ms): fields by keyword or position, equality and repr by field."""

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and other.__dict__ == self.__dict__

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={value!r}" for name, value in self.__dict__.items())
        return f"{type(self).__name__}({fields})"


class GraphNode(Record):
    """One node: `name` is PyTorch's node name (MulBackward0, AccumulateGrad), `kind` OP, LEAF or
    COLLAPSED, `label` a leaf's variable name or the text of a collapsed run, `inputs` the keys
    of its inputs (None: an input needing no grad), `shape` and `value` its output's (small
    tensors' values), `grad` the gradient it received in the last backward pass, `saved` its
    saved values as (name, description), `source` the text that made it (`w*x (3:5)`)."""

    def __init__(
        self,
        key: int,
        name: str,
        kind: str,
        label: str = "",
        inputs: list[int | None] | None = None,
        shape: tuple | None = None,
        value: str | None = None,
        grad: str | None = None,
        saved: list[tuple[str, str]] | None = None,
        source: str | None = None,
    ) -> None:
        self.key, self.name, self.kind, self.label = key, name, kind, label
        self.inputs = [] if inputs is None else inputs
        self.shape, self.value, self.grad = shape, value, grad
        self.saved = [] if saved is None else saved
        self.source = source

    @property
    def title(self) -> str:
        if self.kind == LEAF:
            return f"{self.name} ({self.label or 'unnamed leaf'})"
        if self.source and not self.label:
            return f"{self.name} ← {self.source}"
        return self.label or self.name


class Graph(Record):
    """The nodes (`nodes[0]` is the root, the result's grad_fn) and the result's name, shape
    and value."""

    def __init__(
        self,
        nodes: list[GraphNode],
        result_name: str = "result",
        result_shape: tuple | None = None,
        result_value: str | None = None,
    ) -> None:
        self.nodes, self.result_name = nodes, result_name
        self.result_shape, self.result_value = result_shape, result_value

    @property
    def root(self) -> GraphNode:
        return self.nodes[0]


def node_name(grad_fn: Any) -> str:
    """PyTorch's name for a graph node, e.g. `MulBackward0` or `AccumulateGrad`."""
    name = getattr(grad_fn, "name", None)
    if callable(name):
        return str(name()).rpartition("::")[2]  # torch::autograd::AccumulateGrad
    return type(grad_fn).__name__


def small_value(tensor: Any) -> str | None:
    """A tensor's values on one line (`[1., 4.]`) when it is small, else None."""
    try:
        if tensor.numel() > SMALL_TENSOR:
            return None
        text = repr(tensor.detach())
    except Exception:  # a freed or odd object: show nothing rather than fail the picture
        return None
    inner = text[len("tensor(") : -1] if text.startswith("tensor(") else text
    inner = inner.split(", dtype=")[0].split(", requires_grad")[0]
    return " ".join(line.strip() for line in inner.splitlines())  # the repr's spacing kept


def _saved_of(grad_fn: Any) -> list[tuple[str, str]]:
    """The values a node saved for backward, as `(name, shape or value)`."""
    op = getattr(grad_fn, "op", None)
    if op is None:
        return []
    names = ["result" if what == "result" else op.arg_names[what] for what in op.saves]
    names += list(getattr(grad_fn, "_params", None) or {})
    saved = []
    for key in dict.fromkeys(names):
        try:
            value = grad_fn.saved_attribute(key)
        except (RuntimeError, AttributeError, IndexError) as error:
            saved.append((key, "freed" if "second time" in str(error) else "?"))
            continue
        if hasattr(value, "shape") and hasattr(value, "numel"):
            described = small_value(value) or f"tensor of shape {list(value.shape)}"
        else:
            described = repr(value)
        saved.append((key, described))
    return saved


def saved_values(tensor: Any) -> dict[int, list[tuple[str, str]]]:
    """What each node below `tensor` saved for backward, described now: call it before a
    backward pass frees the saved tensors, and pass the result to `build_graph(saved=...)`."""
    return {id(fn): _saved_of(fn) for fn in walk(tensor.grad_fn) if not hasattr(fn, "variable")}


def build_graph(
    grad_fn: Any,
    leaf_names: dict[int, str],
    *,
    outputs: dict[int, Any] | None = None,
    grads: dict[int, Any] | None = None,
    with_saved: bool = False,
    shapes: dict[int, tuple] | None = None,
    saved: dict[int, list[tuple[str, str]]] | None = None,
) -> Graph:
    """The graph below `grad_fn`.

    `leaf_names` maps id(leaf tensor) to its variable name; `outputs` maps id(node) to the tensor
    it produced (named variables, the result), `grads` id(node) to the gradient it received,
    `shapes` id(node) to its output shape and `saved` id(node) to its saved values as captured
    before a backward pass freed them (`saved_values`). A leaf shows its `.grad` when it has one.
    """
    outputs = outputs or {}
    grads = grads or {}
    shapes = shapes or {}
    keys: dict[int, int] = {}
    nodes: list[GraphNode] = []

    def add(fn: Any) -> int:
        key = len(nodes)
        keys[id(fn)] = key
        variable = getattr(fn, "variable", None)
        is_leaf = hasattr(fn, "variable")
        node = GraphNode(key, node_name(fn), LEAF if is_leaf else OP)
        produced = variable if is_leaf else outputs.get(id(fn))
        if is_leaf:
            node.label = leaf_names.get(id(variable), "")
        if produced is not None and hasattr(produced, "shape"):
            node.shape = tuple(produced.shape)
            node.value = small_value(produced)
        grad = grads.get(id(fn))
        if grad is None and is_leaf:
            grad = getattr(variable, "grad", None)
        if node.shape is None and id(fn) in shapes:
            node.shape = shapes[id(fn)]
        if grad is not None:
            node.grad = small_value(grad) or f"shape {list(grad.shape)}"
            if node.shape is None:
                node.shape = tuple(grad.shape)
        if with_saved and not is_leaf:
            node.saved = saved[id(fn)] if saved and id(fn) in saved else _saved_of(fn)
        if not is_leaf:
            note = note_of(fn)
            node.source = note.label() if note is not None else None
        nodes.append(node)
        pending.append(fn)
        return key

    pending: list[Any] = []
    add(grad_fn)
    index = 0
    while index < len(pending):
        fn = pending[index]
        node = nodes[index]
        index += 1
        for child, _ in getattr(fn, "next_functions", ()):
            if child is None:
                node.inputs.append(None)
            elif id(child) in keys:
                node.inputs.append(keys[id(child)])
            else:
                node.inputs.append(add(child))
    return Graph(nodes)


def _consumers(graph: Graph) -> list[int]:
    counts = [0] * len(graph.nodes)
    for node in graph.nodes:
        for key in node.inputs:
            if key is not None:
                counts[key] += 1
    return counts


def _chain_next(node: GraphNode, graph: Graph, consumers: list[int]) -> GraphNode | None:
    """The next node of a run of one op: the only input, of the same op, used only here."""
    inputs = [key for key in node.inputs if key is not None]
    if len(inputs) != 1 or node.kind != OP:
        return None
    child = graph.nodes[inputs[0]]
    if child.name != node.name or child.kind != OP or consumers[child.key] != 1:
        return None
    return child


def long_runs(graph: Graph, minimum: int = CHAIN_MIN) -> list[list[GraphNode]]:
    """Each run of more than `minimum` nodes of one op, each feeding only the next, nearest the
    root first (what `collapse_chains` hides, and what the browser page expands on click)."""
    consumers = _consumers(graph)
    runs = []
    in_run: set[int] = set()
    for node in graph.nodes:
        if node.key in in_run or node.kind != OP:
            continue
        run = [node]
        following = _chain_next(node, graph, consumers)
        while following is not None and following.key not in in_run:
            run.append(following)
            in_run.add(following.key)
            following = _chain_next(following, graph, consumers)
        if len(run) > minimum:
            runs.append(run)
    return runs


def collapse_chains(graph: Graph, minimum: int = CHAIN_MIN, keep: int = CHAIN_KEEP) -> Graph:
    """A copy of the graph where each run of more than `minimum` nodes of one op, each feeding
    only the next, shows its first and last `keep` nodes around one summary node."""
    removed: set[int] = set()
    replaced: dict[int, list[int | None]] = {}  # key -> its new inputs
    extra: list[GraphNode] = []
    for run in long_runs(graph, minimum):
        node = run[0]
        hidden = run[keep:-keep]
        summary = GraphNode(
            len(graph.nodes) + len(extra),
            node.name,
            COLLAPSED,
            label=f"… {len(hidden):,} × {node.name} …",
            inputs=[run[-keep].key],
        )
        extra.append(summary)
        removed.update(item.key for item in hidden)
        last_kept = run[keep - 1]
        replaced[last_kept.key] = [
            summary.key if key == hidden[0].key else key for key in last_kept.inputs
        ]
    if not extra:
        return graph
    nodes = []
    for node in graph.nodes:
        if node.key in removed:
            nodes.append(None)
            continue
        copy = GraphNode(**{**node.__dict__})
        if node.key in replaced:
            copy.inputs = replaced[node.key]
        nodes.append(copy)
    nodes.extend(extra)
    return _renumbered(graph, nodes)


def _renumbered(graph: Graph, nodes: list[GraphNode | None]) -> Graph:
    """Drop removed nodes and make keys consecutive again (exporters use them as ids)."""
    new_keys: dict[int, int] = {}
    kept = []
    for old, node in enumerate(nodes):
        if node is not None:
            new_keys[old] = len(kept)
            kept.append(node)
    for node in kept:
        node.key = new_keys[node.key]
        node.inputs = [None if key is None else new_keys[key] for key in node.inputs]
    return Graph(kept, graph.result_name, graph.result_shape, graph.result_value)


def describe_tensor_graph(
    tensor: Any,
    names: dict[str, Any],
    *,
    result_name: str = "result",
    grads: dict[int, Any] | None = None,
    with_saved: bool = False,
    probe_shapes: bool = True,
) -> Graph:
    """The graph of `tensor`, with leaves and intermediate results named after the variables
    in `names` (a namespace). Output shapes of unnamed nodes come from a gradient probe: a
    backward pass through `autograd.grad(..., retain_graph=True)` that leaves `.grad` untouched.
    """
    leaf_names: dict[int, str] = {}
    outputs: dict[int, Any] = {id(tensor.grad_fn): tensor}
    for name, value in names.items():
        if isinstance(value, torch.Tensor) and not name.startswith("_"):
            if value.grad_fn is None and value.requires_grad:
                leaf_names.setdefault(id(value), name)
            elif value.grad_fn is not None:
                outputs.setdefault(id(value.grad_fn), value)
    shapes = {}
    if probe_shapes:
        shapes = {key: tuple(grad.shape) for key, grad in probe_gradients(tensor).items()}

    for key, value in node_outputs(walk(tensor.grad_fn), outputs).items():
        if shapes.get(key, tuple(value.shape)) == tuple(value.shape):
            outputs.setdefault(key, value)
    graph = build_graph(
        tensor.grad_fn,
        leaf_names,
        outputs=outputs,
        grads=grads,
        with_saved=with_saved,
        shapes=shapes,
    )
    graph.result_name = result_name
    graph.result_shape = tuple(tensor.shape)
    graph.result_value = small_value(tensor)
    return graph


def probe_gradients(tensor: Any) -> dict[int, Any]:
    """The gradient each node receives when `tensor` is differentiated (seeded with ones), found
    with pre-hooks during `autograd.grad(retain_graph=True)`; empty if the graph was freed."""
    received: dict[int, Any] = {}
    handles = []
    leaves = []
    for fn in walk(tensor.grad_fn):
        if hasattr(fn, "variable"):
            leaves.append(fn.variable)
            continue

        def record(grad_outputs: tuple, fn: Any = fn) -> None:
            if grad_outputs and grad_outputs[0] is not None:
                received[id(fn)] = grad_outputs[0]

        handles.append(fn.register_prehook(record))
    try:
        if leaves:
            torch.autograd.grad(
                tensor, leaves, torch.ones_like(tensor), retain_graph=True, allow_unused=True
            )
    except Exception:  # saved tensors freed by an earlier backward: no shapes, still a graph
        pass
    finally:
        for handle in handles:
            handle.remove()
    return received


def walk(grad_fn: Any) -> list[Any]:
    """Every node reachable from `grad_fn`, each once, breadth first."""
    seen = {id(grad_fn)}
    order = [grad_fn]
    index = 0
    while index < len(order):
        for child, _ in getattr(order[index], "next_functions", ()):
            if child is not None and id(child) not in seen:
                seen.add(id(child))
                order.append(child)
        index += 1
    return order


def graph_of(value: Any, names: dict[str, Any], label: str, *, with_saved: bool = False) -> Any:
    """The collapsed `Graph` of a tensor, or GraphError saying why there is none."""
    graph_of_checked(value, label)
    return collapse_chains(
        describe_tensor_graph(value, names, result_name=label, with_saved=with_saved)
    )
