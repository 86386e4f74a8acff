"""Readable text pictures of positions, moves and scores for the terminal."""
from __future__ import annotations

from .cards import cards_text, iter_cards
from .position import Position, RoundScore


def cards_line(mask: int) -> str:
    return " ".join(str(c) for c in iter_cards(mask)) or "(none)"


def show_position(pos: Position) -> str:
    """A multi-line picture: hands, table, piles, stock and whose turn it is."""
    lines = []
    for p in (0, 1):
        tags = []
        if p == pos.dealer:
            tags.append("dealer")
        if p == pos.to_move and not pos.is_round_over():
            tags.append("to move")
        tag = f" ({', '.join(tags)})" if tags else ""
        pile = pos.piles[p]
        lines.append(f"player {p}{tag}: hand {cards_line(pos.hands[p])}")
        lines.append(f"  captured {bin(pile).count('1')} cards"
                     f" ({bin(pile & 0x3FF).count('1')} coins{', settebello' if pile >> 6 & 1 else ''})"
                     f", scopas {pos.scopas[p]}")
    lines.insert(2, f"table: {cards_line(pos.table)}")
    lines.append(f"stock: {len(pos.stock)} cards ({pos.deals_left} deals)")
    if pos.is_round_over():
        lines.append("round over")
    return "\n".join(lines)


def show_score(score: RoundScore) -> str:
    """An aligned table of the round score breakdown."""
    def mark(winner, p):
        return "*" if winner == p else " "

    rows = [f"{'':12}{'player 0':>10}{'player 1':>10}"]
    a, b = score.players
    rows.append(f"{'cards':12}{a.cards:>9}{mark(score.carte, 0)}{b.cards:>9}{mark(score.carte, 1)}")
    rows.append(f"{'coins':12}{a.coins:>9}{mark(score.denari, 0)}{b.coins:>9}{mark(score.denari, 1)}")
    rows.append(f"{'settebello':12}{'yes' if a.settebello else '-':>9}{mark(score.settebello, 0)}"
                f"{'yes' if b.settebello else '-':>9}{mark(score.settebello, 1)}")
    prim = [str(x.primiera) if x.primiera is not None else "-" for x in (a, b)]
    rows.append(f"{'primiera':12}{prim[0]:>9}{mark(score.primiera, 0)}{prim[1]:>9}{mark(score.primiera, 1)}")
    if score.re_bello is not None or a.re_bello or b.re_bello:
        rows.append(f"{'re bello':12}{'yes' if a.re_bello else '-':>9}{mark(score.re_bello, 0)}"
                    f"{'yes' if b.re_bello else '-':>9}{mark(score.re_bello, 1)}")
    if a.napola or b.napola:
        rows.append(f"{'napola':12}{a.napola:>9} {b.napola:>9} ")
    rows.append(f"{'scopas':12}{a.scopas:>9} {b.scopas:>9} ")
    rows.append(f"{'points':12}{a.points:>9} {b.points:>9} ")
    return "\n".join(rows)
