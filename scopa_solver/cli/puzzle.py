"""The puzzle command: a shipped puzzle (or one from a game record) to solve in the terminal.

``scopa-solver puzzle`` shows a random puzzle (``--game``, ``--tag``, ``--seed``) and asks for the
move (typed as in ``play``: a card, or a whole move), then says whether it was the one and why
(the best line against the second-best's); ``--answer`` shows the answer at once, ``--json`` the
puzzle as data, ``--list`` every puzzle of the selection. ``--from RECORD.json`` takes the
puzzles of a played game (``--player NAME``: one player's decisions) instead of the shipped ones."""
from __future__ import annotations

import random
from typing import Any, Optional

from ..core.position import Move, Position
from ..errors import PuzzleError
from ..play.display import show_position
from ..play.puzzles import Puzzle, Solution, puzzles_from_record, shipped, solution
from ..search.solver import analyze
from .output import print_json


def _selection(args: Any) -> list[Puzzle]:
    if args.player is not None and args.record is None:
        raise PuzzleError("--player picks a player of a game record: give the record with --from")
    if args.record is None:
        puzzles = shipped(args.game, args.tag)
        what = "shipped"
    else:
        from ..play.record import GameRecord
        puzzles = puzzles_from_record(GameRecord.load(args.record), args.player)
        puzzles = [p for p in puzzles if (args.game is None or p.game == args.game)
                   and (args.tag is None or args.tag in p.tags)]
        what = "in the record"
    if not puzzles:
        some = " of " + " and ".join(x for x in (f"game {args.game}" if args.game else "",
                                                 f"tag {args.tag}" if args.tag else "") if x)
        raise PuzzleError(f"no puzzle {what}{some if args.game or args.tag else ''}")
    return puzzles


def _unit(pos: Position) -> str:
    """What the values count, for the player to move."""
    rules, p = pos.rules, pos.to_move
    side = rules.sides[p]
    if rules.players == 2:
        return f"round points: player {p}'s minus player {1 - p}'s"
    if rules.side_count == 2:
        return f"round points: side {side}'s minus the other side's"
    return f"round points: player {p}'s minus the best other player's"


def _line(moves: tuple[Move, ...], sweeps: tuple[int, ...]) -> str:
    return " ".join(f"{m} (scopa)" if k in sweeps else str(m) for k, m in enumerate(moves))


def _question(p: Puzzle) -> str:
    pos = p.to_position()
    lines = [f"Puzzle: {pos.rules.name}" + (f", from {p.where}" if p.where else "")]
    lines.append(show_position(pos))
    lines.append(f"Player {pos.to_move} to move: one move keeps {p.value:+d}, every other gets {p.second:+d} or less "
                 f"({_unit(pos)}).")
    if not p.fair:
        hidden = "the other hands and the stock" if pos.stock else "the other hands"
        lines.append(f"All cards are shown: player {pos.to_move} could not see {hidden}.")
    return "\n".join(lines)


def _answer(p: Puzzle, s: Solution) -> str:
    lines = [f"answer: {p.best} keeps {p.value:+d}; the next best, {s.second_move}, gets {p.second:+d} "
             f"({p.loss} point{'s' if p.loss != 1 else ''} less)"]
    lines.append("what decides it: " + (", ".join(t.replace("-", " ") for t in p.tags) or "the points overall"))
    lines.append(f"  best line:    {_line(s.best_line, s.scopas[0])}")
    lines.append(f"  after {s.second_move}:{' ' * max(1, 7 - len(str(s.second_move)))}{_line(s.second_line, s.scopas[1])}")
    if p.played is not None:
        lines.append(f"in the game: {p.played} was played: " + ("found it" if p.found else "missed it"))
    return "\n".join(lines)


def _data(p: Puzzle, s: Optional[Solution]) -> dict[str, Any]:
    out = dict(p.to_dict(), name=p.to_position().rules.name, fair=p.fair)
    if s is not None:
        out.update(best_line=[str(m) for m in s.best_line], second_move=str(s.second_move),
                   second_line=[str(m) for m in s.second_line], best_line_scopas=list(s.scopas[0]),
                   second_line_scopas=list(s.scopas[1]))
    return out


def _listing(k: int, p: Puzzle) -> str:
    where = p.where or f"{p.game} {k}"
    played = "" if p.played is None else f", played {p.played}: {'found' if p.found else 'missed'}"
    return f"{where}: {p.best} keeps {p.value:+d} (next {p.second:+d}){played}; {', '.join(p.tags)}"


def puzzle_command(args: Any) -> int:
    from ..play.terminal import Quit, ask_move, read_line
    puzzles = _selection(args)
    if args.list:
        if args.json:
            print_json({"count": len(puzzles), "puzzles": [p.to_dict() for p in puzzles]})
        else:
            print("\n".join(_listing(k, p) for k, p in enumerate(puzzles, 1)))
        return 0
    p = random.Random(args.seed).choice(puzzles)
    if args.json:
        print_json(_data(p, solution(p)))
        return 0
    print(_question(p))
    if not args.answer:
        pos = p.to_position()
        try:
            move = ask_move(pos, read_line, print)
        except (Quit, EOFError):
            print()
            print("(no move given)")
        else:
            if str(move) == p.best:
                print(f"right: {move} keeps {p.value:+d}")
            else:
                value = next(r.value for r in analyze(pos) if r.move == move)
                print(f"not the one: {move} gets {value:+d} ({p.value - value} less)")   # type: ignore[operator]
    print(_answer(p, solution(p)))
    return 0
