"""The engine's core: dtypes, Tensor and the apply machinery, graph nodes, the op table (`defop`),
the backward pass, grad mode, the formula backends, limits, shared kernels, devices, printing.

Nothing here imports `engine.ops` at module level; the op families build on this package."""
