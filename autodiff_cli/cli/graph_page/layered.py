"""A layered (Sugiyama-style) layout written here, for when Graphviz is not installed: ranks by
longest path from the result up, the order in each rank by barycenters, x by a few relaxation
passes. Linear-ish in the size of the graph, so a page of thousands of boxes is made quickly."""

from __future__ import annotations

from collections import defaultdict

RANK_GAP = 60  # px between the bottom of one rank and the top of the next
BOX_GAP = 28  # px between boxes of one rank
MARGIN = 24
SWEEPS = 4


def _ranks(visible: list[str], edges: list[tuple[str, str, str]]) -> dict[str, int]:
    """Each box's distance from the bottom (the result): the longest path to it, so every edge
    goes down at least one rank."""
    users: dict[str, list[str]] = defaultdict(list)
    pending_users = dict.fromkeys(visible, 0)
    for source, target, _ in edges:
        users[source].append(target)
        pending_users[source] += 1
    inputs: dict[str, list[str]] = defaultdict(list)
    for source, target, _ in edges:
        inputs[target].append(source)
    rank = dict.fromkeys(visible, 0)
    ready = [box for box in visible if pending_users[box] == 0]
    while ready:
        box = ready.pop()
        for source in inputs[box]:
            rank[source] = max(rank[source], rank[box] + 1)
            pending_users[source] -= 1
            if pending_users[source] == 0:
                ready.append(source)
    return rank


def layered_layout(
    visible: list[str], sizes: dict[str, tuple[float, float]], edges: list[tuple[str, str, str]]
) -> dict[str, tuple[float, float]]:
    """The centre of each visible box, data flowing down (inputs above the boxes using them)."""
    rank = _ranks(visible, edges)
    top = max(rank.values(), default=0)
    neighbours: dict[str, list[str]] = defaultdict(list)
    for source, target, _ in edges:
        neighbours[source].append(target)
        neighbours[target].append(source)
    layers: list[list[str]] = [[] for _ in range(top + 1)]
    for box in visible:  # first seen, first placed: the graph's own order (root first)
        layers[top - rank[box]].append(box)
    order = {box: index for layer in layers for index, box in enumerate(layer)}
    for sweep in range(SWEEPS):
        sequence = layers if sweep % 2 else list(reversed(layers))
        for layer in sequence:
            centre = {
                box: sum(order[other] for other in neighbours[box]) / len(neighbours[box])
                if neighbours[box]
                else order[box]
                for box in layer
            }
            layer.sort(key=lambda box: centre[box])
            order.update((box, index) for index, box in enumerate(layer))
    x = _x_positions(layers, sizes, neighbours)
    positions = {}
    y = MARGIN
    for layer in layers:
        height = max((sizes[box][1] for box in layer), default=0)
        for box in layer:
            positions[box] = (x[box], y + height / 2)
        y += height + RANK_GAP
    left = min((x[box] - sizes[box][0] / 2 for box in visible), default=0)
    return {box: (px - left + MARGIN, py) for box, (px, py) in positions.items()}


def _x_positions(
    layers: list[list[str]],
    sizes: dict[str, tuple[float, float]],
    neighbours: dict[str, list[str]],
) -> dict[str, float]:
    x: dict[str, float] = {}
    for layer in layers:
        cursor = 0.0
        for box in layer:
            x[box] = cursor + sizes[box][0] / 2
            cursor += sizes[box][0] + BOX_GAP
        for box in layer:
            x[box] -= cursor / 2
    for sweep in range(SWEEPS * 2):
        for layer in layers if sweep % 2 else reversed(layers):
            wanted = [
                sum(x[other] for other in neighbours[box]) / len(neighbours[box])
                if neighbours[box]
                else x[box]
                for box in layer
            ]
            x.update(zip(layer, _separated(layer, wanted, sizes)))
    return x


def _separated(layer: list[str], wanted: list[float], sizes: dict) -> list[float]:
    """Positions as near `wanted` as the boxes' order and widths allow: the mean of a
    left-to-right and a right-to-left pass that each push boxes apart."""
    if not layer:
        return []
    gaps = [
        (sizes[a][0] + sizes[b][0]) / 2 + BOX_GAP for a, b in zip(layer, layer[1:], strict=False)
    ]
    right = list(wanted)
    for i in range(1, len(layer)):
        right[i] = max(right[i], right[i - 1] + gaps[i - 1])
    left = list(wanted)
    for i in range(len(layer) - 2, -1, -1):
        left[i] = min(left[i], left[i + 1] - gaps[i])
    merged = [(a + b) / 2 for a, b in zip(left, right, strict=False)]
    for i in range(1, len(layer)):  # the mean of two separated rows is separated too
        merged[i] = max(merged[i], merged[i - 1] + gaps[i - 1])
    return merged
