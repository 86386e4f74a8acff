"""Game records: a match, or a set of independent rounds, as versioned JSON, for every game of
the family (docs/FAMILY.md: 2, 3, 4 or 6 players, partnerships, Scopone, scientifico, Scopa a 15).

A record holds the rules, the players' names (one per seat) and, for each round, the dealer, the
whole deck in deal order and the moves played. Replaying it reproduces every position exactly; a
record whose moves do not replay is rejected with a `RecordError` naming the first bad move.
`scopa-solver play` and `scopa-solver arena --save` write records, `scopa-solver review` reads
them; docs/records.md documents every field.

Version 2 (every game)::

    {
      "format": "scopa-solver-game",
      "version": 2,
      "kind": "match",
      "rules": ["players=4", "game=scientifico", "target=21"],
      "players": ["you", "Greedy", "PIMC", "Random"],
      "sides": [[0, 2], [1, 3]],
      "date": "2025-05-01T18:30:00",
      "meta": {"program": "scopa-solver play", "seed": 7},
      "rounds": [
        {"dealer": 3,
         "deck": "FdCc4s7c2s3s7dAc5s7s...",
         "moves": "Fd 7s ...",
         "score": [3, 2],
         "totals": [3, 2]}
      ],
      "totals": [3, 2],
      "winner": null
    }

Version 1 is the same file for two players without ``sides`` (its `players`, `score`, `totals`
are pairs and `winner` 0, 1 or null). Both are read. A two-player record is written as version 1
(every scopa-solver reads it; `to_dict(version=2)` writes version 2), any other game as
version 2; a version 1 file of more than two players is refused.

A valid record (anything else is a `RecordError` that names the field and quotes at most a
short excerpt):

- UTF-8 JSON text (a byte order mark is allowed) of at most `MAX_BYTES` (64 MiB), nested at
  most `MAX_DEPTH` (100) lists and objects deep, with at most `MAX_VALUES` (4,000,000) list
  items and object members in all; whole numbers have at most 30 digits; NaN and Infinity are
  not JSON.
- ``format`` is ``"scopa-solver-game"``; ``version`` a whole number from 1 to `VERSION`;
  ``kind`` ``"match"`` (the default) or ``"rounds"``; ``rules`` a list of option tokens (or
  one text of them), which name the game (``players=4``, ``game=scopone``, ...);
  ``players`` one non-empty name of at most `MAX_NAME` characters per seat; ``sides`` (version
  2, optional) the seats of each side, as the rules make them; ``date`` text of at most 100
  characters, or null; ``meta`` an object with text keys (free information: any JSON inside,
  a list is not an object).
- ``rounds`` a list of objects: ``dealer`` a seat; ``deck`` the 40 cards in deal order
  (`flow.deal_slices`: the hands from the leader's to the dealer's, the table, the stock), as
  text or a list; ``moves`` move text separated by spaces, or a list (at most 40: a move plays
  one card); optional ``players`` as above; optional ``score`` (the round's points) and
  ``totals`` (the match score after the round, written for a match), one whole number per side;
  optional ``help``: the hints asked for in play (`Hint`: ``move`` number, ``seat``,
  ``suggested`` move, ``value``), each asked by the seat to move before that move, the move
  suggested legal there.
- Every move replays. Only the last round may be unfinished. In a match the deal passes to the
  next seat (with two players: alternates), no round follows a won match
  (`flow.match_winner`: a side at the target wins; several: the highest total, and a shared
  highest total plays on), and the per-round ``totals`` run on from round to round, so that
  rounds moved out of order are refused; ``totals`` and ``winner`` (a side, or null; null for
  independent rounds) agree with the rounds.

Loading replays each round once and keeps no positions: `ReplayedRound.positions` replays its
round again when asked (a record of 3,000 rounds would otherwise hold 110,000 positions).
`save` writes atomically (a temporary file in the same folder, then a rename) and does not
replace an existing file unless `overwrite=True`.

>>> from scopa_solver import Position, play_round
>>> rec = GameRecord(players=("Ann", "Bob"))
>>> first = lambda pos: pos.legal_moves()[0]
>>> result = play_round(Position.new_round(seed=5), first, first)
>>> rec.add_round(RoundRecord.from_play(result.start, result.moves)).finished
True
>>> again = GameRecord.from_json(rec.to_json())
>>> [p for p in again.replay()[0].positions] == [result.start] + [p for p in _walk(result.start, result.moves)]
True
>>> again.totals == result.score.total
True

Four players, partnerships (the seats' names in order; points per side):

>>> from scopa_solver import Rules
>>> rules = Rules(players=4)
>>> start = Position.new_round(seed=2, rules=rules)
>>> pos, moves = start, []
>>> while not pos.is_round_over():
...     moves.append(pos.legal_moves()[-1]); pos = pos.play(moves[-1])
>>> four = GameRecord(rules=rules, players=("Ann", "Bob", "Cid", "Dan"))
>>> four.add_round(RoundRecord.from_play(start, moves)).points == pos.round_score().total
True
>>> four.side_names(0), GameRecord.from_json(four.to_json()).to_dict()["version"]
(('Ann & Cid', 'Bob & Dan'), 2)
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from datetime import datetime
from functools import cached_property
from typing import Any, Iterable, Iterator, NamedTuple, Optional, Sequence, Union

from ..core import flow
from ..core.cards import DECK, KINGS_MASK, Card, card_list, iter_cards, parse_cards, popcount
from ..core.position import Move, Position, RoundScore
from ..text import plural
from ..core.rules import Rules
from ..core.state import whole
from ..errors import RecordError, ScopaError, excerpt
from ..files import open_regular, shown_path, write_text_atomic
from ..jsontext import MAX_DEPTH, LongNumber, dumps, parse_json, read_at_most

# (MAX_DEPTH, MAX_VALUES and parse_json are jsontext's: a record is read within its limits)
__all__ = ["GameRecord", "RoundRecord", "ReplayedRound", "Hint", "FORMAT", "VERSION", "MAX_BYTES", "MAX_NAME",
           "MAX_COMMENT"]

FORMAT = "scopa-solver-game"
VERSION = 2
"""The newest format version read and written (1: two players only; 2: every game)."""
KINDS = ("match", "rounds")
MAX_BYTES = 64 * 2 ** 20
"""The largest record file read (64 MiB: about 200,000 rounds)."""
MAX_NAME = 100
"""The longest player name, in characters."""
_MAX_DATE = 100
MAX_COMMENT = 1000
"""The longest comment on a move, in characters (a round has at most one comment a move)."""


def _walk(position: Position, moves: Iterable[Move]) -> Iterator[Position]:
    for move in moves:
        position = position.play(move)
        yield position


def _deck_from_start(start: Position) -> tuple[Card, ...]:
    """The deck in deal order that `Position.from_deck` turns into the round start `start`."""
    rules = start.rules
    if not start.is_round_start() or start.to_move != (start.dealer + 1) % rules.players:
        if rules.players == 2 and rules.game == "scopa":
            raise RecordError("not the start of a round: 3 + 3 cards in the hands, 4 on the table, "
                              "30 in the stock, nothing captured, the non-dealer to move")
        raise RecordError(f"not the start of a round: {rules.hand_size} cards in every hand, "
                          f"{rules.table_start} on the table, the rest in the stock, nothing "
                          "captured, the seat after the dealer to move")
    deck: list[Optional[Card]] = [None] * len(DECK)
    *hands, table, stock = flow.deal_slices(start.dealer, rules)
    for seat, part in enumerate(hands):
        deck[part] = iter_cards(start.hands[seat])
    deck[table] = iter_cards(start.table)
    deck[stock] = start.stock
    return tuple(deck)  # type: ignore[arg-type]


@dataclass
class RoundRecord:
    """One round: the dealer, the 40 cards in deal order (`flow.deal_slices`; two players: 3 to
    the non-dealer, 3 to the dealer, 4 to the table, then the stock in deal order) and the
    moves played. `players` overrides the record's names for this round, one per seat (an
    arena swaps or rotates the seats between the plays of a deal)."""

    dealer: int
    deck: tuple[Card, ...]
    moves: list[Move] = field(default_factory=list)
    players: Optional[tuple[str, ...]] = None
    help: list["Hint"] = field(default_factory=list)    # the hints asked for in the round
    comments: dict[int, str] = field(default_factory=dict)   # move number (1-based) -> the player's comment

    @classmethod
    def from_play(cls, start: Position, moves: Iterable[Union[Move, str]] = (),
                  players: Optional[Sequence[str]] = None) -> "RoundRecord":
        """The record of a round from its start position and the moves played from it."""
        deck = _deck_from_start(start)
        n = start.rules.players
        rec = cls(dealer=start.dealer, deck=deck, players=_names(players, "players", n) if players else None)
        pos = start
        for move in moves:
            move = Move.parse(move, pos)
            rec.moves.append(move)
            pos = pos.play(move)
        return rec

    def start(self, rules: Rules = Rules()) -> Position:
        return Position.from_deck(self.deck, dealer=self.dealer, rules=rules)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"dealer": self.dealer, "deck": "".join(map(str, self.deck)),
                               "moves": " ".join(map(str, self.moves))}
        if self.players:
            out["players"] = list(self.players)
        if self.help:
            out["help"] = [h.to_dict() for h in self.help]
        if self.comments:
            out["comments"] = {str(k): self.comments[k] for k in sorted(self.comments) if k <= len(self.moves)}
        return out


class _Checked(NamedTuple):
    """What replaying a round found, and what it was replayed from (to notice a later change)."""

    dealer: int
    deck: tuple[Card, ...]
    moves: list[Move]                     # the moves checked (a copy: the record's list may change)
    points: Optional[tuple[int, ...]]     # the round's points per side; None while unfinished
    help: tuple["Hint", ...] = ()         # the hints checked


class ReplayedRound:
    """A round of a record, checked by replaying it. `positions[i]` is the position before move
    i, and `positions[-1]` the position after the last move: they are replayed on first use and
    kept by this object only (`iter_positions` replays without keeping them)."""

    def __init__(self, number: int, record: RoundRecord, players: tuple[str, ...], rules: Rules,
                 checked: _Checked) -> None:
        self.number = number             # 1-based
        self.record = record
        self.players = players
        self.rules = rules
        self._checked = checked

    def __repr__(self) -> str:
        return f"ReplayedRound(number={self.number}, moves={len(self._checked.moves)}, points={self.points})"

    @property
    def moves(self) -> list[Move]:
        return list(self._checked.moves)

    @property
    def points(self) -> Optional[tuple[int, ...]]:
        """The round's points of each side (player 0 and player 1 in two-player Scopa; None
        while the round is unfinished)."""
        return self._checked.points

    @property
    def dealer(self) -> int:
        return self._checked.dealer

    @property
    def finished(self) -> bool:
        return self._checked.points is not None

    def iter_positions(self) -> Iterator[Position]:
        """The positions of the round in play order, replayed (and not kept)."""
        pos = Position.from_deck(self._checked.deck, dealer=self._checked.dealer, rules=self.rules)
        yield pos
        yield from _walk(pos, self._checked.moves)

    @cached_property
    def positions(self) -> list[Position]:
        return list(self.iter_positions())

    @property
    def start(self) -> Position:
        return self.positions[0]

    @property
    def final(self) -> Position:
        return self.positions[-1]

    @property
    def score(self) -> Optional[RoundScore]:
        """The round score (None while the round is unfinished)."""
        return self.final.round_score() if self.finished else None


class GameRecord:
    """A match (`kind="match"`: the deal passes to the next seat and rounds go on until a side
    reaches `rules.target`) or independent rounds (`kind="rounds"`, as an arena plays them), of
    any game of the family (`rules`); `players` names every seat (default "player 0", ...).

    Build one with `add_round` (or `new_round` and appending moves to it), save it with `save` /
    `to_json`, read one with `load` / `from_json` (which replay and check every move once).
    The record remembers what each round's replay found and replays only the rounds that
    changed since."""

    def __init__(self, rules: Rules = Rules(), players: Optional[Sequence[str]] = None,
                 rounds: Iterable[RoundRecord] = (), kind: str = "match", date: Optional[str] = None,
                 meta: Optional[dict[str, Any]] = None) -> None:
        if not isinstance(rules, Rules):
            raise RecordError(f"rules must be a Rules value, not {type(rules).__name__}")
        if kind not in KINDS:
            raise RecordError(f"kind must be one of {', '.join(KINDS)}, not {excerpt(kind)}")
        self.rules = rules
        n = rules.players
        self.players = _names(players if players is not None else [f"player {p}" for p in range(n)],
                              "players", n)
        self.rounds: list[RoundRecord] = list(rounds)
        for rec in self.rounds:
            if not isinstance(rec, RoundRecord):
                raise TypeError(f"rounds must be RoundRecords, not {type(rec).__name__}")
        self.kind = kind
        self.date = date if date is not None else datetime.now().isoformat(timespec="seconds")
        self.meta = _meta(meta)
        self._checked: list[_Checked] = []
        self._checked_for: tuple[Any, ...] = ()     # the (rules, kind) `_checked` is for

    def __repr__(self) -> str:
        return (f"GameRecord(kind={self.kind!r}, players={self.players!r}, rules={self.rules!r}, "
                f"rounds={len(self.rounds)})")

    # -- building ------------------------------------------------------------------------------

    def new_round(self, dealer: int, deck: Sequence[Union[Card, str]],
                  players: Optional[Sequence[str]] = None) -> RoundRecord:
        """Append an empty round dealt from `deck` (40 cards in deal order) and return it."""
        cards = tuple(card_list(deck if isinstance(deck, str) else list(deck), "deck"))
        rec = RoundRecord(dealer=dealer, deck=cards,
                          players=_names(players, "players", self.rules.players) if players else None)
        self.rounds.append(rec)
        return rec

    def add_round(self, round_record: RoundRecord) -> ReplayedRound:
        """Append a round (checked by replaying it) and return it replayed."""
        if not isinstance(round_record, RoundRecord):
            raise TypeError(f"add_round takes a RoundRecord, not {type(round_record).__name__}")
        self.rounds.append(round_record)
        try:
            checked = self._check()
        except RecordError:
            self.rounds.pop()
            raise
        return self._replayed(len(checked) - 1, checked[-1])

    def comment(self, round_number: int, move: int, text: Optional[str]) -> None:
        """Set the player's comment on move `move` (1-based) of round `round_number` (1-based)
        to `text` (at most `MAX_COMMENT` characters); None or blank text removes it."""
        if not isinstance(round_number, int) or isinstance(round_number, bool) \
                or not 1 <= round_number <= len(self.rounds):
            raise RecordError(f"no round {excerpt(round_number)}: the record has rounds 1 to {len(self.rounds)}")
        rec = self.rounds[round_number - 1]
        if not isinstance(move, int) or isinstance(move, bool) or not 1 <= move <= len(rec.moves):
            raise RecordError(f"round {round_number}: no move {excerpt(move)} to comment on (its moves: 1 to "
                              f"{len(rec.moves)})")
        if text is None or (isinstance(text, str) and not text.strip()):
            rec.comments.pop(move, None)
        else:
            rec.comments[move] = _comment(text, f"round {round_number}: the comment on move {move}")

    # -- replay --------------------------------------------------------------------------------

    def round_players(self, index: int) -> tuple[str, ...]:
        """The name of every seat in round `index` (0-based): player 0's, player 1's, ..."""
        return self.rounds[index].players or self.players

    def side_names(self, index: int) -> tuple[str, ...]:
        """The name of every side in round `index` (0-based): its seats' names joined by " & "
        (with one player a side, the players' names)."""
        names = self.round_players(index)
        return tuple(" & ".join(names[seat] for seat in seats) for seats in _side_seats(self.rules))

    def replay(self) -> list[ReplayedRound]:
        """Every round, checked by replaying it. Raises RecordError naming the first bad move,
        a deck that is not 40 distinct cards, a dealer out of turn in a match, an unfinished
        round before the last, or a round played after the match was won."""
        return [self._replayed(i, c) for i, c in enumerate(self._check())]

    def _replayed(self, index: int, checked: _Checked) -> ReplayedRound:
        return ReplayedRound(index + 1, self.rounds[index], self.round_players(index), self.rules, checked)

    def _check(self) -> list[_Checked]:
        """Each round's replay, in order: kept from the last call while a round (and every round
        before it) is unchanged, replayed again from the first change."""
        if self._checked_for != (self.rules, self.kind):
            self._checked, self._checked_for = [], (self.rules, self.kind)
        checked = self._checked
        totals = [0] * self.rules.side_count
        intern: dict[Move, Move] = {}    # one object per distinct move: a record repeats them
        for i, rec in enumerate(self.rounds):
            if i < len(checked):
                old = checked[i]
                if old.dealer == rec.dealer and old.deck == tuple(rec.deck) and old.moves == rec.moves \
                        and old.help == tuple(rec.help):
                    _add(totals, old.points)
                    continue
                del checked[i:]
            entry = self._check_round(i, rec, checked[-1] if checked else None, totals, intern)
            checked.append(entry)
            _add(totals, entry.points)
        del checked[len(self.rounds):]
        return list(checked)

    def _check_round(self, i: int, rec: RoundRecord, before: Optional[_Checked], totals: list[int],
                     intern: dict[Move, Move]) -> _Checked:
        """Replay round `i` (0-based) after the round `before`, with the match at `totals`."""
        where = f"round {i + 1}"
        n = self.rules.players
        whole(rec.dealer, f"{where}: the dealer", RecordError, tuple(range(n)))
        if rec.players is not None:
            _names(rec.players, f"{where}: players", n)
        if before is not None and before.points is None:
            raise RecordError(f"round {i}: stops after {plural(len(before.moves), 'move')}, before the end "
                              f"of the round, but round {i + 1} follows")
        if self.kind == "match":
            due = (before.dealer + 1) % n if before is not None else rec.dealer
            if rec.dealer != due and n == 2:
                raise RecordError(f"{where}: the deal alternates, so player {due} deals, "
                                  f"not player {rec.dealer}")
            if rec.dealer != due:
                raise RecordError(f"{where}: the deal passes to the next seat, so seat {due} deals, "
                                  f"not seat {rec.dealer}")
            if flow.match_winner(totals, self.rules.target) is not None:
                raise RecordError(f"{where}: the match was already won ({_dash(totals)}, "
                                  f"target {self.rules.target})")
        if len(rec.moves) > len(DECK):
            raise RecordError(f"{where}: {len(rec.moves)} moves; a round has at most {len(DECK)} "
                              "(a move plays one card)")
        pos = self._start(rec, where)
        names = self.round_players(i)
        seat = "player" if n == 2 else "seat"
        deck = tuple(rec.deck)
        for k, move in enumerate(rec.moves):
            try:
                move = Move.parse(move, pos)
            except ScopaError as exc:
                who = (f" ({seat} {pos.to_move}, {names[pos.to_move]})" if not pos.is_round_over()
                       else "")
                raise RecordError(f"{where}, move {k + 1}{who}: {exc}") from None
            move = rec.moves[k] = intern.setdefault(move, move)
            _check_help(rec, k, pos, where)
            pos = pos.play(move)
        _check_help(rec, len(rec.moves), pos, where)
        points = pos.round_score().total if pos.is_round_over() else None
        return _Checked(rec.dealer, deck, list(rec.moves), points, tuple(rec.help))

    def _start(self, rec: RoundRecord, where: str) -> Position:
        try:
            cards = card_list(list(rec.deck), "deck")
            if len(cards) != len(DECK):
                raise RecordError(f"the deck has {len(cards)} cards; a deck in deal order has all 40")
            parse_cards(cards, "the deck")
        except ScopaError as exc:
            raise RecordError(f"{where}: deck: {exc}") from None
        table = cards[flow.deal_slices(rec.dealer, self.rules)[-2]]
        if flow.redeal_needed(table, self.rules):
            kings = popcount(sum(c.mask for c in table) & KINGS_MASK)
            raise RecordError(f"{where}: deck: {kings} kings on the table, which the rules deal again "
                              "(redeal_three_kings)")
        return Position.from_deck(cards, dealer=rec.dealer, rules=self.rules)

    def positions(self) -> Iterator[tuple[int, int, Position, Optional[Move]]]:
        """(round number, move number, position, move played there or None at the end), in play order."""
        for r in self.replay():
            moves = r.moves
            for k, pos in enumerate(r.iter_positions()):
                yield r.number, k + 1, pos, (moves[k] if k < len(moves) else None)

    def running_totals(self) -> list[tuple[int, ...]]:
        """The points of each side (player 0 and player 1 with two players) after each round
        (over the finished rounds)."""
        totals = [0] * self.rules.side_count
        out = []
        for c in self._check():
            _add(totals, c.points)
            out.append(tuple(totals))
        return out

    @property
    def totals(self) -> tuple[int, ...]:
        """Points of each side (player 0 and player 1 with two players) over the finished rounds."""
        running = self.running_totals()
        return running[-1] if running else (0,) * self.rules.side_count

    def hints_used(self) -> dict[str, int]:
        """The hints each player asked for (`Hint`, recorded as help), by name, in order of
        appearance: players who asked for none are left out."""
        out: dict[str, int] = {}
        for i, rec in enumerate(self.rounds):
            names = self.round_players(i)
            for h in rec.help:
                out[names[h.seat]] = out.get(names[h.seat], 0) + 1
        return out

    @property
    def winner(self) -> Optional[int]:
        """The side that won the match (0 or 1 with two players), None while undecided (a
        shared highest total at the target plays on) or for independent rounds."""
        if self.kind != "match":
            return None
        return flow.match_winner(self.totals, self.rules.target)

    # -- JSON ----------------------------------------------------------------------------------

    def to_dict(self, version: Optional[int] = None) -> dict[str, Any]:
        """The record as JSON-ready data in format `version`: None writes the oldest version
        that holds the record (1 for two players, which every scopa-solver reads; 2 for the
        other games); 2 for any game; 1 only for two players."""
        if version is None:
            version = 1 if self.rules.players == 2 else 2
        if version not in (1, 2) or isinstance(version, bool):
            raise RecordError(f"version must be 1 or 2, not {excerpt(version)}")
        if version == 1 and self.rules.players != 2:
            raise RecordError(f"a version 1 record is two-player; {self.rules.players} players "
                              "need version 2")
        checked = self._check()
        rounds = []
        totals = [0] * self.rules.side_count
        for rec, c in zip(self.rounds, checked):
            d = rec.to_dict()
            if c.points is not None:
                d["score"] = list(c.points)
                _add(totals, c.points)
                if self.kind == "match":
                    d["totals"] = list(totals)
            rounds.append(d)
        out: dict[str, Any] = {"format": FORMAT, "version": version, "kind": self.kind,
                               "rules": self.rules.tokens(), "players": list(self.players)}
        if version >= 2:
            out["sides"] = _side_seats(self.rules)
        out["date"] = self.date
        if self.meta:
            out["meta"] = self.meta
        out["rounds"] = rounds
        out["totals"] = totals
        if self.kind == "match":
            out["winner"] = flow.match_winner(totals, self.rules.target)
        return out

    def to_json(self, version: Optional[int] = None) -> str:
        """The record as JSON text (`to_dict`'s `version`): short lists and objects on one
        line, the rest indented."""
        return dumps(self.to_dict(version)) + "\n"

    def save(self, path: Union[str, "os.PathLike[str]"], *, overwrite: bool = False,
             version: Optional[int] = None) -> str:
        """Write the record as JSON (`to_json`) and return the path. The file is written whole
        or not at all: a temporary file in the same folder, then renamed onto `path`, so that
        a failure (a full disk, Ctrl-C) leaves an old file as it was. An existing file is
        replaced only with `overwrite=True` (else a RecordError; the command line decides
        itself which files it may replace)."""
        text = self.to_json(version)
        try:
            write_text_atomic(path, text, overwrite=overwrite)
        except FileExistsError:
            raise RecordError(f"{shown_path(path)} exists: not overwriting it (save(..., overwrite=True) "
                              "replaces it)") from None
        except OSError as exc:
            raise RecordError(f"cannot write {shown_path(path)}: {exc.strerror or exc}") from None
        return os.fspath(path)

    @classmethod
    def from_dict(cls, data: Any) -> "GameRecord":
        """Read and check a record of version 1 or 2 (see the module docstring for the fields);
        every round is replayed once."""
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise RecordError(f'not a scopa-solver game record (no "format": "{FORMAT}")')
        version = data.get("version")
        if not isinstance(version, int) or isinstance(version, bool) or version < 1:
            raise RecordError(f"the record's version must be a whole number from 1, not {excerpt(version)}")
        if version > VERSION:
            raise RecordError(f"the record is version {version}, written by a newer scopa-solver; "
                              f"this one reads versions 1 to {VERSION}")
        kind = data.get("kind", "match")
        if kind not in KINDS:
            raise RecordError(f"kind must be one of {', '.join(KINDS)}, not {excerpt(kind)}")
        tokens = data.get("rules", [])
        if isinstance(tokens, str):
            tokens = tokens.split()
        if not isinstance(tokens, list) or not all(isinstance(t, str) for t in tokens):
            raise RecordError(f"rules must be a list of option tokens like \"target=21\", not {excerpt(tokens)}")
        try:
            rules = Rules.from_tokens(tokens)
        except ScopaError as exc:
            raise RecordError(f"rules: {exc}") from None
        n, sides = rules.players, rules.side_count
        if version == 1 and n != 2:
            raise RecordError(f"a version 1 record is two-player, but its rules say players={n} "
                              "(a record of the family games is version 2)")
        players = _names(data.get("players", [f"player {p}" for p in range(n)]), "players", n)
        if version >= 2 and "sides" in data and not _same_sides(data["sides"], rules):
            raise RecordError(f"sides must be the seats of each side as the rules make them, "
                              f"{_side_seats(rules)}, not {excerpt(data['sides'])}")
        date = data.get("date")
        if date is not None and (not isinstance(date, str) or len(date) > _MAX_DATE):
            raise RecordError(f"date must be text of at most {_MAX_DATE} characters, not {excerpt(date)}")
        raw_rounds = data.get("rounds")
        if not isinstance(raw_rounds, list):
            raise RecordError(f"rounds must be a list of rounds, not {excerpt(raw_rounds)}")
        rounds = []
        given = []                       # each round's recorded (score, totals)
        for i, raw in enumerate(raw_rounds):
            rec, score, totals = _round_from_dict(raw, f"round {i + 1}", rules)
            rounds.append(rec)
            given.append((score, totals))
        record = cls(rules=rules, players=players, rounds=rounds, kind=kind, date=date or "",
                     meta=data.get("meta"))
        running = record.running_totals()          # the one replay
        checked = record._check()                  # (kept from it)
        for i, ((score, totals), c, now) in enumerate(zip(given, checked, running)):
            where = f"round {i + 1}"
            if (score is not None or totals is not None) and c.points is None:
                raise RecordError(f"{where}: a score is given but the moves stop before the end "
                                  f"of the round (after {plural(len(c.moves), 'move')})")
            if score is not None and score != c.points:
                raise RecordError(f"{where}: the record says the score is {_pair(score)} but "
                                  f"the moves score {_pair(c.points)}")
            if totals is not None and totals != now:
                raise RecordError(f"{where}: the record says the match stands at {_pair(totals)} after "
                                  f"this round, but the rounds so far score {_pair(now)}"
                                  + (" (rounds out of order?)" if score is None or score == c.points else ""))
        totals = running[-1] if running else (0,) * sides
        if "totals" in data and _points(data["totals"], "totals", rules) != totals:
            raise RecordError(f"the record's totals {_pair(data['totals'])} disagree with its rounds, "
                              f"which score {_pair(totals)}")
        winner = data.get("winner")
        if winner not in (*range(sides), None) or isinstance(winner, bool):
            raise RecordError(f"winner must be {_choices(sides)} or null, not {excerpt(winner)}")
        if "winner" in data and winner != record.winner:
            what = "match" if kind == "match" else "set of independent rounds, which has no winner"
            who = "player" if n == 2 else "side"
            raise RecordError("the record names " + ("nobody" if winner is None else f"{who} {winner}")
                              + f" the winner, but the {what}"
                              + (f" ({_pair(totals)}, target {rules.target}) says "
                                 + ("nobody yet" if record.winner is None else f"{who} {record.winner}")
                                 if kind == "match" else ""))
        return record

    @classmethod
    def from_json(cls, text: str) -> "GameRecord":
        """Read a record from JSON text (see the module docstring for the limits)."""
        if not isinstance(text, str):
            raise TypeError(f"from_json reads text, not {type(text).__name__}")
        if len(text) > MAX_BYTES:
            raise RecordError(f"{len(text):,} characters; a record has at most {MAX_BYTES:,} bytes")
        return cls.from_dict(parse_json(text[1:] if text.startswith("\ufeff") else text))

    @classmethod
    def load(cls, path: Union[str, "os.PathLike[str]"]) -> "GameRecord":
        """Read a record file of at most `MAX_BYTES`; every problem is a RecordError that names
        the file (one that is not a regular file, such as a named pipe, at once)."""
        name = shown_path(path)
        try:
            with open_regular(path, "rb", error=RecordError) as f:
                size = os.fstat(f.fileno()).st_size
                if size > MAX_BYTES:
                    raise RecordError(f"{name}: {size:,} bytes; a record has at most {MAX_BYTES:,} (64 MiB)")
                raw = read_at_most(f, size, MAX_BYTES + 1)
        except OSError as exc:
            raise RecordError(f"cannot read {name}: {exc.strerror or exc}") from None
        if len(raw) > MAX_BYTES:
            raise RecordError(f"{name}: more than {MAX_BYTES:,} bytes; a record has at most 64 MiB")
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise RecordError(f"{name}: not UTF-8 text (byte {exc.start})") from None
        del raw
        try:
            return cls.from_json(text)
        except RecordError as exc:
            raise RecordError(f"{name}: {exc}") from None


def _add(totals: list[int], points: Optional[tuple[int, ...]]) -> None:
    if points is not None:
        for side, p in enumerate(points):
            totals[side] += p


def _side_seats(rules: Rules) -> list[list[int]]:
    """The seats of each side: [[0, 2], [1, 3]] for 4-player partnerships."""
    return [[seat for seat, s in enumerate(rules.sides) if s == side] for side in range(rules.side_count)]


def _same_sides(value: Any, rules: Rules) -> bool:
    """Is `value` exactly the rules' seats of each side (lists of ints: 3.0 and true are not 3 and 1)?"""
    return (isinstance(value, list) and all(isinstance(side, list) and all(type(seat) is int for seat in side)
                                            for side in value) and value == _side_seats(rules))


def _choices(count: int) -> str:
    return ", ".join(map(str, range(count)))


def _round_from_dict(raw: Any, where: str, rules: Rules) -> tuple[RoundRecord, Optional[tuple[int, ...]],
                                                                  Optional[tuple[int, ...]]]:
    """A round's record and its recorded score and running totals (None when not given)."""
    if not isinstance(raw, dict):
        raise RecordError(f"{where}: expected an object with dealer, deck and moves, not {excerpt(raw)}")
    n = rules.players
    dealer = whole(raw.get("dealer"), f"{where}: the dealer", RecordError, tuple(range(n)))
    deck_raw = raw.get("deck")
    if not isinstance(deck_raw, (str, list)) or len(deck_raw) > 400:
        raise RecordError(f"{where}: the deck must be the 40 cards in deal order, as text or a list, "
                          f"not {excerpt(deck_raw)}")
    try:
        deck = tuple(card_list(deck_raw, "deck"))
    except ScopaError as exc:
        raise RecordError(f"{where}: deck: {exc}") from None
    moves_raw = raw.get("moves", [])
    if isinstance(moves_raw, str):
        moves_raw = moves_raw.split(None, len(DECK))   # (the 41st item holds the rest: too many)
    if not isinstance(moves_raw, list) or not all(isinstance(m, str) for m in moves_raw[:len(DECK) + 1]):
        raise RecordError(f"{where}: moves must be move text separated by spaces, or a list of them, "
                          f"not {excerpt(moves_raw)}")
    if len(moves_raw) > len(DECK):
        raise RecordError(f"{where}: more than {len(DECK)} moves; a round has at most {len(DECK)} "
                          "(a move plays one card)")
    players = raw.get("players")
    players = _names(players, f"{where}: players", n) if players is not None else None
    hints = _help_from(raw.get("help", []), where, n)
    score = _points(raw["score"], f"{where}: score", rules) if raw.get("score") is not None else None
    totals = _points(raw["totals"], f"{where}: totals", rules) if raw.get("totals") is not None else None
    comments = _comments(raw.get("comments"), where, len(moves_raw)) if raw.get("comments") is not None else {}
    return (RoundRecord(dealer=dealer, deck=deck, moves=list(moves_raw), players=players, help=hints,
                        comments=comments),
            score, totals)


def _comment(text: Any, what: str) -> str:
    """A comment on a move: text of 1 to MAX_COMMENT characters."""
    if not isinstance(text, str) or not text.strip() or len(text) > MAX_COMMENT:
        raise RecordError(f"{what} must be text of 1 to {MAX_COMMENT:,} characters, not {excerpt(text)}")
    return text


def _comments(value: Any, where: str, moves: int) -> dict[int, str]:
    """A round's comments: an object from move numbers ("1" to the round's number of moves) to
    comments (`_comment`)."""
    if not isinstance(value, dict):
        raise RecordError(f"{where}: comments must be an object from move numbers to text, not {excerpt(value)}")
    out = {}
    for key, text in value.items():
        number = int(key) if isinstance(key, str) and key.isascii() and key.isdigit() and len(key) <= 2 else 0
        if not 1 <= number <= moves:
            raise RecordError(f"{where}: comments: {excerpt(key)} is not a move number of the round "
                              f"(1 to {moves})")
        out[number] = _comment(text, f"{where}: the comment on move {number}")
    return out


def _points(value: Any, what: str, rules: Rules) -> tuple[int, ...]:
    """Points of each side (player 0 and player 1 with two players): whole numbers from 0."""
    sides = rules.side_count
    if (not isinstance(value, list) or len(value) != sides
            or not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in value)):
        whose = ("player 0's and player 1's points" if rules.players == 2
                 else f"one per side, sides 0 to {sides - 1}")
        raise RecordError(f"{what} must be {_count(sides)} whole numbers ({whose}), not {excerpt(value)}")
    return tuple(value)


def _count(k: int) -> str:
    return {2: "two", 3: "three", 4: "four", 6: "six"}.get(k, str(k))


def _meta(meta: Any) -> dict[str, Any]:
    """`meta` checked: an object with text keys and JSON values, nested at most MAX_DEPTH deep."""
    if meta is None:
        return {}
    if not isinstance(meta, dict):
        raise RecordError(f"meta must be an object (text keys and JSON values), not {excerpt(meta)}")
    stack: list[tuple[Any, int]] = [(meta, 1)]
    while stack:
        value, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise RecordError(f"meta: nested more than {MAX_DEPTH} deep")
        if isinstance(value, dict):
            for key, item in value.items():
                if not isinstance(key, str):
                    raise RecordError(f"meta: the keys of an object are text, not {excerpt(key)}")
                stack.append((item, depth + 1))
        elif isinstance(value, list):
            stack.extend((item, depth + 1) for item in value)
        elif not (value is None or isinstance(value, (str, int, float))) or isinstance(value, LongNumber):
            raise RecordError(f"meta: {excerpt(value)} is not a JSON value")
    return dict(meta)


def _pair(x: Any) -> str:
    """Points per side as "3-2" (or "3-2-5"); anything else quoted briefly."""
    if isinstance(x, (list, tuple)) and 1 < len(x) <= 6 and all(isinstance(v, int) for v in x):
        return _dash(x)
    return excerpt(x)


def _dash(points: Sequence[int]) -> str:
    return "-".join(map(str, points))


def _names(names: Any, what: str, players: int = 2) -> tuple[str, ...]:
    """One name per seat: `players` non-empty texts of at most MAX_NAME characters."""
    if isinstance(names, str) or not isinstance(names, (list, tuple)) or len(names) != players \
            or not all(isinstance(n, str) and n and len(n) <= MAX_NAME for n in names):
        seats = "player 0, player 1" if players == 2 else f"one per seat, players={players}"
        raise RecordError(f"{what} must be {_count(players)} names ({seats}) of 1 to {MAX_NAME} "
                          f"characters, not {excerpt(names)}")
    return tuple(names)


# -- help: the hints a player asked for ----------------------------------------------------------

@dataclass(frozen=True)
class Hint:
    """A hint asked for in play, kept in the record as help: before move `move` (1-based, in
    its round) `seat` asked, and was suggested the move `suggested` (text) with its fair value
    `value` (the mean points over the worlds, None when not known). JSON: ``{"move": 3,
    "seat": 0, "suggested": "7dx3s+4s", "value": 1.25}``."""

    move: int
    seat: int
    suggested: str
    value: Optional[float] = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"move": self.move, "seat": self.seat, "suggested": self.suggested}
        if self.value is not None:
            out["value"] = self.value
        return out


def _help_from(raw: Any, where: str, players: int) -> list[Hint]:
    """A round's ``help`` read: a list of hints (`Hint`), each checked for its types here and
    against the round's positions when it is replayed (`_check_help`)."""
    if not isinstance(raw, list) or len(raw) > 1000:
        raise RecordError(f"{where}: help must be a list of hints (at most 1000), not {excerpt(raw)}")
    out = []
    for j, h in enumerate(raw):
        what = f"{where}: hint {j + 1}"
        if not isinstance(h, dict):
            raise RecordError(f"{what}: expected an object with move, seat and suggested, not {excerpt(h)}")
        move = whole(h.get("move"), f"{what}: move", RecordError, tuple(range(1, len(DECK) + 1)))
        seat = whole(h.get("seat"), f"{what}: seat", RecordError, tuple(range(players)))
        suggested = h.get("suggested")
        if not isinstance(suggested, str) or not 0 < len(suggested) <= 40:
            raise RecordError(f"{what}: suggested must be move text, not {excerpt(suggested)}")
        value = h.get("value")
        if value is not None and (not isinstance(value, (int, float)) or isinstance(value, (bool, LongNumber))
                                  or value != value or abs(value) > 1000):
            raise RecordError(f"{what}: value must be a number of points or null, not {excerpt(value)}")
        out.append(Hint(move, seat, suggested, None if value is None else float(value)))
    return out


def _check_help(rec: RoundRecord, k: int, pos: Position, where: str) -> None:
    """The hints of `rec` asked before move `k + 1` (at `pos`): the seat to move asked, and
    was suggested a legal move; after the last move (`k == len(rec.moves)`), none later."""
    for j, h in enumerate(rec.help):
        if not isinstance(h, Hint):
            raise RecordError(f"{where}: hint {j + 1} is not a Hint but {excerpt(h)}")
        what = f"{where}, hint {j + 1}"
        if h.move > len(rec.moves) + 1 or (h.move == k + 1 and pos.is_round_over()):
            raise RecordError(f"{what}: asked before move {h.move}, but the round has "
                              f"{plural(len(rec.moves), 'move')}")
        if h.move != k + 1:
            continue
        if h.seat != pos.to_move:
            raise RecordError(f"{what}: seat {h.seat} asked before move {h.move}, but seat "
                              f"{pos.to_move} was to move")
        try:
            Move.parse(h.suggested, pos)
        except ScopaError as exc:
            raise RecordError(f"{what}: the suggested move: {exc}") from None
