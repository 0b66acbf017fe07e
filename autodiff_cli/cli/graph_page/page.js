"use strict";
// The graph page: draws the boxes where the layout put them, steps through the engine's
// recorded backward pass, shows a node's details, expands collapsed runs, pans and zooms.
// Every string from the data is put in the page with textContent (never as HTML).
(function () {
  const SVG = "http://www.w3.org/2000/svg";
  const model = JSON.parse(document.getElementById("graph-data").textContent);
  const graph = model.graph;
  const nodes = graph.nodes;
  const steps = graph.steps;
  const runs = graph.runs;
  const boxes = model.boxes;
  const layout = model.layout;
  const LINE = 16, PAD = 10, ROW_GAP = 40, PLAY_MS = 900;
  const last = steps.length + 1; // the step after the engine's: each leaf's .grad

  const runOf = new Map(); // hidden node -> run number
  runs.forEach((run, number) => run.hidden.forEach((key) => runOf.set(key, number)));
  const stepOf = new Map(); // node -> its step number (1-based)
  steps.forEach((step, index) => stepOf.set(step.node, index + 1));
  const finalGrad = new Map(graph.gradients.map((g) => [g.node, g.grad]));

  const state = { step: 0, expanded: new Set(), selected: null, hovered: null, timer: null,
    view: { x: 0, y: 0, scale: 1 }, positions: new Map(), moved: new Map() };

  const $ = (id) => document.getElementById(id);
  function el(tag, attrs, text) {
    const node = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, String(v));
    if (text !== undefined) node.textContent = text;
    return node;
  }
  function html(tag, text, cls) {
    const node = document.createElement(tag);
    if (text !== undefined) node.textContent = text;
    if (cls) node.className = cls;
    return node;
  }

  // ---- which box shows a node, and where boxes are ---------------------------------------
  function boxOf(key) {
    const run = runOf.get(key);
    return run !== undefined && !state.expanded.has(run) ? "r" + run : "n" + key;
  }
  function visibleBoxes() {
    const shown = nodes.filter((n) => boxOf(n.id) === "n" + n.id).map((n) => "n" + n.id);
    runs.forEach((_, j) => { if (!state.expanded.has(j)) shown.push("r" + j); });
    shown.push("result");
    return shown;
  }
  function visibleEdges() {
    const edges = [];
    for (const node of nodes) {
      if (boxOf(node.id) !== "n" + node.id) continue;
      node.inputs.forEach((key, position) => {
        if (key === null) return;
        edges.push({ from: boxOf(key), to: "n" + node.id, key: "e" + node.id + "." + position,
          position: position, count: node.inputs.length });
      });
    }
    runs.forEach((run, j) => {
      if (state.expanded.has(j)) return;
      const above = run.nodes[run.nodes.indexOf(run.hidden[run.hidden.length - 1]) + 1];
      edges.push({ from: "n" + above, to: "r" + j, key: "r" + j + ".0", position: 0, count: 1 });
    });
    edges.push({ from: boxOf(graph.result.root), to: "result", key: "result.0", position: 0, count: 1 });
    return edges;
  }
  function computePositions() {
    const pos = new Map(Object.entries(layout.positions).map(([k, v]) => [k, v.slice()]));
    const moved = new Map();
    const order = [...state.expanded].sort((a, b) => layout.positions["r" + a][1] - layout.positions["r" + b][1]);
    const placedAt = new Map(); // box of an expanded run -> that run's summary y
    for (const j of order) {
      const [sx, sy] = pos.get("r" + j);
      const hidden = runs[j].hidden;
      const tallest = Math.max(...hidden.map((key) => boxes["n" + key].h));
      const step = tallest + ROW_GAP;
      const extra = (hidden.length - 1) * step + Math.max(0, tallest - boxes["r" + j].h);
      for (const [name, [x, y]] of pos) {
        if (y > sy + 0.5 && placedAt.get(name) !== sy) {
          pos.set(name, [x, y + extra]);
          moved.set(name, (moved.get(name) || 0) + extra);
        }
      }
      pos.delete("r" + j);
      hidden.forEach((key, i) => {
        pos.set("n" + key, [sx, sy + (hidden.length - 1 - i) * step]);
        placedAt.set("n" + key, sy);
      });
    }
    state.positions = pos;
    state.moved = moved;
  }

  // ---- drawing -----------------------------------------------------------------------------
  function edgePath(edge) {
    const route = layout.routes[edge.key];
    const dyFrom = state.moved.get(edge.from) || 0, dyTo = state.moved.get(edge.to) || 0;
    if (route && route.from === edge.from && dyFrom === dyTo && layout.positions[edge.to]) {
      const p = route.points.map(([x, y]) => [x, y + dyFrom]);
      let d = "M" + p[0][0] + "," + p[0][1];
      for (let i = 1; i + 2 < p.length; i += 3) {
        d += " C" + p[i] + " " + p[i + 1] + " " + p[i + 2];
      }
      return d;
    }
    const [x1, y1] = state.positions.get(edge.from), [x2, y2] = state.positions.get(edge.to);
    const spread = edge.count > 1 ? (edge.position - (edge.count - 1) / 2) * 14 : 0;
    const a = [x1 + spread, y1 + boxes[edge.from].h / 2];
    const b = [x2 + spread, y2 - boxes[edge.to].h / 2];
    const bend = Math.max(24, Math.abs(b[1] - a[1]) / 2);
    return "M" + a + " C" + [a[0], a[1] + bend] + " " + [b[0], b[1] - bend] + " " + b;
  }
  function drawBox(name) {
    const box = boxes[name];
    const [x, y] = state.positions.get(name);
    const group = el("g", { class: "node " + box.kind, "data-box": name,
      transform: "translate(" + (x - box.w / 2) + "," + (y - box.h / 2) + ")" });
    if (name[0] === "n") group.setAttribute("data-name", nodes[+name.slice(1)].name);
    group.appendChild(el("rect", { width: box.w, height: box.h, rx: box.kind === "op" || box.kind === "run" ? 10 : 2 }));
    box.lines.forEach((line, i) => {
      group.appendChild(el("text", { x: PAD, y: PAD + LINE * (i + 1) - 4, class: i === 0 ? "title" : "" }, line));
    });
    group.appendChild(el("text", { x: PAD, y: PAD + LINE * (box.lines.length + 1) - 4, class: "grad-line" }, ""));
    group.addEventListener("mouseenter", () => { state.hovered = name; showDetails(name); });
    group.addEventListener("mouseleave", () => { state.hovered = null; showDetails(state.selected); });
    group.addEventListener("click", (event) => { event.stopPropagation(); clickBox(name); });
    return group;
  }
  function draw() {
    computePositions();
    const nodeLayer = $("nodes"), edgeLayer = $("edges");
    nodeLayer.replaceChildren();
    edgeLayer.replaceChildren();
    for (const edge of visibleEdges()) {
      edgeLayer.appendChild(el("path", { class: "edge", d: edgePath(edge), "data-edge": edge.key,
        "data-from": edge.from, "data-to": edge.to }));
    }
    for (const name of visibleBoxes()) nodeLayer.appendChild(drawBox(name));
    applyStep();
  }
  function gradLine(name, text) {
    const group = document.querySelector('g.node[data-box="' + name + '"]');
    if (group) group.querySelector("text.grad-line").textContent = text ? oneLine(text) : "";
  }
  function oneLine(text) {
    const flat = text.split(/\s+/).join(" ").trim();
    return flat.length <= 40 ? flat : flat.slice(0, 39) + "…";
  }

  // ---- the step-through ------------------------------------------------------------------
  function nodeTitle(key) {
    const node = nodes[key];
    if (node.kind === "leaf") return node.name + " (" + (node.variable || "unnamed leaf") + ")";
    return node.name;
  }
  function stepLabel(key) {
    const number = stepOf.get(key);
    return (number ? "[" + number + "] " : "") + nodeTitle(key);
  }
  function applyStep() {
    document.querySelectorAll(".node.current, .node.done, .node.final").forEach((g) => g.classList.remove("current", "done", "final"));
    document.querySelectorAll(".edge.active").forEach((p) => p.classList.remove("active"));
    document.querySelectorAll("text.grad-line").forEach((t) => { t.textContent = ""; });
    $("edge-labels").replaceChildren();
    const s = state.step;
    const upTo = Math.min(s, steps.length);
    for (let i = 0; i < upTo; i++) {
      const key = steps[i].node, name = boxOf(key);
      const group = document.querySelector('g.node[data-box="' + name + '"]');
      if (group) group.classList.add(i === s - 1 ? "current" : "done");
      if (nodes[key].kind === "leaf" && finalGrad.has(key)) gradLine(name, ".grad = " + finalGrad.get(key));
    }
    $("step-counter").textContent = s === 0 ? "forward pass (" + steps.length + " backward steps)"
      : s === last ? "done: accumulated gradients" : "step " + s + " / " + steps.length;
    $("prev").disabled = $("first").disabled = s === 0;
    $("next").disabled = $("last").disabled = s === last;
    const sends = $("step-sends");
    sends.replaceChildren();
    $("step-received").textContent = "";
    if (s === 0) {
      $("step-title").textContent = "forward pass";
      $("step-received").textContent = graph.backward_error
        ? "no backward step-through: " + graph.backward_error
        : "backward starts from the seed ∂out/∂out = " + (graph.seed || "?") + " — press next (→)";
      return;
    }
    if (s === last) {
      $("step-title").textContent = "accumulated gradients";
      for (const g of graph.gradients) {
        const item = html("li", (nodes[g.node].variable || "unnamed leaf") + ".grad = " + g.grad);
        item.setAttribute("data-node", g.node);
        sends.appendChild(item);
        const group = document.querySelector('g.node[data-box="' + boxOf(g.node) + '"]');
        if (group) group.classList.add("final");
      }
      return;
    }
    const step = steps[s - 1], key = step.node, node = nodes[key];
    const name = boxOf(key);
    $("step-title").textContent = "[" + s + "] " + nodeTitle(key) + (name[0] === "r" ? " — inside the collapsed run (click it to expand)" : "");
    $("step-received").textContent = node.kind === "leaf"
      ? (node.variable || "unnamed leaf") + ".grad += " + (step.received === null ? "None" : step.received)
      : "receives grad = " + (step.received === null ? "None" : step.received);
    gradLine(name, node.kind === "leaf" ? "+= " + (step.received || "None") : "grad " + (step.received || "None"));
    for (const send of step.sends) {
      const text = send.to === null
        ? "∂out/∂" + send.input + ": constant input, nothing sent"
        : "∂out/∂" + send.input + " = " + send.rule + ";  grad · " + send.rule + " = " + (send.gradient === null ? "None" : send.gradient) + "  → " + stepLabel(send.to);
      const item = html("li", text);
      item.setAttribute("data-position", send.position);
      if (send.to !== null) item.setAttribute("data-gradient", send.gradient === null ? "None" : send.gradient);
      sends.appendChild(item);
      if (send.to === null || name[0] === "r") continue;
      const path = document.querySelector('path.edge[data-edge="e' + key + "." + send.position + '"]');
      if (!path) continue;
      path.classList.add("active");
      const length = path.getTotalLength();
      const mid = path.getPointAtLength(length / 2);
      const [cx] = state.positions.get(name);
      const left = mid.x < cx - 1 || (Math.abs(mid.x - cx) <= 1 && send.position === 0 && step.sends.length > 1);
      const label = el("text", { class: "edge-label active", x: mid.x + (left ? -6 : 6), y: mid.y,
        "text-anchor": left ? "end" : "start", "data-edge": "e" + key + "." + send.position },
        "↑ " + oneLine(send.gradient === null ? "None" : send.gradient));
      $("edge-labels").appendChild(label);
    }
    follow(name);
  }
  function go(step) {
    state.step = Math.max(0, Math.min(last, step));
    applyStep();
    if (state.step === last) stopPlay();
  }
  function stopPlay() {
    if (state.timer !== null) clearInterval(state.timer);
    state.timer = null;
    $("play").textContent = "▶ play";
  }
  function togglePlay() {
    if (state.timer !== null) { stopPlay(); return; }
    if (state.step === last) go(0);
    $("play").textContent = "❚❚ pause";
    const delay = steps.length > 200 ? 120 : PLAY_MS;
    state.timer = setInterval(() => go(state.step + 1), delay);
  }

  // ---- details of a box --------------------------------------------------------------------
  function row(list, term, value) {
    list.appendChild(html("dt", term));
    list.appendChild(html("dd", value));
  }
  function showDetails(name) {
    const list = $("details-list"), actions = $("details-actions");
    list.replaceChildren();
    actions.replaceChildren();
    document.querySelectorAll(".node.selected").forEach((g) => g.classList.remove("selected"));
    if (state.selected) {
      const group = document.querySelector('g.node[data-box="' + state.selected + '"]');
      if (group) group.classList.add("selected");
    }
    if (!name) {
      $("details-title").textContent = "details";
      $("details-hint").textContent = "hover over or click a box to see its grad_fn, next_functions, saved values, hooks";
      return;
    }
    $("details-hint").textContent = "";
    if (name === "result") {
      $("details-title").textContent = graph.result.name;
      row(list, "shape", JSON.stringify(graph.result.shape));
      row(list, "value", graph.result.value === null ? "—" : graph.result.value);
      row(list, "grad_fn", nodes[graph.result.root].name);
      return;
    }
    if (name[0] === "r") {
      const run = runs[+name.slice(1)];
      $("details-title").textContent = run.label;
      row(list, "nodes hidden", String(run.hidden.length) + " × " + run.name);
      const button = html("button", "expand this run");
      button.addEventListener("click", () => expand(+name.slice(1), true));
      actions.appendChild(button);
      return;
    }
    const key = +name.slice(1), node = nodes[key];
    $("details-title").textContent = nodeTitle(key);
    row(list, "grad_fn", node.kind === "leaf" ? node.name + " (the leaf's grad_fn is None)" : node.name);
    if (node.variable) row(list, node.kind === "leaf" ? "leaf" : "variable", node.variable);
    if (node.source) row(list, "source", node.source);
    row(list, "shape", node.shape === null ? "unknown" : JSON.stringify(node.shape));
    row(list, "value", node.value === null ? "not kept by the graph" : node.value);
    const number = stepOf.get(key);
    if (number !== undefined && state.step >= number) {
      const received = steps[number - 1].received;
      row(list, "grad received (step " + number + ")", received === null ? "None" : received);
    }
    if (node.kind === "leaf" && finalGrad.has(key) && state.step >= (number || last)) row(list, ".grad", finalGrad.get(key));
    row(list, "next_functions", node.next_functions.length ? "(" + node.next_functions.join(", ") + ")" : "()");
    row(list, "hooks", node.hooks.length ? node.hooks.join(", ") : "none");
    row(list, "retain_grad", node.kind === "leaf" ? "leaf: .grad accumulates" : node.retains_grad ? "yes (retains_grad)" : "no");
    if (node.saved.length) {
      const button = html("button", "show saved values (" + node.saved.length + ")");
      button.id = "show-saved";
      button.addEventListener("click", () => {
        for (const [savedName, text] of node.saved) row(list, "saved " + savedName, text);
        button.remove();
      });
      actions.appendChild(button);
    } else if (node.kind === "op") {
      row(list, "saved", "nothing");
    }
    const run = runOf.get(key);
    if (run !== undefined && state.expanded.has(run)) {
      const button = html("button", "collapse this run");
      button.addEventListener("click", () => expand(run, false));
      actions.appendChild(button);
    }
  }
  function clickBox(name) {
    if (name[0] === "r") { expand(+name.slice(1), true); return; }
    state.selected = name;
    showDetails(name);
  }
  function expand(run, open) {
    if (open) state.expanded.add(run); else state.expanded.delete(run);
    state.selected = open ? "n" + runs[run].hidden[runs[run].hidden.length - 1] : "r" + run;
    draw();
    showDetails(state.selected);
    follow(state.selected);
  }

  // ---- pan and zoom ----------------------------------------------------------------------
  const svg = $("graph");
  function setView() {
    const v = state.view;
    $("viewport").setAttribute("transform", "translate(" + v.x + "," + v.y + ") scale(" + v.scale + ")");
  }
  function bounds() {
    let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
    for (const [name, [x, y]] of state.positions) {
      const b = boxes[name];
      x0 = Math.min(x0, x - b.w / 2); x1 = Math.max(x1, x + b.w / 2);
      y0 = Math.min(y0, y - b.h / 2); y1 = Math.max(y1, y + b.h / 2);
    }
    return [x0, y0, x1, y1];
  }
  function fit() {
    const [x0, y0, x1, y1] = bounds();
    const w = svg.clientWidth || 800, h = svg.clientHeight || 600;
    const scale = Math.min(2, Math.max(0.02, Math.min((w - 40) / (x1 - x0), (h - 40) / (y1 - y0))));
    state.view = { scale: scale, x: (w - (x1 - x0) * scale) / 2 - x0 * scale, y: (h - (y1 - y0) * scale) / 2 - y0 * scale };
    setView();
  }
  function zoom(factor, cx, cy) {
    const v = state.view;
    const scale = Math.min(8, Math.max(0.02, v.scale * factor));
    const f = scale / v.scale;
    state.view = { scale: scale, x: cx - (cx - v.x) * f, y: cy - (cy - v.y) * f };
    setView();
  }
  function follow(name, readable) {
    const p = state.positions.get(name);
    if (!p) return;
    const v = state.view, w = svg.clientWidth, h = svg.clientHeight;
    const sx = p[0] * v.scale + v.x, sy = p[1] * v.scale + v.y;
    const least = readable ? 0.8 : 0.35;
    if (v.scale < least) state.view.scale = Math.min(1, Math.max(v.scale, least));
    if (sx < 40 || sx > w - 40 || sy < 40 || sy > h - 40 || v.scale !== state.view.scale) {
      state.view.x = w / 2 - p[0] * state.view.scale;
      state.view.y = h / 2 - p[1] * state.view.scale;
      setView();
    }
  }
  svg.addEventListener("wheel", (event) => {
    event.preventDefault();
    const r = svg.getBoundingClientRect();
    zoom(Math.exp(-event.deltaY * 0.0015), event.clientX - r.left, event.clientY - r.top);
  }, { passive: false });
  let drag = null;
  svg.addEventListener("pointerdown", (event) => {
    if (event.target.closest && event.target.closest("g.node")) return;
    drag = { x: event.clientX, y: event.clientY, vx: state.view.x, vy: state.view.y };
    svg.classList.add("dragging");
    svg.setPointerCapture(event.pointerId);
  });
  svg.addEventListener("pointermove", (event) => {
    if (!drag) return;
    state.view.x = drag.vx + event.clientX - drag.x;
    state.view.y = drag.vy + event.clientY - drag.y;
    setView();
  });
  const endDrag = () => { drag = null; svg.classList.remove("dragging"); };
  svg.addEventListener("pointerup", endDrag);
  svg.addEventListener("pointercancel", endDrag);
  svg.addEventListener("click", (event) => {
    if (!event.target.closest("g.node")) { state.selected = null; showDetails(null); }
  });

  function find(query) {
    const wanted = query.trim().toLowerCase();
    if (!wanted) return;
    const shown = visibleBoxes().filter((name) => boxes[name].lines.join(" ").toLowerCase().includes(wanted));
    if (!shown.length) { $("find").setCustomValidity("not found"); $("find").reportValidity(); return; }
    $("find").setCustomValidity("");
    const at = shown.indexOf(state.selected);
    state.selected = shown[(at + 1) % shown.length];
    showDetails(state.selected);
    follow(state.selected, true);
  }
  function startView() {
    fit();
    if (state.view.scale < 0.4) follow("result", true); // a big graph: start where backward does
  }

  // ---- controls ----------------------------------------------------------------------------
  $("find").addEventListener("keydown", (event) => {
    event.stopPropagation();
    if (event.key === "Enter") find(event.target.value);
  });
  $("first").addEventListener("click", () => { stopPlay(); go(0); });
  $("prev").addEventListener("click", () => { stopPlay(); go(state.step - 1); });
  $("next").addEventListener("click", () => { stopPlay(); go(state.step + 1); });
  $("last").addEventListener("click", () => { stopPlay(); go(last); });
  $("play").addEventListener("click", togglePlay);
  $("zoom-in").addEventListener("click", () => zoom(1.25, svg.clientWidth / 2, svg.clientHeight / 2));
  $("zoom-out").addEventListener("click", () => zoom(0.8, svg.clientWidth / 2, svg.clientHeight / 2));
  $("fit").addEventListener("click", fit);
  document.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const moves = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };
    if (event.key in moves) { stopPlay(); go(state.step + moves[event.key]); event.preventDefault(); }
    else if (event.key === "Home") { stopPlay(); go(0); event.preventDefault(); }
    else if (event.key === "End") { stopPlay(); go(last); event.preventDefault(); }
    else if (event.key === "+" || event.key === "=") zoom(1.25, svg.clientWidth / 2, svg.clientHeight / 2);
    else if (event.key === "-") zoom(0.8, svg.clientWidth / 2, svg.clientHeight / 2);
  });

  $("title").textContent = "grad_fn graph of " + graph.result.name;
  document.title = "autodiff · the graph of " + graph.result.name;
  $("layout-note").textContent = nodes.length + " nodes · " + steps.length + " backward steps · layout: "
    + layout.note
    + " · drag to pan, wheel to zoom, ←/→ to step";
  draw();
  showDetails(null);
  startView();
  document.body.setAttribute("data-ready", "true");
})();
