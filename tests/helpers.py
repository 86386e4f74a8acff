"""Bridges between the package and the reference oracle, seeded random positions, and the games
the tests run over.

Only the tests use this: it converts a Position of any game to the reference's RefState through
card text (the reference shares no code with the package), a RefState to the kernel's KernelState
and back, deals kernel states without the package's Position, and makes reproducible random
positions."""
from __future__ import annotations

import random
from typing import Callable, Iterator, Optional, Sequence

import reference as ref
from reference import RefRules, RefState

from scopa_solver import Position, Rules, kernel
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


# Two two-player positions the tree and trace tests draw: SMALL a tree of 15 nodes; EARLY with one
# deal still in the stock, a tree of a few thousand nodes.
SMALL = Position(hands=("7d 2c", "3b 4c"), table="3s 4s", dealer=1)
EARLY = Position.from_string(
    "7cRs4b/7d4s7b 3d4c7sRb Fd3c2sAbFb/Ad2d6dCdAc2c5c6cFcCcRc3s5sFsCs2b3b6bCb 5b5d4d6sRdAs 0/0 0 1 0")


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


# Rule options combined with the games above: the rules and the search of every game run over
# them too (`games(..., more=COMBINED)`).
COMBINED = {
    "scopa a 15, optional capture": Rules(capture="fifteen", optional_capture=True),
    "scopa, last sweep": Rules(last_sweep_counts=True),
    "3 players, a 15": Rules(players=3, capture="fifteen"),
    "scientifico last sweep napola": Rules(players=4, game="scientifico", last_sweep_counts=True, napola=True),
}


_LIMIT_FIELDS = ("nodes", "time", "horizon", "deadline", "tt_mb", "threads")


def with_limit(call: Callable, *args, **kw):
    """`call(*args, Limit(...), **rest)`: a test table's settings (a dict of `Limit` fields and
    other keywords such as `full_window` or `objective`) as one call."""
    limit = kernel.Limit(**{k: kw.pop(k) for k in _LIMIT_FIELDS if k in kw})
    return call(*args, limit, **kw)


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


def round_history(rules: Rules, seed: int) -> list:
    """Every position of one round played at random from `Position.new_round(seed)` (the dealer
    drawn from the seed too), each with the events of the play that reached it (None at the start)."""
    rng = random.Random(seed)
    pos = Position.new_round(seed=seed, rules=rules, dealer=rng.randrange(rules.players))
    out = [(pos, None)]
    while not pos.is_round_over():
        pos, events = pos.play_events(rng.choice(pos.legal_moves()))
        out.append((pos, events))
    return out


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



# -- kernel states of every game, dealt without the package's Position (the kernel's own tests) --

def kernel_deal(players: int, seed: int, game: str = "scopa", rules: int = 0, partnerships: bool = True,
                dealer: int | None = None) -> kernel.KernelState:
    """A new round from a seeded deck in deal order: each seat from the leader its cards, then
    the table, then the stock, 3 cards a seat per deal in seat order from the leader."""
    rng = random.Random(seed)
    deck = list(range(40))
    rng.shuffle(deck)
    dealer = rng.randrange(players) if dealer is None else dealer
    order = [(dealer + 1 + i) % players for i in range(players)]
    per = {"scopa": 3, "scopone": 9, "scientifico": 10}[game]
    hands = [0] * players
    for k, seat in enumerate(order):
        hands[seat] = sum(1 << c for c in deck[k * per:(k + 1) * per])
    pos = per * players
    table_cards = 0 if game == "scientifico" else 4
    table = sum(1 << c for c in deck[pos:pos + table_cards])
    pos += table_cards
    deals = []
    while pos < 40:
        d = [0] * players
        for seat in order:
            d[seat] = sum(1 << c for c in deck[pos:pos + 3])
            pos += 3
        deals.append(tuple(d))
    if players == 3 or not partnerships:
        sides = tuple(range(players))
    else:
        sides = tuple(p % 2 for p in range(players))
    return kernel.KernelState(players, tuple(hands), table, (0,) * players, (0,) * players, order[0], dealer, -1,
                       tuple(deals), rules, sides)


FIFTEEN = kernel.RULE_BITS["fifteen"]
OPTIONAL = kernel.RULE_BITS["optional_capture"]
LAST_SWEEP = kernel.RULE_BITS["last_sweep_counts"]
RULE_BITS = kernel.RULE_BITS

# The kernel's games as kernel_deal's arguments: every table of seats and the rule bits alone
# and combined (rule bits, not Rules: the kernel's own tests build kernel.KernelStates directly).
KERNEL_GAMES = {
    "2 players": dict(players=2),
    "3 players": dict(players=3),
    "4 partnerships": dict(players=4),
    "4 alone": dict(players=4, partnerships=False),
    "6 players": dict(players=6),
    "6 alone": dict(players=6, partnerships=False),
    "scopone": dict(players=4, game="scopone"),
    "scientifico": dict(players=4, game="scientifico"),
    "fifteen 2": dict(players=2, rules=FIFTEEN),
    "fifteen 3": dict(players=3, rules=FIFTEEN),
    "fifteen 4 optional": dict(players=4, rules=FIFTEEN | OPTIONAL),
    "scientifico last sweep": dict(players=4, game="scientifico", rules=LAST_SWEEP),
    "asso piglia tutto": dict(players=4, rules=RULE_BITS["asso_piglia_tutto"] | RULE_BITS["ace_sweep_is_scopa"]),
    "fewest fifteen": dict(players=3, rules=FIFTEEN | RULE_BITS["fewest_cards"]),
    "napola re bello zero": dict(players=3, rules=RULE_BITS["napola"] | RULE_BITS["re_bello"] | RULE_BITS["primiera_zero"]),
}


def final_points(s: kernel.KernelState) -> list[int]:
    return kernel.score(s.piles, s.scopas, s.sides, s.rules)["points"]


def brute_value(s: kernel.KernelState, root_side: int) -> int:
    """Two sides: the root side's margin; more: its points minus the best other side's. Every
    seat of the root side maximises it, every other seat minimises it."""
    moves = kernel.legal_moves(s)
    if not moves:
        p = final_points(s)
        return p[root_side] - max(v for i, v in enumerate(p) if i != root_side)
    values = [brute_value(kernel.play(s, m)[0], root_side) for m in moves]
    return max(values) if s.sides[s.to_move] == root_side else min(values)


# -- the reference's games and states in the kernel's terms ----------------------------------------

# The reference's games: every table of seats, with rule options combined (RefRules).
REF_GAMES = {
    "2p": RefRules(players=2),
    "2p-aces-napola": RefRules(players=2, asso_piglia_tutto=True, napola=True, re_bello=True),
    "2p-fifteen": RefRules(players=2, capture="fifteen"),
    "2p-fifteen-optional": RefRules(players=2, capture="fifteen", optional_capture=True, re_bello=True),
    "3p": RefRules(players=3),
    "3p-fifteen-napola": RefRules(players=3, capture="fifteen", napola=True, primiera_missing_suit="zero"),
    "4p": RefRules(players=4),
    "4p-alone-aces": RefRules(players=4, partnerships=False, asso_piglia_tutto=True, ace_sweep_is_scopa=True),
    "4p-fifteen-fewest": RefRules(players=4, capture="fifteen", fewest_cards=True, optional_capture=True),
    "6p": RefRules(players=6),
    "6p-alone-zero": RefRules(players=6, partnerships=False, primiera_missing_suit="zero", re_bello=True),
    "scopone": RefRules(players=4, game="scopone"),
    "scopone-fewest-aces": RefRules(players=4, game="scopone", fewest_cards=True, asso_piglia_tutto=True,
                                    napola=True),
    "scientifico": RefRules(players=4, game="scientifico"),
    "scientifico-last-sweep": RefRules(players=4, game="scientifico", last_sweep_counts=True, re_bello=True),
}
REF_GAME_NAMES = list(REF_GAMES)
BIT_NAMES = ("asso_piglia_tutto", "ace_sweep_is_scopa", "re_bello", "napola", "fewest_cards",
             "optional_capture", "last_sweep_counts")
SCORE_KEYS = ("cards", "coins", "primiera", "napola", "scopas", "points", "carte", "denari", "settebello",
              "primiera_winner", "re_bello")


def card_mask(cards) -> int:
    """The kernel's mask of reference cards."""
    return sum(1 << ref.DECK.index(c) for c in cards)


def cards_of(m: int) -> frozenset:
    """The reference's cards of a kernel mask."""
    return frozenset(c for i, c in enumerate(ref.DECK) if m >> i & 1)


def rule_bits(r: RefRules) -> int:
    names = [n for n in BIT_NAMES if getattr(r, n)]
    names += ["primiera_zero"] * (r.primiera_missing_suit == "zero") + ["fifteen"] * (r.capture == "fifteen")
    return sum(kernel.RULE_BITS[n] for n in names)


def to_kernel(s: RefState):
    """A reference state as the kernel's KernelState."""
    return kernel.KernelState(
        players=s.rules.players, hands=tuple(card_mask(h) for h in s.hands), table=card_mask(s.table),
        piles=tuple(card_mask(p) for p in s.piles), scopas=tuple(s.scopas), to_move=s.to_move, dealer=s.dealer,
        last_capturer=-1 if s.last_capturer is None else s.last_capturer,
        deals=tuple(tuple(card_mask(h) for h in d) for d in s.deals), rules=rule_bits(s.rules), sides=s.rules.sides())


def from_kernel(k, rules: RefRules) -> RefState:
    """A kernel state as the reference's RefState."""
    return RefState([cards_of(h) for h in k.hands], cards_of(k.table), [cards_of(p) for p in k.piles],
                    k.scopas, to_move=k.to_move, dealer=k.dealer,
                    last_capturer=None if k.last_capturer == -1 else k.last_capturer, rules=rules,
                    deals=[[cards_of(h) for h in d] for d in k.deals])


def unpack(packed: int) -> tuple:
    """A kernel move as the reference's (card, captured cards)."""
    return ref.DECK[packed >> 40], cards_of(packed & ((1 << 40) - 1))


def kernel_order(s: RefState) -> list:
    """The reference state's moves in the kernel's order (the max^n tie rule)."""
    return [unpack(p) for p in kernel.legal_moves(to_kernel(s))]


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


def named_pipe(path) -> "object":
    """A named pipe at `path`, for the tests that it is refused at once. A reader or writer that
    waits on it instead (the bug) is let go every 2 seconds (for a minute) by a thread that
    opens it both ways, so such a test fails on what the code then does rather than hanging.
    Returns the path; the thread is a daemon (nothing to stop)."""
    import os
    import threading
    import time
    os.mkfifo(path)

    def release() -> None:
        for _ in range(30):
            time.sleep(2.0)
            try:
                os.close(os.open(path, os.O_RDWR | os.O_NONBLOCK))
            except OSError:         # gone with its test's folder
                return
    threading.Thread(target=release, daemon=True).start()
    return path


def import_error_without(missing: str, module: str) -> str:
    """The last line a fresh interpreter prints when importing `module` with the third-party
    module `missing` unavailable (the one-line error of an optional extra)."""
    import subprocess
    import sys
    from pathlib import Path
    root = Path(__file__).resolve().parent.parent
    code = f"import sys; sys.modules[{missing!r}] = None; import {module}"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=root,
                         env={"PYTHONPATH": str(root), "PATH": ""})
    assert out.returncode == 1
    return out.stderr.strip().splitlines()[-1]


class RaceEquity:
    """A stand-in match equity of two sides for the tests (the shipped one is measured, issue 42
    part 1): every round the four categories go one by one to either side at even odds, and each
    side sweeps 0, 1 or 2 scopas (1/2, 3/10, 1/5); the chance to win is that of the race to
    `target` under these rounds (the highest total past the target wins; a tie there is even).
    It depends on both sides' totals, not on the lead alone, as a real table does."""

    def __init__(self, target: int = 11) -> None:
        from math import comb
        self.target = target
        scopas = ((0, 0.5), (1, 0.3), (2, 0.2))
        self.rounds = [((k + s0, 4 - k + s1), comb(4, k) / 16 * q0 * q1)
                       for k in range(5) for s0, q0 in scopas for s1, q1 in scopas]
        self._known: dict[tuple[int, int], float] = {}

    def __repr__(self) -> str:
        return f"RaceEquity({self.target})"

    def race(self, mine: int, theirs: int) -> float:
        """The chance that the side with `mine` points wins against `theirs`, before a round."""
        if max(mine, theirs) >= self.target:
            return 0.5 if mine == theirs else float(mine > theirs)
        key = (mine, theirs)
        if key not in self._known:
            self._known[key] = sum(p * self.race(mine + a, theirs + b) for (a, b), p in self.rounds)
        return self._known[key]

    def chance(self, score: Sequence[int], dealer: int, side: int = 0) -> float:
        """As `MatchEquity.chance`: `side`'s chance at `score` before a round (no dealer effect)."""
        return self.race(score[side], score[1 - side])

    def after_round(self, score: Sequence[int], round_points: Sequence[int], dealer: int, side: int) -> float:
        totals = [s + p for s, p in zip(score, round_points)]
        return self.race(totals[side], totals[1 - side])


def race_equity():
    """Install `RaceEquity` as the default match equity (a Match without `equity`, as the CLI and
    the board make): a context manager that puts back the one before."""
    import contextlib
    from scopa_solver.search.match import set_default_equity

    @contextlib.contextmanager
    def installed():
        previous = set_default_equity(lambda rules: RaceEquity(rules.target))
        try:
            yield
        finally:
            set_default_equity(previous)
    return installed()


def disagreement(score: tuple[int, ...], cards_left: int = 18, seeds: Sequence[int] = range(1000),
                 rules: Rules = Rules(), strict: bool = False) -> tuple[Position, set[str], set[str]]:
    """The first seeded late position (`late(rules, seed, cards_left)`) where the two objectives
    disagree: a best move under the round's margin is not a best move under `Match(score)` (the
    installed equity; `strict`: no move is best under both), found by exact search. The
    position, the margin's best moves and the match's."""
    from scopa_solver import Match, analyze
    for seed in seeds:
        pos = late(rules, seed, cards_left)
        if pos.is_round_over():
            continue
        margin, match = analyze(pos), analyze(pos, objective=Match(score))
        best_margin = {str(r.move) for r in margin if r.value == margin[0].value}
        best_match = {str(r.move) for r in match if r.value == match[0].value}
        if not best_margin <= best_match and not (strict and best_margin & best_match):
            return pos, best_margin, best_match
    raise AssertionError(f"no disagreement at {score} in {len(seeds)} seeds")
