"""The one-line position notation, shared by Position and View.

Fields, separated by spaces::

    HAND0/HAND1 TABLE PILE0/PILE1 STOCK SCOPAS0/SCOPAS1 TO_MOVE DEALER LAST [OPTIONS...]

Cards are written canonically and concatenated (``7dRbAc``); ``-`` is an empty set. The stock
is in deal order. ``?`` is one hidden card, and a field of hidden cards only may be written
``?N`` (``?30`` for a hidden stock). LAST is ``0``, ``1`` or ``-`` (nobody has captured yet).
OPTIONS are the non-default rules (``napola``, ``target=21``, ``redeal_three_kings=0``).
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

    hands: tuple[list[Card], list[Card]]
    hidden_hands: tuple[int, int]
    table: list[Card]
    piles: tuple[list[Card], list[Card]]
    stock: list[Optional[Card]]          # None: a hidden card
    scopas: tuple[int, int]
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


def _pair(text: str, what: str) -> tuple[str, str]:
    parts = text.split("/")
    if len(parts) != 2:
        raise NotationError(f"{what} must be two parts separated by '/', not {excerpt(text)}")
    return parts[0], parts[1]


def _number(text: str, what: str, allowed: tuple) -> int:
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
    h0, h1 = _pair(tokens[0], "hands")
    hands = (_cards_field(h0, "hand 0", hidden_ok), _cards_field(h1, "hand 1", hidden_ok))
    table = _cards_field(tokens[1], "table", False)
    p0, p1 = _pair(tokens[2], "capture piles")
    piles = (_cards_field(p0, "pile 0", False), _cards_field(p1, "pile 1", False))
    stock = _cards_field(tokens[3], "stock", hidden_ok)
    s0, s1 = _pair(tokens[4], "scopas")
    if not all(re.fullmatch(r"-?[0-9]{1,2}", x) for x in (s0, s1)):
        raise NotationError(f"scopas must be two numbers like 0/1, not {excerpt(tokens[4])}")
    scopas = (int(s0), int(s1))
    to_move = _number(tokens[5], "side to move", (0, 1))
    dealer = _number(tokens[6], "dealer", (0, 1))
    last = None if tokens[7] == "-" else _number(tokens[7], "last capturer", (0, 1))
    try:
        rules = Rules.from_tokens(tokens[8:])
    except RulesError as exc:
        raise NotationError(str(exc)) from None
    return Fields(
        hands=tuple([c for c in h if c is not None] for h in hands),  # type: ignore[arg-type]
        hidden_hands=tuple(h.count(None) for h in hands),  # type: ignore[arg-type]
        table=table, piles=piles, stock=stock, scopas=scopas, to_move=to_move, dealer=dealer,
        last_capturer=last, rules=rules)  # type: ignore[arg-type]


def hidden_text(known: int, hidden: int) -> str:
    """Cards of a set with `hidden` unknown ones: ``?3`` when all are hidden."""
    if hidden and not known:
        return "?" if hidden == 1 else f"?{hidden}"
    return cards_text(known, "") + "?" * hidden or "-"


def stock_text(stock: tuple) -> str:
    return "".join(str(c) for c in stock) or "-"


def format_line(hands: tuple[str, str], table: int, piles: tuple[int, int], stock: str,
                scopas: tuple[int, int], to_move: int, dealer: int,
                last_capturer: Optional[int], rules: Rules) -> str:
    fields = [f"{hands[0]}/{hands[1]}", cards_text(table),
              f"{cards_text(piles[0])}/{cards_text(piles[1])}", stock,
              f"{scopas[0]}/{scopas[1]}", str(to_move), str(dealer),
              "-" if last_capturer is None else str(last_capturer)]
    return " ".join(fields + rules.tokens())
