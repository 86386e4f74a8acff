"""Puzzles: positions where one move keeps the exact value and every other loses a point or more.

A `Puzzle` is a small frozen value: the position (one line of notation), its one best move, that
move's exact value, the second-best value, the tags saying what decides it and the game. The
finder (`find_puzzles`) plays random rounds of a game (mostly the greedy bot, sometimes a random
move) to the last deal, where the exact search takes milliseconds, and keeps the positions where
`analyze` finds exactly one move of the best value, every other at least `gap` points below.
`verify` solves a puzzle again; `tag` says what decides it by playing out the best move's line
and the second-best move's (each side then playing perfectly: `solution`) and comparing how the
round ends per category:

- ``sweep``: the best line makes more scopas for the mover's side (a scopa set up or made);
- ``scopa-denied``: the second-best line lets the other side sweep more;
- ``settebello``, ``primiera``, ``coins``, ``cards`` (and ``re-bello``, ``napola`` when those
  rules are on): the best line does better in that point.

Values are `analyze`'s: the mover's side's round margin (with three or more sides, as in
3-player Scopa, the paranoid value: its points minus the best other side's, every other player
playing against it). A puzzle shows every card: in two-player Scopa the last deal is what the
player to move knows anyway (the unseen cards are the opponent's hand: `Puzzle.fair`); in the
other games it is the open-card position, labelled so.

The shipped set (`shipped()`, package data: `puzzle_sets/GAME.jsonl`) holds puzzles of every
game of the family (`GAMES`), rebuilt by ``python -m scopa_solver.play.puzzles DIR`` (seeded,
deterministic: `make_set`). `puzzles_from_record` finds the puzzles of a played game: the
decisions where the player to move had one good move, and whether they found it.

>>> from scopa_solver import Position
>>> pos = Position(hands=("7d 2c", "3b 4c"), table="3s 4s", dealer=1)
>>> p = puzzle_at(pos)
>>> p.best, p.value, p.second, p.tags
('7dx3s+4s', 5, -4, ('sweep', 'settebello', 'primiera', 'coins', 'cards'))
>>> verify(p), Puzzle.from_dict(p.to_dict()) == p
(True, True)
"""
from __future__ import annotations

import json
import random
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Iterator, Optional, Sequence, Union

from ..core.position import Move, Position, RoundScore
from ..core.rules import Rules
from ..errors import PuzzleError, excerpt
from ..kernel import Limit
from ..search.solver import Analysis, analyze

__all__ = ["Puzzle", "Solution", "GAMES", "TAGS", "find_puzzles", "puzzle_at", "verify", "tag", "solution",
           "shipped", "puzzles_from_record", "game_name", "make_set"]

GAMES: dict[str, Rules] = {
    "scopa": Rules(),
    "scopa-3": Rules(players=3),
    "scopa-4": Rules(players=4),
    "scopone": Rules(players=4, game="scopone"),
    "scientifico": Rules(players=4, game="scientifico"),
    "scopa-6": Rules(players=6),
    "scopa-15": Rules(capture="fifteen"),
}
"""The games of the family the shipped set covers, by the name `--game` takes."""

TAGS = ("sweep", "scopa-denied", "settebello", "primiera", "coins", "cards", "re-bello", "napola")
"""What can decide a puzzle (see the module docstring)."""

PUZZLE_NODES = 50_000
"""The finder's exact search of one position: one that needs more nodes is passed over (so that
every puzzle solves again in milliseconds)."""

_MAX_CARDS = {"scopone": 16, "scientifico": 16}     # cards in play: no stock, so a bound of its own
_EXACT = Limit(threads=1)
SET_FOLDER = Path(__file__).with_name("puzzle_sets")


def game_name(rules: Rules) -> str:
    """The name of `rules`' game in `GAMES` (its scoring options aside), else `rules.name`."""
    family = (rules.players, rules.game, rules.partnerships, rules.capture)
    for name, r in GAMES.items():
        if (r.players, r.game, r.partnerships, r.capture) == family:
            return name
    return rules.name


@dataclass(frozen=True)
class Puzzle:
    """One puzzle: `position` (notation) where `best` alone keeps `value` (for the side to move)
    and every other move gets `second` or less; `tags` what decides it (`TAGS`), `game` its
    name (`GAMES`). From a played game (`puzzles_from_record`): `played`, the move played there,
    and `where` ("round 2, move 13, Ann")."""

    position: str
    best: str
    value: int
    second: int
    tags: tuple[str, ...] = ()
    game: str = "scopa"
    played: Optional[str] = None
    where: Optional[str] = None

    def __post_init__(self) -> None:
        for name in ("position", "best", "game"):
            if not isinstance(getattr(self, name), str):
                raise PuzzleError(f"a puzzle's {name} is text, not {excerpt(getattr(self, name))}")
        for name in ("value", "second"):
            v = getattr(self, name)
            if not isinstance(v, int) or isinstance(v, bool):
                raise PuzzleError(f"a puzzle's {name} is a whole number, not {excerpt(v)}")
        if self.second >= self.value:
            raise PuzzleError(f"a puzzle's second-best value ({self.second}) is below its value ({self.value})")
        if isinstance(self.tags, str) or not all(isinstance(t, str) for t in self.tags):
            raise PuzzleError(f"a puzzle's tags are a list of text, not {excerpt(self.tags)}")
        object.__setattr__(self, "tags", tuple(self.tags))
        for name in ("played", "where"):
            if getattr(self, name) is not None and not isinstance(getattr(self, name), str):
                raise PuzzleError(f"a puzzle's {name} is text or null, not {excerpt(getattr(self, name))}")

    def to_position(self) -> Position:
        """The puzzle's position."""
        return Position.from_string(self.position)

    def best_move(self) -> Move:
        return Move.parse(self.best, self.to_position())

    @property
    def loss(self) -> int:
        """What the second-best move loses against the best."""
        return self.value - self.second

    @property
    def found(self) -> Optional[bool]:
        """From a played game: did the player play the best move (None: not from a game)."""
        return None if self.played is None else self.played == self.best

    @property
    def fair(self) -> bool:
        """Does the player to move know every card (the stock empty, one other hand holding the
        unseen cards, as in two-player Scopa's last deal)? Else the puzzle shows cards the
        player could not see."""
        pos = self.to_position()
        others = [h for seat, h in enumerate(pos.hands) if seat != pos.to_move and h]
        return not pos.stock and len(others) <= 1

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"game": self.game, "position": self.position, "best": self.best, "value": self.value,
                               "second": self.second, "tags": list(self.tags)}
        if self.played is not None:
            out.update(played=self.played, found=self.found)
        if self.where is not None:
            out["where"] = self.where
        return out

    @classmethod
    def from_dict(cls, data: Any) -> "Puzzle":
        """The inverse of `to_dict` (a PuzzleError names a missing or bad field)."""
        if not isinstance(data, dict):
            raise PuzzleError(f"a puzzle is a JSON object, not {excerpt(data)}")
        missing = [k for k in ("position", "best", "value", "second") if k not in data]
        if missing:
            raise PuzzleError(f"a puzzle needs {', '.join(missing)}")
        tags = data.get("tags", [])
        if not isinstance(tags, list):
            raise PuzzleError(f"a puzzle's tags are a list, not {excerpt(tags)}")
        return cls(position=data["position"], best=data["best"], value=data["value"], second=data["second"],
                   tags=tuple(tags), game=data.get("game", "scopa"), played=data.get("played"),
                   where=data.get("where"))

    def __repr__(self) -> str:
        parts = [f"position={self.position!r}", f"best={self.best!r}", f"value={self.value}",
                 f"second={self.second}", f"tags={self.tags!r}", f"game={self.game!r}"]
        parts += [f"{k}={getattr(self, k)!r}" for k in ("played", "where") if getattr(self, k) is not None]
        return f"Puzzle({', '.join(parts)})"


# -- finding ---------------------------------------------------------------------------------------

def _rules(game: Union[str, Rules]) -> Rules:
    if isinstance(game, Rules):
        return game
    if game not in GAMES:
        raise PuzzleError(f"no game {excerpt(game)}; games: {', '.join(GAMES)}")
    return GAMES[game]


def _unique(rows: Analysis, gap: int) -> bool:
    """One move of the best exact value, every other at least `gap` below."""
    return (len(rows) >= 2 and all(r.exact for r in rows)
            and rows[0].value is not None and rows[1].value is not None and rows[0].value - rows[1].value >= gap)


def puzzle_at(position: Position, limit: Optional[Limit] = None, *, gap: int = 1,
              tags: bool = True) -> Optional[Puzzle]:
    """The puzzle of `position` if it is one (one move keeps the exact value, every other loses
    `gap` points or more), else None; None too when the exact search needs more than `limit`
    (default: none). `tags` False leaves the tags out (`tag` adds them)."""
    if not isinstance(position, Position):
        raise TypeError(f"puzzle_at takes a Position, not {type(position).__name__}")
    if position.is_round_over():
        return None
    rows = analyze(position, _EXACT if limit is None else limit.replace(horizon=0))
    puzzle = _puzzle_of(position, rows, gap)
    return _with_tags(puzzle) if tags and puzzle is not None else puzzle


def _puzzle_of(position: Position, rows: Analysis, gap: int = 1) -> Optional[Puzzle]:
    """The puzzle (untagged) of `position` from its analysis `rows`, or None."""
    if not _unique(rows, gap):
        return None
    first, second = rows[0], rows[1]
    assert first.value is not None and second.value is not None
    return Puzzle(position=position.to_string(), best=str(first.move), value=first.value, second=second.value,
                  game=game_name(position.rules))


def _with_tags(puzzle: Puzzle) -> Puzzle:
    return Puzzle(**{**puzzle.__dict__, "tags": tag(puzzle)})


def _round_positions(rules: Rules, seed: str, greedy: float = 0.75) -> Iterator[Position]:
    """The positions of a round played mostly by the greedy bot (a random move with chance
    1 - `greedy`), both seeded."""
    from .bots import GreedyBot
    bot = GreedyBot()
    rng = random.Random(seed)
    pos = Position.new_round(seed, rules)
    while not pos.is_round_over():
        yield pos
        pos = pos.play(bot(pos) if rng.random() < greedy else rng.choice(pos.legal_moves()))


def find_puzzles(game: Union[str, Rules], count: int, *, seed: int = 0, limit: Optional[Limit] = None,
                 min_moves: int = 3, per_round: int = 2, max_cards: Optional[int] = None,
                 last_deal: bool = True) -> list[Puzzle]:
    """`count` puzzles of `game` (a name of `GAMES` or `Rules`), tagged, from rounds played by
    the seeded greedy-and-random bot (the same seed, the same puzzles): in each round, the
    positions of the last deal (`last_deal`: the stock empty, so that no puzzle hangs on the
    order of the cards still to come) with at most `max_cards` cards in play (default: the
    game's) and `min_moves` legal moves or more that are puzzles (`puzzle_at`), at most
    `per_round` of them, drawn at random. `limit` bounds each exact search (default
    `PUZZLE_NODES` nodes): a position over it is passed over."""
    rules = _rules(game)
    if not isinstance(count, int) or count < 0:
        raise PuzzleError(f"count is a whole number, 0 or more, not {excerpt(count)}")
    limit = Limit(nodes=PUZZLE_NODES, threads=1) if limit is None else limit
    if max_cards is None:
        max_cards = _MAX_CARDS.get(game_name(rules), 40)
    found: list[Puzzle] = []
    seen: set[str] = set()
    rng = random.Random(f"puzzles:{seed}")
    k = 0
    while len(found) < count:
        k += 1
        if k > 50 * count + 100:
            break           # the game has too few such positions for these options
        kept = []
        for pos in _round_positions(rules, f"{game_name(rules)}:{seed}:{k}"):
            if (last_deal and pos.stock) or pos.cards_in_play().bit_count() > max_cards \
                    or len(pos.legal_moves()) < min_moves:
                continue
            p = puzzle_at(pos, limit, tags=False)
            if p is not None and p.position not in seen:
                kept.append(p)
        for p in sorted(rng.sample(kept, min(per_round, len(kept))), key=kept.index):
            if len(found) < count:
                seen.add(p.position)
                found.append(_with_tags(p))
    return found


def verify(puzzle: Puzzle, limit: Optional[Limit] = None) -> bool:
    """Solve `puzzle` again: is `best` the one move of value `value`, the next best `second`,
    and `game` the position's? (False too when the search needs more than `limit`.)"""
    pos = puzzle.to_position()
    rows = analyze(pos, _EXACT if limit is None else limit.replace(horizon=0))
    if not _unique(rows, 1) or game_name(pos.rules) != puzzle.game:
        return False
    return (rows[0].move == Move.parse(puzzle.best, pos) and rows[0].value == puzzle.value
            and rows[1].value == puzzle.second)


# -- why: the two lines ----------------------------------------------------------------------------

@dataclass(frozen=True)
class Solution:
    """The best move's line and the second-best move's (the first such move in the legal
    order), each played out with both sides perfect (the first optimal move in the legal
    order at every turn), and how each round ends (`best_score`, `second_score`)."""

    best_line: tuple[Move, ...]
    second_line: tuple[Move, ...]
    best_score: RoundScore
    second_score: RoundScore
    side: int           # the mover's side
    scopas: tuple[tuple[int, ...], tuple[int, ...]] = field(default=((), ()))  # plies of the lines that sweep

    @property
    def second_move(self) -> Move:
        return self.second_line[0]

    def margins(self, score: RoundScore) -> dict[str, int]:
        """Per tag, the mover's side's points in `score` minus those of the best other side (the
        one with the most points: with two sides, the other side), so that they add up to the
        line's value: "sweep" its scopas, "scopa-denied" minus the other side's scopas."""
        side = self.side
        others = [s for s in range(len(score.players)) if s != side]
        rival = max(others, key=lambda s: score.total[s])

        def points(s: int) -> dict[str, int]:
            p = score.players[s]
            return {"settebello": score.settebello == s, "primiera": score.primiera == s,
                    "coins": score.denari == s, "cards": score.carte == s, "re-bello": score.re_bello == s,
                    "napola": p.napola}

        ours, theirs = points(side), points(rival)
        out = {"sweep": score.players[side].scopas, "scopa-denied": -score.players[rival].scopas}
        out.update({k: int(ours[k]) - int(theirs[k]) for k in ours})
        return out

    def tags(self) -> tuple[str, ...]:
        """The tags where the best line does better than the second-best, in `TAGS`' order."""
        best, second = self.margins(self.best_score), self.margins(self.second_score)
        return tuple(t for t in TAGS if best[t] > second[t])


def _side_value(pos: Position, side: int, cache: dict[str, int]) -> int:
    """`pos`'s exact value for `side`: its margin with two sides; with more, the paranoid
    value (its points minus the best other side's, every other side playing against it)."""
    if pos.is_round_over():
        return pos.round_score().margin(side)
    key = pos.to_string()
    if key not in cache:
        cache[key] = max(v for _, v in _values(pos, side, cache)) if pos.rules.sides[pos.to_move] == side \
            else min(v for _, v in _values(pos, side, cache))
    return cache[key]


def _values(pos: Position, side: int, cache: dict[str, int]) -> list[tuple[Move, int]]:
    """Every legal move of `pos` (in the legal order) with its exact value for `side`."""
    rules = pos.rules
    mover = rules.sides[pos.to_move]
    if mover == side or rules.side_count == 2:
        sign = 1 if mover == side else -1
        by_move = {row.move: row.value for row in analyze(pos, _EXACT)}
        return [(m, sign * by_move[m]) for m in pos.legal_moves()]      # type: ignore[operator]
    return [(m, _side_value(pos.play(m), side, cache)) for m in pos.legal_moves()]


def _line(pos: Position, first: Move, side: int, cache: dict[str, int]) -> tuple[list[Move], list[int], Position]:
    """`first`, then perfect play to the end of the round: the moves, the plies that sweep, the end."""
    moves, sweeps = [first], []
    if pos.is_scopa(first):
        sweeps.append(0)
    p = pos.play(first)
    while not p.is_round_over():
        values = _values(p, side, cache)
        pick = max if p.rules.sides[p.to_move] == side else min
        target = pick(v for _, v in values)
        move = next(m for m, v in values if v == target)
        if p.is_scopa(move):
            sweeps.append(len(moves))
        moves.append(move)
        p = p.play(move)
    return moves, sweeps, p


def solution(puzzle: Union[Puzzle, Position]) -> Solution:
    """The two lines of `puzzle` (a Puzzle, or a position that is one) and their end scores."""
    pos = puzzle.to_position() if isinstance(puzzle, Puzzle) else puzzle
    side = pos.rules.sides[pos.to_move]
    cache: dict[str, int] = {}
    values = _values(pos, side, cache)
    ranked = sorted({v for _, v in values}, reverse=True)
    if len(ranked) < 2:
        raise PuzzleError("every move of the position has the same value: it is no puzzle")
    best = next(m for m, v in values if v == ranked[0])
    second = next(m for m, v in values if v == ranked[1])
    best_line, best_sweeps, best_end = _line(pos, best, side, cache)
    second_line, second_sweeps, second_end = _line(pos, second, side, cache)
    return Solution(tuple(best_line), tuple(second_line), best_end.round_score(), second_end.round_score(), side,
                    (tuple(best_sweeps), tuple(second_sweeps)))


def tag(puzzle: Union[Puzzle, Position]) -> tuple[str, ...]:
    """What decides `puzzle`: the tags (`TAGS`) where the best move's line ends better for the
    mover's side than the second-best move's (`solution`)."""
    return solution(puzzle).tags()


# -- the shipped set -------------------------------------------------------------------------------

SET_SIZE = 100
"""Puzzles per game in the shipped set."""
SET_SEED = 45


def make_set(folder: Union[str, Path], size: int = SET_SIZE, seed: int = SET_SEED,
             games: Optional[Sequence[str]] = None) -> dict[str, int]:
    """Write the shipped set into `folder`: `size` puzzles of every game (`find_puzzles` with
    `seed`), one JSON line each, in GAME.jsonl. Returns the count per game. No node limit: the
    last deal (and Scopone's last 16 cards) solve in milliseconds anyway, and a limit's verdict
    could depend on what the search's table held from the searches before."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    counts = {}
    for name in games or GAMES:
        puzzles = find_puzzles(name, size, seed=seed, limit=_EXACT)
        text = "".join(json.dumps(p.to_dict(), separators=(",", ":")) + "\n" for p in puzzles)
        (folder / f"{name}.jsonl").write_text(text, encoding="utf-8")
        counts[name] = len(puzzles)
    return counts


def read_puzzles(lines: Iterable[str], where: str = "puzzles") -> list[Puzzle]:
    """Puzzles from JSON lines (blank lines skipped); a PuzzleError names the bad line."""
    out = []
    for n, line in enumerate(lines, 1):
        if line.strip():
            try:
                out.append(Puzzle.from_dict(json.loads(line)))
            except (ValueError, TypeError) as exc:
                raise PuzzleError(f"{where}, line {n}: {exc}") from None
    return out


def shipped(game: Optional[str] = None, tag: Optional[str] = None) -> list[Puzzle]:
    """The shipped puzzles, of `game` (a name of `GAMES`; None: every game) and with `tag`."""
    if game is not None and game not in GAMES:
        raise PuzzleError(f"no game {excerpt(game)}; games: {', '.join(GAMES)}")
    if tag is not None and tag not in TAGS:
        raise PuzzleError(f"no tag {excerpt(tag)}; tags: {', '.join(TAGS)}")
    out: list[Puzzle] = []
    for name in [game] if game else list(GAMES):
        path = SET_FOLDER / f"{name}.jsonl"
        if path.is_file():
            out += read_puzzles(path.read_text(encoding="utf-8").splitlines(), path.name)
    return [p for p in out if tag is None or tag in p.tags]


# -- puzzles from a played game --------------------------------------------------------------------

RECORD_NODES = 200_000
"""`puzzles_from_record`'s exact search of one decision: one that needs more is passed over."""


def puzzles_from_record(record: Any, player: Optional[Union[int, str]] = None, limit: Optional[Limit] = None, *,
                        min_moves: int = 2, rounds: Optional[Sequence[int]] = None) -> list[Puzzle]:
    """The puzzles of a played game (a `GameRecord`): the decisions of `player` (a seat, or a
    name; None: every player) with `min_moves` legal moves or more where one move kept the
    exact value and every other lost a point or more, each with the move played (`played`,
    `found`) and where (`where`: round, move, name). Decisions whose exact search needs more
    than `limit` (default `RECORD_NODES` nodes, exact only; early in Scopone's deal) are passed
    over, and so are the decisions before them in their round (more cards in play). `rounds`:
    the round numbers (from 1) to look in (None: every round)."""
    from .record import GameRecord
    if not isinstance(record, GameRecord):
        raise TypeError(f"puzzles_from_record takes a GameRecord, not {type(record).__name__}")
    limit = Limit(nodes=RECORD_NODES, threads=1) if limit is None else limit
    if isinstance(player, str) and player not in record.players:
        raise PuzzleError(f"no player {excerpt(player)} in the record; players: {', '.join(record.players)}")
    if isinstance(player, int) and not 0 <= player < record.rules.players:
        raise PuzzleError(f"no seat {player}: the seats are 0 to {record.rules.players - 1}")
    if rounds is not None:
        bad = [n for n in rounds if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= len(record.rounds)]
        if bad:
            raise PuzzleError(f"no round {excerpt(bad[0])}: the record has rounds 1 to {len(record.rounds)}")
    exact = limit.replace(horizon=0)
    out: list[Puzzle] = []
    for r in record.replay():
        if rounds is not None and r.number not in rounds:
            continue
        found: list[Puzzle] = []
        # from the end of the round backwards: once a decision is over the budget, the earlier
        # ones (more cards in play) would be too, and are not searched
        for k, (pos, move) in reversed(list(enumerate(zip(r.iter_positions(), r.moves)))):
            name = r.players[pos.to_move]
            if player is not None and player not in (pos.to_move, name) or len(pos.legal_moves()) < min_moves:
                continue
            rows = analyze(pos, exact)
            if not all(row.exact for row in rows):
                break
            p = _puzzle_of(pos, rows)
            if p is not None:
                found.append(Puzzle(**{**_with_tags(p).__dict__, "played": str(move),
                                       "where": f"round {r.number}, move {k + 1}, {name}"}))
        out += reversed(found)
    return out


def main(argv: Optional[Sequence[str]] = None) -> int:
    """``python -m scopa_solver.play.puzzles DIR [GAME ...]``: rebuild the shipped set into DIR."""
    args = list(sys.argv[1:] if argv is None else argv)
    if not args:
        print("usage: python -m scopa_solver.play.puzzles DIR [GAME ...]", file=sys.stderr)
        return 2
    counts = make_set(args[0], games=args[1:] or None)
    for name, n in counts.items():
        print(f"{name}: {n} puzzles")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
