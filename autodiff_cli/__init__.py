"""autodiff: a command-line expression differentiator on a PyTorch-faithful autograd engine."""

__version__ = "0.1.0"
