"""One function per command: read the input, call the package, print text or the result's
`to_dict()` as JSON. Each returns the exit code."""
from __future__ import annotations

import contextlib
import os
import random
import sys
from typing import Any, Optional

from ..core.position import Position
from ..core.rules import Rules
from ..files import write_atomic
from ..play.display import show_position, show_score
from ..play.game import random_position
from ..kernel.limit import Limit
from ..core.flow import match_winner
from ..errors import excerpt
from ..search.match import Match, match_text
from ..search.solver import analysis
from ..text import plural
from .batch import batch_command, solve_job_command
from .bench import bench_command
from .output import check_writable, keep_older, print_json, save_game, save_record, stream_ok
from .parser import UsageError
from .puzzle import puzzle_command

# A built-in example: a seeded deal played forward to two deals before the end.
EXAMPLE_SEED = 7


# -- reading the input ----------------------------------------------------------------------------

def _rules(args) -> Rules:
    tokens = args.rules or []
    for token in tokens:
        if "/" in token or " " in token.strip():
            raise UsageError(f"--rules takes rule options like napola or target=21, not {token[:40]!r}: "
                             "put --rules after the position")
    return Rules.from_tokens(tokens)


def _with_rules(obj, args):
    """A position (or view) read from text, with the --rules options applied; the text's own
    options win when --rules is not given, and a disagreement is an error."""
    if not getattr(args, "rules", None):
        return obj
    rules = _rules(args)
    if obj.rules == rules:
        return obj
    if obj.rules != Rules():
        raise UsageError(f"the position's own options ({' '.join(obj.rules.tokens())}) disagree with "
                         f"--rules {' '.join(args.rules)}"[:280])
    return type(obj).from_string(f"{obj.to_string()} {' '.join(rules.tokens())}")


STDIN_MAX_CHARS = 1 << 16     # a position is one short line: more on standard input is not one


def _read_stdin(args) -> None:
    """`-` as the position: its one line read from standard input (once: `args.position` keeps it)."""
    if args.position != "-":
        return
    stdin = sys.stdin
    if not stream_ok(stdin):
        raise UsageError("'-' reads the position from standard input, which is closed")
    text = stdin.read(STDIN_MAX_CHARS + 1)
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if len(text) > STDIN_MAX_CHARS or len(lines) > 1:
        raise UsageError("'-' reads one position from standard input: it held more than one line")
    if not lines:
        raise UsageError("'-' reads the position from standard input: it was empty")
    args.position = lines[0]


def _position(args) -> Position:
    _read_stdin(args)
    text = args.position
    if text is None or text == "example":
        return _example(_rules(args))
    if "?" in text:     # a player's view: an exact search of it would need the hidden cards
        raise UsageError(f"{args.command} needs every card known; the text has hidden cards ('?'): "
                         "for a player's view, `suggest` gives the fair values from it")
    return _with_rules(Position.from_string(text), args)


def _example(rules: Rules) -> Position:
    """The built-in example: two deals before the end (two players); with more players the
    last deal with three cards a hand (Scopone and scientifico deal everything at once), so
    that it solves at once."""
    if rules.players == 2:
        return random_position(EXAMPLE_SEED, 1, rules)
    return random_position(EXAMPLE_SEED, 0, rules, cards_per_hand=3)


def _view(args):
    """A view from view text, or the side to move's view of a full position."""
    from ..core.view import View
    _read_stdin(args)
    text = args.position
    if text is not None and text != "example" and "?" in text:
        return _with_rules(View.from_string(text), args)
    pos = _position(args)
    if pos.is_round_over():
        raise UsageError("the round is over: there is no move to suggest")
    return pos.view(pos.to_move)


def _position_data(pos: Position) -> dict:
    """`Position.to_dict` and what a caller of the CLI wants beside it."""
    return dict(pos.to_dict(), deals_left=pos.deals_left, legal_moves=[str(m) for m in pos.legal_moves()],
                round_over=pos.is_round_over())


def _progress(args) -> Optional[bool]:
    """Progress bars: never with --json (stdout is data), else on a terminal."""
    return False if args.json else None


def _seed(args) -> int:
    return args.seed if args.seed is not None else random.SystemRandom().getrandbits(32)


def _make_bot(spec: str, args, seed: int):
    from ..play.bot_names import make_bot
    from ..play.bots import decision_seconds
    limit = getattr(args, "time_limit", None)
    rules = _rules(args)
    worlds = args.worlds if args.worlds is not None or rules.players > 2 else 100   # family: the game's
    return make_bot(spec, Limit(time=decision_seconds(rules) if limit is None else limit, threads=args.threads),
                    worlds=worlds, seed=seed, rules=rules)


def _check_exact(bots: list, rules: Rules, allow: bool) -> None:
    """An exact bot (the oracle) in a game whose first decisions take hours: refused without
    --allow-slow, and with it a warning before the game starts."""
    from ..play.bots import is_exact
    slow = sorted({b.name for b in bots if b is not None and is_exact(b)})
    if not slow or rules.game == "scopa":    # Scopone, scientifico: every card in the hands at once
        return
    game = " ".join(rules.tokens())
    what = f"{', '.join(slow)} plays the oracle, an exact search with no time budget: in {game}"
    if not allow:
        raise UsageError(f"{what} its first decisions take hours. Add --allow-slow to play it anyway, "
                         "or choose pimc")
    print(f"warning: {what} expect hours a decision early in a round (Ctrl-C stops)", file=sys.stderr, flush=True)


# -- positions and exact search -------------------------------------------------------------------

def deal(args) -> int:
    pos = random_position(args.seed, args.deals_left, _rules(args), cards_per_hand=args.cards_per_hand)
    if args.json:
        print_json(dict(_position_data(pos), seed=args.seed))
        return 0
    print(pos.to_string())
    if args.show:
        print(show_position(pos))
    return 0


def show(args) -> int:
    pos = _position(args)
    if args.json:
        print_json(_position_data(pos))
        return 0
    print(show_position(pos))
    return 0


def _limits(args) -> Limit:
    """The command's limit (its options were checked when parsed)."""
    return Limit(nodes=args.max_nodes, time=args.time_limit, tt_mb=args.tt_mb, horizon=args.horizon)


# Without a limit, a position whose exact search is estimated longer than this is searched
# depth by depth for DEFAULT_TIME_LIMIT seconds instead (docs/cli.md#depth-by-depth).
REASONABLE_SECONDS = 10.0
DEFAULT_TIME_LIMIT = 10.0


def _estimate(pos: Position, depths: list) -> Optional[float]:
    """The exact search's nodes, roughly, from `depths` (horizons 4 and 8 on cold tables): they
    grow by r = nodes(8) / nodes(4), and the exact search needed about nodes(8) *
    r ** ((plies left - 8) / 8) on the positions measured (docs/cli.md: an order of magnitude)."""
    if len(depths) < 2 or depths[1].horizon is None:
        return None
    n4, n8 = depths[0].nodes, depths[1].nodes - depths[0].nodes
    plies = sum(pos.hand_sizes()) + len(pos.stock)
    return n8 * max(1.0, n8 / max(1, n4)) ** (max(0, plies - depths[1].horizon) / 8)


def _searched(args, pos: Position, moves: bool) -> Any:
    """The answer of `analysis` (of every move's value, or `moves` False `solve`'s) under the command's limits,
    with a line per completed depth on a terminal and, on a terminal's stderr, a heartbeat
    while a depth runs (`_SearchBeat`). Without any limit, a position the exact
    search will not finish soon is announced (with the estimate, on stderr) and searched for
    DEFAULT_TIME_LIMIT seconds."""
    limit = _limits(args)
    lines = not args.json and stream_ok(sys.stdout) and sys.stdout.isatty()

    def iterate(limit: Limit) -> Any:
        return analysis(pos, limit, objective=args.objective, moves=moves)

    with _SearchBeat(_progress(args)) as beat:
        if args.max_nodes is None and args.time_limit is None and args.horizon is None:
            from ..search.solver import EXACT_TRY_NODES
            quick = list(iterate(limit.replace(nodes=EXACT_TRY_NODES)))
            if quick[-1].exact:
                return _shown(quick, lines, args.objective, beat)
            from ..kernel import clear_tables
            clear_tables()      # the node counts of the estimate are those of cold tables
            nodes = _estimate(pos, list(iterate(limit.replace(horizon=8))))
            seconds = None if nodes is None else nodes * quick[-1].seconds / max(1, quick[-1].nodes)
            if seconds is None or seconds > REASONABLE_SECONDS:
                about = "" if seconds is None else (f" about {nodes:.0e} nodes, {_duration(seconds)}, by "
                                                    "extrapolation from depths 4 and 8;")
                with beat.paused():
                    print(f"scopa-solver: this position is too big to solve exactly at once (the exact search "
                          f"needs more than {EXACT_TRY_NODES:,} nodes:{about} {sum(pos.hand_sizes()) + len(pos.stock)} "
                          f"plies left): searching depth by depth for {DEFAULT_TIME_LIMIT:g} s (--time-limit S or "
                          "--max-nodes N to choose, --horizon H for one depth)", file=sys.stderr, flush=True)
                limit = limit.replace(time=DEFAULT_TIME_LIMIT)
        return _shown(iterate(limit), lines, args.objective, beat)


class _SearchBeat:
    """The heartbeat of `_searched` (stderr, a terminal, not --json), an engine's info line: the
    deepest depth done, the depth being searched, the nodes so far and nodes/s (read live from
    the running search's handle: they move within a depth), the time since the command began
    searching; redrawn every second."""

    def __init__(self, show: Optional[bool]) -> None:
        from ..progress import Heartbeat
        self.last: Any = None
        self.handle: Any = None         # the running search's AnalysisHandle
        self.heart = Heartbeat(self.status, show)

    def __enter__(self) -> "_SearchBeat":
        self.heart.__enter__()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.heart.__exit__(*exc)

    def paused(self) -> Any:
        return self.heart.paused()

    def status(self) -> str:
        from ..progress import rate
        last, elapsed = self.last, self.heart.elapsed()
        info = self.handle.info if self.handle is not None else None
        done = "" if last is None else "exact done" if last.exact else f"depth {last.horizon} done"
        if info is None:
            return f"{done or 'searching'}… {elapsed:.0f} s"
        searching = "exact search" if info.depth is None else f"depth {info.depth}"
        head = f"{done}, searching {searching}" if done else f"searching {searching}"
        return f"{head}… {info.nodes:,} nodes · {rate(info.nodes, info.seconds)} n/s · {elapsed:.0f} s"


def _duration(seconds: float) -> str:
    for unit, size in (("years", 31557600), ("days", 86400), ("hours", 3600), ("minutes", 60)):
        if seconds >= size:
            return f"{seconds / size:.0f} {unit}"
    return f"{seconds:.0f} s"


def _shown(results, lines: bool, objective: Any, beat: Optional[_SearchBeat] = None) -> Any:
    """The last of `results`; with `lines`, a line per result as it lands (a UCI engine's
    "info depth" lines): depth, value, best move, pv, nodes, time; each result also goes to
    the heartbeat `beat`."""
    last = None
    if beat is not None:
        beat.handle = results
    for last in results:
        if beat is not None:
            beat.last = last
        if lines:
            depth = "exact" if last.exact else f"{last.horizon}"
            best = ",".join(map(str, last.best_moves)) or "-"
            with beat.paused() if beat is not None else contextlib.nullcontext():
                print(f"depth {depth:>5}  value {_signed(last.value, objective)}  best {best}  "
                      f"pv {' '.join(map(str, last.pv))}  nodes {last.nodes:,}  time {last.seconds:.2f} s", flush=True)
    return last


def _between(lower: Optional[int], upper: Optional[int]) -> str:
    if lower is None and upper is None:
        return "no bound proved"
    if lower is None or upper is None:
        return f"at most {upper}" if lower is None else f"at least {lower}"
    return f"between {lower} and {upper}"


def _depth_note(result) -> str:
    """What a result's values are when they are not exact (empty when they are)."""
    if result.exact:
        return ""
    if result.horizon is None:      # --horizon 0: the exact search alone, stopped
        return (f"the exact search stopped at the {result.stopped} limit: bounds only (without --horizon 0 "
                "the deepest depth-limited values)")
    why = f"the {result.stopped} limit stopped the deeper search" if result.stopped else "the horizon asked for"
    proved = "" if result.lower is None and result.upper is None else \
        f"; the exact value proved {_between(result.lower, result.upper)}"
    return f"estimates of a search {result.horizon} plies deep ({why}; docs/search.md#depth-limited-search){proved}"


def _signed(value: int, objective: Any) -> str:
    """A margin with its sign (+3, -1, +0); max^n points plainly (5); a match value as a
    percentage (62.35%)."""
    if isinstance(objective, Match):
        return f"{value / 100:.2f}%"
    return str(value) if objective == "maxn" else f"{value:+d}"


def _value_text(value: int, objective: Any) -> str:
    """The position's value as said: `_signed`, and under a Match "62.35% to win the match"."""
    return match_text(value) if isinstance(objective, Match) else _signed(value, objective)


def _lost(best: int, value: int, objective: Any) -> str:
    """What a move loses against the best: round points, or under a Match percentage points."""
    return f"{(best - value) / 100:.2f}" if isinstance(objective, Match) else f"{best - value}"


def _match_objective(args, rules: Rules) -> None:
    """`--match-score` [`--target`]: `args.objective` becomes `Match(score, target)` for `rules`'
    game; one line (UsageError) for a score of the wrong number of sides, a match already won,
    --target alone, or --objective maxn beside it."""
    score = getattr(args, "match_score", None)
    if score is None:
        if getattr(args, "target", None) is not None:
            raise UsageError("--target is the match's target: give --match-score too (like --match-score 9-10)")
        return
    if getattr(args, "objective", "value") != "value":
        raise UsageError(f"--match-score searches to win the match: not with --objective {args.objective}")
    target, shown = args.target, "-".join(map(str, score)) if not isinstance(score, str) else score
    if isinstance(score, str):          # a game record: the score its finished rounds reached
        from ..play.record import GameRecord
        record = GameRecord.load(score)
        if record.kind != "match":
            raise UsageError(f"--match-score {excerpt(score)}: the record holds independent rounds, not a match")
        if record.rules.side_count != rules.side_count:
            raise UsageError(f"--match-score {excerpt(score)}: the record's game has {record.rules.side_count} "
                             f"sides, the position's {rules.side_count}")
        score = record.totals
        target = record.rules.target if target is None else target
        shown = f"{'-'.join(map(str, score))} (from {excerpt(args.match_score)})"
    target = rules.target if target is None else target
    if len(score) != rules.side_count:
        raise UsageError(f"--match-score {shown} gives {len(score)} sides' match points; "
                         f"{' '.join(rules.tokens()) or 'two-player Scopa'} has {rules.side_count} sides "
                         f"(like {'-'.join(['9'] * rules.side_count)})")
    winner = match_winner(score, target)
    if winner is not None:
        raise UsageError(f"--match-score {shown}: side {winner} has already won a match to {target} "
                         "(the score before a round of a match still being played)")
    args.objective = Match(tuple(score), target)


def _match_data(objective: Any, value: Optional[float]) -> dict:
    """--json under a Match: the match and the value as text (values are 1/10,000ths; a mean
    over worlds is rounded for the text)."""
    if not isinstance(objective, Match):
        return {}
    return {"match": {"score": list(objective.score), "target": objective.target,
                      "text": match_text(None if value is None else round(value)), "unit": "1/10000 of a sure win"}}


def _value_name(pos: Position, objective: Any, unit: bool = False) -> str:
    """What a value is, for the side to move: two-player Scopa keeps "value for player P".
    `unit`: the line under the values instead, their unit (round points, whose, against whom)."""
    rules = pos.rules
    side, p = rules.sides[pos.to_move], pos.to_move
    if isinstance(objective, Match):
        who = f"player {p}" if rules.players == 2 else f"side {side} (player {p} to move)"
        score = "-".join(map(str, objective.score))
        return (f"values: the chance that {who} wins the match, from {score} (side 0 first) to "
                f"{objective.target} points, both sides playing to win the match" if unit
                else f"chance for {who}")
    if objective == "maxn":
        return (f"values in round points of side {side} (each side maximises its own)" if unit
                else f"max^n points of side {side} (player {p} to move)")
    if rules.side_count > 2:
        return (f"values in round points: side {side}'s minus the best other side's (paranoid)" if unit
                else f"paranoid value for side {side} (player {p} to move)")
    if rules.players == 2:          # the sides are the players
        return f"values in round points: player {p}'s minus player {1 - p}'s" if unit else f"value for player {p}"
    return (f"values in round points: side {side}'s minus side {1 - side}'s" if unit
            else f"value for side {side} (player {p} to move)")


def solve_command(args) -> int:
    if args.job is not None and args.match_score is not None:
        raise UsageError("a checkpointed job (--job) solves the round's margin: not with --match-score")
    if args.job is not None:
        return solve_job_command(args, None if args.position is None and args.resume else _position(args))
    for name in ("split", "every_root_move", "scheduler", "workers", "threads", "limit", "verify", "proof"):
        if getattr(args, name) is not None:
            raise UsageError(f"--{name.replace('_', '-')} is for a checkpointed job (--job DIR)")
    if args.engine != "local" or args.resume or args.overwrite or args.force:
        raise UsageError("--engine, --resume, --overwrite and --force are for a checkpointed job (--job DIR)")
    pos = _position(args)
    _match_objective(args, pos.rules)
    result = _searched(args, pos, moves=False)
    if args.json:
        print_json(dict(result.to_dict(), **_match_data(args.objective, result.value)))
        return 0
    print(show_position(pos))
    print()
    if result.value is None:     # the round is over... or nothing completed (not from analysis)
        print(f"search stopped ({result.stopped}) before the exact value: {_between(result.lower, result.upper)} "
              "(without --horizon 0 the deepest depth-limited value instead)")
    elif not result.exact:
        print(f"{_value_name(pos, args.objective)}: {_value_text(result.value, args.objective)} at depth "
              f"{result.horizon}: {_depth_note(result)}")
        print(f"best moves: {' '.join(map(str, result.best_moves))}")
        print(f"principal variation to the horizon: {' '.join(map(str, result.pv))}")
        print(_value_name(pos, args.objective, unit=True))
    else:
        print(f"{_value_name(pos, args.objective)}: {_value_text(result.value, args.objective)}")
        if result.objective == "maxn":
            print(f"points per side: {' '.join(map(str, result.points))}")
        print(f"best moves: {' '.join(map(str, result.best_moves))}")
        print(f"principal variation: {' '.join(map(str, result.pv))}")
        print(_value_name(pos, args.objective, unit=True))
        print()
        print(show_score(result.outcome))
    print(f"\n{plural(result.nodes, 'node')} in {result.seconds * 1000:.2f} ms "
          f"({result.nodes_per_second / 1e6:.1f} M nodes/s), table hit rate {result.tt_hit_rate:.0%}")
    return 0


def _best_first(rows) -> tuple[list, list]:
    """`analyze`'s rows with the search's best moves first, in its order, and those moves: at a
    horizon the kernel tells equal margins apart by its finer evaluation, so that a move of the
    best margin may not be best; these are `solve`'s best moves at the same depth, in its order."""
    best = [r for m in rows.best_moves for r in rows if r.move == m]
    return best + [r for r in rows if r not in best], best


def analyze_command(args) -> int:
    pos = _position(args)
    _match_objective(args, pos.rules)
    if isinstance(args.objective, Match) and (args.lines is not None or args.why is not None):
        raise UsageError("--lines and --why explain the round's margin: not with --match-score")
    rows = _searched(args, pos, moves=True)
    ordered, best_rows = _best_first(rows)
    found, why = _lines_and_why(args, pos, rows)
    margins = _margins(args, pos)
    if args.json:
        objective = "match" if isinstance(args.objective, Match) else args.objective
        data = dict(rows.to_dict(), to_move=pos.to_move, objective=objective, side=pos.rules.sides[pos.to_move],
                    **_match_data(args.objective, rows.value))
        data.update(moves=[dict(r.to_dict(), **({} if margins is None else {"margin": margins.get(str(r.move))}))
                           for r in ordered], best_moves=[str(r.move) for r in best_rows])
        if margins is not None:
            data.update(margin_best_moves=[str(r.move) for r in margins.best],
                        disagree=bool({str(r.move) for r in margins.best} - {str(r.move) for r in best_rows}))
        if found is not None:
            data.update(lines=[line.to_dict() for line in found], ties=found.ties)
        if why is not None:
            data.update(why=why.to_dict())
        print_json(data)
        return 0
    print(show_position(pos))
    if not rows:
        print("\nthe round is over: no moves")
        return 0
    best = rows[0].value
    wide = 8 if isinstance(args.objective, Match) else 6      # 100.00%
    marks = {} if margins is None else _disagreements(best_rows, margins)
    print(f"\n{'move':<20}{'value':>{wide}}{'lost':>{wide}}" + ("" if margins is None else f"{'margin':>8}"))
    for r in ordered:
        value = _signed(r.value, args.objective) if r.value is not None else \
            f"{'?' if r.lower is None else r.lower}..{'?' if r.upper is None else r.upper}"
        lost = "" if r.value is None or best is None else ("-" if r in best_rows else _lost(best, r.value, args.objective))
        margin = "" if margins is None else f"{_margin_text(margins.get(str(r.move))):>8}"
        mark = f"  {marks[str(r.move)]}" if str(r.move) in marks else ""
        print(f"{str(r.move):<20}{value:>{wide}}{lost:>{wide}}{margin}{mark}")
    if best is not None:
        n = len(best_rows)
        print(f"\n{_value_name(pos, args.objective)}: {_value_text(best, args.objective)} ({n} best move{'s' if n > 1 else ''} of {len(rows)})")
        print(_value_name(pos, args.objective, unit=True))
        if margins is not None:
            print(_disagreement_text(rows, best_rows, margins))
    if not rows.exact:
        print(f"values: {_depth_note(rows)}")
        if any(r.value == best and r not in best_rows for r in rows):
            print("lost 0: the best margin, but a lower estimate by the static evaluation at the horizon")
    if found is not None:
        _print_lines(found, args.objective)
    if why is not None:
        print(f"\nwhy: {why}")
    return 0


class _Margins(dict):
    """Under --match-score, beside the chances: each move's round margin (move text -> value)
    from the same search under objective "value", and its best moves (`best`)."""

    def __init__(self, rows: Any) -> None:
        super().__init__((str(r.move), r.value) for r in rows)
        self.best = _best_first(rows)[1]
        self.exact = rows.exact


def _margins(args, pos: Position) -> Optional[_Margins]:
    """`analyze --match-score`: the round's margins too (the same limits), to show where the
    two objectives disagree; None without a match score or with no move."""
    match = args.objective
    if not isinstance(match, Match) or pos.is_round_over():
        return None
    args.objective = "value"
    try:
        return _Margins(_searched(args, pos, moves=True))
    finally:
        args.objective = match


def _percent(value: Optional[int]) -> str:
    return "?" if value is None else f"{value / 100:.2f}%"


def _margin_text(value: Optional[int]) -> str:
    return "?" if value is None else f"{value:+d}"


def _disagreements(best_rows: list, margins: _Margins) -> dict[str, str]:
    """The marks of `analyze --match-score` where a move best for the margin is not best for the
    match: 'best for the match' on the match's best moves that are not the margin's, 'best for
    the round only' on the margin's that are not the match's. Empty when they agree."""
    match_best = {str(r.move) for r in best_rows}
    margin_best = {str(r.move) for r in margins.best}
    if margin_best <= match_best:
        return {}
    marks = {move: "best for the match" for move in match_best - margin_best}
    marks.update({move: "best for the round only" for move in margin_best - match_best})
    return marks


def _disagreement_text(rows: Any, best_rows: list, margins: _Margins) -> str:
    """The line under `analyze --match-score`'s values: whether the two objectives agree, and if
    not, the moves each prefers with the chance of the margin's best."""
    chance = {str(r.move): r.value for r in rows}
    margin_best = [str(r.move) for r in margins.best]
    match_best = [str(r.move) for r in best_rows]
    if set(margin_best) <= set(match_best):
        return "the round's margin agrees: its best moves win the match as often as any"
    lose = [m for m in margin_best if m not in match_best]
    top = max(lose, key=lambda m: -1 if chance.get(m) is None else chance[m])
    return (f"the objectives disagree: {', '.join(match_best)} {'wins' if len(match_best) == 1 else 'win'} the match "
            f"most often ({_percent(best_rows[0].value)}); {', '.join(lose)} "
            f"{'makes' if len(lose) == 1 else 'make'} the best round margin ({_margin_text(margins[top])}) but "
            f"{'wins' if len(lose) == 1 else 'win'} it less often ({_percent(chance[top])})"
            + ("" if margins.exact else " (depth-limited estimates)"))


def _lines_and_why(args, pos: Position, rows) -> tuple[Any, Any]:
    """`analyze --lines N` and `--why [MOVE]`: the lines (`search.lines.lines`) and the why
    (`explain`) of the values just searched (no search again but the lines' own)."""
    if args.lines is None and args.why is None:
        return None, None
    from ..search.lines import LinesError, explain, lines
    limit = Limit(tt_mb=args.tt_mb)
    try:
        found = None if args.lines is None else lines(pos, limit, count=args.lines, objective=args.objective,
                                                      searched=rows)
        why = None if args.why is None else explain(pos, args.why or None, None, limit, objective=args.objective,
                                                    searched=rows)
    except LinesError as exc:
        raise UsageError(str(exc)) from None
    return found, why


def _print_lines(found, objective: str) -> None:
    depth = "exact, each to the end of the round" if found.exact else f"estimates at depth {found.horizon}"
    print(f"\nthe best {len(found)} line{'s' if len(found) != 1 else ''} ({depth}):")
    for line in found:
        value = "?" if line.value is None else _signed(line.value, objective)
        end = f"  (ends with {plural(line.points, 'point')})" if line.points is not None else ""
        print(f"{line.rank:>2}. {str(line.move):<16}{value:>4}  {' '.join(map(str, line.pv))}{end}")
    if found.ties:
        print(f"ties: {found.ties}")


PICTURE_WARN_NODES = 500    # past this a tree picture is hard to read: a warning with the hint


def _picture_size(args, nodes: int, count: str = "") -> None:
    """Refuse a picture of more than --max-picture-nodes nodes and warn past PICTURE_WARN_NODES,
    with the count (`count`: its text when only a bound is known, before the tree is built) and
    how to draw less."""
    hint = "--mode pv or a smaller --depth draws less, a data file (.graphml, .json) keeps every node"
    count = count or f"{nodes:,}"
    if nodes > args.max_picture_nodes:
        raise UsageError(f"a picture of {count} nodes is more than --max-picture-nodes "
                         f"{args.max_picture_nodes:,} (thousands of nodes are unreadable and take Graphviz "
                         f"minutes): {hint}; a larger --max-picture-nodes draws it anyway")
    if nodes > PICTURE_WARN_NODES:
        print(f"scopa-solver: warning: a picture of {count} nodes is hard to read: {hint}", file=sys.stderr)


def tree(args) -> int:
    """The game tree below a position: a picture or data file by the suffix of -o, else an outline."""
    from ..tree import TreeOptions, TreeTooLargeError, node_link, to_networkx, tree_size, tree_text, write_tree
    pos = _position(args)
    picture = bool(args.output) and args.output.lower().endswith((".svg", ".png", ".pdf"))
    if args.output:
        check_writable(args.output, records_only=False)
    if picture and args.mode == "minimax":      # counted in under a second: refused before any search
        size = tree_size(pos, args.depth)
        nodes = size.distinct if args.merge else size.nodes
        if args.truncate and nodes > args.max_nodes:
            nodes, count = args.max_nodes, f"up to {args.max_nodes:,}"
        else:
            count = f"{nodes:,}" if size.exact else f"at least {nodes:,}"
        if nodes > args.max_picture_nodes:
            _picture_size(args, nodes, count)
    try:
        graph = to_networkx(pos, Limit(tt_mb=args.tt_mb),
                            TreeOptions(depth=args.depth, max_nodes=args.max_nodes, truncate=args.truncate,
                                        merge_transpositions=args.merge),
                            mode=args.mode, search=args.search, full_window=args.full_window,
                            objective=args.objective, progress=_progress(args))
    except TreeTooLargeError:
        raise
    except (ValueError, NotImplementedError) as exc:
        raise UsageError(str(exc)) from None
    if args.output:
        if picture:
            _picture_size(args, graph.number_of_nodes())
        options = dict(engine=args.engine) if args.engine and picture else {}
        replaced = os.path.exists(args.output)
        try:
            write_atomic(args.output, lambda tmp: write_tree(graph, tmp, **options))
        except (ValueError, RuntimeError, TypeError, OSError) as exc:
            raise UsageError(str(exc)) from None
        summary = dict(mode=args.mode, nodes=graph.number_of_nodes(), edges=graph.number_of_edges(),
                       output=args.output)
        if args.json:
            print_json(summary)
        else:
            print(f"{args.mode} tree: {plural(summary['nodes'], 'node')}, {plural(summary['edges'], 'edge')} "
                  f"-> {args.output}" + (" (it replaces the older file there)" if replaced else ""))
    elif args.json:
        print_json(node_link(graph))
    elif args.mode == "search":
        g = graph.graph
        print(f"search ({g['search']}): {plural(g['search_nodes'], 'node')} in {plural(g['passes'], 'pass', 'passes')}, "
              f"{plural(g['tt_hits'], 'table answer')}, {plural(g['cutoffs'], 'cut-off')}; value {g.get('value', '?')}")
        for n, d in graph.nodes(data=True):
            if d["kind"] == "pass":
                print(f"  pass {d['index']:>3}: {d['pass_kind']:<15} {d['move'] or '':<12} window "
                      f"({d['alpha']}, {d['beta']}) -> {d.get('value', '?')} ({d.get('bound', '?')}), "
                      f"{plural(d['nodes'], 'node')}")
    else:
        print(tree_text(graph))
    return 0


# -- imperfect information, bots, games -----------------------------------------------------------

def _print_view(view) -> None:
    """The picture of a view and its notation, before a suggestion or an equilibrium."""
    from ..play.display import show_view
    print(show_view(view))
    print(f"view of player {view.player}: {view.to_string()}")
    print()


def equilibrium_command(args) -> int:
    from ..imperfect.equilibrium import DEFAULT_TARGET, equilibrium
    view = _view(args)
    eq = equilibrium(view, Limit(time=args.time_limit, nodes=args.max_nodes, threads=args.threads),
                     max_iterations=args.max_iterations,
                     target=DEFAULT_TARGET if args.target is None else args.target, progress=_progress(args))
    if args.json:
        print_json(dict(eq.to_dict(), player=view.player))
        return 0
    _print_view(view)
    print(eq)
    print()
    print(f"equilibrium for player {view.player}: {eq.best} with probability {eq.strategy[eq.best]:.3f} "
          f"(value {eq.value:+.3f} round points)")
    return 0


def suggest_command(args) -> int:
    from ..imperfect.pimc import SUGGEST_SECONDS, suggest
    view = _view(args)
    args.objective = "value"
    _match_objective(args, view.rules)
    match = args.objective if isinstance(args.objective, Match) else None
    if match is not None and args.why is not None:
        raise UsageError("--why explains the round's margin: not with --match-score")
    limit = SUGGEST_SECONDS if args.time_limit is None else args.time_limit     # inf: no limit
    s = suggest(view, Limit(time=limit, nodes=args.max_nodes, threads=args.threads), worlds=args.worlds,
                seed=args.seed, progress=_progress(args), objective=args.objective)
    why = _fair_why(args, view, s)
    if args.json:
        data = dict(s.to_dict(), player=view.player, **_match_data(match, None if not s.moves else s.moves[0].mean))
        if why is not None:
            data.update(why=why.to_dict())
        print_json(data)
        return 0
    _print_view(view)
    print(s)
    print()
    rules = view.rules
    if match is not None:
        who = f"player {view.player}" if rules.players == 2 else f"player {view.player} (side {rules.sides[view.player]})"
        print(f"best for {who}: {s.best} (mean chance to win the match {s.moves[0].mean / 100:.2f}%, from "
              f"{'-'.join(map(str, match.score))} (side 0 first) to {match.target} points)")
    elif rules.players == 2:          # the sides are the players
        print(f"best for player {view.player}: {s.best} (mean round margin {s.moves[0].mean:+.3f})")
    else:
        what = "round margin" if rules.side_count == 2 else "paranoid value"
        print(f"best for player {view.player}: {s.best} (mean {what} of side {rules.sides[view.player]} "
              f"{s.moves[0].mean:+.3f})")
    if s.ties:
        print(f"ties: {s.ties}")
    if s.exact_worlds is not None:      # the worlds had a node budget (the family games)
        print(f"{s.exact_worlds:,} of {plural(s.worlds, 'world')} searched to the end of the round"
              + ("" if s.horizon is None else f", the others to a horizon of {s.horizon} plies "
                 "and scored there by the static evaluation (docs/family.md)"))
    repeat = _repeat_note(s, args)
    if repeat:
        print(repeat)
    if why is not None:
        print(f"\nwhy: {why}")
    return 0


def _fair_why(args, view, s) -> Any:
    """`suggest --why [MOVE]`: the fair why (`imperfect.fairwhy.explain_view`) over the worlds
    `why_worlds` gives; the suggestion's order gives the default moves."""
    if getattr(args, "why", None) is None:
        return None
    from ..imperfect.fairwhy import explain_view, why_worlds
    from ..search.lines import LinesError
    worlds, seed = why_worlds(s)
    try:
        return explain_view(view, args.why or None, None, Limit(nodes=args.max_nodes), worlds=worlds,
                            seed=seed, suggestion=s)
    except LinesError as exc:
        raise UsageError(str(exc)) from None


def unseen_command(args) -> int:
    """`View.where_unseen` of a view (or of a seat's view of a full position)."""
    if args.position is not None and "?" in args.position:
        if args.player is not None:
            raise UsageError("--player is for a full position; a view is already one player's")
        view = _view(args)
    else:
        pos = _position(args)
        seat = pos.to_move if args.player is None else args.player
        if args.player is None and pos.is_round_over():
            raise UsageError("the round is over: name the seat whose view to show with --player")
        if not 0 <= seat < pos.rules.players:
            raise UsageError(f"--player must be a seat from 0 to {pos.rules.players - 1}, not {seat}")
        view = pos.view(seat)
    model = None
    if args.model:
        from ..play.bots import DECISION_SECONDS
        from ..play.inference import InferenceBot
        model = InferenceBot(Limit(time=DECISION_SECONDS, threads=1), worlds=args.worlds, seed=args.seed)
    odds = view.where_unseen(model)
    if args.json:
        print_json(dict(odds.to_dict(), view=view.to_string()))
        return 0
    _print_view(view)
    print(odds)
    print()
    print(f"chances: {odds.describe()}")
    return 0


def _repeat_note(s, args) -> str:
    """What the seed repeats, said only as far as it is true: the same seed always gives the
    same worlds in the same order; how many were solved, and how deep, the time limit may decide."""
    if s.seed is None:          # every world, in the listed order, all solved
        return ""
    options = "" if args.max_nodes is None else f" --max-nodes {args.max_nodes}"
    deeper = "; the time limit also stopped the first world's deepening, so a rerun may search deeper"
    if s.stopped != "time":
        return (f"worlds drawn with seed {s.seed} (--seed {s.seed}{options} repeats this answer)" if not s.horizon_cut
                else f"worlds drawn with seed {s.seed} (--seed {s.seed} gives the same worlds{deeper})")
    if not s.sampled:
        return (f"{s.worlds:,} of the {s.total_worlds:,} worlds solved before the time limit, the first in the "
                f"order seed {s.seed} shuffles them in (--seed {s.seed} gives the same order; the time limit "
                f"decides how many{deeper if s.horizon_cut else ''})")
    if s.horizon_cut:
        return (f"the first {plural(s.worlds, 'world')} drawn with seed {s.seed} solved before the time limit (--seed "
                f"{s.seed} gives the same worlds in the same order{deeper})")
    return (f"the first {plural(s.worlds, 'world')} drawn with seed {s.seed} solved before the time limit "
            f"(--seed {s.seed} --worlds {s.worlds}{options} --time-limit inf repeats this answer)")


def arena_command(args) -> int:
    from ..play.arena import arena
    from ..play.record import GameRecord
    from ..play.recording import RecordingBot, rounds_from_log
    if args.save:
        check_writable(args.save, force=args.force)
    seed = _seed(args)
    rules = _rules(args)
    specs = [args.bot_a, args.bot_b] + list(args.more_bots or ())
    if len(specs) != rules.side_count:
        raise UsageError(f"{' '.join(rules.tokens()) or 'two-player Scopa'} has {rules.side_count} sides: "
                         f"give {rules.side_count} bots, one per side, not {len(specs)}")
    bots = [_make_bot(spec, args, seed) for spec in specs]
    _check_exact(bots, rules, args.allow_slow)
    names = [b.name for b in bots]
    for j, b in enumerate(bots):         # the same bot twice: A, B, ... tell them apart
        if names.count(names[j]) > 1:
            b.name = f"{names[j]} {chr(ord('A') + j)}"
    log: list = []
    players = bots if not args.save else [RecordingBot(b, log) for b in bots]
    common = dict(rounds=args.rounds, seed=seed, rules=rules, matches=args.matches, progress=_progress(args))
    result = arena(players[0], players[1], **common) if len(players) == 2 else arena(bots=players, **common)
    saved = kept = None
    if args.save:
        seats = tuple(bots[side].name for side in rules.sides)
        record = GameRecord(rules=rules, players=seats, kind="rounds", rounds=rounds_from_log(log),
                            meta=dict(program="scopa-solver arena", bots=specs, seed=seed,
                                      rounds=args.rounds, matches=args.matches))
        kept = keep_older(args.save) if os.path.exists(args.save) else None   # as play: never lost
        saved = save_record(record, args.save)
    if args.json:
        print_json(dict(result.to_dict(), seed=seed, saved=saved, kept=kept))
        return 0
    print(result)
    print(f"seed {seed}" + (f"; {plural(len(record.rounds), 'round')} saved to {saved}" if saved else "") +
          (f" (the older game record there is kept as {kept})" if kept else ""))
    return 0


def _play_bots(args, rules: Rules, seed: int) -> list:
    """The bot of every seat of `play` (None at the human's): one --bot spec for all, or one
    per seat other than yours in seat order (every seat's with --auto)."""
    n = rules.players
    seats = [p for p in range(n) if args.auto or p != args.seat]
    specs = args.bot
    if len(specs) not in (1, len(seats)):
        mine = "every seat (--auto)" if args.auto else "every seat but yours, in seat order"
        raise UsageError(f"--bot takes one bot for all, or one for {mine}: {len(seats)} with {n} players, "
                         f"not {len(specs)}")
    bots: list = [None] * n
    for k, p in enumerate(seats):
        bots[p] = _make_bot(specs[0] if len(specs) == 1 else specs[k], args, seed)
    return bots


def _play_names(args, bots: list) -> list[str]:
    """Every seat's name in the record: yours (--name), each bot's, told apart by its seat
    when several share a name (a review sums up by name)."""
    if len(bots) == 2 and not args.auto:           # two players: as it always was
        bot = bots[1 - args.seat]
        names = ["", ""]
        names[args.seat] = args.name
        names[1 - args.seat] = bot.name if bot.name != args.name else f"{bot.name} (bot)"
        return names
    names = [args.name if b is None else b.name for b in bots]
    return [f"{name} {p}" if b is not None and (names.count(name) > 1 or name == args.name) else name
            for p, (name, b) in enumerate(zip(names, bots))]


def play(args) -> int:
    from .. import __version__
    from ..play.record import GameRecord
    from ..play.terminal import Quit, play_game
    rules = _rules(args)
    n = rules.players
    if not 0 <= args.seat < n:
        raise UsageError(f"--seat must be 0 or 1, not {args.seat}" if n == 2 else
                         f"--seat must be 0 to {n - 1} ({n} players), not {args.seat}")
    if args.rounds is not None and args.rounds < 1:
        raise UsageError(f"--rounds must be 1 or more, not {args.rounds}")
    out = sys.stderr if args.json else sys.stdout
    if not stream_ok(out):
        raise UsageError(f"cannot play: standard {'error' if args.json else 'output'} is closed")
    if args.save and not args.no_save:
        check_writable(args.save, force=args.force)   # before the game, not after it
    existed = bool(args.save) and os.path.exists(args.save)
    seed = _seed(args)
    bots = _play_bots(args, rules, seed)
    _check_exact(bots, rules, args.allow_slow)
    names = _play_names(args, bots)
    human = None if args.auto else args.seat
    record = GameRecord(rules=rules, players=names, kind="match",
                        meta=dict(program=f"scopa-solver {__version__} play",
                                  bot=args.bot[0] if len(args.bot) == 1 else list(args.bot), human=human,
                                  seed=seed))

    def say(text: str) -> None:
        try:
            print(text, file=out, flush=True)
        except (OSError, ValueError):   # the terminal is gone: the record still gets saved
            pass

    _tolerant_stdin()
    status, stopped, error = 0, None, None
    try:
        play_game(bots, record=record, human=human, seed=seed, rounds=args.rounds, out=out)
    except Quit:
        stopped = "quit"
        say("game stopped")
    except KeyboardInterrupt:
        stopped, status = "interrupted", 130
        say("\ngame interrupted")
    except Exception as exc:   # saved first, then reported by main
        stopped, error = "error", exc
    path = None
    if not args.no_save and any(r.moves for r in record.rounds):
        kept, target = None, args.save
        if existed:                 # the older game is never lost
            try:
                kept = keep_older(args.save)
            except UsageError as exc:
                say(f"{exc}: the new game goes to a new file instead")
                target = None
        path = save_game(record, target, say)
        if path:
            older = f" (the older game record there is kept as {kept})" if path == args.save and kept else ""
            say(f"game record saved to {path}{older} (review it: scopa-solver review {path})")
    elif not args.no_save:
        say("no move was played: nothing to save")
    if error is not None:
        raise error
    if args.json:
        print_json(dict(record=path, players=list(record.players), totals=list(record.totals),
                        winner=record.winner, rounds=len(record.rounds), seed=seed, stopped=stopped))
    return status


def _tolerant_stdin() -> None:
    """A byte the terminal's encoding cannot read becomes U+FFFD (explained as not a card and
    asked again) instead of an error that ends the game."""
    stdin = sys.stdin
    if stream_ok(stdin) and hasattr(stdin, "reconfigure"):
        try:
            stdin.reconfigure(errors="replace")
        except (OSError, ValueError, AttributeError):
            pass


def review_command(args) -> int:
    from ..play.record import GameRecord
    from ..play.review import review
    record = GameRecord.load(args.game)
    if args.rules and _rules(args) != record.rules:
        raise UsageError(f"--rules {' '.join(args.rules)[:60]} disagrees with the record's own rules "
                         f"({' '.join(record.rules.tokens()) or 'two-player Scopa'})")
    known = {n for i in range(len(record.rounds)) for n in record.round_players(i)}
    for name in args.player or ():
        if name not in known:
            raise UsageError(f"no player {name[:40]!r} in the record; its players: {', '.join(sorted(known))}")
    for r in args.round or ():
        if not 1 <= r <= len(record.rounds):
            raise UsageError(f"--round {r}: the record has rounds 1 to {len(record.rounds)}")
    if args.learn and (not args.player or len(args.player) != 1 or args.no_fair):
        raise UsageError("--learn needs one --player NAME and the fair review (not --no-fair)")
    from ..play.review import FairReview
    if args.match and record.kind != "match":
        raise UsageError("--match judges by the chance to win the match: the record holds independent rounds, "
                         "not a match")
    if args.match and args.equilibrium:
        raise UsageError("--equilibrium judges the round's margin: not with --match")
    result = review(record, Limit(nodes=args.max_nodes, time=args.time_limit, threads=args.threads),
                    fair=None if args.no_fair else FairReview(args.worlds, args.seed,
                                                              Limit(time=args.fair_time_limit, threads=args.threads)),
                    equilibrium=Limit(time=args.equilibrium_time_limit, threads=args.threads) if args.equilibrium
                    else False, rounds=args.round, players=args.player, progress=_progress(args), match=args.match)
    if args.learn:
        return _learn(args, result)
    if args.json:
        print_json(dict(result.to_dict(), game=os.fspath(args.game)))
        return 0
    print(result.format(all_moves=not args.mistakes))
    return 0


def _learn(args, result) -> int:
    """`review --learn`: the player's fair mistakes, one by one, from the player's view: the
    human types a play (as in `play`), is told whether it is as good as the best fair move, then
    shown the best (--json: the lessons listed, nothing asked)."""
    from ..play.display import show_view
    from ..play.learn import lessons
    from ..play.terminal import Quit, ask_move, read_line
    found = lessons(result, args.player[0])
    if args.json:
        print_json(dict(game=os.fspath(args.game), player=args.player[0], worlds=result.worlds,
                        seed=result.seed, lessons=[x.to_dict() for x in found]))
        return 0
    if not found:
        print(f"{args.player[0]} made no fair mistake (? or ??) in the moves reviewed: nothing to learn")
        return 0
    print(f"{plural(len(found), 'fair mistake')} of {args.player[0]} to learn from (fair values: PIMC with "
          f"{plural(result.worlds, 'world')}, seed {result.seed}); 'quit' stops")
    good = 0
    try:
        for k, lesson in enumerate(found, 1):
            print(f"\n{k}/{len(found)}  {lesson.question()}")
            print(show_view(lesson.view))
            pos = next(d.position for d in result.decisions
                       if (d.round, d.number) == (lesson.round, lesson.number))
            move = ask_move(pos, lambda prompt: read_line(prompt), print)   # the player's own hand only
            answer = lesson.judge(move)
            good += answer.good
            print(answer.text(lesson))
    except (Quit, EOFError):
        print("stopped")
    print(f"found {good} of {len(found)}")
    return 0


def annotate_command(args) -> int:
    """Put a comment on a move of a record (`GameRecord.comment`), written to -o OUT or back to
    the record; an existing record at the target is first kept as TARGET-1.json, ..."""
    from ..play.record import GameRecord
    record = GameRecord.load(args.game)
    record.comment(args.round, args.move, args.comment)
    target = args.output or args.game
    check_writable(target)
    kept = keep_older(target) if os.path.exists(target) else None
    path = save_record(record, target)
    if args.json:
        print_json(dict(record=path, kept=kept, round=args.round, move=args.move,
                        comment=record.rounds[args.round - 1].comments.get(args.move)))
        return 0
    what = "removed the comment on" if args.move not in record.rounds[args.round - 1].comments else "commented"
    print(f"{what} round {args.round}, move {args.move}; saved to {path}"
          + (f" (the older record there is kept as {kept})" if kept else ""))
    return 0


def serve(args) -> int:
    """The analysis board in the browser, until Ctrl-C."""
    try:
        import fastapi  # noqa: F401  (checked here: the board imports them only when it starts)
        import uvicorn  # noqa: F401
        from ..web import serve as serve_board
    except ImportError:
        raise UsageError("the board needs the web extra: pip install 'scopa-solver[web]'") from None
    serve_board(port=args.port, host=args.host, open_browser=args.open)
    return 0


def perft_command(args) -> int:
    """The legal play sequences 1 to --depth plays deep from the position (docs/benchmarks.md#perft)."""
    from ..bench import perft
    pos = _position(args)
    counts = []
    for depth in range(1, args.depth + 1):
        counts.append(perft(pos, depth))
        if not args.json:
            print(f"D{depth} {counts[-1]}", flush=True)
    if args.json:
        print_json(dict(position=pos.to_string(), counts=counts))
    return 0


COMMANDS = {"deal": deal, "show": show, "solve": solve_command, "analyze": analyze_command, "tree": tree,
            "suggest": suggest_command, "unseen": unseen_command, "equilibrium": equilibrium_command,
            "arena": arena_command, "play": play, "review": review_command, "serve": serve, "batch": batch_command,
            "bench": bench_command, "perft": perft_command, "puzzle": puzzle_command, "annotate": annotate_command}
