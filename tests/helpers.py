"""Bridges between the package and the reference oracle, and seeded random positions.

Only the tests use this: it converts a Position of any game to the reference's RefState through
card text (the reference shares no code with the package) and makes reproducible random positions."""
from __future__ import annotations

import random
from typing import Callable, Iterator, Optional, Sequence

from reference import RefRules, RefState

from scopa_solver import Position, Rules
from scopa_solver.core.cards import iter_cards

VARIANTS = {
    "default": Rules(),
    "asso_piglia_tutto": Rules(asso_piglia_tutto=True),
    "ace_sweep_is_scopa": Rules(asso_piglia_tutto=True, ace_sweep_is_scopa=True),
    "re_bello": Rules(re_bello=True),
    "napola": Rules(napola=True),
    "fewest_cards": Rules(fewest_cards=True),
    "primiera_zero": Rules(primiera_missing_suit="zero"),
}


# The games of the family the tests run over: every player count, with partnerships or each
# alone, the two Scopone games and Scopa a 15. A test file takes the ones it needs (`games`)
# and adds the rule variants it is about.
GAMES = {
    "scopa": Rules(),
    "scopa a 15": Rules(capture="fifteen"),
    "3 players": Rules(players=3),
    "4 players": Rules(players=4),
    "4 alone": Rules(players=4, partnerships=False),
    "6 players": Rules(players=6),
    "6 alone": Rules(players=6, partnerships=False),
    "scopone": Rules(players=4, game="scopone"),
    "scientifico": Rules(players=4, game="scientifico"),
}


def games(*names: str, more: Optional[dict] = None) -> dict[str, Rules]:
    """The games of GAMES `names` (all of them when none is named), then `more` {name: Rules}."""
    out = {name: GAMES[name] for name in (names or GAMES)}
    out.update(more or {})
    return out


def cli_text(rules: Rules) -> str:
    """The rule options of a game as typed after --rules (players=4 game=scopone)."""
    return " ".join(rules.tokens())


def cards_to_play(state) -> int:
    """The cards still in the hands and the stock, of a Position or of a kernel KernelState."""
    if isinstance(state, Position):
        return sum(state.hand_sizes()) + state.stock_size()
    return sum(bin(m).count("1") for m in list(state.hands) + [m for d in state.deals for m in d])


def late(rules: Rules, seed: int, cards_left: int, play_seed: Optional[int] = None,
         choose: Optional[Callable[[Sequence], object]] = None) -> Position:
    """A position reached by play from `Position.new_round(seed=seed)`, with at most `cards_left`
    cards still in the hands and the stock: random moves (`random.Random(play_seed)`, by default
    the deal's seed), or the move `choose(legal moves)` picks."""
    pos = Position.new_round(seed=seed, rules=rules)
    rng = random.Random(seed if play_seed is None else play_seed)
    choose = choose or rng.choice
    while cards_to_play(pos) > cards_left:
        pos = pos.play(choose(pos.legal_moves()))
    return pos


def middle(moves: Sequence):
    """The middle one of the legal moves (a deterministic `choose` for `late`)."""
    return moves[len(moves) // 2]


def played(rules: Rules, seed: int, plays: int) -> Position:
    """A round of `rules` after `plays` random moves (fewer if the round ends first)."""
    rng = random.Random(seed)
    pos = Position.new_round(seed=seed, rules=rules)
    for _ in range(plays):
        if pos.is_round_over():
            break
        pos = pos.play(rng.choice(pos.legal_moves()))
    return pos


def few_worlds(rules: Rules, seed: int, most: int = 300) -> Position:
    """A position of `rules` (not over) whose mover's view has at most `most` worlds (and more
    than one, with more than one legal move)."""
    rng = random.Random(seed)
    for attempt in range(200):
        pos = Position.new_round(seed=seed * 1000 + attempt, rules=rules)
        while not pos.is_round_over():
            view = pos.view(pos.to_move)
            if 1 < view.count_worlds() <= most and len(view.legal_moves()) > 1:
                return pos
            pos = pos.play(rng.choice(pos.legal_moves()))
    raise AssertionError("no small position found")


def play_down(state, rng: random.Random, cards_left: int):
    """A kernel KernelState played at random (`rng`) until at most `cards_left` cards are in the
    hands and the stock."""
    from scopa_solver.kernel import legal_moves, play
    while cards_to_play(state) > cards_left:
        state, _ = play(state, rng.choice(legal_moves(state)))
    return state


# The rule options of a round, the same fields in the package's Rules and the reference's RefRules.
RULE_FIELDS = ("players", "game", "partnerships", "capture", "optional_capture", "last_sweep_counts",
               "asso_piglia_tutto", "ace_sweep_is_scopa", "fewest_cards", "re_bello", "napola",
               "primiera_missing_suit", "redeal_three_kings")


def ref_rules(rules: Rules) -> RefRules:
    """The reference's rules of a game (the match options, such as the target, play no part)."""
    return RefRules(**{f: getattr(rules, f) for f in RULE_FIELDS})


def package_rules(rules: RefRules) -> Rules:
    """The package's rules of a reference game."""
    return Rules(**{f: getattr(rules, f) for f in RULE_FIELDS})


def texts(mask: int) -> list[str]:
    return [str(c) for c in iter_cards(mask)]


def to_ref(pos: Position) -> RefState:
    """The same position as the reference's RefState (the stock in its order, dealt by the
    reference's rule)."""
    return RefState(hands=[texts(h) for h in pos.hands], table=texts(pos.table),
                    piles=[texts(p) for p in pos.piles], scopas=pos.scopas,
                    stock=[str(c) for c in pos.stock], to_move=pos.to_move, dealer=pos.dealer,
                    last_capturer=pos.last_capturer, rules=ref_rules(pos.rules))


def move_set(pos: Position) -> set[tuple[str, frozenset[str]]]:
    """The package's legal moves in the reference's form."""
    return {(str(m.card), frozenset(str(c) for c in m.captures)) for m in pos.legal_moves()}


def random_positions(count: int, seed: int, rules: Rules = Rules(),
                     deals_left: Optional[int] = None, cards_in_hands: Optional[int] = None) -> Iterator[Position]:
    """`count` positions reached by uniformly random play from seeded new rounds.

    With `deals_left`, only positions with that many deals still in the stock; with
    `cards_in_hands` (1..6), only positions with that many cards left in both hands together.
    Otherwise every position along each random round is a candidate, one picked at random."""
    rng = random.Random(seed)
    made = 0
    while made < count:
        pos = Position.new_round(seed=rng.getrandbits(32), rules=rules, dealer=rng.randrange(2))
        line = [pos]
        while not pos.is_round_over():
            pos = pos.play(rng.choice(pos.legal_moves()))
            line.append(pos)
        candidates = [p for p in line
                      if (deals_left is None or (p.deals_left == deals_left and not p.is_round_over()))
                      and (cards_in_hands is None
                           or bin(p.hands[0]).count("1") + bin(p.hands[1]).count("1") == cards_in_hands)]
        if candidates:
            yield rng.choice(candidates)
            made += 1


def run_cli(capsys, *argv: str, stdin: Optional[str] = None) -> tuple[int, str, str]:
    """The command line run in-process: its exit code, stdout and stderr (`stdin`: the text it
    reads, for the interactive commands)."""
    import io
    import sys
    from scopa_solver.cli import main
    old = sys.stdin
    if stdin is not None:
        sys.stdin = io.StringIO(stdin)
    try:
        code = main(list(argv))
    finally:
        sys.stdin = old
    out, err = capsys.readouterr()
    return code, out, err


def run_cli_json(capsys, *argv: str) -> object:
    """A command's `--json` answer, parsed (it must succeed)."""
    import json
    code, out, err = run_cli(capsys, *argv, "--json")
    assert code == 0, err
    return json.loads(out)


def count_plays(monkeypatch) -> list:
    """A list that gets one entry per `Position.play_events` call from now on (how often a
    record is replayed)."""
    calls: list = []
    play = Position.play_events

    def counting(self, move):
        calls.append(1)
        return play(self, move)

    monkeypatch.setattr(Position, "play_events", counting)
    return calls
