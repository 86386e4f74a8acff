"""Game trees: networkx graphs of the game (build.py: the walk; size.py: the size check first;
values.py: the nodes' values; attributes.py: what a node and an edge hold) or of a search as it
ran (trace.py), their files (io.py), pictures (render.py) and outlines (outline.py).

Importing this package imports networkx; `import scopa_solver` alone does not.
"""
from .base import MAX_TREE_NODES, ROOT, TreeOptions, TreeTooLargeError
from .build import MODES, to_networkx
from .size import count_tree, tree_size
from .io import node_link, read_tree, write_tree
from .outline import tree_text
from .render import render, to_dot
from .trace import search_graph

__all__ = ["to_networkx", "TreeOptions", "write_tree", "read_tree", "render", "to_dot", "tree_text", "node_link",
           "count_tree", "tree_size", "search_graph", "TreeTooLargeError", "ROOT", "MODES",
           "MAX_TREE_NODES"]
