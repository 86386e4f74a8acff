"""The command line's grammar: `build_parser` and the argument types.

Every numeric limit is checked here, by the package's own check (`kernel.check_threads`,
`check_tt_mb`, `check_limits`), so that a bad value is one line and exit 2 before any work."""
from __future__ import annotations

import argparse
import re
from typing import Callable, NoReturn, Sequence, Union

from ..errors import ScopaError, excerpt


class UsageError(ScopaError):
    """Bad command-line input."""


# `tree -o` pictures past this many nodes are refused unless --max-picture-nodes is raised:
# unreadable, and Graphviz slows down fast (docs/trees.md: 4,000 nodes 40 s, ~8,000 12 minutes)
PICTURE_MAX_NODES = 2_000


# -- argument types -------------------------------------------------------------------------------
# argparse turns an ArgumentTypeError into "argument --NAME: MESSAGE" and exit 2.

def _port(text: str) -> int:
    value = _whole(text)
    if not 1 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"a TCP port is 1 to 65535, not {value}")
    return value


def _whole(text: str) -> int:
    try:
        return int(text)
    except ValueError:     # also a number of more than 4,300 digits
        raise argparse.ArgumentTypeError(f"expected a whole number, not {excerpt(text)}") from None


def _number(text: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, not {excerpt(text)}") from None


def positive_int(text: str) -> int:
    value = _whole(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected 1 or more, not {value}")
    return value


def count_arg(text: str) -> int:
    """A whole number, 0 or more."""
    value = _whole(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected 0 or more, not {value}")
    return value


def worlds_arg(text: str) -> Union[int, str]:
    return "all" if text == "all" else positive_int(text)


def _checked(check: Callable, value):
    try:
        check(value)
    except ScopaError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return value


def threads_arg(text: str) -> int:
    """Worker threads: 0 for every core; more than the cores is clamped by the package."""
    from ..kernel import check_threads
    return _checked(check_threads, _whole(text))


def tt_mb_arg(text: str) -> float:
    from ..kernel import check_tt_mb
    return _checked(check_tt_mb, _number(text))


def max_nodes_arg(text: str) -> int:
    """A positive node limit; a huge one means no limit (the package clamps it)."""
    from ..kernel import check_limits
    return _checked(lambda n: check_limits(n, None), _whole(text))


def time_limit_arg(text: str) -> float:
    from ..kernel import check_limits
    return _checked(lambda t: check_limits(None, t), _number(text))


def horizon_arg(text: str) -> int:
    from ..kernel import check_horizon
    return _checked(check_horizon, _whole(text))


def target_arg(text: str) -> float:
    """An exploitability target: a finite number of round points, 0 or more."""
    value = _number(text)
    if not value >= 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"expected a number of round points, 0 or more, not {excerpt(text)}")
    return value


def match_score_arg(text: str) -> Union[tuple[int, ...], str]:
    """`--match-score`: every side's match points joined by '-' (9-10; three sides 3-7-9), or a
    game record (a path ending in .json) whose finished rounds give them."""
    if text.lower().endswith(".json"):
        return text
    parts = text.split("-")
    if not 2 <= len(parts) <= 6 or not all(part.strip().isdigit() for part in parts):
        raise argparse.ArgumentTypeError(f"expected every side's match points joined by '-' (like 9-10), "
                                         f"or a game record (.json), not {excerpt(text)}")
    return tuple(int(part) for part in parts)


def match_target_arg(text: str) -> int:
    """`--target` of the match objective: the points that win the match, as far as the match
    equity goes (`play.equity.MIN_TARGET` to `MAX_TARGET`)."""
    from ..play.equity import MAX_TARGET, MIN_TARGET
    value = _whole(text)
    if not MIN_TARGET <= value <= MAX_TARGET:
        raise argparse.ArgumentTypeError(f"the match target is {MIN_TARGET} to {MAX_TARGET} points, not {value}")
    return value


# -- the parser -----------------------------------------------------------------------------------

class OneLineParser(argparse.ArgumentParser):
    """argparse with the project's one-line error message (exit code 2): the CLI's, and the
    benchmark scripts' (benchmarks/), whose prog is the script's name."""

    def error(self, message: str) -> NoReturn:
        # argparse quotes a bad argument whole, and a choice error lists every choice: cut long
        # quotations to a short excerpt (a quotation, not the apostrophes of "model's")
        message = re.sub(r"(?<!\w)'([^']{40})[^']{4,}'(?!\w)", r"'\1...'", " ".join(message.split()))
        head, tail = f"{self.prog.split()[0]}: error: ", f" (see: {self.prog} --help)"
        if len(head) + len(message) + len(tail) > 299:      # a choice error's list: --help has it
            message = re.sub(r" \(choose from [^)]*\)", "", message)
        self.exit(2, f"{head}{message[:300]}{tail}\n")


def names_arg(known: Sequence[str], what: str) -> Callable[[str], list[str]]:
    """An argument type: NAME,NAME,... each one of `known` (a benchmark's rows), else the one
    line naming them all."""
    def parse(text: str) -> list[str]:
        names = text.split(",")
        for name in names:
            if name not in known:
                raise argparse.ArgumentTypeError(f"no {what} {excerpt(name)}; {what}s: {', '.join(known)}")
        return names
    return parse


def rules_help() -> str:
    """Every rule option as typed after --rules: a switch by its name, the others NAME=default
    (the choices of game and capture spelled out), from `Rules` itself so that none is left out."""
    from dataclasses import fields
    from ..core.rules import CAPTURES, GAMES, Rules
    default = Rules()
    choices = {"game": "|".join(GAMES), "capture": "|".join(CAPTURES)}
    names = [f.name if f.type in ("bool", bool) and not getattr(default, f.name)
             else f"{f.name}={choices.get(f.name, getattr(default, f.name))}" for f in fields(Rules)]
    return ("rule options (docs/notation.md): " + ", ".join(names).replace("%", "%%") +
            "; a switch alone turns it on, NAME=0 off")


def _common(p: argparse.ArgumentParser, position: bool = True) -> argparse.ArgumentParser:
    if position:
        p.add_argument("position", nargs="?", help="position (or view) in notation; - reads it from standard "
                       "input; default: a built-in example")
    p.add_argument("--rules", nargs="*", metavar="OPTION", help=rules_help())
    p.add_argument("--json", action="store_true", help="machine-readable output")
    return p


def _threads(p: argparse.ArgumentParser, what: str = "PIMC workers") -> None:
    p.add_argument("--threads", type=threads_arg, default=None,
                   help=f"{what} (default: every core; 0: every core; more than the cores: the cores)")


def _budget(p: argparse.ArgumentParser) -> None:
    """A bot's per-decision time budget, and the leave to play an exact bot in a family game."""
    p.add_argument("--time-limit", type=time_limit_arg, default=None,
                   help="every searching bot's time budget a decision, in seconds (default 2; inf: none)")
    p.add_argument("--allow-slow", action="store_true",
                   help="play an exact bot (oracle) in Scopone or scientifico, where a decision takes hours")


def _objective(p: argparse.ArgumentParser) -> None:
    p.add_argument("--objective", choices=("value", "maxn"), default="value",
                   help="value (default): the round's point margin of the side to move, its points minus the "
                        "other side's (with three or more sides, paranoid: minus the best other side's); maxn: "
                        "every seat maximises its own side's round points")


def _match(p: argparse.ArgumentParser) -> None:
    """`--match-score` and `--target`: the match objective (docs/cli.md#the-match-objective)."""
    p.add_argument("--match-score", type=match_score_arg, default=None, metavar="A-B",
                   help="search to win the match, not the round: every side's match points before this "
                        "round, side 0 first (9-10; three sides 3-7-9), or a game record (.json) whose finished "
                        "rounds give them; values become the chance to win the match")
    p.add_argument("--target", type=match_target_arg, default=None, metavar="N",
                   help="--match-score: the points that win the match (default: the rules' target, 11)")


def _job(p: argparse.ArgumentParser) -> None:
    """`solve --job DIR`: the position as a checkpointed job over work items (docs/batch.md)."""
    g = p.add_argument_group("a checkpointed job (--job DIR; then --time-limit is this run's seconds)")
    g.add_argument("--job", metavar="DIR", default=None,
                   help="solve as a job of work items in the folder DIR: resumable, on local processes or Dask")
    g.add_argument("--split", type=count_arg, default=None,
                   help="plies the tree is cut below the position into work items (default 2)")
    g.add_argument("--every-root-move", action="store_true", default=None,
                   help="the exact value of every move of the position (no pruning of its moves)")
    g.add_argument("--engine", choices=("local", "dask"), default="local",
                   help="local: processes on this machine (default); dask: a dask.distributed cluster")
    g.add_argument("--proof", choices=("bounds", "exact"), default=None,
                   help="bounds: each work item proved against the threshold the value needs (default); "
                        "exact: each item solved exactly (the slower earlier way, for comparisons)")
    g.add_argument("--scheduler", metavar="ADDR", default=None, help="--engine dask: the scheduler's address")
    g.add_argument("--workers", type=count_arg, default=None,
                   help="workers (default: every core, or with --threads a worker for every THREADS cores)")
    g.add_argument("--threads", type=threads_arg, default=None,
                   help="threads searching each work item, sharing its table (default 1; 0: every core)")
    g.add_argument("--resume", action="store_true", help="continue the job in DIR (the position may be left out)")
    g.add_argument("--overwrite", action="store_true", help="start the job in DIR again")
    g.add_argument("--force", action="store_true", help="--resume through a symbolic link")
    g.add_argument("--limit", type=count_arg, default=None, help="at most this many work items in this run")
    g.add_argument("--verify", type=count_arg, default=None, metavar="N",
                   help="--resume: solve N of the stored items again first, exactly, drawn at random (a record "
                        "the value contradicts is set aside, the value kept)")


def build_parser() -> argparse.ArgumentParser:
    """The parser of every command; each sets `command` (its name) as its default."""
    from .. import __version__
    parser = OneLineParser(prog="scopa-solver", description="Exact Scopa solver and analyzer. A value is the "
                           "round's point margin for the side named beside it (docs/cli.md).")
    parser.add_argument("--version", action="version", version=f"scopa-solver {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)

    p = _common(sub.add_parser("deal", help="print a random position as one line of notation"), position=False)
    p.add_argument("--seed", type=_whole, default=None, help="seed of the deal (default: a fresh one)")
    p.add_argument("--deals-left", type=_whole, default=None, help="play forward at random to K deals left")
    p.add_argument("--cards-per-hand", type=_whole, default=None,
                   help="play forward at random until every hand holds this many cards (Scopone, scientifico)")
    p.add_argument("--show", action="store_true", help="add a readable picture")
    _common(sub.add_parser("show", help="a readable picture of a position"))
    for name, text in (("solve", "exact value, best moves, principal variation"),
                       ("analyze", "exact value of every legal move")):
        p = _common(sub.add_parser(name, help=text))
        p.add_argument("--max-nodes", type=max_nodes_arg, default=None,
                       help="node budget (a position it cannot solve exactly within it: the deepest depth reached)")
        p.add_argument("--time-limit", type=time_limit_arg, default=None,
                       help="seconds (a position it cannot solve exactly: the deepest depth reached)")
        p.add_argument("--horizon", type=horizon_arg, default=None, metavar="H",
                       help="search H plies deep and score there by the static evaluation (0: the exact search alone)")
        p.add_argument("--tt-mb", type=tt_mb_arg, default=None, help="transposition table size (MiB)")
        _objective(p)
        _match(p)
        if name == "solve":
            _job(p)
        else:
            p.add_argument("--lines", type=positive_int, default=None, metavar="N",
                           help="the best N moves, each with its own value and principal variation (MultiPV)")
            p.add_argument("--why", nargs="?", const="", default=None, metavar="MOVE",
                           help="why the best move is better than MOVE (default: than the second best), "
                                "category by category")

    p = _common(sub.add_parser("tree", help="the game tree: a picture (.svg/.png) or data (.graphml/.gexf/.json/.dot)"))
    p.add_argument("--mode", choices=("minimax", "pv", "search"), default="minimax",
                   help="minimax: every line with exact values; pv: the principal variation with "
                        "its alternatives; search: the nodes the solver's search visited")
    p.add_argument("--depth", type=count_arg, default=None, help="plies below the position (default: to the end)")
    p.add_argument("--max-nodes", type=positive_int, default=10_000, help="largest tree to build (default 10000)")
    p.add_argument("--truncate", action="store_true", help="stop at --max-nodes instead of failing")
    p.add_argument("--merge", action="store_true", help="one node per position (a DAG of transpositions)")
    p.add_argument("--search", choices=("solve", "value", "analyze"), default="solve",
                   help="--mode search: what the traced search computes")
    p.add_argument("--full-window", action="store_true", help="--mode search: plain alpha-beta")
    p.add_argument("--tt-mb", type=tt_mb_arg, default=None, help="transposition table size (MiB)")
    _objective(p)
    p.add_argument("-o", "--output", default=None, help="file to write; the format from the suffix")
    p.add_argument("--engine", choices=("graphviz", "matplotlib"), default=None,
                   help="picture renderer (default: Graphviz when installed, else matplotlib)")
    p.add_argument("--max-picture-nodes", type=positive_int, default=PICTURE_MAX_NODES,
                   help=f"largest tree to draw as a picture (default {PICTURE_MAX_NODES}): larger ones "
                        "are unreadable and take minutes")

    p = _common(sub.add_parser("suggest", help="imperfect-information suggestion (PIMC) from a player's view"))
    p.add_argument("--worlds", type=worlds_arg, default=None,
                   help="worlds to solve: N (all of them when there are at most N) or 'all' "
                        "(default: all up to 2000, else 1000 sampled)")
    p.add_argument("--seed", type=_whole, default=None, help="seed of the sampled worlds")
    _threads(p, "workers")
    p.add_argument("--time-limit", type=time_limit_arg, default=None,
                   help="seconds (default 10: the worlds solved by then decide; inf: no limit)")
    p.add_argument("--max-nodes", type=max_nodes_arg, default=None,
                   help="node budget of one world (family games: a world over it is searched to a horizon; "
                        "default 1,000,000 there; two players: none, a world over it is an error)")
    p.add_argument("--why", nargs="?", const="", default=None, metavar="MOVE",
                   help="why the fair best move is better than MOVE (default: than the fair second best), "
                        "category by category, averaged over 20 worlds (never naming a hidden card)")
    _match(p)

    p = _common(sub.add_parser("unseen", help="the cards a player has not seen, and the chance that each hidden "
                               "hand (and the stock) holds each, from the player's view"))
    p.add_argument("--player", type=_whole, default=None,
                   help="of a full position, this seat's view (default: the side to move's)")
    p.add_argument("--model", action="store_true",
                   help="weigh the worlds by the opponent model (two players; from a view alone it reads "
                        "the opponent's opening play only)")
    p.add_argument("--worlds", type=positive_int, default=1000,
                   help="--model: worlds drawn when there are too many to weigh all (default 1000)")
    p.add_argument("--seed", type=_whole, default=0, help="--model: seed of the drawn worlds (default 0)")

    p = _common(sub.add_parser("equilibrium", help="the last two deals as the real imperfect-information game: "
                               "the equilibrium strategy, value and exploitability at a player's view"))
    _threads(p, "workers of the last-deal solves")
    p.add_argument("--time-limit", type=time_limit_arg, default=None, help="seconds for the whole call")
    p.add_argument("--max-iterations", type=positive_int, default=None, help="CFR+ iterations at most")
    p.add_argument("--target", type=target_arg, default=None,
                   help="exploitability to reach, in round points (default 0.01)")
    p.add_argument("--max-nodes", type=max_nodes_arg, default=None, help="node budget of one last-deal search")

    p = _common(sub.add_parser("arena", help="bot against bot, duplicate deals"), position=False)
    p.add_argument("bot_a", metavar="BOT_A", help="random, greedy, greedy:NAME=W,..., pimc, pimc:N, model, model:T, "
                   "infer, infer:T, epimc, epimc:d=D,t=T,n=N,q=H (docs/play.md), oracle, or EARLY/LATE (one bot "
                   "until the last three deals, the other in them: greedy/pimc)")
    p.add_argument("bot_b", metavar="BOT_B", help="the other side's bot (the same names)")
    p.add_argument("more_bots", metavar="BOT", nargs="*",
                   help="one more bot per side of a game of three or more sides (--rules players=3 ...)")
    p.add_argument("--rounds", type=_whole, default=10, help="duplicate deals, each played twice (default 10)")
    p.add_argument("--matches", type=_whole, default=0, help="also this many duplicate pairs of matches")
    p.add_argument("--seed", type=_whole, default=None, help="seed of the deals and the bots (default: a fresh one)")
    p.add_argument("--worlds", type=positive_int, default=None,
                   help="worlds per PIMC decision (default 100; in the family games 30, of 200,000 nodes each)")
    _threads(p)
    _budget(p)
    p.add_argument("--save", metavar="PATH", default=None, help="save every round as a game record")
    p.add_argument("--force", action="store_true", help="--save over a file that is not a game record")

    p = _common(sub.add_parser("play", help="play a match against a bot in the terminal (family games: with "
                               "bot partners against bot opponents)"), position=False)
    p.add_argument("--bot", nargs="+", default=["pimc"], metavar="BOT",
                   help="random, greedy, pimc (default), pimc:N, model, model:T, infer, infer:T, epimc[:OPTIONS] "
                        "(two players only), oracle: one bot for every other seat, or one per seat other than yours in seat "
                        "order (with --auto: one per seat)")
    p.add_argument("--auto", action="store_true",
                   help="bots play your seat too: a match to watch, nothing asked")
    p.add_argument("--seed", type=_whole, default=None, help="seed of the deals (and the bot)")
    p.add_argument("--worlds", type=positive_int, default=None,
                   help="worlds per PIMC decision (default 100; in the family games 30, of 200,000 nodes each)")
    _threads(p)
    _budget(p)
    p.add_argument("--seat", type=_whole, default=0,
                   help="your seat: 0 (default) to players-1; you play first in the first round")
    p.add_argument("--name", default="you", help="your name in the record (default 'you')")
    p.add_argument("--rounds", type=_whole, default=None,
                   help="stop after this many rounds (default: the whole match)")
    p.add_argument("--save", metavar="PATH", default=None,
                   help="where to save the game record (default scopa-game-DATE-TIME.json here)")
    p.add_argument("--force", action="store_true", help="--save over a file that is not a game record")
    p.add_argument("--no-save", action="store_true", help="do not save the game record")

    p = _common(sub.add_parser("review", help="every decision of a saved game against the solver"), position=False)
    p.add_argument("game", metavar="GAME", help="a game record (JSON), from play or arena --save")
    p.add_argument("--worlds", type=positive_int, default=50,
                   help="PIMC worlds per decision for the fair review (default 50)")
    p.add_argument("--seed", type=_whole, default=0, help="seed of the PIMC worlds (default 0)")
    _threads(p)
    p.add_argument("--no-fair", action="store_true", help="hindsight only (no PIMC)")
    p.add_argument("--max-nodes", type=max_nodes_arg, default=None,
                   help="hindsight budget of one decision, in nodes (default 10,000,000; a decision over it "
                        "is not judged by hindsight)")
    p.add_argument("--time-limit", type=time_limit_arg, default=None,
                   help="hindsight budget of one decision, in seconds (default: none)")
    p.add_argument("--fair-time-limit", type=time_limit_arg, default=None,
                   help="time budget of one decision's fair (PIMC) judgement, in seconds (default: none)")
    p.add_argument("--equilibrium", action="store_true",
                   help="also judge the two-player decisions of the last two deals against the endgame "
                        "equilibrium (about 10 s at the first play of the last-but-one deal)")
    p.add_argument("--equilibrium-time-limit", type=time_limit_arg, default=None,
                   help="time budget of one decision's equilibrium, in seconds (default: none)")
    p.add_argument("--round", type=_whole, action="append", default=None, help="review only this round (repeatable)")
    p.add_argument("--player", action="append", default=None, help="review only this player (repeatable)")
    p.add_argument("--mistakes", action="store_true", help="list only the marked moves (and those with a comment)")
    p.add_argument("--learn", action="store_true",
                   help="learn from the --player's fair mistakes (? and ??): find a better play in each, "
                        "from the player's view (--json: list them)")
    p.add_argument("--match", action="store_true",
                   help="judge every decision by the chance to win the match (the score before each round from "
                        "the record), losses in percentage points of it, instead of the round's points")

    p = _common(sub.add_parser("annotate", help="add (or remove) a comment on a move of a game record"),
                position=False)
    p.add_argument("game", metavar="GAME", help="a game record (JSON)")
    p.add_argument("--round", type=_whole, default=1, help="the round (default 1)")
    p.add_argument("--move", type=_whole, required=True, help="the move's number in the round (1 = the first)")
    p.add_argument("--comment", required=True, help="the comment (empty: remove the move's comment)")
    p.add_argument("-o", "--output", metavar="OUT", default=None,
                   help="where to write the annotated record (default: GAME itself; an existing record "
                        "there is kept as OUT-1.json first)")

    p = sub.add_parser("serve", help="the analysis board in the browser (needs the [web] extra)")
    p.add_argument("--port", type=_port, default=8000, help="TCP port (default 8000)")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this machine only)")
    p.add_argument("--open", action="store_true", help="open the page in the default browser")

    add_batch_parser(sub)
    add_bench_parsers(sub)
    add_puzzle_parser(sub)
    return parser


def _techniques(text: str) -> list[str]:
    from ..bench import TECHNIQUES
    return names_arg(TECHNIQUES, "technique")(text)


def _perft_depth(text: str) -> int:
    from ..bench.perft import MAX_DEPTH
    value = _whole(text)
    if not 1 <= value <= MAX_DEPTH:
        raise argparse.ArgumentTypeError(f"the perft depth is 1 to {MAX_DEPTH}, not {value}")
    return value


def add_bench_parsers(sub: "argparse._SubParsersAction") -> None:
    """`bench` (the shipped suites, their A/B, the techniques, perft) and `perft`."""
    p = sub.add_parser("bench", help="benchmark the exact search on the shipped suites, every answer checked",
                       description="Solve the positions of benchmark suites (shipped, or suite files), check every "
                                   "value and best move, and report the times (docs/benchmarks.md). Exit 1 when an "
                                   "answer is wrong.")
    p.add_argument("suites", metavar="SUITE", nargs="*",
                   help="shipped suite names (see --list) or suite files (default: the default suites)")
    p.add_argument("--all", action="store_true", help="every shipped suite, the slow ones too")
    p.add_argument("--list", action="store_true", help="list the shipped suites and exit")
    p.add_argument("--json", action="store_true", help="the figures of every position as JSON (for --compare)")
    p.add_argument("--repeat", type=positive_int, default=1,
                   help="series over the suites, each position's fastest kept (default 1)")
    p.add_argument("--threads", type=threads_arg, default=1, help="threads of one search (default 1)")
    p.add_argument("--tt-mb", type=tt_mb_arg, default=64.0, help="transposition table size (MiB, default 64)")
    p.add_argument("--without", type=_techniques, default=[], metavar="T,T",
                   help="switch techniques off: table, ordering, equivalence, bounds, endgame, mtdf (full window), "
                        "other-piles")
    p.add_argument("--techniques", action="store_true",
                   help="the ladder: plain alpha-beta, then each technique added, then --threads (default 2) threads")
    p.add_argument("--max-nodes", type=max_nodes_arg, default=None, help="node limit of one search (it is then not checked)")
    p.add_argument("--time-limit", type=time_limit_arg, default=None, help="seconds of one search (likewise)")
    p.add_argument("--compare", nargs=2, metavar=("A.json", "B.json"), default=None,
                   help="B's times over A's per suite with 95%% confidence intervals (two bench --json outputs)")
    p.add_argument("--time", choices=("cpu", "wall"), default=None,
                   help="--compare: CPU time of the searching thread (default with one thread) or wall time")
    p.add_argument("--perft", action="store_true", help="check the shipped perft counts (the rules' fingerprint)")
    p.add_argument("--make-suite", metavar="DIR", default=None,
                   help="rebuild the shipped suites (or those named) and perft.txt into DIR from their seeds")

    p = sub.add_parser("perft", help="the number of legal play sequences N plays deep (the rules' fingerprint)")
    _common(p)
    p.add_argument("--depth", type=_perft_depth, required=True,
                   help="plays deep, 1 to 40 (the counts of every depth up to it, each as it is counted)")


def add_puzzle_parser(sub: "argparse._SubParsersAction") -> None:
    """The `puzzle` subcommand and its options (cli/puzzle.py runs it)."""
    from ..play.puzzles import GAMES, TAGS
    p = sub.add_parser("puzzle", help="a puzzle to solve: one move keeps the exact value, every other loses "
                                      "(shipped puzzles of every game, or those of your own game record)")
    p.add_argument("--game", choices=list(GAMES), default=None, help="a game of the family (default: any)")
    p.add_argument("--tag", choices=list(TAGS), default=None, help="what decides the puzzle (default: any)")
    p.add_argument("--seed", type=_whole, default=None, help="which puzzle, drawn with this seed (default: a fresh one)")
    p.add_argument("--answer", action="store_true", help="show the answer at once (nothing asked)")
    p.add_argument("--from", dest="record", metavar="RECORD", default=None,
                   help="the puzzles of a game record (from play or arena --save) instead of the shipped ones")
    p.add_argument("--player", default=None, help="--from: only this player's decisions (a name in the record)")
    p.add_argument("--list", action="store_true", help="list every puzzle of the selection")
    p.add_argument("--json", action="store_true", help="machine-readable output")


def add_batch_parser(sub: "argparse._SubParsersAction") -> None:
    """The `batch` subcommand and its options."""
    p = sub.add_parser("batch", help="a job over many positions or game records (this machine or a Dask cluster)",
                       description="Run JOB over every item of INPUT into OUTPUT (docs/batch.md).")
    p.add_argument("job", metavar="JOB", choices=("solve", "analyze", "suggest", "review", "label"),
                   help="solve, analyze, suggest, review or label")
    p.add_argument("input", metavar="INPUT",
                   help="a text file of positions (one per line), a .jsonl file, a folder of game records, "
                        "or random:N (N generated items)")
    p.add_argument("-o", "--output", required=True, help="the results: .jsonl (default), .parquet or .npz (label)")
    p.add_argument("--format", choices=("jsonl", "parquet", "npz"), default=None,
                   help="output format (default: from the output's suffix, else jsonl)")
    p.add_argument("--engine", choices=("local", "dask"), default="local",
                   help="local: processes on this machine (default); dask: a dask.distributed cluster")
    p.add_argument("--scheduler", metavar="ADDR", default=None,
                   help="--engine dask: the scheduler's address (default: a LocalCluster for the run)")
    p.add_argument("--workers", type=count_arg, default=None, help="workers (default: every core)")
    p.add_argument("--resume", action="store_true", help="finish an interrupted run: skip the items in OUTPUT")
    p.add_argument("--overwrite", action="store_true", help="replace an existing OUTPUT")
    p.add_argument("--force", action="store_true",
                   help="--resume an OUTPUT that is not a batch output, or through a symbolic link")
    p.add_argument("--limit", type=count_arg, default=None, help="at most this many items in this run")
    p.add_argument("--chunk", type=positive_int, default=None, help="items per chunk (default: a few seconds' work)")
    p.add_argument("--seed", type=count_arg, default=0, help="the job's seed; each item's derives from it and its key")
    p.add_argument("--worlds", type=count_arg, default=None,
                   help="PIMC worlds per suggestion (suggest: as its command; label: 20; review: 50, 0: no fair review)")
    p.add_argument("--max-nodes", type=max_nodes_arg, default=None, help="node limit of each exact search")
    p.add_argument("--time-limit", type=time_limit_arg, default=None, help="seconds per search")
    p.add_argument("--tt-mb", type=tt_mb_arg, default=None, help="transposition table size (MiB)")
    p.add_argument("--bot", choices=("random", "greedy"), default="random", help="label: who plays the rounds")
    p.add_argument("--rules", nargs="*", metavar="OPTION", help="random:N: the generated deals' " + rules_help())
    p.add_argument("--json", action="store_true", help="the summary as JSON")
