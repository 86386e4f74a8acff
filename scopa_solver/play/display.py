"""Readable text pictures of positions, moves and scores for the terminal."""
from __future__ import annotations

from ..core.cards import COINS_MASK, SETTEBELLO_MASK, iter_cards, popcount
from ..core.position import Position, RoundScore


def cards_line(mask: int) -> str:
    return " ".join(str(c) for c in iter_cards(mask)) or "(none)"


def _picture(hands: tuple[str, str], table: int, piles: tuple[int, int], scopas: tuple[int, int],
             dealer: int, to_move: int, over: bool, stock: str) -> str:
    """The lines shared by positions and views: each side's hand and pile, the table, the stock."""
    lines = []
    for p in (0, 1):
        tags = ["dealer"] if p == dealer else []
        if p == to_move and not over:
            tags.append("to move")
        tag = f" ({', '.join(tags)})" if tags else ""
        pile = piles[p]
        lines.append(f"player {p}{tag}: hand {hands[p]}")
        lines.append(f"  captured {popcount(pile)} cards"
                     f" ({popcount(pile & COINS_MASK)} coins{', settebello' if pile & SETTEBELLO_MASK else ''})"
                     f", scopas {scopas[p]}")
    lines.insert(2, f"table: {cards_line(table)}")
    lines.append(f"stock: {stock}")
    return "\n".join(lines)


def show_position(pos: Position) -> str:
    """A multi-line picture: hands, table, piles, stock and whose turn it is."""
    text = _picture((cards_line(pos.hands[0]), cards_line(pos.hands[1])), pos.table, pos.piles, pos.scopas,
                    pos.dealer, pos.to_move, pos.is_round_over(),
                    f"{len(pos.stock)} cards ({pos.deals_left} deals)")
    return text + "\nround over" if pos.is_round_over() else text


def show_score(score: RoundScore, names: tuple = ("player 0", "player 1")) -> str:
    """An aligned table of the round score breakdown (``*`` marks who won each point)."""
    w = max(9, *(len(n) + 1 for n in names))

    def row(label: str, cells: tuple, winner=None) -> str:
        return f"{label:12}" + "".join(
            f"{str(c):>{w}}{'*' if winner == p else ' '}" for p, c in enumerate(cells))

    a, b = score.players
    rows = [f"{'':12}" + "".join(f"{n:>{w}} " for n in names),
            row("cards", (a.cards, b.cards), score.carte),
            row("coins", (a.coins, b.coins), score.denari),
            row("settebello", tuple("yes" if x.settebello else "-" for x in (a, b)), score.settebello),
            row("primiera", tuple(x.primiera if x.primiera is not None else "-" for x in (a, b)), score.primiera)]
    if score.re_bello is not None or a.re_bello or b.re_bello:
        rows.append(row("re bello", tuple("yes" if x.re_bello else "-" for x in (a, b)), score.re_bello))
    if a.napola or b.napola:
        rows.append(row("napola", (a.napola, b.napola)))
    rows.append(row("scopas", (a.scopas, b.scopas)))
    rows.append(row("points", (a.points, b.points)))
    return "\n".join(r.rstrip() for r in rows)


def show_view(view) -> str:
    """A multi-line picture of what one player knows (a `View`): the own hand, the opponent's
    card count, the table, both piles, the stock."""
    hands = [f"{view.opponent_cards} hidden cards"] * 2
    hands[view.player] = cards_line(view.hand)
    return _picture((hands[0], hands[1]), view.table, view.piles, view.scopas, view.dealer, view.to_move,
                    view.is_round_over(), f"{view.stock_cards} hidden cards ({view.deals_left} deals)")
