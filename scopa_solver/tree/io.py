"""Tree files: write a tree as GraphML, GEXF, node-link JSON, Graphviz DOT or a picture (the
format from the suffix), and read the data formats back.

>>> import os, tempfile
>>> from scopa_solver import Position
>>> from scopa_solver.tree import to_networkx
>>> g = to_networkx(Position(hands=("7d 2c", "3b 4c"), table="3s 4s", dealer=1))
>>> with tempfile.TemporaryDirectory() as folder:
...     back = read_tree(write_tree(g, os.path.join(folder, "tree.graphml")))
>>> back.number_of_nodes(), back.nodes["/"]["value"]
(15, 5)
"""
from __future__ import annotations

import json
import os
from typing import Any

import networkx as nx

from ..errors import ScopaError
from ..files import open_regular
from .render import render, to_dot

DATA_FORMATS = {".graphml": "GraphML", ".gexf": "GEXF", ".json": "node-link JSON", ".dot": "Graphviz DOT"}
PICTURE_FORMATS = (".svg", ".png", ".pdf")


def _scalar_graph(graph: nx.DiGraph) -> nx.DiGraph:
    """A copy whose attributes are all str/int/float/bool (GraphML and GEXF need that)."""
    def clean(d: dict[str, Any]) -> dict[str, Any]:
        return {k: (v if isinstance(v, (str, int, float, bool)) else json.dumps(v))
                for k, v in d.items() if v is not None}
    out = nx.DiGraph()
    out.graph.update(clean(graph.graph))
    out.add_nodes_from((n, clean(d)) for n, d in graph.nodes(data=True))
    out.add_edges_from((u, v, clean(d)) for u, v, d in graph.edges(data=True))
    return out


def write_tree(graph: nx.DiGraph, path: "os.PathLike[str] | str", **render_options: Any) -> str:
    """Write `graph` to `path`, the format chosen by the suffix: ``.graphml``, ``.gexf``,
    ``.json`` (node-link), ``.dot`` (Graphviz, styled as the pictures), or a picture: ``.svg``,
    ``.png``, ``.pdf`` (see `render`). Returns the path written."""
    path = os.fspath(path)
    suffix = os.path.splitext(path)[1].lower()
    if suffix in PICTURE_FORMATS:
        return render(graph, path, **render_options)
    if render_options and suffix != ".dot":
        raise TypeError(f"{', '.join(render_options)}: options for pictures and .dot only")
    if suffix == ".graphml":
        nx.write_graphml(_scalar_graph(graph), path)
    elif suffix == ".gexf":
        nx.write_gexf(_scalar_graph(graph), path)
    elif suffix == ".json":
        with open(path, "w", encoding="utf-8") as f:
            json.dump(node_link(graph), f, ensure_ascii=False, indent=1)
            f.write("\n")
    elif suffix == ".dot":
        with open(path, "w", encoding="utf-8") as f:
            f.write(to_dot(graph, **render_options))
    else:
        known = ", ".join(list(DATA_FORMATS) + list(PICTURE_FORMATS))
        raise ValueError(f"cannot tell the format of {path!r} from its suffix: use one of {known}")
    return path


def node_link(graph: nx.DiGraph) -> dict[str, Any]:
    """The node-link form of `graph` (what `.json` files hold), edges under "edges"."""
    data: dict[str, Any]
    try:
        data = nx.node_link_data(graph, edges="edges")
    except TypeError:    # networkx < 3.4
        data = nx.node_link_data(graph)
        data["edges"] = data.pop("links")
    return data


def read_tree(path: "os.PathLike[str] | str") -> nx.DiGraph:
    """Read a tree written by `write_tree` (``.graphml``, ``.gexf``, ``.json``; ``.dot`` needs pydot)."""
    path = os.fspath(path)
    suffix = os.path.splitext(path)[1].lower()
    if suffix in (".graphml", ".gexf"):
        with open_regular(path, "rb", error=ScopaError) as f:      # a named pipe: refused at once
            return (nx.read_graphml if suffix == ".graphml" else nx.read_gexf)(f)
    if suffix == ".json":
        with open_regular(path, encoding="utf-8", error=ScopaError) as f:
            data = json.load(f)
        try:
            return nx.node_link_graph(data, edges="edges")
        except TypeError:   # networkx < 3.4
            data["links"] = data.pop("edges")
            return nx.node_link_graph(data)
    if suffix == ".dot":
        with open_regular(path, encoding="utf-8", error=ScopaError) as f:
            return nx.DiGraph(nx.nx_pydot.read_dot(f))
    raise ValueError(f"cannot read {path!r}: use .graphml, .gexf, .json or .dot")
