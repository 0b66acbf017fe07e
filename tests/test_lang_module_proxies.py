"""A script's module proxies (`import torch`, `math`...) hold what the module's vetting gives.

The vetting (`engine_exports.public_attributes`, then what the proxy keeps of each value) is
done once per module and process and kept as the module's plan (`namespace._plan_of`); each
script's proxies are made from it. These tests hold every proxy a script reaches from `torch`
to the vetting done afresh, name by name and in order, and check that a module that changed
is vetted again.
"""

from __future__ import annotations

import sys
import types

import pytest

from autodiff_cli.lang import limits
from autodiff_cli.lang.runtime import namespace as namespace_module
from autodiff_cli.lang.runtime.namespace import Namespace
from autodiff_cli.lang.sandbox import capabilities, engine_exports


def _fresh_vetting(namespace: Namespace, module: types.ModuleType) -> dict:
    """What the proxy of `module` in `namespace` must hold, vetted now as it was per script."""
    expected = {}
    for key, value in engine_exports.public_attributes(module).items():
        if isinstance(value, types.ModuleType):
            expected[key] = namespace._proxies[id(value)]
        else:
            expected[key] = namespace_module._vetted(value)
    return expected


def _held(proxy: capabilities.ModuleProxy) -> dict:
    return {key: value for key, value in vars(proxy).items() if not key.startswith("_")}


# Names a root module's proxy holds in place of the module's own (`Namespace.root_module`).
REPLACED = {
    "autodiff_cli.engine": {"from_numpy", "tensor", "as_tensor"},  # numpy_bridge's
    "math": set(limits.CHECKED_MATH),
}


def test_every_proxy_under_torch_holds_its_module_s_vetting() -> None:
    for namespace in (Namespace(), Namespace()):  # the first loads the lazy submodules
        namespace.root_module("math")
        for dotted in sorted(engine_exports.PUBLIC_SUBMODULES):
            try:
                namespace.import_module(f"torch.{dotted}")
            except ModuleNotFoundError:  # (`torch.nn.modules`: not a script's module)
                pass
    modules = {id(module): module for module in list(sys.modules.values())}
    checked = 0
    for module_id, proxy in namespace._proxies.items():
        module = modules.get(module_id)
        if module is None or not isinstance(proxy, capabilities.ModuleProxy):
            continue  # (numpy's proxy is made by numpy_module, not from a module)
        expected = _fresh_vetting(namespace, module)
        held = _held(proxy)
        assert list(held) == list(expected), module.__name__
        replaced = REPLACED.get(module.__name__, set())
        assert all(held[key] is expected[key] for key in held if key not in replaced)
        assert set(proxy._proxy_lazy) == set(engine_exports.lazy_names(module))
        checked += 1
    assert checked > 20  # torch, nn, nn.functional, optim, linalg, math...


def test_each_script_gets_its_own_proxies() -> None:
    first, second = Namespace(), Namespace()
    torch_a, torch_b = first.root_module("torch"), second.root_module("torch")
    assert torch_a is not torch_b and torch_a.nn is not torch_b.nn
    assert torch_a.nn.functional is first.import_module("torch.nn.functional")
    torch_a.relu = "replaced"  # a script's write stays in its own proxy
    assert torch_b.relu is not torch_a.relu
    assert Namespace().root_module("torch").relu is torch_b.relu


def test_a_module_that_changed_is_vetted_again(monkeypatch: pytest.MonkeyPatch) -> None:
    module = types.ModuleType("plain_for_test")
    module.first = 1
    assert _held(Namespace().module_proxy(module, "plain_for_test")) == {"first": 1}
    module.second = 2  # a name bound later (an import binding a submodule, say)
    assert _held(Namespace().module_proxy(module, "plain_for_test")) == {"first": 1, "second": 2}
    module.first = 3  # rebound under an import (same number of names)
    monkeypatch.setitem(sys.modules, "plain_for_test", module)
    assert _held(Namespace().module_proxy(module, "plain_for_test")) == {"first": 3, "second": 2}
