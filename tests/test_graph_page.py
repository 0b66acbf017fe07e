"""The graph page without a browser: the commands that write it, the data a child hands back
(checked, embedded inertly), both layouts, and start-up left alone. A hostile name and source
text are also rendered in headless Chromium when it is there."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from graph_page_support import (
    REPO,
    autodiff,
    browser_missing,
    open_page,
    start_browser,
    stop_browser,
)

HOSTILE_NAME = "</script><script>window.pwned = 1</script><!--"
HOSTILE_SOURCE = '<img src=x onerror="window.pwned = 2"> & </SCRIPT >'


def small_data() -> dict:
    from autodiff_cli.cli.graph_page.data import page_data
    from autodiff_cli.lang import run_source

    namespace = run_source(
        b"import torch\nx = torch.tensor([1.0, 2.0], requires_grad=True)\ny = (x * x).sum()\n",
        "small.py",
    )
    return page_data(namespace["y"], dict(namespace), "y")


def hostile_data() -> dict:
    data = small_data()
    leaf = next(node for node in data["nodes"] if node["kind"] == "leaf")
    leaf["variable"] = HOSTILE_NAME
    data["nodes"][0]["source"] = HOSTILE_SOURCE
    data["result"]["name"] = HOSTILE_NAME
    return data


def test_graph_html_is_one_self_contained_file(tmp_path: Path):
    page = tmp_path / "g.html"
    done = autodiff("graph", "w*x+b", "--at", "x=2,w=3,b=1", "-f", "html", "-o", str(page))
    assert done.returncode == 0, done.stderr
    text = page.read_text(encoding="utf-8")
    assert text.startswith("<!DOCTYPE html>")
    assert "Content-Security-Policy" in text and "default-src &#x27;none&#x27;" in text
    lowered = text.lower()
    for reference in ("<link", "<script src", "@import", "url(http", "fetch(", "xmlhttprequest"):
        assert reference not in lowered
    data = json.loads(text.split('id="graph-data">')[1].split("</script>")[0])
    names = sorted(node["name"] for node in data["graph"]["nodes"])
    assert names == ["AccumulateGrad"] * 3 + ["AddBackward0", "MulBackward0"]
    assert [step["received"] for step in data["graph"]["steps"]][:2] == ["1.", "1."]


def test_graph_html_of_a_leaf_is_a_located_error(tmp_path: Path):
    page = tmp_path / "g.html"
    done = autodiff("graph", "x", "--at", "x=2", "-f", "html", "-o", str(page))
    assert done.returncode == 1
    assert "has no grad_fn" in done.stderr and "Traceback" not in done.stderr
    assert not page.exists()


def test_grad_html_writes_the_page_after_the_report(tmp_path: Path):
    page = tmp_path / "g.html"
    done = autodiff("grad", "x**3", "--at", "x=2", "--html", str(page))
    assert done.returncode == 0, done.stderr
    assert "x.grad: tensor(12.)" in done.stdout
    assert '"received":"12."' in page.read_text(encoding="utf-8")  # AccumulateGrad (x) gets 12
    bad = autodiff("grad", "x**3", "--at", "x=2", "--html", str(tmp_path / "no" / "g.html"))
    assert bad.returncode == 1
    assert "--html: cannot write" in bad.stderr and "Traceback" not in bad.stderr


def test_repl_graph_html_leaves_the_gradients_alone(tmp_path: Path):
    page = tmp_path / "r.html"
    session = (
        "x = torch.tensor([1.0, 2.0], requires_grad=True)\n"
        "y = (x * x).sum()\n"
        f":graph y html {page}\n"
        "print(x.grad)\n"
        "y.backward()\n"
        "print(x.grad)\n"
        ":graph y html\n"
    )
    done = autodiff("repl", stdin=session)
    assert f"wrote {page}" in done.stdout
    assert "None\ntensor([2., 4.])" in done.stdout  # no .grad from the page; the graph kept
    assert ":graph: usage: :graph NAME html FILE" in done.stderr
    assert '"grad":"[2., 4.]"' in page.read_text(encoding="utf-8")


def test_hostile_names_stay_inert_text_in_the_page():
    from autodiff_cli.cli.graph_page.page import render_page

    text = render_page(hostile_data())
    assert text.lower().count("</script") == 2  # the data's element and the script's
    assert "<img" not in text and "<!--" not in text
    assert "&lt;/script&gt;" in text.split("<title>")[1].split("</title>")[0]


@pytest.mark.parametrize(
    "change",
    [
        lambda d: d["nodes"][0].update(inputs=[99]),
        lambda d: d["nodes"][0].update(name=["MulBackward0"]),
        lambda d: d["steps"][0].update(node=-1),
        lambda d: d.update(version=2),
        lambda d: d["runs"].append({"nodes": [0], "hidden": [0], "name": "a", "label": "b"}),
    ],
)
def test_data_from_a_child_is_checked_before_use(change):
    from autodiff_cli.cli.graph_page.checked import BadPageData
    from autodiff_cli.cli.graph_page.page import render_page_json

    data = small_data()
    change(data)
    with pytest.raises(BadPageData, match="malformed graph data"):
        render_page_json(json.dumps(data))
    with pytest.raises(BadPageData):
        render_page_json(b"[" * 100_000)


def test_layered_layout_puts_inputs_above_and_boxes_apart():
    from autodiff_cli.cli.graph_page.boxes import visible_graph
    from autodiff_cli.cli.graph_page.page import page_model

    data = small_data()
    model = page_model(data, use_dot=False)
    assert model["layout"]["engine"] == "layered"
    at = model["layout"]["positions"]
    boxes = model["boxes"]
    for source, target, _ in visible_graph(data).edges:
        assert at[source][1] + boxes[source]["h"] / 2 < at[target][1] - boxes[target]["h"] / 2
    rows: dict[float, list[str]] = {}
    for name, (_x, y) in at.items():
        rows.setdefault(y, []).append(name)
    for row in rows.values():
        row.sort(key=lambda name: at[name][0])
        for left, right in zip(row, row[1:]):
            assert at[left][0] + boxes[left]["w"] / 2 < at[right][0] - boxes[right]["w"] / 2


def test_the_one_liner_imports_nothing_of_the_page():
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "autodiff_cli", "grad", "x**2", "--at", "x=3"],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "graph_page" not in done.stderr


@pytest.mark.skipif(
    browser_missing() is not None and os.environ.get("CI") != "true",
    reason=f"no headless browser: {browser_missing()}",
)
def test_hostile_names_render_as_text_in_a_browser(tmp_path: Path):
    from selenium.webdriver.common.by import By

    from autodiff_cli.cli.graph_page.page import render_page

    page = tmp_path / "hostile.html"
    page.write_text(render_page(hostile_data()), encoding="utf-8")
    driver, profile = start_browser()
    try:
        open_page(driver, page)
        assert driver.execute_script("return window.pwned === undefined")
        assert not driver.find_elements(By.TAG_NAME, "img")
        assert len(driver.find_elements(By.TAG_NAME, "script")) == 2
        titles = driver.execute_script(
            "return [...document.querySelectorAll('g.node text')].map(t => t.textContent)"
        )
        assert any(HOSTILE_SOURCE.split(">")[0] in line for line in titles)  # cut to a line
        driver.find_element(By.CSS_SELECTOR, 'g.node[data-box="n0"]').click()
        details = driver.find_element(By.ID, "details-list").get_attribute("textContent")
        assert HOSTILE_SOURCE in details
        assert HOSTILE_NAME in driver.find_element(By.ID, "title").text
        assert HOSTILE_NAME in driver.title
        assert driver.execute_script("return window.pwned === undefined")
    finally:
        stop_browser(driver, profile)


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz's dot is not installed")
def test_graphviz_lays_out_the_page_when_installed():
    from autodiff_cli.cli.graph_page.boxes import visible_graph
    from autodiff_cli.cli.graph_page.page import page_model

    data = small_data()
    model = page_model(data)
    assert model["layout"]["engine"] == "dot"
    at = model["layout"]["positions"]
    edges = visible_graph(data).edges
    for source, target, key in edges:
        assert at[source][1] < at[target][1]  # inputs above the nodes using them
        assert model["layout"]["routes"][key]["from"] == source
    assert len(model["layout"]["routes"]) == len(edges)


def test_a_scripts_hooks_print_to_stderr_and_a_failing_hook_is_shown(tmp_path: Path):
    script = tmp_path / "hooks.py"
    script.write_text(
        "import torch\n"
        "x = torch.tensor([1.0, 2.0], requires_grad=True)\n"
        "h = x * 2\n"
        "h.register_hook(lambda g: print('HOOK </script>', g))\n"
        "y = h.sum()\n"
        "def bad(g):\n"
        "    raise ValueError('no <b>')\n"
        "z = x * 3\n"
        "z.register_hook(bad)\n"
        "w = z.sum()\n"
    )
    page = tmp_path / "y.html"
    done = autodiff("graph", "--file", str(script), "--var", "y", "-f", "html", "-o", str(page))
    assert done.returncode == 0, done.stderr
    assert "HOOK </script> tensor([1., 1.])" in done.stderr  # never in the page's data
    assert '"backward_error":null' in page.read_text(encoding="utf-8")
    page = tmp_path / "w.html"
    done = autodiff("graph", "--file", str(script), "--var", "w", "-f", "html", "-o", str(page))
    assert done.returncode == 0, done.stderr
    text = page.read_text(encoding="utf-8")
    assert '"backward_error":"ValueError: no \\u003cb\\u003e"' in text
    assert '"steps":[]' in text
