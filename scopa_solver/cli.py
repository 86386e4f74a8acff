"""The command line: ``scopa-solver COMMAND ...`` (also ``python -m scopa_solver``).

Exit codes: 0 on success, 2 with a one-line message on bad input, 130 on Ctrl-C."""
from __future__ import annotations

import argparse
import json
import random
import sys
from typing import Optional, Sequence

from .display import show_position, show_score
from .errors import ScopaError
from .position import Position
from .rules import Rules
from .solver import analyze, solve

# A built-in example: a seeded deal played forward to two deals before the end.
EXAMPLE_SEED = 7


class UsageError(ScopaError):
    """Bad command-line input."""


def random_position(seed: Optional[int], deals_left: Optional[int], rules: Rules) -> Position:
    """A new round from `seed`, played forward at random to `deals_left` deals left (start of that deal)."""
    pos = Position.new_round(seed=seed, rules=rules)
    if deals_left is None:
        return pos
    if not 0 <= deals_left <= 5:
        raise UsageError(f"--deals-left must be 0 to 5 (deals still in the stock), not {deals_left}")
    rng = random.Random(seed)
    while pos.deals_left > deals_left or bin(pos.hands[0] | pos.hands[1]).count("1") != 6:
        pos = pos.play(rng.choice(pos.legal_moves()))
    return pos


def _rules(args) -> Rules:
    return Rules.from_tokens(args.rules or [])


def _position(text: Optional[str], args) -> Position:
    if text is None or text == "example":
        return random_position(EXAMPLE_SEED, 1, _rules(args))
    return Position.from_string(text)


def cmd_deal(args) -> int:
    pos = random_position(args.seed, args.deals_left, _rules(args))
    print(pos.to_string())
    if args.show:
        print(show_position(pos))
    return 0


def cmd_show(args) -> int:
    pos = _position(args.position, args)
    print(show_position(pos))
    return 0


def _search_kwargs(args) -> dict:
    return dict(max_nodes=args.max_nodes, time_limit=args.time_limit, tt_mb=args.tt_mb)


def cmd_solve(args) -> int:
    pos = _position(args.position, args)
    result = solve(pos, **_search_kwargs(args))
    if args.json:
        print(json.dumps(dict(
            position=pos.to_string(), value=result.value, lower=result.lower, upper=result.upper,
            complete=result.complete, best_moves=[str(m) for m in result.best_moves],
            pv=[str(m) for m in result.pv], total=result.outcome.total if result.outcome else None,
            nodes=result.nodes, seconds=result.seconds)))
        return 0
    print(show_position(pos))
    print()
    if not result.complete:
        print(f"search stopped ({result.stopped}): value between {result.lower} and {result.upper}")
    else:
        print(f"value for player {pos.to_move}: {result.value:+d}")
        print(f"best moves: {' '.join(map(str, result.best_moves))}")
        print(f"principal variation: {' '.join(map(str, result.pv))}")
        print()
        print(show_score(result.outcome))
    print(f"\n{result.nodes:,} nodes in {result.seconds * 1000:.2f} ms "
          f"({result.nodes_per_second / 1e6:.1f} M nodes/s), table hit rate {result.tt_hit_rate:.0%}")
    return 0


def cmd_analyze(args) -> int:
    pos = _position(args.position, args)
    rows = analyze(pos, **_search_kwargs(args))
    if args.json:
        print(json.dumps(dict(position=pos.to_string(), to_move=pos.to_move,
                              moves=[dict(move=str(r.move), value=r.value, lower=r.lower, upper=r.upper)
                                     for r in rows])))
        return 0
    print(show_position(pos))
    print(f"\n{'move':<20}{'value':>6}")
    for r in rows:
        value = f"{r.value:+d}" if r.value is not None else f"{r.lower}..{r.upper}"
        print(f"{str(r.move):<20}{value:>6}")
    return 0


def cmd_tree(args) -> int:
    """The game tree below a position: a picture or data file by the suffix of -o, else an outline."""
    from .tree import TreeTooLargeError, node_link, to_networkx, tree_text, write_tree
    pos = _position(args.position, args)
    try:
        graph = to_networkx(pos, mode=args.mode, depth=args.depth, max_nodes=args.max_nodes,
                            truncate=args.truncate, merge_transpositions=args.merge,
                            tt_mb=args.tt_mb, search=args.search, full_window=args.full_window)
    except TreeTooLargeError:
        raise
    except (ValueError, NotImplementedError) as exc:
        raise UsageError(str(exc)) from None
    if args.output:
        options = dict(engine=args.engine) if args.engine else {}
        try:
            written = write_tree(graph, args.output, **options)
        except (ValueError, RuntimeError, TypeError, OSError) as exc:
            raise UsageError(str(exc)) from None
        print(f"{args.mode} tree: {graph.number_of_nodes():,} nodes, {graph.number_of_edges():,} edges -> {written}")
    elif args.json:
        print(json.dumps(node_link(graph)))
    elif args.mode == "search":
        g = graph.graph
        print(f"search ({g['search']}): {g['search_nodes']:,} nodes in {g['passes']} passes, "
              f"{g['tt_hits']} table answers, {g['cutoffs']} cut-offs; value {g.get('value', '?')}")
        for n, d in graph.nodes(data=True):
            if d["kind"] == "pass":
                print(f"  pass {d['index']:>3}: {d['pass_kind']:<15} {d['move'] or '':<12} window "
                      f"({d['alpha']}, {d['beta']}) -> {d.get('value', '?')} ({d.get('bound', '?')}), "
                      f"{d['nodes']} nodes")
    else:
        print(tree_text(graph))
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="scopa-solver", description="Exact Scopa solver and analyzer.")
    sub = parser.add_subparsers(dest="command", required=True)

    def common(p, position=True):
        if position:
            p.add_argument("position", nargs="?", help="position in notation (default: a built-in example)")
        p.add_argument("--rules", nargs="*", metavar="OPTION", help="rule options, like napola target=21")
        p.add_argument("--json", action="store_true", help="machine-readable output")
        return p

    p = common(sub.add_parser("deal", help="print a random position as one line of notation"), position=False)
    p.add_argument("--seed", type=int, default=None)
    p.add_argument("--deals-left", type=int, default=None, help="play forward at random to K deals left")
    p.add_argument("--show", action="store_true", help="add a readable picture")
    p.set_defaults(func=cmd_deal)
    common(sub.add_parser("show", help="a readable picture of a position")).set_defaults(func=cmd_show)
    for name, func, text in (("solve", cmd_solve, "exact value, best moves, principal variation"),
                             ("analyze", cmd_analyze, "exact value of every legal move")):
        p = common(sub.add_parser(name, help=text))
        p.add_argument("--max-nodes", type=int, default=None)
        p.add_argument("--time-limit", type=float, default=None, help="seconds")
        p.add_argument("--tt-mb", type=float, default=None, help="transposition table size (MiB)")
        p.set_defaults(func=func)
    p = common(sub.add_parser("tree", help="the game tree: a picture (.svg/.png) or data (.graphml/.gexf/.json/.dot)"))
    p.add_argument("--mode", choices=("minimax", "pv", "search"), default="minimax",
                   help="minimax: every line with exact values; pv: the principal variation with "
                        "its alternatives; search: the nodes the solver's search visited")
    p.add_argument("--depth", type=int, default=None, help="plies below the position (default: to the end)")
    p.add_argument("--max-nodes", type=int, default=10_000, help="largest tree to build (default 10000)")
    p.add_argument("--truncate", action="store_true", help="stop at --max-nodes instead of failing")
    p.add_argument("--merge", action="store_true", help="one node per position (a DAG of transpositions)")
    p.add_argument("--search", choices=("solve", "value", "analyze"), default="solve",
                   help="--mode search: what the traced search computes")
    p.add_argument("--full-window", action="store_true", help="--mode search: plain alpha-beta")
    p.add_argument("--tt-mb", type=float, default=None, help="transposition table size (MiB)")
    p.add_argument("-o", "--output", default=None, help="file to write; the format from the suffix")
    p.add_argument("--engine", choices=("graphviz", "matplotlib"), default=None,
                   help="picture renderer (default: Graphviz when installed, else matplotlib)")
    p.set_defaults(func=cmd_tree)
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except ScopaError as exc:
        print(f"scopa-solver: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("scopa-solver: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
