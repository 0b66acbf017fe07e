"""PyTorch's checks of `torch.autograd.functional.jacobian`'s `strategy` (and `hessian`'s
`outer_jacobian_strategy`), apart from the forward-mode Jacobian itself (`forward_jacobian`,
which loads forward-mode AD: only when a forward-mode Jacobian is asked for)."""

from __future__ import annotations

STRATEGY_MESSAGE = 'Expected strategy to be either "forward-mode" or "reverse-mode".'
STRATEGY_HINT = (
    ' Hint: If your function has more outputs than inputs, "forward-mode" tends to be more '
    'performant. Otherwise, prefer to use "reverse-mode".'
)
VECTORIZE_MESSAGE = (
    "Computing Jacobian using forward-AD or forward-over-reverse Hessian isonly implemented for "
    "`vectorize=True`."
)


def check_strategy(
    strategy: str, vectorize: bool, create_graph: bool, strict: bool, hint: bool = True
) -> bool:
    """True for "forward-mode" (after PyTorch's refusals), False for "reverse-mode"."""
    if strategy not in ("forward-mode", "reverse-mode"):
        raise AssertionError(STRATEGY_MESSAGE + (STRATEGY_HINT if hint else ""))
    if strategy == "reverse-mode":
        return False
    if not vectorize:
        raise NotImplementedError(VECTORIZE_MESSAGE)
    if create_graph:
        raise NotImplementedError(
            'torch.autograd.functional.jacobian: `create_graph=True` and `strategy="forward-mode"` '
            "are not supported together (yet). Please either set `create_graph=False` or "
            '`strategy="reverse-mode"`.'
        )
    if strict:
        raise RuntimeError(
            'torch.autograd.functional.jacobian: `strict=True` and `strategy="forward-mode"` are '
            "not supported together (yet). Please either set `strict=False` or "
            '`strategy="reverse-mode"`.'
        )
    return True
