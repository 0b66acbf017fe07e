"""`torch.autograd.graph.GradientEdge`: a (node, output_nr) pair that `autograd.grad` and
`backward` take as an input, as they take a tensor (core/backward.py reads it)."""

from __future__ import annotations

from collections import namedtuple

GradientEdge = namedtuple(
    "GradientEdge", ["node", "output_nr", "ownership_token"], defaults=(None,)
)
GradientEdge.__module__ = "torch.autograd.graph"
GradientEdge.__doc__ = "Object representing a given gradient edge within the autograd graph."
