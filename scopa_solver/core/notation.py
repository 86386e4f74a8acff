"""The one-line position notation, shared by Position and View.

Fields, separated by spaces::

    HAND0/HAND1 TABLE PILE0/PILE1 STOCK SCOPAS0/SCOPAS1 TO_MOVE DEALER LAST [OPTIONS...]

Cards are written canonically and concatenated (``7dRbAc``); ``-`` is an empty set. The stock
is in deal order. ``?`` is one hidden card, and a field of hidden cards only may be written
``?N`` (``?30`` for a hidden stock). LAST is ``0``, ``1`` or ``-`` (nobody has captured yet).
OPTIONS are the non-default rules (``napola``, ``target=21``, ``redeal_three_kings=0``).

With N players (docs/FAMILY.md) hands, piles and scopas have N slash-separated parts, one per
seat, and TO_MOVE, DEALER and LAST are seats; the options name the game (``players=3``,
``game=scopone``, ...). The options are read first, so that every field count is checked
against ``players``.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Optional

from .cards import Card, cards_text, split_card_text
from ..errors import CardError, NotationError, RulesError, excerpt
from .rules import Rules

_HIDDEN_RUN = re.compile(r"\?(\d+)")


@dataclass
class Fields:
    """The raw content of a notation line: card lists (with hidden counts), numbers, rules."""

    hands: tuple[list[Card], ...]        # one per seat
    hidden_hands: tuple[int, ...]
    table: list[Card]
    piles: tuple[list[Card], ...]
    stock: list[Optional[Card]]          # None: a hidden card
    scopas: tuple[int, ...]
    to_move: int
    dealer: int
    last_capturer: Optional[int]
    rules: Rules


def _cards_field(text: str, what: str, hidden_ok: bool) -> list[Optional[Card]]:
    """Cards and hidden cards (None) of one field."""
    if text == "-":
        return []
    if len(text) > 200:     # forty cards take 80 characters
        raise NotationError(f"{what}: {excerpt(text)} is far too long for a set of the 40 cards")
    run = _HIDDEN_RUN.fullmatch(text)
    if run:
        digits = run.group(1)
        if len(digits) > 2 or int(digits) > 40:       # checked before anything is made of it
            raise NotationError(f"{what}: ?{excerpt(digits, 12)[1:-1]} hides more cards than the deck's 40")
        cards: list[Optional[Card]] = [None] * int(digits)
    else:
        cards = []
        for part in re.split(r"(\?)", text):
            if part == "?":
                cards.append(None)
            elif part:
                try:
                    cards.extend(Card.parse(t) for t in split_card_text(part))
                except CardError as exc:
                    raise NotationError(f"{what}: {exc}") from None
    if None in cards and not hidden_ok:
        raise NotationError(f"{what}: hidden cards '?' are only allowed in a view")
    return cards


_COUNTS = {2: "two", 3: "three", 4: "four", 6: "six"}


def _parts(text: str, what: str, n: int) -> list[str]:
    """The `n` slash-separated parts of a per-seat field."""
    parts = text.split("/")
    if len(parts) != n:
        game = "" if n == 2 else f" (players={n})"
        raise NotationError(f"{what} must be {_COUNTS[n]} parts separated by '/'{game}, not {excerpt(text)}")
    return parts


def _number(text: str, what: str, allowed: tuple[int, ...]) -> int:
    for value in allowed:
        if text == str(value):
            return value
    raise NotationError(f"{what} must be one of {', '.join(map(str, allowed))}, not {excerpt(text)}")


def parse(text: str, hidden_ok: bool = False) -> Fields:
    """Split a notation line into its fields; every problem is a NotationError naming the field."""
    if not isinstance(text, str):
        raise NotationError(f"position text must be a string, not {type(text).__name__}")
    if len(text) > 2000:
        raise NotationError(f"position text of {len(text):,} characters is far too long for a position")
    tokens = text.split()
    if len(tokens) < 8:
        raise NotationError(
            f"position text has {len(tokens)} fields, needs 8: "
            "HAND0/HAND1 TABLE PILE0/PILE1 STOCK SCOPAS0/SCOPAS1 TO_MOVE DEALER LAST")
    try:
        rules = Rules.from_tokens(tokens[8:])
    except RulesError as exc:
        raise NotationError(str(exc)) from None
    n = rules.players
    hands = [_cards_field(h, f"hand {p}", hidden_ok) for p, h in enumerate(_parts(tokens[0], "hands", n))]
    table = _cards_field(tokens[1], "table", False)
    piles = tuple(_cards_field(x, f"pile {p}", False) for p, x in enumerate(_parts(tokens[2], "capture piles", n)))
    stock = _cards_field(tokens[3], "stock", hidden_ok)
    parts = _parts(tokens[4], "scopas", n)
    if not all(re.fullmatch(r"-?[0-9]{1,2}", x) for x in parts):
        example = "/".join("0" * n)
        raise NotationError(f"scopas must be {_COUNTS[n]} numbers like {example}, not {excerpt(tokens[4])}")
    scopas = tuple(int(x) for x in parts)
    seats = tuple(range(n))
    to_move = _number(tokens[5], "side to move" if n == 2 else "seat to move", seats)
    dealer = _number(tokens[6], "dealer", seats)
    last = None if tokens[7] == "-" else _number(tokens[7], "last capturer", seats)
    return Fields(
        hands=tuple(_known(h) for h in hands),
        hidden_hands=tuple(h.count(None) for h in hands),
        table=_known(table), piles=tuple(_known(p) for p in piles), stock=stock, scopas=scopas, to_move=to_move,
        dealer=dealer, last_capturer=last, rules=rules)


def _known(cards: list[Optional[Card]]) -> list[Card]:
    """The cards of a field without its hidden ones (a table or pile has none)."""
    return [c for c in cards if c is not None]


def hidden_text(known: int, hidden: int) -> str:
    """Cards of a set with `hidden` unknown ones: ``?3`` when all are hidden."""
    if hidden and not known:
        return "?" if hidden == 1 else f"?{hidden}"
    return cards_text(known, "") + "?" * hidden or "-"


def stock_text(stock: tuple[Optional[Card], ...]) -> str:
    return "".join(str(c) for c in stock) or "-"


def format_line(hands: tuple[str, ...], table: int, piles: tuple[int, ...], stock: str,
                scopas: tuple[int, ...], to_move: int, dealer: int,
                last_capturer: Optional[int], rules: Rules) -> str:
    fields = ["/".join(hands), cards_text(table), "/".join(cards_text(p) for p in piles), stock,
              "/".join(map(str, scopas)), str(to_move), str(dealer),
              "-" if last_capturer is None else str(last_capturer)]
    return " ".join(fields + rules.tokens())
