"""Pictures of game trees: Graphviz DOT with readable card labels, rendered by Graphviz when it is
installed, else drawn by matplotlib (pure Python), so that a picture always comes out.

The look, in both renderers: player 0 to move is a blue rounded box, player 1 to move a red
ellipse, the end of the round a grey box with the score; the number on a node is its exact
value for player 0 (player 0 maximises it, player 1 minimises it); optimal moves are green,
the principal variation thick; cards are coloured by suit (denari gold, coppe red, spade
blue, bastoni brown).
"""
from __future__ import annotations

import html
import json
import os
import shutil
import subprocess
import sys
from typing import Any, Optional

import networkx as nx

from ..text import plural

SUIT_COLOURS = {"d": "#b7791f", "c": "#c53030", "s": "#2b6cb0", "b": "#7b4a12"}
SIDE = {0: dict(shape="box", style="rounded,filled", fill="#dbeafe", line="#1e40af", name="P0"),
        1: dict(shape="ellipse", style="filled", fill="#fee2e2", line="#b91c1c", name="P1"),
        # the family's third to sixth sides (a node's look follows its mover's `side`)
        2: dict(shape="hexagon", style="filled", fill="#dcfce7", line="#15803d", name="S2"),
        3: dict(shape="octagon", style="filled", fill="#fef9c3", line="#a16207", name="S3"),
        4: dict(shape="diamond", style="filled", fill="#f3e8ff", line="#7e22ce", name="S4"),
        5: dict(shape="house", style="filled", fill="#e0f2fe", line="#0369a1", name="S5")}
END = dict(shape="box", style="filled", fill="#f3f4f6", line="#4b5563")
OPTIMAL = "#16a34a"
OTHER = "#9ca3af"
TT_FILL = "#fef3c7"
FONT = "DejaVu Sans,Helvetica,Arial,sans-serif"
ENGINES = ("graphviz", "matplotlib")
_STYLE_KEYS = ("label", "shape", "style", "fillcolor", "color", "penwidth", "fontname", "fontsize",
               "fontcolor", "tooltip", "peripheries", "margin", "arrowsize", "weight", "labelloc",
               "rankdir", "nodesep", "ranksep", "bgcolor", "pad", "arrowhead")


# -- Graphviz DOT -----------------------------------------------------------------------------

def _esc(text: Any) -> str:
    return html.escape(str(text), quote=True)


def cards_html(text: str, size: int = 11, boxed: bool = True, lead: str = "") -> str:
    """Card text (``7d3s4s``) as coloured card labels: a row of small boxed cards (an HTML
    table, after a `lead` cell when given), or inline coloured text."""
    cards = [text[i:i + 2] for i in range(0, len(text), 2)] if text and text != "-" else []
    if not cards and not boxed:
        return f'<FONT POINT-SIZE="{size}" COLOR="#6b7280">empty table</FONT>'
    if not boxed:
        return " ".join(f'<FONT COLOR="{SUIT_COLOURS.get(c[1], "#000")}"><B>{_esc(c)}</B></FONT>'
                        for c in cards)
    cells = f'<TD>{lead}</TD>' if lead else ""
    if not cards:
        cells += f'<TD><FONT POINT-SIZE="{size}" COLOR="#6b7280">{"none" if lead else "empty table"}</FONT></TD>'
    cells += "".join(
        f'<TD BORDER="1" COLOR="{SUIT_COLOURS.get(c[1], "#000")}" BGCOLOR="white" STYLE="rounded">'
        f'<FONT POINT-SIZE="{size}" COLOR="{SUIT_COLOURS.get(c[1], "#000")}"><B>{_esc(c)}</B></FONT></TD>'
        for c in cards)
    return f'<TABLE BORDER="0" CELLBORDER="0" CELLSPACING="2" CELLPADDING="2"><TR>{cells}</TR></TABLE>'


def _value(v: int) -> str:
    return f"{v:+d}" if v else "0"


def _row(content: str) -> str:
    return f"<TR><TD>{content}</TD></TR>"


def _small(text: str, colour: str = "#374151", size: int = 9) -> str:
    return f'<FONT POINT-SIZE="{size}" COLOR="{colour}">{_esc(text)}</FONT>'


def _headline(d: dict) -> str:
    """The number on a position: the margin for player 0 (two sides), the max^n points of every
    side (``5 0 0``), or the paranoid value for the root's side."""
    if "value_p0" in d:
        return _value(d["value_p0"])
    if "points" in d:
        return " ".join(map(str, _points(d["points"])))
    return _value(d["value"])


def _points(points: Any) -> list:
    """A node's max^n points, also as read back from a file (GraphML keeps them as JSON text)."""
    return json.loads(points) if isinstance(points, str) else list(points)


def _hands(d: dict) -> list[int]:
    """The seats whose hands a node carries (two, or every seat of a family game)."""
    return [p for p in range(6) if f"hand{p}" in d]


def _end_text(d: dict) -> str:
    sides = [k for k in range(6) if f"points_p{k}" in d]
    if len(sides) == 2:
        return f"end: P0 {d['points_p0']} - {d['points_p1']} P1"
    return "end: " + " - ".join(str(d[f"points_p{k}"]) for k in sides) + " (sides 0..)"


def _look(d: dict) -> Optional[dict]:
    """The look of a position by who moves: player 0 / 1, or in the family games the side."""
    who = d.get("side", d.get("to_move"))
    return SIDE.get(who) if who is not None else None


def _node_label(d: dict, is_root: bool) -> str:
    rows = []
    if d.get("kind") == "position":
        rows.append(_row(f'<FONT POINT-SIZE="17"><B>{_esc(_headline(d))}</B></FONT>'))
        if d["terminal"]:
            rows.append(_row(_small(_end_text(d), "#111827", 10)))
            won = [f"{name} {_who(d[key])}" for name, key in
                   (("cards", "carte"), ("coins", "denari"), ("settebello", "settebello"), ("primiera", "primiera"))]
            rows.append(_row(_small(", ".join(won[:2]))))
            rows.append(_row(_small(", ".join(won[2:]))))
            scopas = [d[f"scopas_p{k}"] for k in range(6) if f"scopas_p{k}" in d]
            if any(scopas):
                rows.append(_row(_small(f"scopas {'-'.join(map(str, scopas))}")))
        else:
            rows.append(_row(_small(f"P{d['to_move']} to move")))
            if is_root:
                for p in _hands(d):
                    rows.append(_row(cards_html(d[f"hand{p}"], 10, lead=_small(f"P{p} hand"))))
                rows.append(_row(cards_html(d["table"], 10, lead=_small("table"))))
                if d["stock"]:
                    rows.append(_row(_small(f"stock {d['stock']} cards")))
            else:
                if d.get("dealt"):      # from the game's flow: the stock dealt new hands here
                    rows.append(_row(_small("new deal", "#111827")))
                    for p in _hands(d):
                        rows.append(_row(cards_html(d[f"hand{p}"], 9, lead=_small(f"P{p}", size=8))))
                    rows.append(_row(cards_html(d["table"], 9, lead=_small("table", size=8))))
                else:
                    rows.append(_row(cards_html(d["table"], 9)))
            if d.get("truncated"):
                rows.append(_row(_small("... not expanded (max_nodes)", "#b91c1c")))
    elif d.get("kind") == "root":
        rows.append(_row('<B>search from</B>'))
        rows.append(_row(_small(d["position"], size=9)))
    elif d.get("kind") == "pass":
        rows.append(_row(f'<B>pass {d["index"]}: {_esc(d["pass_kind"])}</B>'))
        rows.append(_row(_small(f"window ({d['alpha']}, {d['beta']})  depth {d['depth']}")))
        if "value" in d:
            rows.append(_row(_small(f"{_bound_text(d['value'], d['bound'])}, {plural(d['nodes'], 'node')}")))
    else:  # a searched node
        rows.append(_row(f'<FONT POINT-SIZE="9" COLOR="#6b7280">#{d["order"]}</FONT>'))
        if "value" in d:
            rows.append(_row(f'<B>{_esc(_bound_text(d["value"], d.get("bound", "exact")))}</B>'))
        rows.append(_row(_small(f"({d['alpha']}, {d['beta']})")))
        if d.get("tt_hit"):
            rows.append(_row(_small(f"TT [{d.get('tt_lower')}, {d.get('tt_upper')}]", "#92400e")))
        if d.get("leaf"):
            rows.append(_row(_small("last plays, scored" if d.get("n_moves") else "end of round")))
        if d.get("cutoff"):
            rows.append(_row(_small(f"searched {d['n_searched']} of {d['n_moves']}", "#b91c1c")))
            if d.get("pruned"):
                rows.append(_row(_small("cut off: " + d["pruned"], "#b91c1c", 8)))
        if d.get("hidden"):
            rows.append(_row(_small(f"+{plural(d['subtree_nodes'] - 1, 'node')} below")))
        if d.get("truncated"):
            rows.append(_row(_small("... (max_nodes)", "#b91c1c")))
    return '<<TABLE BORDER="0" CELLSPACING="0" CELLPADDING="1">' + "".join(rows) + "</TABLE>>"


def _bound_text(value: int, bound: str) -> str:
    return {"lower": f">= {value}", "upper": f"<= {value}"}.get(bound, f"= {value}")


def _who(w: int) -> str:
    return "-" if w < 0 else f"P{w}"


def _edge_label(d: dict) -> str:
    if "move" not in d:
        return ""
    card = cards_html(d["card"], 10, boxed=False)
    text = card
    if d.get("captures"):
        caught = cards_html(d["captures"].replace("+", ""), 10, boxed=False)
        text = f'{card}<FONT COLOR="#374151"> x </FONT>{caught}'
    if d.get("scopa"):
        text += ' <FONT COLOR="#b91c1c" POINT-SIZE="9"><B>SCOPA</B></FONT>'
    # a padded cell keeps the label clear of a thick edge
    return f'<<TABLE BORDER="0" CELLSPACING="0" CELLPADDING="4"><TR><TD>{text}</TD></TR></TABLE>>'


def _quote(value: Any) -> str:
    text = str(value)
    if text.startswith("<") and text.endswith(">") and text.count("<TABLE") == text.count("</TABLE>"):
        return text          # an HTML label
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def _attrs(d: dict) -> str:
    return ", ".join(f"{k}={_quote(v)}" for k, v in d.items() if v is not None)


def _legend(graph: nx.DiGraph) -> str:
    mode = graph.graph.get("tree_mode", "minimax")
    if mode == "search":
        g = graph.graph
        head = (f"search ({g.get('search', 'solve')}): {plural(g.get('search_nodes', 0), 'node')}, "
                f"{plural(g.get('passes', 0), 'pass', 'passes')}, {plural(g.get('tt_hits', 0), 'table hit')}, "
                f"{plural(g.get('cutoffs', 0), 'cut-off')}")
        body = ("#n: order of the visit;  (a, b): the window it was searched with;  = v, >= v, <= v: "
                "the value returned (points still to come for the side to move), exact or a bound\n"
                "blue box: P0 to move;  red ellipse: P1 to move;  yellow: answered by the "
                "transposition table;  red border: children cut off;  grey: end of round")
    elif graph.graph.get("objective") == "maxn":
        head = f"{mode} tree of {plural(graph.number_of_nodes(), 'node')} (max^n)"
        body = ("numbers: every side's round points at the end of the max^n line (each seat "
                "maximises its own side's);  cards under them: the table\n"
                "box colour and shape: the side to move (blue 0, red 1, green 2, yellow 3, ...);  grey: "
                "end of round;  green: optimal move;  thick: principal variation")
    elif "value_p0" not in graph.graph and "root_side" in graph.graph:
        head = f"{mode} tree of {plural(graph.number_of_nodes(), 'node')}, paranoid value for side " \
               f"{graph.graph['root_side']} {_value(graph.graph['value'])}"
        body = (f"numbers: the exact final round margin of side {graph.graph['root_side']} (its points "
                "minus the best other side's; it maximises, every other side minimises)\n"
                "box colour and shape: the side to move (blue 0, red 1, green 2, yellow 3, ...);  grey: "
                "end of round;  green: optimal move;  thick: principal variation")
    else:
        head = f"{mode} tree of {plural(graph.number_of_nodes(), 'node')}"
        if "value_p0" in graph.graph:
            head += f", value for P0 {_value(graph.graph['value_p0'])}"
        body = ("numbers: the exact final round margin for player 0 (P0 maximises it, P1 minimises it);  "
                "cards under them: the table\n"
                "blue box: P0 to move;  red ellipse: P1 to move;  grey: end of round;  "
                "green: optimal move;  thick: principal variation")
    if graph.graph.get("truncated"):
        body += "; truncated at max_nodes"
    lines = "<BR/>".join(f'<FONT POINT-SIZE="9" COLOR="#4b5563">{_esc(line)}</FONT>' for line in body.split("\n"))
    return f'<<FONT POINT-SIZE="11"><B>{_esc(head)}</B></FONT><BR/>{lines}>'



def to_dot(graph: nx.DiGraph, *, rankdir: Optional[str] = None, data: bool = True) -> str:
    """Graphviz DOT text of a tree, styled like the pictures; with `data` the node and edge
    attributes are kept as DOT attributes too, so the file reads back (pydot) with them."""
    root = graph.graph.get("root", "/")
    if rankdir is None:
        rankdir = "TB"
    lines = ["digraph scopa_tree {"]
    gattrs = {k: v for k, v in graph.graph.items() if data and k not in _STYLE_KEYS}
    gattrs.update(rankdir=rankdir, nodesep="0.25", ranksep="0.45" if rankdir == "TB" else "0.6",
                  fontname=FONT, labelloc="b", label=_legend(graph), bgcolor="white", pad="0.3")
    lines.append(f"  graph [{_attrs(gattrs)}];")
    lines.append(f'  node [fontname="{FONT}", fontsize="10", margin="0.08,0.04"];')
    lines.append(f'  edge [fontname="{FONT}", fontsize="10", arrowsize="0.6"];')
    for n, d in graph.nodes(data=True):
        attrs = {k: v for k, v in d.items() if data and k not in _STYLE_KEYS}
        kind = d.get("kind", "position")
        if kind == "position" and d.get("terminal"):
            look = END
        elif kind in ("position", "node"):
            look = _look(d) or END
        else:
            look = dict(shape="box", style="filled", fill="#ede9fe", line="#5b21b6")
        style = look["style"]
        fill = look["fill"]
        colour = look["line"]
        pen = 1.2
        if kind == "node":
            if d.get("tt_hit"):
                fill = TT_FILL
            if d.get("leaf"):
                fill, style = END["fill"], "filled"
            if d.get("cutoff"):
                colour, pen = "#dc2626", 2.0
        if d.get("pv"):
            pen = 3.0
        if d.get("truncated"):
            style += ",dashed"
        attrs.update(label=_node_label(d, n == root), shape=look["shape"], style=style,
                     fillcolor=fill, color=colour, penwidth=pen,
                     tooltip=d.get("position", ""))
        lines.append(f"  {_quote(n)} [{_attrs(attrs)}];")
    for u, v, d in graph.edges(data=True):
        attrs = {k: val for k, val in d.items() if data and k not in _STYLE_KEYS}
        optimal = d.get("optimal")
        colour = OPTIMAL if optimal else (OTHER if optimal is not None else "#6b7280")
        pen = 4.0 if d.get("pv") else (2.2 if optimal else 1.0)
        label = _edge_label(d)
        attrs.update(color=colour, penwidth=pen, fontcolor="#374151" if optimal is not False else "#6b7280",
                     weight=10 if d.get("pv") else 1)
        if label:
            attrs["label"] = label
        if "value" in d and "player" in d:
            attrs["tooltip"] = f"{d['move']}: {_value(d['value'])} for P{d['player']}"
        elif "move" in d:
            attrs["tooltip"] = d["move"]
        lines.append(f"  {_quote(u)} -> {_quote(v)} [{_attrs(attrs)}];")
    lines.append("}")
    return "\n".join(lines) + "\n"


# -- rendering --------------------------------------------------------------------------------

def graphviz_available() -> bool:
    """Is the Graphviz `dot` program installed (needed by the Graphviz renderer)?"""
    return shutil.which("dot") is not None


def render(graph: nx.DiGraph, path: "os.PathLike[str] | str", *, engine: Optional[str] = None,
           rankdir: Optional[str] = None, dpi: int = 110) -> str:
    """Draw a tree to `path` (``.svg``, ``.png`` or ``.pdf``, by the suffix).

    engine="graphviz" lays it out with Graphviz (the `graphviz` Python package, else the `dot`
    program directly); engine="matplotlib" draws it in pure Python (networkx + matplotlib);
    None picks Graphviz when `dot` is installed, else matplotlib. Returns the path written."""
    path = os.fspath(path)
    fmt = os.path.splitext(path)[1].lower().lstrip(".")
    if fmt not in ("svg", "png", "pdf"):
        raise ValueError(f"a picture is .svg, .png or .pdf, not {path!r}")
    if engine is None:
        engine = "graphviz" if graphviz_available() else "matplotlib"
    if engine not in ENGINES:
        raise ValueError(f"engine must be one of {', '.join(ENGINES)}, not {engine!r}")
    if engine == "graphviz":
        if not graphviz_available():
            raise RuntimeError("the Graphviz program 'dot' is not installed (Debian: apt-get install "
                               "graphviz); use engine='matplotlib' or leave engine unset")
        data = _graphviz_pipe(to_dot(graph, rankdir=rankdir, data=False), fmt, dpi)
        with open(path, "wb") as f:
            f.write(data)
        return path
    return _matplotlib_render(graph, path, fmt, rankdir, dpi)


def _graphviz_pipe(dot: str, fmt: str, dpi: int) -> bytes:
    if fmt == "png":
        dot = dot.replace("graph [", f'graph [dpi="{dpi}", ', 1)
    try:
        import graphviz
    except ImportError:
        graphviz = None
    if graphviz is not None:
        return graphviz.Source(dot).pipe(format=fmt, quiet=True)
    done = subprocess.run(["dot", f"-T{fmt}"], input=dot.encode("utf-8"), capture_output=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"Graphviz failed: {done.stderr.decode(errors='replace').strip()}")
    return done.stdout


# -- the pure-Python fallback -----------------------------------------------------------------

def tree_layout(graph: nx.DiGraph, root: Optional[str] = None) -> dict:
    """Positions for a layered drawing: leaves side by side in depth-first order, each parent
    centred over its children, one layer per depth (a DAG is laid out along its first parents)."""
    root = graph.graph.get("root", "/") if root is None else root
    pos: dict = {}
    placed: set = {root}
    next_x = [0.0]

    def place(n: str, depth: int) -> float:
        kids = [c for c in graph.successors(n) if c not in placed]
        placed.update(kids)
        if not kids:
            x = next_x[0]
            next_x[0] += 1.0
        else:
            xs = [place(c, depth + 1) for c in kids]
            x = (xs[0] + xs[-1]) / 2
        pos[n] = (x, -float(depth))
        return x

    place(root, 0)
    for n in graph.nodes:          # anything unreachable from the root (should not happen)
        if n not in pos:
            pos[n] = (next_x[0], 0.0)
            next_x[0] += 1.0
    return pos


def _plain_label(d: dict) -> str:
    kind = d.get("kind", "position")
    if kind == "position":
        text = _headline(d)
        if d["terminal"]:
            text += "\n" + "-".join(str(d[f"points_p{k}"]) for k in range(6) if f"points_p{k}" in d)
        else:
            text += f"\nP{d['to_move']}"
        return text
    if kind == "pass":
        return f"pass {d['index']}\n{d['pass_kind']}\n({d['alpha']},{d['beta']})"
    if kind == "root":
        return "search"
    text = f"#{d['order']}"
    if "value" in d:
        text += f"\n{_bound_text(d['value'], d.get('bound', 'exact'))}"
    text += f"\n({d['alpha']},{d['beta']})"
    if d.get("tt_hit"):
        text += "\nTT"
    if d.get("cutoff"):
        text += f"\ncut {d['n_searched']}/{d['n_moves']}"
    return text


def _matplotlib_render(graph: nx.DiGraph, path: str, fmt: str, rankdir: Optional[str], dpi: int) -> str:
    try:
        import matplotlib
        if "matplotlib.pyplot" not in sys.modules:
            matplotlib.use("Agg")       # no screen needed; an interactive session keeps its own
        import matplotlib.pyplot as plt
        from matplotlib.lines import Line2D
        from matplotlib.patches import Patch
    except ImportError:
        raise RuntimeError("pictures need Graphviz (the 'dot' program) or matplotlib: "
                           "pip install 'scopa-solver[tree]'") from None
    mode = graph.graph.get("tree_mode", "minimax")
    if rankdir is None:
        rankdir = "TB"
    xy = tree_layout(graph)
    if rankdir == "LR":
        xy = {n: (-y, -x) for n, (x, y) in xy.items()}
    xs = [p[0] for p in xy.values()]
    ys = [p[1] for p in xy.values()]
    span_x = max(xs) - min(xs) + 1
    span_y = max(ys) - min(ys) + 1
    n = graph.number_of_nodes()
    if rankdir == "LR":
        width, height = min(60.0, 2.4 + span_x * 1.9), min(120.0, 1.6 + span_y * 0.85)
    else:
        width, height = min(120.0, 2.0 + span_x * 1.05), min(60.0, 2.2 + span_y * 1.45)
    fig, ax = plt.subplots(figsize=(max(width, 6.5), max(height, 3.5)))
    ax.set_axis_off()
    font = 9 if n < 60 else 8 if n < 300 else 5
    labels = n <= 1500
    for u, v, d in graph.edges(data=True):
        (x0, y0), (x1, y1) = xy[u], xy[v]
        optimal = d.get("optimal")
        colour = OPTIMAL if optimal else (OTHER if optimal is not None else "#6b7280")
        lw = 3.5 if d.get("pv") else (2.0 if optimal else 0.9)
        ax.plot([x0, x1], [y0, y1], color=colour, lw=lw, zorder=1, solid_capstyle="round")
        if labels and "move" in d:
            text = d["move"] + (" SCOPA" if d.get("scopa") else "")
            ax.text((x0 + x1) / 2, (y0 + y1) / 2, text, fontsize=font - 1, ha="center", va="center",
                    color="#111827" if optimal is not False else "#6b7280", zorder=3,
                    bbox=dict(boxstyle="round,pad=0.15", fc="white", ec="none", alpha=0.85))
    for node, d in graph.nodes(data=True):
        kind = d.get("kind", "position")
        x, y = xy[node]
        if kind == "position" and d.get("terminal"):
            fc, ec, box = END["fill"], END["line"], "square,pad=0.35"
        elif kind in ("position", "node") and (side := _look(d)) is not None:
            fc, ec = side["fill"], side["line"]
            box = "round,pad=0.35" if d.get("side", d["to_move"]) == 0 else "circle,pad=0.25"
        else:
            fc, ec, box = "#ede9fe", "#5b21b6", "square,pad=0.35"
        if kind == "node":
            if d.get("tt_hit"):
                fc = TT_FILL
            if d.get("leaf"):
                fc = END["fill"]
            if d.get("cutoff"):
                ec = "#dc2626"
        lw = 2.8 if d.get("pv") else (2.0 if d.get("cutoff") else 1.0)
        ls = "--" if d.get("truncated") else "-"
        ax.text(x, y, _plain_label(d) if labels else "", fontsize=font, ha="center", va="center",
                zorder=4, fontweight="bold" if d.get("pv") else "normal",
                bbox=dict(boxstyle=box, fc=fc, ec=ec, lw=lw, ls=ls))
    handles = [Patch(fc=SIDE[0]["fill"], ec=SIDE[0]["line"], label="P0 to move (maximises)"),
               Patch(fc=SIDE[1]["fill"], ec=SIDE[1]["line"], label="P1 to move (minimises)"),
               Patch(fc=END["fill"], ec=END["line"], label="end of round (score P0-P1)"),
               Line2D([], [], color=OPTIMAL, lw=2, label="optimal move"),
               Line2D([], [], color=OPTIMAL, lw=3.5, label="principal variation"),
               Line2D([], [], color=OTHER, lw=1, label="other move")]
    if "sides" in graph.graph and mode != "search":       # the family: a colour per side
        handles = [Patch(fc=SIDE[k]["fill"], ec=SIDE[k]["line"], label=f"side {k} to move")
                   for k in range(graph.graph["sides"])] + handles[2:]
        handles[graph.graph["sides"]] = Patch(fc=END["fill"], ec=END["line"], label="end of round (points per side)")
    if mode == "search":
        handles = [Patch(fc=SIDE[0]["fill"], ec=SIDE[0]["line"], label="P0 to move"),
                   Patch(fc=SIDE[1]["fill"], ec=SIDE[1]["line"], label="P1 to move"),
                   Patch(fc=TT_FILL, ec="#92400e", label="transposition-table hit"),
                   Patch(fc="white", ec="#dc2626", label="children cut off")]
    ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(0, 0), ncol=3, fontsize=8, frameon=False)
    title = graph.graph.get("position", "")
    if "value_p0" not in graph.graph and graph.graph.get("objective") == "value" and "value" in graph.graph:
        title += f"   paranoid value for side {graph.graph['root_side']} {_value(graph.graph['value'])}"
    if "value_p0" in graph.graph:
        title += f"   value for P0 {_value(graph.graph['value_p0'])}"
    ax.set_title(f"{mode} tree: {title}", fontsize=10, loc="left")
    ax.margins(x=0.5 / span_x + 0.02, y=0.5 / span_y + 0.02)
    fig.tight_layout()
    fig.savefig(path, format=fmt, dpi=dpi, bbox_inches="tight")
    plt.close(fig)
    return path
