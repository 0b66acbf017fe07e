"""The words `--formula` shows, in English or Simplified Chinese.

The project has no message catalogue yet: `_` picks the Chinese text of an English message
when `LC_ALL`, `LC_MESSAGES`, `LANG` or `LANGUAGE` selects `zh`, as gettext would, so these
strings move to the catalogue unchanged when one lands.
"""

from __future__ import annotations

import os

_ZH = {
    "formulas (from the grad_fn graph):": "公式(由 grad_fn 图得出):",
    "second derivatives (from the grad_fn graph):": "二阶导数(由 grad_fn 图得出):",
    "hessian formulas (from the grad_fn graph):": "Hessian 公式(由 grad_fn 图得出):",
    "value at the point": "在该点的值",
    "autograd": "autograd",
    "agrees": "一致",
    "autograd: not compared, the graph was freed by backward()": (
        "autograd:未比较,图已被 backward() 释放"
    ),
    "MISMATCH": "不一致",
    "not simplified: simplification took longer than {seconds:g} s of CPU time": (
        "未化简:化简超过 {seconds:g} 秒 CPU 时间"
    ),
    "not simplified: the formula is too large ({size} operations)": (
        "未化简:公式过大({size} 个运算)"
    ),
    "no formula for {name}": "{name} 没有公式",
    "no formula for {name}: it reduces {count} elements": "{name} 没有公式:它归约了 {count} 个元素",
    "no formula: the result has {count} elements (a formula is for a one-element result)": (
        "没有公式:结果有 {count} 个元素(公式只用于单元素结果)"
    ),
    "no formula: a leaf of the graph has no variable name": "没有公式:图中有一个叶子没有变量名",
    "no formula for {name}: the value of its input '{argument}' was not recorded": (
        "{name} 没有公式:其输入 '{argument}' 的值未被记录"
    ),
    "no formula for {name}: its input '{argument}' is a tensor of shape {shape}": (
        "{name} 没有公式:其输入 '{argument}' 是形状为 {shape} 的张量"
    ),
    "no formula: the graph has more than {limit} nodes": "没有公式:图的节点超过 {limit} 个",
    "no formula: {name} has no grad_fn graph": "没有公式:{name} 没有 grad_fn 图",
    "the formula and autograd disagree": "公式与 autograd 不一致",
    "local derivatives": "局部导数",
    "chain rule (sum over paths of products of local derivatives):": (
        "链式法则(各路径上局部导数之积的和):"
    ),
    "{count} paths: too many to list": "{count} 条路径:太多,不逐一列出",
    "usage: :formula NAME [WRT...]": "用法::formula NAME [WRT...]",
    "--formula cannot be combined with --vjp": "--formula 不能与 --vjp 同时使用",
    "--latex needs --formula": "--latex 需要 --formula",
    (
        "autodiff graph: error: --formula prints after the graph on stdout: use "
        "--format tree or dot, without -o"
    ): "autodiff graph: error: --formula 在图之后输出到标准输出:请用 --format tree 或 dot,不要用 -o",
}


def _chinese() -> bool:
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(variable)
        if value:
            return value.lower().startswith("zh")
    return False


# read once, on import: the parent imports this module before it forks a locked-down child,
# whose environment is scrubbed
_CHINESE = _chinese()


def _(message: str) -> str:
    """`message` in the user's language (English when there is no translation)."""
    if _CHINESE:
        return _ZH.get(message, message)
    return message
