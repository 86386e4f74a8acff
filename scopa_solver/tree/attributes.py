"""The attributes of a tree's nodes and edges: a move's edge (every tree), and the positions of
the minimax and pv trees with their values, cards and, at the end of the round, the score.

>>> from scopa_solver import Position
>>> pos = Position(hands=("7d", "3c"), table="4s 3s", dealer=1)
>>> move_attributes(pos.legal_moves()[0], 0, True)
{'move': '7dx3s+4s', 'card': '7d', 'captures': '3s+4s', 'player': 0, 'scopa': True}
"""
from __future__ import annotations

from typing import Optional

from ..core.cards import cards_text
from ..core.position import Move, Position, RoundScore

__all__ = ["move_attributes", "edge_attributes", "node_attributes", "score_attributes"]


def move_attributes(move: Move, player: int, scopa: bool) -> dict:
    """The attributes of a move's edge: the move's text, its card, the cards it captures (``+``
    between them), the player making it (-1: unknown) and whether it scored a scopa."""
    return dict(move=str(move), card=str(move.card),
                captures="+".join(str(c) for c in sorted(move.captures)),
                player=player, scopa=bool(scopa))


def score_attributes(score: RoundScore, rules) -> dict:
    """The round score breakdown as flat attributes, ``_p0``, ``_p1``, ... per player (per side
    in the family games); winners: a player (side), or -1 for nobody."""
    sides = score.players
    ks = range(len(sides))

    def who(w: Optional[int]) -> int:
        return -1 if w is None else w

    out: dict = {}
    for name, get in (("points", lambda x: x.points), ("cards", lambda x: x.cards),
                      ("coins", lambda x: x.coins),
                      ("primiera", lambda x: -1 if x.primiera is None else x.primiera),
                      ("scopas", lambda x: x.scopas)):
        out.update({f"{name}_p{k}": get(sides[k]) for k in ks})
    out.update(carte=who(score.carte), denari=who(score.denari), settebello=who(score.settebello),
               primiera=who(score.primiera))
    if rules.re_bello:
        out["re_bello"] = who(score.re_bello)
    if rules.napola:
        out.update({f"napola_p{k}": sides[k].napola for k in ks})
    # English as the rest of the output (play.display's score table: cards, coins): the keys
    # above keep the scoring's names, the data's field names since the first trees
    parts = [f"cards {_w(score.carte)}", f"coins {_w(score.denari)}",
             f"settebello {_w(score.settebello)}", f"primiera {_w(score.primiera)}"]
    if rules.re_bello:
        parts.append(f"re bello {_w(score.re_bello)}")
    if any(x.napola for x in sides):
        parts.append(f"napola {'-'.join(str(x.napola) for x in sides)}")
    parts.append(f"scopas {'-'.join(str(x.scopas) for x in sides)}")
    out["score"] = f"{'-'.join(str(x.points) for x in sides)} ({', '.join(parts)})"
    return out


def _w(winner: Optional[int]) -> str:
    return "-" if winner is None else f"P{winner}"


def edge_attributes(pos: Position, move: Move, scopa: bool, value: int, optimal: bool) -> dict:
    """The attributes of a minimax or pv edge: the move's (`move_attributes`), its exact `value`
    for the player making it and whether that is the best (`optimal`); `pv` starts False."""
    return dict(move_attributes(move, pos.to_move, scopa), value=value, optimal=optimal, pv=False)


def node_attributes(pos: Position, depth: int, value: int, kind: str = "position",
                     margin: bool = True, dealt: bool = False) -> dict:
    """The attributes of a minimax or pv node: the position, `value` for the side to move and
    (`margin` trees: two sides, objective "value") for player 0, the cards in each place,
    `dealt` (the move into it dealt new hands from the stock) and, at the end of the round,
    the score (`score_attributes`), the mover's `side` and every seat's hand and scopas. `pv`,
    `expanded` and `truncated` start False."""
    terminal = pos.is_round_over()
    rules = pos.rules
    attrs = dict(kind=kind, position=pos.to_string(), to_move=pos.to_move, depth=depth, value=value)
    if margin:
        attrs["value_p0"] = value if rules.sides[pos.to_move] == rules.sides[0] else -value
    attrs.update(terminal=terminal, dealt=dealt, pv=False, expanded=False, truncated=False,
                 table=cards_text(pos.table), hand0=cards_text(pos.hands[0]),
                 hand1=cards_text(pos.hands[1]), stock=len(pos.stock),
                 scopas0=pos.scopas[0], scopas1=pos.scopas[1])
    attrs["side"] = rules.sides[pos.to_move]
    for p in range(2, rules.players):
        attrs[f"hand{p}"] = cards_text(pos.hands[p])
        attrs[f"scopas{p}"] = pos.scopas[p]
    if terminal:
        attrs.update(score_attributes(pos.round_score(), rules))
    return attrs
