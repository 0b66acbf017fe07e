"""`autodiff graph`: every format, the labels, long chains, and Graphviz being absent."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from cli_runner import warm_autodiff as autodiff  # a fork of a warm CLI: see cli_runner

HAS_DOT = shutil.which("dot") is not None


LINEAR = ["graph", "w*x+b", "--at", "x=2,w=3,b=1"]


def test_tree_labels_leaves_with_their_names_shapes_and_values():
    done = autodiff(*LINEAR)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "AddBackward0 ← w*x+b  shape=[]  value=7.",
        "├── MulBackward0 ← w*x  shape=[]  value=6.",
        "│   ├── AccumulateGrad (w)  shape=[]  value=3.",
        "│   └── AccumulateGrad (x)  shape=[]  value=2.",
        "└── AccumulateGrad (b)  shape=[]  value=1.",
    ]


def test_dot_has_a_node_per_op_and_edges_from_inputs():
    done = autodiff(*LINEAR, "--format", "dot")
    assert done.returncode == 0, done.stderr
    dot = done.stdout
    assert dot.startswith("digraph autograd {") and dot.rstrip().endswith("}")
    assert 'label="AddBackward0 ← w*x+b\\nshape []\\nvalue 7."' in dot
    assert 'label="w\\nAccumulateGrad\\nshape []\\nvalue 3."' in dot
    assert dot.count(" -> ") == 5  # w, x -> mul; mul, b -> add; add -> result


def test_mermaid_is_graph_td_with_tensors_as_boxes_and_ops_rounded():
    done = autodiff(*LINEAR, "-f", "mermaid")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "graph TD"
    assert any(line.strip().startswith('n0("AddBackward0') for line in lines)
    assert any('["x<br/>AccumulateGrad' in line for line in lines)
    assert "    n0 --> result" in lines


def test_backward_flag_shows_the_gradient_each_node_received():
    done = autodiff("graph", "(x*x).sum()", "--at", "x=[1,2]", "--backward")
    assert done.returncode == 0, done.stderr
    assert "MulBackward0 ← x*x  shape=[2]  value=[1., 4.]  grad=[1., 1.]" in done.stdout
    assert "AccumulateGrad (x)  shape=[2]  value=[1., 2.]  grad=[2., 4.]" in done.stdout


def test_saved_shows_what_nodes_saved_for_backward():
    done = autodiff("graph", "x**3", "--at", "x=2", "--saved")
    assert done.returncode == 0, done.stderr
    assert "saved self=2." in done.stdout and "saved exponent=3" in done.stdout


def test_script_variable_and_a_10000_node_chain_collapses(tmp_path: Path):
    script = tmp_path / "chain.py"
    script.write_text(
        "import torch\nx = torch.tensor(1.0, requires_grad=True)\ny = x\n"
        "for i in range(10000):\n    y = y * 1.0001\n",
        encoding="utf-8",
    )
    done = autodiff("graph", "--file", str(script), "--var", "y", "-f", "mermaid")
    assert done.returncode == 0, done.stderr
    assert "… 9,996 × MulBackward0 …" in done.stdout
    assert len(done.stdout.splitlines()) < 20
    tree = autodiff("graph", "--file", str(script), "--var", "y")
    assert "… 9,996 × MulBackward0 …" in tree.stdout


def test_graph_output_file(tmp_path: Path):
    target = tmp_path / "g.dot"
    done = autodiff(*LINEAR, "-f", "dot", "-o", str(target))
    assert (done.returncode, done.stdout) == (0, "")
    assert target.read_text(encoding="utf-8").startswith("digraph autograd {")


@pytest.mark.skipif(not HAS_DOT, reason="Graphviz's dot is not installed")
@pytest.mark.parametrize("fmt, magic", [("svg", b"<svg"), ("png", b"\x89PNG")])
def test_svg_and_png_are_rendered_by_graphviz(tmp_path: Path, fmt: str, magic: bytes):
    target = tmp_path / f"g.{fmt}"
    done = autodiff(*LINEAR, "-f", fmt, "-o", str(target))
    assert done.returncode == 0, done.stderr
    data = target.read_bytes()
    assert magic in data[:400]
    if fmt == "svg":
        assert b"AddBackward0" in data


def test_missing_graphviz_names_the_package(tmp_path: Path):
    done = autodiff(*LINEAR, "-f", "png", "-o", str(tmp_path / "g.png"), PATH=str(tmp_path))
    assert done.returncode == 1
    assert "graphviz" in done.stderr and "not installed" in done.stderr
    assert "Traceback" not in done.stderr
    assert not (tmp_path / "g.png").exists()


@pytest.mark.parametrize(
    "args, status, message",
    [
        (["graph", "x*2"], 1, "NameError"),
        (["graph", "tensor(2.0)", "--at", "x=1"], 1, "no grad_fn"),
        (["graph", "x", "--at", "x=1"], 1, "leaf tensor"),
        (["graph"], 2, "either EXPR"),
        (["graph", "--file", "examples/graph_export.py"], 2, "--var"),
        (["graph", "--file", "examples/graph_export.py", "--var", "nope"], 1, "no variable"),
        (["graph", "x", "--at", "x=1", "-f", "gif"], 2, "gif"),
    ],
)
def test_graph_errors(args, status, message):
    done = autodiff(*args)
    assert done.returncode == status, done.stderr
    assert message in done.stderr
    assert "Traceback" not in done.stderr


def test_repl_graph_module_reuses_the_same_tree():
    import autodiff_cli.engine as torch
    from autodiff_cli.cli.graph.build import collapse_chains, describe_tensor_graph
    from autodiff_cli.cli.graph.export import to_mermaid

    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = (x * 2).sum()
    graph = collapse_chains(describe_tensor_graph(y, {"x": x, "y": y}, result_name="y"))
    assert [node.name for node in graph.nodes] == ["SumBackward0", "MulBackward0", "AccumulateGrad"]
    assert graph.nodes[1].shape == (2,)  # known from the gradient probe
    assert x.grad is None  # the probe does not touch .grad
    assert 'result["y<br/>shape []<br/>value 6."]' in to_mermaid(graph)


def test_inner_nodes_show_their_values_and_gradients():
    args = ["graph", "(w@x + b).relu().mean()", "--at", "x=[1,2],w=[[1,-2],[3,4]],b=[1,1]"]
    done = autodiff(*args, "--backward")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[:4] == [
        "MeanBackward0 ← (w@x + b).relu().mean()  shape=[]  value=6.  grad=1.",
        "└── ReluBackward0 ← (w@x + b).relu()  shape=[2]  value=[ 0., 12.]  grad=[0.5000, 0.5000]",
        "    └── AddBackward0 ← w@x + b  shape=[2]  value=[-2., 12.]  grad=[0.0000, 0.5000]",
        "        ├── MvBackward0 ← w@x  shape=[2]  value=[-3., 11.]  grad=[0.0000, 0.5000]",
    ]
    dot = autodiff(*args, "--format", "dot").stdout
    assert 'label="MvBackward0 ← w@x\\nshape [2]\\nvalue [-3., 11.]"' in dot
    mermaid = autodiff("graph", "exp(x)*sin(x)", "--at", "x=[1,2]", "--format", "mermaid")
    assert '    n0("MulBackward0 ← exp(x)*sin(x)<br/>shape [2]<br/>value [2.2874, 6.7188]")' in (
        mermaid.stdout
    )
    assert (
        '    n1("ExpBackward0 ← exp(x)<br/>shape [2]<br/>value [2.7183, 7.3891]")' in mermaid.stdout
    )


def test_an_input_used_twice_draws_two_edges():
    dot = autodiff("graph", "x*x", "--at", "x=3", "--format", "dot")
    assert dot.returncode == 0, dot.stderr
    assert dot.stdout.count("    n1 -> n0;") == 2
    mermaid = autodiff("graph", "x*x", "--at", "x=3", "--format", "mermaid").stdout
    assert mermaid.splitlines()[-3:] == ["    n1 --> n0", "    n1 --> n0", "    n0 --> result"]


@pytest.mark.skipif(not HAS_DOT, reason="Graphviz's dot is not installed")
def test_svg_draws_an_edge_per_input():
    done = autodiff("graph", "x*x", "--at", "x=3", "--format", "svg")
    assert done.returncode == 0, done.stderr
    assert done.stdout.count('class="edge"') == 3  # x -> mul twice, mul -> result


def test_dot_labels_carry_each_node_source_with_line_and_column(tmp_path: Path):
    script = tmp_path / "s.py"
    script.write_text(
        "import torch\n"
        "x = torch.tensor(2.0, requires_grad=True)\n"
        "w = torch.tensor(3.0, requires_grad=True)\n"
        "loss = (w*x - 1) ** 2\n"
        "print(loss.grad_fn)\n"
    )
    done = autodiff("graph", "--file", str(script), "--var", "loss", "-f", "dot")
    assert done.returncode == 0, done.stderr
    labels = [line.split('label="')[1].split("\\n")[0] for line in done.stdout.splitlines()
              if line.startswith("    n") and "label=" in line]  # fmt: skip
    assert labels == [
        "PowBackward0 ← (w*x - 1) ** 2 (4:8)",
        "SubBackward0 ← w*x - 1 (4:9)",
        "MulBackward0 ← w*x (4:9)",
        "w",
        "x",
    ]
    # the script's own print is PyTorch's (stdout of the script goes to stderr here)
    assert re.fullmatch(r"<PowBackward0 object at 0x[0-9a-f]+>\n", done.stderr)
