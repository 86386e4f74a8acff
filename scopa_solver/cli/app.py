"""The command line: ``scopa-solver COMMAND ...`` (also ``python -m scopa_solver``).

Exit codes: 0 on success, 2 with a one-line message on bad input, 130 on Ctrl-C."""
from __future__ import annotations

import argparse
import json
import random
import sys
from typing import Optional, Sequence

from ..play.display import show_position, show_score
from ..errors import ScopaError
from ..core.position import Position
from ..core.rules import Rules
from ..search.solver import analyze, solve

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
    while pos.deals_left > deals_left or sum(pos.hand_sizes()) != 6:
        pos = pos.play(rng.choice(pos.legal_moves()))
    return pos


def _rules(args) -> Rules:
    tokens = args.rules or []
    for token in tokens:
        if "/" in token or " " in token.strip():
            raise UsageError(f"--rules takes rule options like napola or target=21, not {token!r}: "
                             "put --rules after the position")
    return Rules.from_tokens(tokens)


def _position(text: Optional[str], args) -> Position:
    if text is None or text == "example":
        return random_position(EXAMPLE_SEED, 1, _rules(args))
    return _with_rules(Position.from_string(text), args)


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
                         f"--rules {' '.join(args.rules)}")
    return type(obj).from_string(f"{obj.to_string()} {' '.join(rules.tokens())}")


def cmd_deal(args) -> int:
    pos = random_position(args.seed, args.deals_left, _rules(args))
    if args.json:
        print(json.dumps(dict(_position_dict(pos), seed=args.seed)))
        return 0
    print(pos.to_string())
    if args.show:
        print(show_position(pos))
    return 0


def _position_dict(pos: Position) -> dict:
    from ..core.cards import cards_text
    return dict(position=pos.to_string(), hands=[cards_text(h) for h in pos.hands], table=cards_text(pos.table),
                piles=[cards_text(p) for p in pos.piles], stock=[str(c) for c in pos.stock],
                scopas=list(pos.scopas), to_move=pos.to_move, dealer=pos.dealer,
                last_capturer=pos.last_capturer, deals_left=pos.deals_left, rules=pos.rules.tokens(),
                legal_moves=[str(m) for m in pos.legal_moves()], round_over=pos.is_round_over())


def _score_dict(score, names=("player 0", "player 1")) -> Optional[dict]:
    """A RoundScore as JSON: each player's figures and who won each point (0, 1 or null)."""
    if score is None:
        return None
    players = [dict(name=n, cards=x.cards, coins=x.coins, settebello=x.settebello, primiera=x.primiera,
                    scopas=x.scopas, napola=x.napola, re_bello=x.re_bello, points=x.points)
               for n, x in zip(names, score.players)]
    return dict(players=players, total=list(score.total), carte=score.carte, denari=score.denari,
                settebello=score.settebello, primiera=score.primiera, re_bello=score.re_bello)


def cmd_show(args) -> int:
    pos = _position(args.position, args)
    if args.json:
        print(json.dumps(_position_dict(pos)))
        return 0
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
            score=_score_dict(result.outcome), nodes=result.nodes, seconds=result.seconds)))
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
    if not rows:
        print("\nthe round is over: no moves")
        return 0
    best = rows[0].value
    print(f"\n{'move':<20}{'value':>6}{'lost':>6}")
    for r in rows:
        value = f"{r.value:+d}" if r.value is not None else f"{r.lower}..{r.upper}"
        lost = "" if r.value is None or best is None else (f"{best - r.value}" if best != r.value else "-")
        print(f"{str(r.move):<20}{value:>6}{lost:>6}")
    if best is not None:
        n = sum(1 for r in rows if r.value == best)
        print(f"\nvalue for player {pos.to_move}: {best:+d} ({n} best move{'s' if n > 1 else ''} of {len(rows)})")
    return 0


def cmd_tree(args) -> int:
    """The game tree below a position: a picture or data file by the suffix of -o, else an outline."""
    from ..tree import TreeTooLargeError, node_link, to_networkx, tree_text, write_tree
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
        picture = args.output.lower().endswith((".svg", ".png", ".pdf"))
        options = dict(engine=args.engine) if args.engine and picture else {}
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


# -- imperfect information, bots, games -------------------------------------------------------------

def make_bot(spec: str, *, worlds: int = 100, seed: Optional[int] = None, threads: Optional[int] = None):
    """A bot from its command-line name: random, greedy, pimc (pimc:N for N worlds), model,
    infer, oracle, or EARLY/LATE (see `arena.make_bot`)."""
    from ..play.arena import make_bot as arena_bot
    try:
        return arena_bot(spec, worlds=worlds, seed=seed, threads=threads)
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def _view(text: Optional[str], args):
    """A view from view text, or the side to move's view of a full position."""
    from ..imperfect.view import View
    if text is None or text == "example":
        pos = _position(text, args)
        return pos.view(pos.to_move)
    if "?" in text:
        return _with_rules(View.from_string(text), args)
    pos = _with_rules(Position.from_string(text), args)
    if pos.is_round_over():
        raise UsageError("the round is over: there is no move to suggest")
    return pos.view(pos.to_move)


def _finite(x):
    import math
    if isinstance(x, float) and not math.isfinite(x):
        return None
    if isinstance(x, (list, tuple)):
        return [_finite(v) for v in x]
    return x


def cmd_suggest(args) -> int:
    from ..play.display import show_view
    from ..imperfect.pimc import suggest
    view = _view(args.position, args)
    s = suggest(view, worlds=args.worlds, seed=args.seed, threads=args.threads, time_limit=args.time_limit,
                progress=None if not args.json else False)
    if args.json:
        print(json.dumps(dict(
            view=view.to_string(), player=view.player, best=str(s.best), exact=s.exact, worlds=s.worlds,
            total_worlds=s.total_worlds, seed=s.seed, seconds=s.seconds, nodes=s.nodes, stopped=s.stopped,
            moves=[dict(move=str(m.move), mean=m.mean, std=m.std, stderr=m.stderr, optimal=m.optimal,
                        positive=m.positive, min=m.min, max=m.max, delta=m.delta, delta_stderr=m.delta_stderr)
                   for m in s.moves])))
        return 0
    print(show_view(view))
    print(f"view of player {view.player}: {view.to_string()}")
    print()
    print(s)
    print()
    print(f"best for player {view.player}: {s.best} (mean round margin {s.moves[0].mean:+.3f})")
    if s.seed is not None:
        print(f"worlds drawn with seed {s.seed} (--seed {s.seed} repeats this answer)")
    return 0


def _benchmarks_dir():
    """benchmarks/ of the source repository (beside the package folder)."""
    from pathlib import Path
    return Path(__file__).resolve().parents[2] / "benchmarks"


def _benchmark(name: str):
    """benchmarks/bench_NAME.py of the source repository, imported by path."""
    import importlib.util
    path = _benchmarks_dir() / f"bench_{name}.py"
    if not path.is_file():
        raise UsageError(f"the benchmarks live in the source repository (benchmarks/bench_{name}.py beside "
                         "scopa_solver/), which this installation does not include: run it from a checkout "
                         "(pip install -e .)")
    spec = importlib.util.spec_from_file_location(f"scopa_bench_{name}", path)
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


def cmd_bench(args) -> int:
    from ..progress import progress_bar
    suites = ("search", "movegen", "pimc") if args.suite == "all" else (args.suite,)
    for n in ("positions", "rounds", "repeats", "cases"):
        value = getattr(args, n)
        if value is not None and value < 1:
            raise UsageError(f"--{n} must be 1 or more, not {value}")
    modules = {name: _benchmark(name) for name in suites}
    results, texts = {}, []
    for name in suites:
        mod = modules[name]
        if name == "search":
            out = mod.run(args.positions or (10 if args.quick else 50), args.seed or 2026, args.quick,
                          progress=sys.stderr.isatty() and not args.json)
            text = mod.report(out)
        elif name == "movegen":
            out = mod.run(rounds=args.rounds or (200 if args.quick else mod.DEFAULT_ROUNDS), seed=args.seed or 1,
                          repeats=args.repeats or (3 if args.quick else mod.DEFAULT_REPEATS),
                          kernel_factor=args.kernel_factor or (20 if args.quick else mod.DEFAULT_KERNEL_FACTOR),
                          rules=_rules(args))
            text = mod.format_table(out)
        else:
            only = args.only or list(mod.BENCHMARKS)
            out = {}
            bar = progress_bar(len(only), "pimc benchmarks", None if not args.json else False, unit="bench")
            try:
                for part in only:
                    out.update(mod.run(cases=args.cases or (2 if args.quick else None), seed=args.seed or 1,
                                       threads=args.threads, only=[part]))
                    bar.update(1)
            finally:
                bar.close()
            text = mod._report(out) if hasattr(mod, "_report") else json.dumps(out, indent=2)
        results[name] = out
        texts.append(f"== {name} ==\n{text}")
    if args.json:
        print(json.dumps(results, default=str))
    else:
        print("\n\n".join(texts))
    return 0


def cmd_arena(args) -> int:
    from ..play.arena import arena
    from ..play.record import GameRecord, RecordingBot, rounds_from_log
    seed = args.seed if args.seed is not None else random.SystemRandom().getrandbits(32)
    bots = [make_bot(spec, worlds=args.worlds, seed=seed, threads=args.threads) for spec in (args.bot_a, args.bot_b)]
    if bots[0].name == bots[1].name:
        bots[0].name, bots[1].name = f"{bots[0].name} A", f"{bots[1].name} B"
    log: list = []
    players = bots if not args.save else [RecordingBot(b, log) for b in bots]
    result = arena(players[0], players[1], rounds=args.rounds, seed=seed, rules=_rules(args),
                   matches=args.matches, progress=None if not args.json else False)
    saved = None
    if args.save:
        record = GameRecord(rules=_rules(args), players=(bots[0].name, bots[1].name), kind="rounds",
                            rounds=rounds_from_log(log),
                            meta=dict(program="scopa-solver arena", bots=[args.bot_a, args.bot_b], seed=seed,
                                      rounds=args.rounds, matches=args.matches))
        saved = record.save(args.save)
        saved_rounds = len(record.rounds)
    if args.json:
        print(json.dumps(dict(
            bot_a=result.bot_a, bot_b=result.bot_b, deals=result.deals, rounds_played=result.rounds_played,
            mean=_finite(result.mean), stderr=_finite(result.stderr), ci95=_finite(list(result.ci95)),
            a_points=_finite(result.a_points), b_points=_finite(result.b_points),
            round_wins=_finite(result.round_wins), round_ties=_finite(result.round_ties),
            matches=result.matches, match_win_rate=result.match_win_rate,
            decisions=list(result.decisions), bot_seconds=list(result.bot_seconds), seconds=result.seconds,
            margins=result.margins, seed=seed, saved=saved)))
        return 0
    print(result)
    print(f"seed {seed}" + (f"; {saved_rounds} rounds saved to {saved}" if saved else ""))
    return 0


def cmd_play(args) -> int:
    from datetime import datetime
    from .. import __version__
    from ..play.record import GameRecord
    from ..play.terminal import Quit, play_game
    if args.seat not in (0, 1):
        raise UsageError(f"--seat must be 0 or 1, not {args.seat}")
    if args.rounds is not None and args.rounds < 1:
        raise UsageError(f"--rounds must be 1 or more, not {args.rounds}")
    seed = args.seed if args.seed is not None else random.SystemRandom().getrandbits(32)
    bot = make_bot(args.bot, worlds=args.worlds, seed=seed, threads=args.threads)
    names = ["", ""]
    names[args.seat] = args.name
    names[1 - args.seat] = bot.name if bot.name != args.name else f"{bot.name} (bot)"
    record = GameRecord(rules=_rules(args), players=names, kind="match",
                        meta=dict(program=f"scopa-solver {__version__} play", bot=args.bot, human=args.seat,
                                  seed=seed))
    out = sys.stderr if args.json else sys.stdout
    status, stopped = 0, None
    try:
        play_game(bot, record=record, human=args.seat, seed=seed, rounds=args.rounds, out=out)
    except Quit:
        stopped = "quit"
        print("game stopped", file=out)
    except KeyboardInterrupt:
        stopped = "interrupted"
        status = 130
        print("\ngame interrupted", file=out)
    path = None
    if not args.no_save and any(r.moves for r in record.rounds):
        path = record.save(args.save or f"scopa-game-{datetime.now():%Y%m%d-%H%M%S}.json")
        print(f"game record saved to {path} (review it: scopa-solver review {path})", file=out)
    elif not args.no_save:
        print("no move was played: nothing to save", file=out)
    if args.json:
        print(json.dumps(dict(record=path, players=list(record.players), totals=list(record.totals),
                              winner=record.winner, rounds=len(record.rounds), seed=seed, stopped=stopped)))
    return status


def cmd_review(args) -> int:
    from ..play.record import GameRecord
    from ..play.review import review
    record = GameRecord.load(args.game)
    known = {n for i in range(len(record.rounds)) for n in record.round_players(i)}
    for name in args.player or ():
        if name not in known:
            raise UsageError(f"no player {name!r} in the record; its players: {', '.join(sorted(known))}")
    for r in args.round or ():
        if not 1 <= r <= len(record.rounds):
            raise UsageError(f"--round {r}: the record has rounds 1 to {len(record.rounds)}")
    result = review(record, worlds=None if args.no_fair else args.worlds, seed=args.seed, threads=args.threads,
                    rounds=args.round, players=args.player, progress=None if not args.json else False)
    if args.json:
        print(json.dumps(dict(result.to_dict(), game=args.game)))
        return 0
    print(result.format(all_moves=not args.mistakes))
    return 0


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected 1 or more, not {value}")
    return value


def _worlds_arg(text: str):
    return "all" if text == "all" else _positive_int(text)


def _add_game_commands(sub, common) -> None:
    """suggest, bench, arena, play, review."""
    p = common(sub.add_parser("suggest", help="imperfect-information suggestion (PIMC) from a player's view"))
    p.add_argument("--worlds", type=_worlds_arg, default=None,
                   help="worlds to solve: N (all of them when there are at most N) or 'all' "
                        "(default: all up to 2000, else 1000 sampled)")
    p.add_argument("--seed", type=int, default=None, help="seed of the sampled worlds")
    p.add_argument("--threads", type=int, default=None, help="workers (default: every core)")
    p.add_argument("--time-limit", type=float, default=None, help="seconds")
    p.set_defaults(func=cmd_suggest)

    p = common(sub.add_parser("bench", help="run the benchmark suites and print their tables"), position=False)
    p.add_argument("suite", nargs="?", choices=("search", "movegen", "pimc", "all"), default="all")
    p.add_argument("--quick", action="store_true",
                   help="smaller suites: 10 search positions per group, 200 movegen deals, 2 pimc cases")
    p.add_argument("--seed", type=int, default=None)
    p.add_argument("--positions", type=int, default=None, help="search: positions per group (default 50)")
    p.add_argument("--rounds", type=int, default=None, help="movegen: deals per repeat (default 2000)")
    p.add_argument("--repeats", type=int, default=None, help="movegen: runs per engine (default 5)")
    p.add_argument("--kernel-factor", type=int, default=None, help="movegen: kernel rounds per deal (default 100)")
    p.add_argument("--cases", type=int, default=None, help="pimc: cases per benchmark")
    p.add_argument("--only", nargs="+", choices=("last_but_one", "first_play", "duplicate_deal"), default=None,
                   help="pimc: which benchmarks")
    p.add_argument("--threads", type=int, default=None, help="pimc: workers (default: every core)")
    p.set_defaults(func=cmd_bench)

    p = common(sub.add_parser("arena", help="bot against bot, duplicate deals"), position=False)
    p.add_argument("bot_a", metavar="BOT_A", help="random, greedy, greedy:NAME=W,..., pimc, pimc:N, model, model:T, infer, infer:T, oracle, or EARLY/LATE "
                   "(one bot until the last three deals, the other in them: greedy/pimc)")
    p.add_argument("bot_b", metavar="BOT_B")
    p.add_argument("--rounds", type=int, default=10, help="duplicate deals, each played twice (default 10)")
    p.add_argument("--matches", type=int, default=0, help="also this many duplicate pairs of matches")
    p.add_argument("--seed", type=int, default=None)
    p.add_argument("--worlds", type=_positive_int, default=100, help="worlds per PIMC decision (default 100)")
    p.add_argument("--threads", type=int, default=None, help="PIMC workers (default: every core)")
    p.add_argument("--save", metavar="PATH", default=None, help="save every round as a game record")
    p.set_defaults(func=cmd_arena)

    p = common(sub.add_parser("play", help="play a match against a bot in the terminal"), position=False)
    p.add_argument("--bot", default="pimc", help="random, greedy, pimc (default), pimc:N, model, model:T, infer, infer:T, oracle")
    p.add_argument("--seed", type=int, default=None, help="seed of the deals (and the bot)")
    p.add_argument("--worlds", type=_positive_int, default=100, help="worlds per PIMC decision (default 100)")
    p.add_argument("--threads", type=int, default=None, help="PIMC workers (default: every core)")
    p.add_argument("--seat", type=int, default=0, help="your seat, 0 (default: you play first) or 1")
    p.add_argument("--name", default="you", help="your name in the record (default 'you')")
    p.add_argument("--rounds", type=int, default=None, help="stop after this many rounds (default: the whole match)")
    p.add_argument("--save", metavar="PATH", default=None,
                   help="where to save the game record (default scopa-game-DATE-TIME.json here)")
    p.add_argument("--no-save", action="store_true", help="do not save the game record")
    p.set_defaults(func=cmd_play)

    p = common(sub.add_parser("review", help="every decision of a saved game against the solver"), position=False)
    p.add_argument("game", metavar="GAME", help="a game record (JSON), from play or arena --save")
    p.add_argument("--worlds", type=_positive_int, default=50, help="PIMC worlds per decision for the fair review (default 50)")
    p.add_argument("--seed", type=int, default=0, help="seed of the PIMC worlds (default 0)")
    p.add_argument("--threads", type=int, default=None, help="PIMC workers (default: every core)")
    p.add_argument("--no-fair", action="store_true", help="hindsight only (no PIMC)")
    p.add_argument("--round", type=int, action="append", default=None, help="review only this round (repeatable)")
    p.add_argument("--player", action="append", default=None, help="review only this player (repeatable)")
    p.add_argument("--mistakes", action="store_true", help="list only the marked moves")
    p.set_defaults(func=cmd_review)


class _Parser(argparse.ArgumentParser):
    """argparse with the project's one-line error message (exit code 2)."""

    def error(self, message: str):  # type: ignore[override]
        self.exit(2, f"scopa-solver: error: {message} (see: {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="scopa-solver", description="Exact Scopa solver and analyzer.")
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
    _add_game_commands(sub, common)
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help (0) or a usage error (2, message printed)
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
    try:
        return args.func(args)
    except (ScopaError, ValueError) as exc:  # bad input, from us or a library check
        print(f"scopa-solver: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("scopa-solver: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # output piped into a program that stopped reading (| head)
        try:
            import os
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except (OSError, ValueError, AttributeError):
            pass
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
