"""What `autodiff grad` says about options it cannot honour for this result (a note on stderr,
never silence) and why a result cannot be differentiated, in the user's language."""

from __future__ import annotations

from autodiff_cli.i18n import gettext as _


def explain_ignored(mode: str) -> str:
    """The note for `--explain` with a result whose mode has no single backward pass to walk."""
    reasons = {
        "jacobian": _("the result is not a scalar, so its Jacobian is computed row by row"),
        "hessian": _("--hessian differentiates twice"),
        "order": _("--order differentiates several times"),
        "elementwise": _("--elementwise differentiates each element of a non-scalar result"),
    }
    reason = reasons.get(mode, mode)
    return _(
        "note: --explain walks one backward pass of a scalar result (or of --vjp); it is not "
        "shown here: {reason}"
    ).format(reason=reason)


def not_differentiable(wrt_given: bool) -> str:
    """Why a result that does not require grad has nothing to differentiate."""
    if wrt_given:
        return _("the result does not depend on any --wrt variable: nothing to differentiate")
    return _(
        "the result does not depend on the --at variables through anything differentiable "
        "(detach(), torch.no_grad() or a conversion to a number cut it off): nothing to "
        "differentiate"
    )
