"""Game records: a match, or a set of independent rounds, as versioned JSON.

A record holds the rules, the players' names and, for each round, the dealer, the whole deck in
deal order and the moves played. Replaying it reproduces every position exactly; a record whose
moves do not replay is rejected with a `RecordError` naming the first bad move. `scopa-solver
play` and `scopa-solver arena --save` write records, `scopa-solver review` reads them.

The file (version 1; README "Game records" documents every field)::

    {
      "format": "scopa-solver-game",
      "version": 1,
      "kind": "match",
      "rules": ["target=21"],
      "players": ["you", "PIMC(100)"],
      "date": "2025-05-01T18:30:00",
      "rounds": [
        {"dealer": 1,
         "deck": "FdCc4s7c2s3s7dAc5s7s...",
         "moves": "Fdx7d+Ac 7sx5s ...",
         "score": [3, 2]}
      ],
      "totals": [3, 2],
      "winner": null
    }

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
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Callable, Iterable, Iterator, Optional, Sequence, Union

from ..core.cards import Card, card_list, iter_cards, parse_cards
from ..core.flow import match_winner, redeal_needed
from ..errors import RecordError, ScopaError
from ..core.position import Move, Position, RoundScore
from ..core.rules import Rules

__all__ = ["GameRecord", "RoundRecord", "ReplayedRound", "RecordingBot", "rounds_from_log",
           "FORMAT", "VERSION"]

FORMAT = "scopa-solver-game"
VERSION = 1
KINDS = ("match", "rounds")


def _walk(position: Position, moves: Iterable[Move]) -> Iterator[Position]:
    for move in moves:
        position = position.play(move)
        yield position


def _deck_from_start(start: Position) -> tuple[Card, ...]:
    """The deck in deal order that `Position.from_deck` turns into the round start `start`."""
    if not start.is_round_start() or start.to_move != 1 - start.dealer:
        raise RecordError("not the start of a round: 3 + 3 cards in the hands, 4 on the table, "
                          "30 in the stock, nothing captured, the non-dealer to move")
    nondealer = 1 - start.dealer
    return (tuple(iter_cards(start.hands[nondealer])) + tuple(iter_cards(start.hands[start.dealer]))
            + tuple(iter_cards(start.table)) + tuple(start.stock))


@dataclass
class RoundRecord:
    """One round: the dealer, the 40 cards in deal order (3 to the non-dealer, 3 to the dealer,
    4 to the table, then the stock in deal order) and the moves played. `players` overrides the
    record's names for this round (an arena swaps the seats between the two plays of a deal)."""

    dealer: int
    deck: tuple[Card, ...]
    moves: list[Move] = field(default_factory=list)
    players: Optional[tuple[str, str]] = None

    @classmethod
    def from_play(cls, start: Position, moves: Iterable[Union[Move, str]] = (),
                  players: Optional[Sequence[str]] = None) -> "RoundRecord":
        """The record of a round from its start position and the moves played from it."""
        deck = _deck_from_start(start)
        rec = cls(dealer=start.dealer, deck=deck, players=tuple(players) if players else None)
        pos = start
        for move in moves:
            move = Move.parse(move, pos)
            rec.moves.append(move)
            pos = pos.play(move)
        return rec

    def start(self, rules: Rules = Rules()) -> Position:
        return Position.from_deck(self.deck, dealer=self.dealer, rules=rules)

    def to_dict(self) -> dict:
        out: dict[str, Any] = {"dealer": self.dealer, "deck": "".join(map(str, self.deck)),
                               "moves": " ".join(map(str, self.moves))}
        if self.players:
            out["players"] = list(self.players)
        return out


@dataclass
class ReplayedRound:
    """A round replayed from its record: `positions[i]` is the position before move i, and
    `positions[-1]` the position after the last move."""

    number: int                      # 1-based
    record: RoundRecord
    players: tuple[str, str]
    positions: list[Position]

    @property
    def moves(self) -> list[Move]:
        return self.record.moves

    @property
    def start(self) -> Position:
        return self.positions[0]

    @property
    def final(self) -> Position:
        return self.positions[-1]

    @property
    def finished(self) -> bool:
        return self.final.is_round_over()

    @property
    def score(self) -> Optional[RoundScore]:
        """The round score (None while the round is unfinished)."""
        return self.final.round_score() if self.finished else None


class GameRecord:
    """A match (`kind="match"`: the deal alternates and rounds go on until a player reaches
    `rules.target`) or independent rounds (`kind="rounds"`, as an arena plays them).

    Build one with `add_round` (or `new_round` and appending moves to it), save it with `save` /
    `to_json`, read one with `load` / `from_json` (which replay and check every move)."""

    def __init__(self, rules: Rules = Rules(), players: Sequence[str] = ("player 0", "player 1"),
                 rounds: Iterable[RoundRecord] = (), kind: str = "match", date: Optional[str] = None,
                 meta: Optional[dict] = None) -> None:
        if not isinstance(rules, Rules):
            raise RecordError(f"rules must be a Rules value, not {type(rules).__name__}")
        if kind not in KINDS:
            raise RecordError(f"kind must be one of {', '.join(KINDS)}, not {kind!r}")
        self.rules = rules
        self.players = _names(players, "players")
        self.rounds: list[RoundRecord] = list(rounds)
        self.kind = kind
        self.date = date if date is not None else datetime.now().isoformat(timespec="seconds")
        self.meta = dict(meta or {})

    def __repr__(self) -> str:
        return (f"GameRecord(kind={self.kind!r}, players={self.players!r}, rules={self.rules!r}, "
                f"rounds={len(self.rounds)})")

    # -- building ------------------------------------------------------------------------------

    def new_round(self, dealer: int, deck: Sequence[Union[Card, str]],
                  players: Optional[Sequence[str]] = None) -> RoundRecord:
        """Append an empty round dealt from `deck` (40 cards in deal order) and return it."""
        cards = tuple(card_list(deck if isinstance(deck, str) else list(deck), "deck"))
        rec = RoundRecord(dealer=dealer, deck=cards, players=_names(players, "players") if players else None)
        self.rounds.append(rec)
        return rec

    def add_round(self, round_record: RoundRecord) -> ReplayedRound:
        """Append a round (checked by replaying it) and return it replayed."""
        self.rounds.append(round_record)
        try:
            return self.replay()[-1]
        except RecordError:
            self.rounds.pop()
            raise

    # -- replay --------------------------------------------------------------------------------

    def round_players(self, index: int) -> tuple[str, str]:
        """The names of player 0 and player 1 in round `index` (0-based)."""
        return self.rounds[index].players or self.players

    def replay(self) -> list[ReplayedRound]:
        """Every round replayed, every move checked. Raises RecordError naming the first bad
        move, a deck that is not 40 distinct cards, a dealer out of turn in a match, an
        unfinished round before the last, or a round played after the match was won."""
        out: list[ReplayedRound] = []
        totals = [0, 0]
        for i, rec in enumerate(self.rounds):
            where = f"round {i + 1}"
            if rec.dealer not in (0, 1) or isinstance(rec.dealer, bool):
                raise RecordError(f"{where}: the dealer must be 0 or 1, not {rec.dealer!r}")
            if self.kind == "match":
                if out and not out[-1].finished:
                    raise RecordError(f"round {i}: stops after {len(out[-1].moves)} moves, before the end "
                                      f"of the round, but round {i + 1} follows")
                if out and rec.dealer == out[-1].record.dealer:
                    raise RecordError(f"{where}: the deal alternates, so player {1 - rec.dealer} deals, "
                                      f"not player {rec.dealer}")
                if match_winner(totals, self.rules.target) is not None:
                    raise RecordError(f"{where}: the match was already won ({totals[0]}-{totals[1]}, "
                                      f"target {self.rules.target})")
            elif out and not out[-1].finished:
                raise RecordError(f"round {i}: stops after {len(out[-1].moves)} moves, before the end "
                                  f"of the round, but round {i + 1} follows")
            start = self._start(rec, where)
            names = self.round_players(i)
            positions = [start]
            pos = start
            for k, move in enumerate(rec.moves):
                try:
                    move = Move.parse(move, pos)
                except ScopaError as exc:
                    who = (f" (player {pos.to_move}, {names[pos.to_move]})" if not pos.is_round_over()
                           else "")
                    raise RecordError(f"{where}, move {k + 1}{who}: {exc}") from None
                rec.moves[k] = move
                pos = pos.play(move)
                positions.append(pos)
            replayed = ReplayedRound(number=i + 1, record=rec, players=names, positions=positions)
            if replayed.finished:
                for p in (0, 1):
                    totals[p] += replayed.score.total[p]  # type: ignore[union-attr]
            out.append(replayed)
        return out

    def _start(self, rec: RoundRecord, where: str) -> Position:
        try:
            cards = card_list(list(rec.deck), "deck")
            if len(cards) != 40:
                raise RecordError(f"the deck has {len(cards)} cards; a deck in deal order has all 40")
            parse_cards(cards, "the deck")
        except ScopaError as exc:
            raise RecordError(f"{where}: deck: {exc}") from None
        if redeal_needed(cards[6:10], self.rules):
            kings = sum(1 for c in cards[6:10] if c.rank == 10)
            raise RecordError(f"{where}: deck: {kings} kings on the table, which the rules deal again "
                              "(redeal_three_kings)")
        return Position.from_deck(cards, dealer=rec.dealer, rules=self.rules)

    def positions(self) -> Iterator[tuple[int, int, Position, Optional[Move]]]:
        """(round number, move number, position, move played there or None at the end), in play order."""
        for r in self.replay():
            for k, pos in enumerate(r.positions):
                yield r.number, k + 1, pos, (r.moves[k] if k < len(r.moves) else None)

    @property
    def totals(self) -> tuple[int, int]:
        """Points of player 0 and player 1 over the finished rounds."""
        totals = [0, 0]
        for r in self.replay():
            if r.finished:
                for p in (0, 1):
                    totals[p] += r.score.total[p]  # type: ignore[union-attr]
        return (totals[0], totals[1])

    @property
    def winner(self) -> Optional[int]:
        """The match winner (0 or 1), None while undecided or for independent rounds."""
        if self.kind != "match":
            return None
        return match_winner(list(self.totals), self.rules.target)

    # -- JSON ----------------------------------------------------------------------------------

    def to_dict(self) -> dict:
        replayed = self.replay()
        rounds = []
        totals = [0, 0]
        for r in replayed:
            d = r.record.to_dict()
            if r.finished:
                d["score"] = list(r.score.total)  # type: ignore[union-attr]
                for p in (0, 1):
                    totals[p] += r.score.total[p]  # type: ignore[union-attr]
            rounds.append(d)
        out: dict[str, Any] = {"format": FORMAT, "version": VERSION, "kind": self.kind,
                               "rules": self.rules.tokens(), "players": list(self.players),
                               "date": self.date}
        if self.meta:
            out["meta"] = self.meta
        out["rounds"] = rounds
        out["totals"] = totals
        if self.kind == "match":
            out["winner"] = match_winner(totals, self.rules.target)
        return out

    def to_json(self) -> str:
        """The record as JSON text: short lists and objects on one line, the rest indented."""
        return _dumps(self.to_dict()) + "\n"

    def save(self, path: Union[str, "os.PathLike[str]"]) -> str:
        """Write the record as JSON; returns the path."""
        text = self.to_json()
        try:
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
        except OSError as exc:
            raise RecordError(f"cannot write {os.fspath(path)}: {exc.strerror or exc}") from None
        return os.fspath(path)

    @classmethod
    def from_dict(cls, data: Any) -> "GameRecord":
        """Read and check a record (see the module docstring for the fields)."""
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise RecordError(f'not a scopa-solver game record (no "format": "{FORMAT}")')
        version = data.get("version")
        if not isinstance(version, int) or isinstance(version, bool) or version < 1:
            raise RecordError(f"the record's version must be a whole number, not {version!r}")
        if version > VERSION:
            raise RecordError(f"the record is version {version}, written by a newer scopa-solver; "
                              f"this one reads version {VERSION}")
        kind = data.get("kind", "match")
        if kind not in KINDS:
            raise RecordError(f"kind must be one of {', '.join(KINDS)}, not {kind!r}")
        tokens = data.get("rules", [])
        if isinstance(tokens, str):
            tokens = tokens.split()
        if not isinstance(tokens, list) or not all(isinstance(t, str) for t in tokens):
            raise RecordError(f"rules must be a list of option tokens like \"target=21\", not {tokens!r}")
        try:
            rules = Rules.from_tokens(tokens)
        except ScopaError as exc:
            raise RecordError(f"rules: {exc}") from None
        players = _names(data.get("players", ("player 0", "player 1")), "players")
        raw_rounds = data.get("rounds")
        if not isinstance(raw_rounds, list):
            raise RecordError("the record has no list of rounds")
        rounds = []
        for i, raw in enumerate(raw_rounds):
            where = f"round {i + 1}"
            if not isinstance(raw, dict):
                raise RecordError(f"{where}: expected an object with dealer, deck and moves")
            dealer = raw.get("dealer")
            if dealer not in (0, 1) or isinstance(dealer, bool):
                raise RecordError(f"{where}: the dealer must be 0 or 1, not {dealer!r}")
            deck_raw = raw.get("deck")
            if not isinstance(deck_raw, (str, list)):
                raise RecordError(f"{where}: the deck must be the 40 cards in deal order, as text or a list")
            try:
                deck = tuple(card_list(deck_raw, "deck"))
            except ScopaError as exc:
                raise RecordError(f"{where}: deck: {exc}") from None
            moves_raw = raw.get("moves", [])
            if isinstance(moves_raw, str):
                moves_raw = moves_raw.split()
            if not isinstance(moves_raw, list) or not all(isinstance(m, str) for m in moves_raw):
                raise RecordError(f"{where}: moves must be move text separated by spaces, or a list of them")
            round_players = _names(raw["players"], f"{where}: players") if raw.get("players") else None
            rounds.append((RoundRecord(dealer=dealer, deck=deck, moves=list(moves_raw), players=round_players),
                           raw.get("score")))
        date = data.get("date")
        meta = data.get("meta") or {}
        if not isinstance(meta, dict):
            raise RecordError("meta must be an object")
        record = cls(rules=rules, players=players, rounds=[r for r, _ in rounds], kind=kind,
                     date=str(date) if date is not None else "", meta=meta)
        replayed = record.replay()
        for r, (_, score) in zip(replayed, rounds):
            if score is None:
                continue
            if not r.finished:
                raise RecordError(f"round {r.number}: a score is given but the moves stop before the end "
                                  f"of the round (after {len(r.moves)} moves)")
            if list(score) != list(r.score.total):  # type: ignore[union-attr]
                raise RecordError(f"round {r.number}: the record says the score is {_pair(score)} but "
                                  f"the moves score {_pair(r.score.total)}")  # type: ignore[union-attr]
        totals = record.totals
        if "totals" in data and list(data["totals"] or ()) != list(totals):
            raise RecordError(f"the record's totals {_pair(data['totals'])} disagree with its rounds, "
                              f"which score {_pair(totals)}")
        if kind == "match" and data.get("winner") is not None and data["winner"] != record.winner:
            raise RecordError(f"the record names player {data['winner']} the winner, but the rounds "
                              f"({_pair(totals)}, target {rules.target}) say "
                              + ("nobody yet" if record.winner is None else f"player {record.winner}"))
        return record

    @classmethod
    def from_json(cls, text: str) -> "GameRecord":
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RecordError(f"not JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})") from None
        return cls.from_dict(data)

    @classmethod
    def load(cls, path: Union[str, "os.PathLike[str]"]) -> "GameRecord":
        """Read a record file; every problem is a RecordError that names the file."""
        name = os.fspath(path)
        try:
            with open(path, encoding="utf-8") as f:
                text = f.read()
        except OSError as exc:
            raise RecordError(f"cannot read {name}: {exc.strerror or exc}") from None
        except UnicodeDecodeError:
            raise RecordError(f"{name}: not a text file") from None
        try:
            return cls.from_json(text)
        except RecordError as exc:
            raise RecordError(f"{name}: {exc}") from None


def _dumps(obj: Any, indent: str = "", width: int = 100) -> str:
    flat = json.dumps(obj, ensure_ascii=False)
    if len(flat) + len(indent) <= width or not isinstance(obj, (dict, list)) or not obj:
        return flat
    inner = indent + "  "
    if isinstance(obj, dict):
        items = [f"{inner}{json.dumps(k, ensure_ascii=False)}: {_dumps(v, inner, width)}" for k, v in obj.items()]
        return "{\n" + ",\n".join(items) + f"\n{indent}}}"
    items = [inner + _dumps(v, inner, width) for v in obj]
    return "[\n" + ",\n".join(items) + f"\n{indent}]"


def _pair(x: Any) -> str:
    try:
        a, b = x
        return f"{a}-{b}"
    except (TypeError, ValueError):
        return repr(x)


def _names(names: Any, what: str) -> tuple[str, str]:
    if isinstance(names, str) or not isinstance(names, (list, tuple)) or len(names) != 2 \
            or not all(isinstance(n, str) and n for n in names):
        raise RecordError(f"{what} must be two names (player 0, player 1), not {names!r}")
    return (names[0], names[1])


# -- recording bots ------------------------------------------------------------------------------

Log = list  # of (bot name, position, move)


class RecordingBot:
    """Wraps a chooser (position -> move) and appends (name, position, move) to `log` at every
    decision, so that the rounds an arena plays can be saved (`rounds_from_log`)."""

    def __init__(self, bot: Callable[[Position], Any], log: Log) -> None:
        self.bot = bot
        self.log = log
        self.name = getattr(bot, "name", None) or getattr(bot, "__name__", None) or type(bot).__name__

    def __call__(self, position: Position) -> Move:
        move = Move.parse(self.bot(position), position)
        self.log.append((self.name, position, move))
        return move


def rounds_from_log(log: Sequence[tuple[str, Position, Move]]) -> list[RoundRecord]:
    """Split a decision log (of `RecordingBot`s sharing it) into round records, with the names
    of the bots that sat as player 0 and player 1 in each round."""
    rounds: list[RoundRecord] = []
    names: list[list[Optional[str]]] = []
    expected: Optional[Position] = None
    for name, pos, move in log:
        if expected is None or pos != expected:
            if not pos.is_round_start():
                raise RecordError("the decision log does not follow one round after another")
            rounds.append(RoundRecord.from_play(pos))
            names.append([None, None])
        rounds[-1].moves.append(move)
        seat = names[-1]
        if seat[pos.to_move] is None:
            seat[pos.to_move] = name
        expected = pos.play(move)
    for rec, seat in zip(rounds, names):
        rec.players = (seat[0] or "player 0", seat[1] or "player 1")
    return rounds
