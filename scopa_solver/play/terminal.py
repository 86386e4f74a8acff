"""A game of Scopa in the terminal: a human against a bot (``scopa-solver play``), or, in the
family games, a human with bot partners against bot opponents.

The human types a card (``7d``; a bare rank like ``7`` when only one card in hand has it), or a
whole move (``7dx3c+4s``); when the card can capture in several ways the choices are listed,
numbered, and the human picks one. ``moves`` lists every legal move, ``help`` explains the
cards, ``hint`` suggests a move (the fair suggestion from the human's view, `play.hints`;
recorded as help in the record), ``quit`` (or end of input) stops. Bad input is explained and asked again. The game is
kept in a `GameRecord` as it is played.
"""
from __future__ import annotations

import contextlib
import random
import sys
from typing import Any, Callable, Optional, Sequence, TextIO, Union

from ..core.cards import COINS_MASK, RANKS, SUIT_NAMES, SUITS, Card, iter_cards, popcount
from .display import cards_line, show_score, show_view
from ..errors import CardError, IllegalMoveError
from ..core.position import Move, Position
from .game import tell_round
from .record import GameRecord
from ..core.flow import match_winner
from ..text import plural

__all__ = ["play_game", "Quit", "describe_move", "read_line"]

HELP = f"""Cards are rank then suit: ranks {' '.join(RANKS)} (A = 1, F = 8, C = 9, R = 10; a card
captures its value), suits {', '.join(f'{s} {n}' for s, n in zip(SUITS, SUIT_NAMES))}. 7d is the settebello.
Type a card to play it (7d, or just 7 when you hold one seven). When it can capture in several
ways you are asked which. You may also type a whole move: 7dx3c+4s plays 7d and takes 3c and 4s.
'moves' lists your legal moves, 'hint' suggests a move from what you see (recorded as help
in the game record), 'quit' stops (the game is saved)."""


class Quit(Exception):
    """The human asked to stop (``quit``), the input ended or the output is gone."""


def read_line(prompt: str) -> str:
    """`input`, with a closed standard input as the end of input (EOFError)."""
    if sys.stdin is None or getattr(sys.stdin, "closed", False):
        raise EOFError
    try:
        return input(prompt)
    except RuntimeError:        # input(): lost sys.stdin
        raise EOFError from None


def describe_move(name: str, move: Move, scopa: bool) -> str:
    """``PIMC(100) plays 7s and takes 7d`` / ``you lay down 4c``, with ``SCOPA!``."""
    verb = "play" if name == "you" else "plays"
    if not move.captures:
        return f"{name} {'lay' if name == 'you' else 'lays'} down {move.card}"
    taken = " + ".join(str(c) for c in sorted(move.captures))
    return f"{name} {verb} {move.card} and {'take' if name == 'you' else 'takes'} {taken}" + (
        "  SCOPA!" if scopa else "")


def picture(pos: Position, human: int, names: Sequence[str]) -> str:
    """What the human sees: the own hand, the opponent's card count, table, piles, stock."""
    width = max(len(n) for n in names) + 2
    lines = []

    def pile(p: int) -> str:
        m = pos.piles[p]
        extra = ", settebello" if m >> 6 & 1 else ""
        return (f"captured {plural(popcount(m), 'card'):>8} ({plural(popcount(m & COINS_MASK), 'coin')}{extra}), "
                f"scopas {pos.scopas[p]}")

    bot = 1 - human
    tag = " (dealer)" if pos.dealer == bot else ""
    lines.append(f"  {names[bot] + tag:<{width + 9}} {popcount(pos.hands[bot])} card{'' if popcount(pos.hands[bot]) == 1 else 's'} in hand{' ' if popcount(pos.hands[bot]) == 1 else ''}   {pile(bot)}")
    lines.append(f"  {'table':<{width + 9}} {cards_line(pos.table)}")
    tag = " (dealer)" if pos.dealer == human else ""
    lines.append(f"  {names[human] + tag:<{width + 9}} {cards_line(pos.hands[human]):<17} {pile(human)}")
    lines.append(f"  {'stock':<{width + 9}} {plural(len(pos.stock), 'card')} "
                 f"({plural(pos.deals_left, 'more deal')})")
    return "\n".join(lines)


def _rank_cards(text: str, hand: int) -> Optional[list[Card]]:
    """The cards in `hand` of the rank `text` names (``7``, ``F``, ``K``), or None if it names no rank."""
    aliases = {r: i + 1 for i, r in enumerate(RANKS)}
    aliases.update({str(n): n for n in range(1, 11)})
    aliases.update({"J": 8, "Q": 9, "K": 10})
    rank = aliases.get(text.upper())
    if rank is None:
        return None
    return [c for c in iter_cards(hand) if c.rank == rank]


def ask_move(pos: Position, ask: Callable[[str], str], say: Callable[[str], None]) -> Move:
    """Read the human's move, explaining bad input and asking again."""
    moves = pos.legal_moves()
    hand = pos.hands[pos.to_move]
    while True:
        text = ask("your move: ").strip()
        low = text.lower()
        if not text:
            say("  type a card from your hand (like " + str(next(iter_cards(hand))) + "), 'moves' or 'help'")
            continue
        if low in ("quit", "exit", "q"):
            raise Quit
        if low in ("help", "h", "?"):
            say(HELP)
            continue
        if low in ("moves", "m", "legal"):
            say("  your legal moves: " + ", ".join(map(str, moves)))
            continue
        if "x" in low:
            try:
                return Move.parse(text.replace("X", "x"), pos)
            except IllegalMoveError as exc:
                say(f"  {exc}")
                continue
        cards = _rank_cards(text, hand)
        if cards is not None:
            if len(cards) != 1:
                say(f"  you hold no card of that rank; your hand: {cards_line(hand)}" if not cards else
                    f"  you hold {' and '.join(map(str, cards))}: say which (like {cards[0]})")
                continue
            card = cards[0]
        else:
            try:
                card = Card.parse(text)
            except CardError:
                say(f"  {text!r} is not a card: write rank then suit, like {next(iter_cards(hand))} "
                    "(type 'help' for the cards)")
                continue
        if not card.mask & hand:
            say(f"  you do not hold {card}; your hand: {cards_line(hand)}")
            continue
        choices = [m for m in moves if m.card == card]
        if len(choices) == 1:
            return choices[0]
        say(f"  {card} can capture in {len(choices)} ways:")
        for i, m in enumerate(choices, 1):
            say(f"    {i}) {' + '.join(str(c) for c in sorted(m.captures))}")
        chosen = _ask_choice(choices, ask, say)
        if chosen is not None:
            return chosen


def _ask_choice(choices: list[Move], ask: Callable[[str], str], say: Callable[[str], None]) -> Optional[Move]:
    """Which capture: a number, or the move text; empty input goes back to the card."""
    while True:
        text = ask(f"which capture (1-{len(choices)}, empty to choose another card)? ").strip()
        if not text:
            return None
        if text.lower() in ("quit", "exit", "q"):
            raise Quit
        if text.lower() in ("help", "h", "?", "moves", "m", "legal"):
            say("  " + ", ".join(f"{i}) {m}" for i, m in enumerate(choices, 1)))
            continue
        if text.isdigit() and 1 <= int(text) <= len(choices):
            return choices[int(text) - 1]
        for m in choices:
            if text in (str(m), "+".join(str(c) for c in sorted(m.captures))):
                return m
        say(f"  answer with a number from 1 to {len(choices)}")


def _sides_line(rules, names: Sequence[str], human: Optional[int]) -> str:
    """Who plays with whom: ``you (player 0) and Greedy 2 (player 2) against ...``."""
    sides = [[p for p in range(rules.players) if rules.sides[p] == k] for k in range(rules.side_count)]
    if human is not None:       # your side first
        sides.sort(key=lambda seats: human not in seats)
    return " against ".join(" and ".join(f"{names[p]} (player {p})" for p in seats) for seats in sides)


def _hinting(ask: Callable[[str], str], say: Callable[[str], None], pos: Position,
             rec: Any) -> Callable[[str], str]:
    """`ask`, answering ``hint`` itself at `pos`: the fair suggestion from the human's view,
    recorded in the round `rec` as help (`play.hints`), then asked again."""
    def read(prompt: str) -> str:
        while True:
            text = ask(prompt)
            if text.strip().lower() != "hint":
                return text
            from .hints import ask_hint, describe_hint
            found, result = ask_hint(pos, rec)
            say(f"  {describe_hint(found)}; from your view over {plural(result.worlds, 'world')} "
                "(recorded as help)")
    return read


def play_game(bot: Union[Callable[[Position], Any], Sequence[Optional[Callable[[Position], Any]]]], *,
              record: GameRecord, human: Optional[int] = 0, seed: Optional[int] = None,
              rounds: Optional[int] = None, ask: Optional[Callable[[str], str]] = None,
              out: Optional[TextIO] = None) -> GameRecord:
    """Play a match (to `record.rules.target`, or at most `rounds` rounds) of the human (player
    `human`) against `bot`, appending every round and move to `record` as it goes (so that the
    record holds the game so far if the human quits: `Quit`, or Ctrl-C). The seat before the
    human's deals first, so that the human leads the first round.

    Every game of the family (`record.rules`): `bot` plays every other seat, or is a list of
    one bot per seat (the human's entry is ignored). The human sees their own view only: their
    hand, the card count of every other hand (a partner's too), the table and the piles.
    `human=None` lets the bots play every seat (a game to watch; nothing is asked).

    `ask(prompt) -> str` reads a line (default: `read_line`; EOFError or an OSError ends the game
    like ``quit``, text that is not valid in the input's encoding is asked again), `out`
    receives the dialogue (default: stdout; when it fails the game ends like ``quit``)."""
    out = out or sys.stdout
    ask = ask or read_line
    rules = record.rules
    n = rules.players
    names = record.players
    bots: list[Optional[Callable[[Position], Any]]] = [bot] * n if callable(bot) else list(bot)
    if len(bots) != n or any(b is None and p != human for p, b in enumerate(bots)):
        raise ValueError(f"play_game needs a bot for every seat but the human's ({n} players)")
    family = n != 2

    def say(text: str = "") -> None:
        try:
            out.write(text + "\n")
            out.flush()
        except (OSError, ValueError, AttributeError):   # the output is gone: nobody sees the game
            raise Quit from None

    def read(prompt: str) -> str:
        while True:
            try:
                if out is sys.stdout:
                    return ask(prompt)
                with contextlib.redirect_stdout(out):  # input() writes its prompt to sys.stdout
                    return ask(prompt)
            except UnicodeDecodeError:
                say("  that was not readable text: type it again")
            except (EOFError, OSError):     # end of input, or the terminal is gone
                with contextlib.suppress(Quit):
                    say()
                raise Quit from None

    rng = random.Random(seed)
    totals = [0] * rules.side_count
    dealer = ((0 if human is None else human) - 1) % n
    played = 0
    match = f"match to {rules.target} points" if rounds is None else f"{plural(rounds, 'round')}, match to {rules.target}"
    if family or human is None:
        say(f"Scopa{', ' + ' '.join(rules.tokens()) if family else ''}: {_sides_line(rules, names, human)}, {match}."
            + ("" if human is None else " Type 'help' for how to enter moves."))
    else:
        say(f"Scopa: {names[human]} against {names[1 - human]}, {match}. Type 'help' for how to enter moves.")
    while rounds is None or played < rounds:
        deck = Position.shuffled_deck(rng.getrandbits(64), rules)
        rec = record.new_round(dealer, deck)
        pos = rec.start(rules)
        tell_round([b for b in bots if b is not None], tuple(totals), rules.target)
        played += 1
        sides = record.side_names(len(record.rounds) - 1)
        say()
        say(f"=== round {len(record.rounds)}: {names[dealer]} deals; score "
            + ", ".join(f"{sides[k]} {totals[k]}" for k in range(rules.side_count)) + " ===")
        while not pos.is_round_over():
            p = pos.to_move
            if p == human:
                say()
                say(show_view(pos.view(human), names) if family else picture(pos, human, names))
                move = ask_move(pos, _hinting(read, say, pos, rec), say)
            else:
                chooser = bots[p]
                assert chooser is not None      # checked above: every seat but the human's has a bot
                move = Move.parse(chooser(pos), pos)
            scopa = pos.is_scopa(move)
            after = pos.play(move)
            rec.moves.append(move)
            say(("  " if p == human else "> ") + describe_move(names[p] if p != human else "you", move, scopa))
            if after.is_round_over() and after.last_capturer is not None:
                left = after.piles[after.last_capturer] & ~pos.piles[after.last_capturer] & pos.table
                left &= ~sum(c.mask for c in move.captures)
                if left:
                    say(f"  the last table cards ({cards_line(left)}) go to {names[after.last_capturer]}, "
                        "who captured last")
            elif len(after.stock) < len(pos.stock):
                say(f"  new deal: {popcount(after.hands[p])} cards each "
                    f"({plural(after.deals_left, 'more deal')} in the stock)")
            pos = after
        score = pos.round_score()
        totals = [t + k for t, k in zip(totals, score.total)]
        say()
        say(f"round {len(record.rounds)} over:")
        say(show_score(score, sides))
        say("match: " + ", ".join(f"{sides[k]} {totals[k]}" for k in range(rules.side_count))
            + f" (target {rules.target})")
        winner = match_winner(totals, rules.target)
        if winner is not None:
            ours = human is not None and rules.sides[human] == winner
            others = sorted((t for k, t in enumerate(totals) if k != winner), reverse=True)
            several = ours or rules.sides.count(winner) > 1     # "you win", "Ann & Cid win"
            say(f"{sides[winner]} {'win' if several else 'wins'} the match "
                f"{totals[winner]}-{others[0]}")
            break
        dealer = (dealer + 1) % n
    return record
