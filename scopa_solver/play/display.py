"""Readable text pictures of positions, moves and scores for the terminal.

Two players: each hand and pile in turn, the table between them. The family games (docs/
family.md): four players sit around the table (player 0 South, the turn passing to East, North,
West), three or six are listed in turn; every seat's pile with its counts, the piles pooled
per side when partners share them, the scopas and the stock.

>>> from scopa_solver import Position
>>> print(show_position(Position.from_string("7d/3c/Rb 4s3s -/-/- - 0/0/0 0 2 - players=3")))
player 0 (to move): hand 7d
  captured 0 cards (0 coins), scopas 0
player 1: hand 3c
  captured 0 cards (0 coins), scopas 0
player 2 (dealer): hand Rb
  captured 0 cards (0 coins), scopas 0
table: 3s 4s
stock: 0 cards (0 deals)
"""
from __future__ import annotations

from typing import Optional, Sequence

from ..core.cards import COINS_MASK, SETTEBELLO_MASK, iter_cards, popcount
from ..core.position import Position, RoundScore
from ..text import plural


def cards_line(mask: int) -> str:
    return " ".join(str(c) for c in iter_cards(mask)) or "(none)"


def _picture(hands: tuple[str, str], table: int, piles: tuple[int, ...], scopas: tuple[int, ...],
             dealer: int, to_move: int, over: bool, stock: str) -> str:
    """The lines shared by two-player positions and views: each side's hand and pile, the
    table, the stock."""
    lines = []
    for p in (0, 1):
        lines.append(f"player {p}{_tags(p, dealer, to_move, over)}: hand {hands[p]}")
        lines.append(f"  {_pile_text(piles[p], scopas[p])}")
    lines.insert(2, f"table: {cards_line(table)}")
    lines.append(f"stock: {stock}")
    return "\n".join(lines)


def _tags(p: int, dealer: int, to_move: int, over: bool) -> str:
    tags = ["dealer"] if p == dealer else []
    if p == to_move and not over:
        tags.append("to move")
    return f" ({', '.join(tags)})" if tags else ""


def _pile_text(pile: int, scopas: int) -> str:
    return (f"captured {plural(popcount(pile), 'card')} ({plural(popcount(pile & COINS_MASK), 'coin')}"
            f"{', settebello' if pile & SETTEBELLO_MASK else ''}), scopas {scopas}")


def _seat_blocks(state, hands: Sequence[str], names: Optional[Sequence[str]] = None) -> list[list[str]]:
    """Each seat's lines: who (dealer, to move), the hand (`hands[p]`: cards, or a hidden
    count in a view), the pile."""
    over = state.is_round_over()
    return [[f"player {p}{', ' + names[p] if names else ''}{_tags(p, state.dealer, state.to_move, over)}",
             f"hand {hands[p]}", _pile_text(state.piles[p], state.scopas[p])] for p in range(state.rules.players)]


def _family_picture(state, hands: Sequence[str], stock: str, names: Optional[Sequence[str]] = None,
                    south: int = 0) -> str:
    """The family games, of a position or a view (`hands`: each seat's hand as text): four
    seats around the table (N/E/S/W, seat `south` at the bottom), else one seat after another;
    then the sides' pooled piles (partnerships), the table and the stock."""
    rules = state.rules
    blocks = _seat_blocks(state, hands, names)
    table = f"table: {cards_line(state.table)}"
    if rules.players == 4:
        left = max(len(line) for line in blocks[(south + 3) % 4]) + 6    # West's column
        pad = " " * max(24, left // 2)

        def block(b: list[str], mark: str) -> list[str]:
            return [f"{mark}  {b[0]}"] + [f"    {line}" for line in b[1:]]

        n_, e_, s_, w_ = (block(blocks[(south + k) % 4], m) for k, m in ((2, "N"), (1, "E"), (0, "S"), (3, "W")))
        lines = [pad + line for line in n_] + [""]
        lines += [f"{w:<{left}}{e}" for w, e in zip(w_, e_)]
        lines += ["", pad + table, ""] + [pad + line for line in s_]
    else:
        lines = [line for b in blocks for line in (f"{b[0]}: {b[1]}", f"  {b[2]}")] + [table]
    if rules.side_count < rules.players:      # partners pool their piles: the sides' counts
        for side in range(rules.side_count):
            seats = [p for p in range(rules.players) if rules.sides[p] == side]
            pile = 0
            for p in seats:
                pile |= state.piles[p]
            lines.append(f"side {side} (players {', '.join(map(str, seats))}): "
                         + _pile_text(pile, sum(state.scopas[p] for p in seats)))
    lines.append(f"stock: {stock}")
    text = "\n".join(line.rstrip() for line in lines)
    return text + "\nround over" if state.is_round_over() else text


def _stock_text(pos: Position) -> str:
    return f"{plural(len(pos.stock), 'card')} ({plural(pos.deals_left, 'deal')})"


def show_position(pos: Position) -> str:
    """A multi-line picture: hands, table, piles, stock and whose turn it is (every game of the
    family: see the module docstring)."""
    if pos.rules.players != 2:
        return _family_picture(pos, [cards_line(h) for h in pos.hands], _stock_text(pos))
    text = _picture((cards_line(pos.hands[0]), cards_line(pos.hands[1])), pos.table, pos.piles, pos.scopas,
                    pos.dealer, pos.to_move, pos.is_round_over(),
                    _stock_text(pos))
    return text + "\nround over" if pos.is_round_over() else text


def show_score(score: RoundScore, names: Optional[Sequence[str]] = None) -> str:
    """An aligned table of the round score breakdown (``*`` marks who won each point): one
    column per player, per side in the family games (named "side 0", ... when partners share
    a side)."""
    sides = score.players
    if names is None:
        shared = score.seat_sides is not None and len(set(score.seat_sides)) < len(score.seat_sides)
        names = tuple(f"{'side' if shared else 'player'} {k}" for k in range(len(sides)))
    w = max(9, *(len(n) + 1 for n in names))

    def row(label: str, cells: tuple, winner=None) -> str:
        return f"{label:12}" + "".join(
            f"{str(c):>{w}}{'*' if winner == p else ' '}" for p, c in enumerate(cells))

    rows = [f"{'':12}" + "".join(f"{n:>{w}} " for n in names),
            row("cards", tuple(x.cards for x in sides), score.carte),
            row("coins", tuple(x.coins for x in sides), score.denari),
            row("settebello", tuple("yes" if x.settebello else "-" for x in sides), score.settebello),
            row("primiera", tuple(x.primiera if x.primiera is not None else "-" for x in sides), score.primiera)]
    if score.re_bello is not None or any(x.re_bello for x in sides):
        rows.append(row("re bello", tuple("yes" if x.re_bello else "-" for x in sides), score.re_bello))
    if any(x.napola for x in sides):
        rows.append(row("napola", tuple(x.napola for x in sides)))
    rows.append(row("scopas", tuple(x.scopas for x in sides)))
    rows.append(row("points", tuple(x.points for x in sides)))
    return "\n".join(r.rstrip() for r in rows)


def show_view(view, names: Optional[Sequence[str]] = None) -> str:
    """A multi-line picture of what one player knows (a `View`): the own hand, the card count
    of every hidden hand (the opponent's; in the family games the partner's too), the table,
    every pile, the stock. `names` (family games): a name shown beside each seat. Four players
    sit around the table with the view's player at the bottom (South).

    >>> from scopa_solver import Position, Rules
    >>> view = Position.new_round(seed=1, rules=Rules(players=4, game="scopone")).view(0)
    >>> picture = show_view(view)
    >>> "hand 9 hidden cards" in picture, picture.count("hidden cards"), "stock: 0 hidden cards" in picture
    (True, 4, True)
    """
    stock = f"{plural(view.stock_cards, 'hidden card')} ({plural(view.deals_left, 'deal')})"
    if view.rules.players != 2:
        hands = [plural(count, "hidden card") for count in view.hidden_hands]
        hands[view.player] = cards_line(view.hand)
        return _family_picture(view, hands, stock, names, south=view.player)
    hands = [plural(view.opponent_cards, "hidden card")] * 2
    hands[view.player] = cards_line(view.hand)
    return _picture((hands[0], hands[1]), view.table, view.piles, view.scopas, view.dealer, view.to_move,
                    view.is_round_over(), stock)
