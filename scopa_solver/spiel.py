"""Every game of the family as an OpenSpiel game, and bots across the two frameworks.

``import scopa_solver.spiel`` registers ``python_scopa``: one round of any game of the family
(docs/FAMILY.md), its `Rules` as the game's parameters (``players``, ``game``, ``partnerships``,
``capture``, ``optional_capture``, ``last_sweep_counts`` and the rule variants), plus ``dealer``
(-1: the last seat) and ``position`` (start from a position instead of a fresh deal: its public
part is kept and its hands and stock are dealt again by chance; only their sizes count, so a
view's line serves as well; the rules come from the parameters, not from the line). The rules
themselves are the kernel's: legal moves, playing a move, dealing and scoring go through
`kernel`, never through a second copy here.

- Chance deals one card per chance node: the table (uniform over the tables the three-kings
  redeal accepts), then every hand in seat order, then the stock in deal order. Nobody sees the
  stock's cards until the kernel deals them.
- A move is one action (the card played), or a few when the card can take in several ways:
  the 81 actions of `scopa_solver.play.actions`, every legal move one sequence (`move_actions`).
- Returns at the end of the round: the points of the seat's side minus the mean of the other
  sides' (the margin with two sides), so every game is zero-sum.
- Information states are perfect recall (the seat's own hand at each deal, every move); the
  observation is what the seat sees now (its view, `View`). Both as strings and as tensors.
- ``resample_from_infostate`` draws a world consistent with the seat's view (the View's
  uniform sampling) and replays the moves on it: OpenSpiel's Python IS-MCTS runs on it (its C++
  bots crash on Python games in open_spiel 2.0.2, its own python_tic_tac_toe too; docs/research.md).

Our bots play in OpenSpiel as `SpielBot`; OpenSpiel's bots play in our duplicate arena as
`SpielChooser` (every decision on a world drawn from the player's view, so no OpenSpiel bot can
read a hidden card): `ismcts_chooser`, `mcts_chooser`, `random_chooser`, and `CFRChooser`,
CFR+'s average policy on the end of the last deal.
Needs the spiel extra: ``pip install 'scopa-solver[spiel]'``.
"""
from __future__ import annotations

import math
from typing import Any, Callable, Optional, Sequence

try:
    import numpy as np
    import pyspiel
except ImportError:
    raise ImportError("scopa_solver.spiel needs OpenSpiel: pip install 'scopa-solver[spiel]'") from None

from . import kernel
from .core.cards import ALL_MASK, DECK, KINGS_MASK, Card, cards_text, popcount
from .core.notation import format_line, hidden_text, parse
from .core.position import Move, Position
from .core.rules import Rules
from .core.score import RoundScore
from .core.view import View, view_seed
from .errors import IllegalMoveError, NotationError, RulesError, excerpt
from .play import actions
from .play.actions import DONE, NUM_ACTIONS, TAKE

__all__ = ["GAME_NAME", "TAKE", "DONE", "NUM_ACTIONS", "PARAMETERS", "load", "rules_parameters",
           "ScopaGame", "ScopaState", "move_actions", "SpielBot", "SpielChooser", "ismcts_chooser",
           "mcts_chooser", "random_chooser", "CFRChooser", "deal_actions"]

GAME_NAME = "python_scopa"
MAX_POINTS = 55.0   # a side's round points stay below: 4 + re bello + napola 10 + one scopa a move

# The game's parameters and their defaults: the Rules fields that shape a round (not `target`,
# a match's), the first dealer and a starting position.
PARAMETERS: dict[str, Any] = {
    "players": 2, "game": "scopa", "partnerships": True, "capture": "standard", "optional_capture": False,
    "last_sweep_counts": False, "asso_piglia_tutto": False, "ace_sweep_is_scopa": False, "re_bello": False,
    "napola": False, "fewest_cards": False, "primiera_missing_suit": "disqualify", "redeal_three_kings": True,
    "dealer": -1, "position": "",
}
_RULE_FIELDS = [k for k in PARAMETERS if k not in ("dealer", "position")]

_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Scopa and its family (scopa-solver)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=6,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=PARAMETERS)


def rules_parameters(rules: Rules) -> dict[str, Any]:
    """The game parameters of `rules` (only those that differ from the defaults)."""
    return {k: getattr(rules, k) for k in _RULE_FIELDS if getattr(rules, k) != PARAMETERS[k]}


def load(rules: Rules = Rules(), position: Optional[Position] = None, dealer: Optional[int] = None) -> "ScopaGame":
    """The OpenSpiel game of `rules` (a fresh round), or of the round from `position` on
    (its hands and stock dealt again by chance).

    >>> game = load(Rules(players=4, game="scopone"))
    >>> game.num_players(), game.rules.name, game.num_distinct_actions()
    (4, 'Scopone', 81)
    """
    params = rules_parameters(rules)
    if position is not None:
        params["position"] = _public_line(position)
    if dealer is not None:
        params["dealer"] = dealer
    return pyspiel.load_game(GAME_NAME, params)


def _public_line(state: Any) -> str:
    """The notation line of a Position or View without its rule tokens (the game's parameters
    carry the rules: a parameter value cannot hold '=')."""
    return " ".join(state.to_string().split()[:8])


class ScopaGame(pyspiel.Game):
    """One round of a game of the family (see the module docstring for the parameters)."""

    def __init__(self, params: Optional[dict] = None) -> None:
        given = dict(params or {})
        full = {**PARAMETERS, **given}
        try:
            self.rules = Rules(**{k: full[k] for k in _RULE_FIELDS})
        except TypeError as error:      # a parameter of the wrong type
            raise RulesError(str(error)) from None
        n = self.rules.players
        dealer = full["dealer"]
        if not isinstance(dealer, int) or not -1 <= dealer < n:
            raise RulesError(f"dealer must be a seat from 0 to {n - 1} (or -1: the last), not {excerpt(dealer)}")
        self.start = self._start(full["position"], n - 1 if dealer == -1 else dealer)
        self.start["rules"] = self.rules
        super().__init__(_GAME_TYPE, pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS, max_chance_outcomes=40, num_players=n,
            min_utility=-MAX_POINTS, max_utility=MAX_POINTS, utility_sum=0.0,
            max_game_length=120), given)     # a card, a take and a close per card at most

    def _start(self, text: str, dealer: int) -> dict:
        """The chance slots (what each chance node deals) and the fixed public part."""
        rules, n = self.rules, self.rules.players
        if not text:
            size, stock = rules.hand_size, (rules.deals - 1) * 3 * n
            slots = [("table", -1)] * rules.table_start + [("hand", p) for p in range(n) for _ in range(size)]
            return _Start(slots=slots + [("stock", -1)] * stock, fresh=True, table=0, piles=(0,) * n,
                        scopas=(0,) * n, to_move=None, dealer=dealer, last_capturer=None)
        if not isinstance(text, str) or "=" in text:
            raise NotationError(f"position must be a notation line without rule tokens (the rules are the "
                                f"game's parameters), not {excerpt(text)}")
        f = parse(f"{text} {' '.join(rules.tokens())}", hidden_ok=True)
        sizes = [len(f.hands[p]) + f.hidden_hands[p] for p in range(n)]
        slots = [("hand", p) for p in range(n) for _ in range(sizes[p])] + [("stock", -1)] * len(f.stock)
        start = _Start(slots=slots, fresh=False, table=sum(c.mask for c in f.table),
                     piles=tuple(sum(c.mask for c in pile) for pile in f.piles), scopas=f.scopas,
                     to_move=f.to_move, dealer=f.dealer, last_capturer=f.last_capturer)
        known = start["table"] | sum(start["piles"])
        if popcount(known) + len(slots) != 40:
            raise NotationError(f"position {excerpt(text)} accounts for {popcount(known) + len(slots)} cards, not 40")
        pool = [c for c in DECK if not c.mask & known]
        _position(start, rules, [c.index for c in pool])       # a position that cannot occur fails here
        return start

    def new_initial_state(self) -> "ScopaState":
        return ScopaState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> "ScopaObserver":
        return ScopaObserver(self, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params)


class _Start(dict):
    """The fixed part of a game's states (its chance slots, the public start): shared, never
    copied when OpenSpiel clones a state (a clone is a deepcopy)."""

    def __deepcopy__(self, memo: dict) -> "_Start":
        return self


def _position(start: dict, rules: Rules, dealt: Sequence[int]) -> Position:
    """The Position that the chance nodes' cards make (in slot order)."""
    n = rules.players
    hands: list[list] = [[] for _ in range(n)]
    table: list[Card] = []
    stock: list[Card] = []
    for (place, seat), index in zip(start["slots"], dealt):
        card = DECK[index]
        (table if place == "table" else stock if place == "stock" else hands[seat]).append(card)
    return Position(hands=tuple(hands), table=table + [c for c in DECK if c.mask & start["table"]], stock=stock,
                    captured=start["piles"], scopas=start["scopas"], to_move=start["to_move"],
                    dealer=start["dealer"], last_capturer=start["last_capturer"], rules=rules)


def _table_sets(slots: int, kings: int, others: int, room: int) -> int:
    """The ways to fill `slots` table cards from `kings` kings and `others` other cards with at
    most `room` more kings (the three-kings redeal refuses a table of three)."""
    return sum(math.comb(kings, j) * math.comb(others, slots - j) for j in range(min(slots, room) + 1)) if room >= 0 else 0


class ScopaState(pyspiel.State):
    """A state of the round: chance deals first, then the kernel's state and a pending move."""

    def __init__(self, game: ScopaGame) -> None:
        super().__init__(game)
        self._start = game.start
        self._rules = game.start["rules"]
        self._dealt: list[int] = []
        self._kstate: Optional[kernel.KernelState] = None
        self._pending: Optional[tuple[int, int]] = None     # (card index, mask taken so far)
        self._moves: list[tuple[int, int, int]] = []        # (seat, packed move, deal) in order
        self._deals: list[tuple[int, ...]] = []             # every seat's hand at each deal

    def _dealt_state(self) -> kernel.KernelState:
        """The kernel state once every chance node has dealt its card."""
        if self._kstate is None:
            raise RuntimeError("the cards are not dealt yet: this is a chance node")
        return self._kstate

    # -- chance -------------------------------------------------------------------------------

    def current_player(self) -> int:
        if len(self._dealt) < len(self._start["slots"]):
            return pyspiel.PlayerId.CHANCE
        if self._is_over():
            return pyspiel.PlayerId.TERMINAL
        return self._dealt_state().to_move

    def _is_over(self) -> bool:
        return self._kstate is not None and actions.is_over(self._kstate)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        taken = sum(1 << i for i in self._dealt)
        left = [c.index for c in DECK if not c.mask & (taken | self._start["table"] | sum(self._start["piles"]))]
        slots = self._start["slots"]
        place = slots[len(self._dealt)][0]
        if place == "table" and self._rules.redeal_three_kings:
            # uniform over the accepted tables: a card's chance is the share of them it starts
            slots_left = sum(1 for s in slots[len(self._dealt):] if s[0] == "table")
            kings = sum(1 for i in left if DECK[i].mask & KINGS_MASK)
            room = 2 - sum(1 for i in self._dealt if DECK[i].mask & KINGS_MASK)
            now = _table_sets(slots_left, kings, len(left) - kings, room)
            out = []
            for i in left:
                king = bool(DECK[i].mask & KINGS_MASK)
                after = _table_sets(slots_left - 1, kings - king, len(left) - kings - (not king), room - king)
                if after:
                    out.append((i, after / (slots_left * now)))
            return out
        return [(i, 1.0 / len(left)) for i in left]

    # -- moves --------------------------------------------------------------------------------

    def _legal_actions(self, player: int) -> list[int]:
        if player != self.current_player():
            return []
        return actions.legal_actions(self._dealt_state(), self._pending)

    def _apply_action(self, action: int) -> None:
        if self.is_chance_node():
            self._dealt.append(action)
            if len(self._dealt) == len(self._start["slots"]):
                dealt = _position(self._start, self._rules, self._dealt).kernel_state()
                self._kstate = dealt
                self._deals.append(tuple(dealt.hands))
            return
        self._pending, packed = actions.step(self._dealt_state(), self._pending, action)
        if packed is not None:
            self._play(packed >> 40, packed & ALL_MASK)

    def _play(self, card: int, taken: int) -> None:
        before = self._dealt_state()
        after, events = kernel.play(before, card << 40 | taken)
        self._kstate = after
        self._moves.append((before.to_move, card << 40 | taken, len(self._deals) - 1))
        self._pending = None
        if events.dealt:
            self._deals.append(tuple(after.hands))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            slots = self._start["slots"]
            place, seat = slots[len(self._dealt)] if len(self._dealt) < len(slots) else ("deal", -1)
            where = f"seat {seat}" if place == "hand" else place
            return f"{where} gets {DECK[action]}" if 0 <= action < 40 else f"deal {action}"
        return actions.action_text(action)

    def is_terminal(self) -> bool:
        return self._is_over()

    def returns(self) -> list[float]:
        if not self._is_over():
            return [0.0] * self._rules.players
        return actions.returns(self._dealt_state(), self._rules)

    def round_score(self) -> RoundScore:
        """The score of the piles as they are (the round's once it is over)."""
        s = self._dealt_state()
        return RoundScore.of_piles(s.piles, s.scopas, self._rules)

    def __str__(self) -> str:
        if self._kstate is None:
            return f"dealing: {len(self._dealt)} of {len(self._start['slots'])} cards"
        return self.position().to_string() + self._pending_text()

    def _pending_text(self) -> str:
        if self._pending is None:
            return ""
        card, taken = self._pending
        return f" playing {DECK[card]}x{cards_text(taken)}"

    # -- what the package reads ---------------------------------------------------------------

    def position(self) -> Position:
        """The round's Position once dealt (every card known: the referee's, not a player's)."""
        if self._kstate is None:
            raise IllegalMoveError("the cards are still being dealt: no position yet")
        return Position.from_kernel_state(self._kstate, self._rules)

    def moves(self) -> list[tuple[int, Move]]:
        """Every move played so far, with its seat."""
        return [(seat, Move.from_packed(m)) for seat, m, _ in self._moves]

    @property
    def pending(self) -> Optional[tuple[int, int]]:
        """The move being named: (card index, mask of the cards taken so far), or None."""
        return self._pending

    # -- worlds -------------------------------------------------------------------------------

    def resample_from_infostate(self, player: int, probability_sampler: Any = None) -> "ScopaState":
        """A state that `player` cannot tell from this one: the cards hidden from the player drawn
        uniformly from the worlds of its view (`View.sample_groups`), the same moves replayed
        (OpenSpiel's IS-MCTS calls it). The draw's seed comes from `probability_sampler` (a
        callable giving numbers in [0, 1)), else from the system."""
        if self._kstate is None:
            raise IllegalMoveError("resample_from_infostate needs the deal done")
        seed = int(probability_sampler() * 2 ** 52) if probability_sampler is not None else None
        view = self.position().view(player)
        world = view.state_of(next(view.sample_groups(1, seed=seed)))
        state = ScopaState(self.get_game())
        for action in self._deal_of(world):
            state.apply_action(action)
        for action in self.history()[len(self._dealt):]:
            state.apply_action(action)
        return state

    def _deal_of(self, world: kernel.KernelState) -> list[int]:
        """The chance actions that deal `world` (same moves so far): a seat's hand at a past deal
        is the cards it played in that deal (public), at the current one those plus the world's
        hand, and the world's stock deals the rest."""
        n = self._rules.players
        now = len(self._deals) - 1
        hands = [[0] * n for _ in self._deals]
        for seat, m, deal in self._moves:
            hands[deal][seat] |= 1 << (m >> 40)
        for seat in range(n):
            hands[now][seat] |= world.hands[seat]
        hands += [list(deal) for deal in world.deals]
        leader = (self._start["dealer"] + 1) % n
        order = [(leader + k) % n for k in range(n)]
        masks = [hands[0][seat] for seat in range(n)] + [d[seat] for d in hands[1:] for seat in order]
        table = [i for (place, _), i in zip(self._start["slots"], self._dealt) if place == "table"]
        return table + [c.index for mask in masks for c in DECK if c.mask & mask]


class ScopaObserver:
    """OpenSpiel's observer of a ScopaState: the observation (what a seat sees now: its hand,
    the table, every pile, the scopas, every hand's and the stock's size, the turn, the dealer,
    the last capturer, the move being named) and, with perfect recall, also the seat's hand at
    each deal and every move played (seat, card, cards taken). `private_info` SINGLE_PLAYER
    shows the seat's own hand, ALL_PLAYERS every hand, NONE none."""

    def __init__(self, game: ScopaGame, iig_obs_type: Any, params: Any) -> None:
        if params:
            raise ValueError(f"the Scopa observer takes no parameters, not {params!r}")
        n, rules = game.rules.players, game.rules
        self.n, self.rules = n, rules
        self.recall = iig_obs_type.perfect_recall
        private = iig_obs_type.private_info
        self.own = private == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self.all = private == pyspiel.PrivateInfoType.ALL_PLAYERS
        pieces: list[tuple[str, int, tuple]] = [("player", n, (n,))]
        if self.own:
            pieces.append(("hand", 40, (40,)))
        elif self.all:
            pieces.append(("hands", n * 40, (n, 40)))
        if iig_obs_type.public_info:
            pieces += [("to_move", n, (n,)), ("table", 40, (40,)), ("piles", n * 40, (n, 40)),
                       ("scopas", n, (n,)), ("hand_sizes", n, (n,)), ("stock", 1, (1,)), ("dealer", n, (n,)),
                       ("last_capturer", n, (n,)), ("playing", 40, (40,)), ("taken", 40, (40,))]
            if self.recall:
                pieces += [("start_table", 40, (40,)), ("history", 40 * (n + 80), (40, n + 80))]
        if self.recall and (self.own or self.all):
            rows = rules.deals * (n if self.all else 1)
            pieces.append(("deals", rows * 40, (rules.deals, n, 40) if self.all else (rules.deals, 40)))
        self.tensor = np.zeros(sum(size for _, size, _ in pieces), np.float32)
        self.dict: dict[str, np.ndarray] = {}
        at = 0
        for name, size, shape in pieces:
            self.dict[name] = self.tensor[at:at + size].reshape(shape)
            at += size

    def _hands(self, state: ScopaState) -> list[int]:
        """Every seat's current hand (while dealing: the cards dealt to it so far)."""
        if state._kstate is not None:
            return list(state._kstate.hands)
        hands = [0] * self.n
        for (place, seat), index in zip(state._start["slots"], state._dealt):
            if place == "hand":
                hands[seat] |= 1 << index
        return hands

    def _table(self, state: ScopaState) -> int:
        if state._kstate is not None:
            return state._kstate.table
        return _start_table(state)

    def set_from(self, state: ScopaState, player: int) -> None:
        """Fill the tensor with what `player` sees of `state`."""
        self.tensor.fill(0)
        d, n = self.dict, self.n
        d["player"][player] = 1
        hands = self._hands(state)
        if "hand" in d:
            _bits(d["hand"], hands[player])
        if "hands" in d:
            for seat in range(n):
                _bits(d["hands"][seat], hands[seat])
        if "table" in d:
            k = state._kstate
            _bits(d["table"], self._table(state))
            for seat in range(n):
                _bits(d["piles"][seat], k.piles[seat] if k else state._start["piles"][seat])
                d["scopas"][seat] = k.scopas[seat] if k else state._start["scopas"][seat]
                d["hand_sizes"][seat] = popcount(hands[seat])
            if k is not None:
                d["stock"][0] = sum(popcount(m) for deal in k.deals for m in deal)
                d["dealer"][k.dealer] = 1
                if k.last_capturer >= 0:
                    d["last_capturer"][k.last_capturer] = 1
                if not state._is_over():
                    d["to_move"][k.to_move] = 1
            if state._pending is not None:
                d["playing"][state._pending[0]] = 1
                _bits(d["taken"], state._pending[1])
            if "history" in d:
                _bits(d["start_table"], _start_table(state))
                for i, (seat, m, _) in enumerate(state._moves):
                    d["history"][i, seat] = 1
                    d["history"][i, n + (m >> 40)] = 1
                    _bits(d["history"][i, n + 40:], m & ALL_MASK)
        if "deals" in d:
            for i, deal in enumerate(state._deals):
                if self.all:
                    for seat in range(n):
                        _bits(d["deals"][i, seat], deal[seat])
                else:
                    _bits(d["deals"][i], deal[player])

    def string_from(self, state: ScopaState, player: int) -> str:
        """What `player` sees of `state` as text: the view's notation line (docs/notation.md),
        with perfect recall the seat's deals and every move instead."""
        hands = self._hands(state)
        shown = [self.all or (self.own and seat == player) for seat in range(self.n)]
        if state._kstate is None:
            dealt = " ".join(cards_text(h) for h, s in zip(hands, shown) if s)
            return (f"p{player} dealing {len(state._dealt)}/{len(state._start['slots'])} "
                    f"table {cards_text(_start_table(state))}" + (f" hand {dealt}" if dealt else ""))
        if not self.recall:
            k = state._kstate
            texts = tuple(cards_text(h) if s else hidden_text(0, popcount(h)) for h, s in zip(hands, shown))
            stock = hidden_text(0, sum(popcount(m) for deal in k.deals for m in deal))
            return (f"p{player} " + format_line(texts, k.table, k.piles, stock, k.scopas, k.to_move, k.dealer,
                                                None if k.last_capturer < 0 else k.last_capturer, self.rules)
                    + state._pending_text())
        out = [f"p{player} table {cards_text(_start_table(state))}"]
        for i, deal in enumerate(state._deals):
            if any(shown):
                out.append("hand " + "/".join(cards_text(h) if s else "?" for h, s in zip(deal, shown)))
            out += [f"{seat}:{Move.from_packed(m)}" for seat, m, at in state._moves if at == i]
        return " ".join(out) + state._pending_text()


def _start_table(state: ScopaState) -> int:
    """The table at the round's start (the start position's, or the cards dealt to it)."""
    dealt = sum(1 << i for (place, _), i in zip(state._start["slots"], state._dealt) if place == "table")
    return state._start["table"] | dealt


def _bits(row: np.ndarray, mask: int) -> None:
    for i in range(40):
        if mask >> i & 1:
            row[i] = 1


pyspiel.register_game(_GAME_TYPE, ScopaGame)


def move_actions(state: ScopaState, move: Any) -> list[int]:
    """The actions that play `move` (a Move or move text, legal for the seat to move) from
    `state`, or that finish it when it is being named.

    >>> state = load().new_initial_state()
    >>> for action in deal_actions(Position.new_round(seed=2)):      # table RdRs2b6b, hand 5d7sRb
    ...     state.apply_action(action)
    >>> [state.action_to_string(0, a) for a in move_actions(state, "RbxRs")]
    ['Rb', 'take Rs']
    """
    move = Move.parse(move, state.position())
    return actions.move_actions(state._dealt_state(), move.packed, state.pending)


# -- our bots in OpenSpiel ------------------------------------------------------------------------

class SpielBot(pyspiel.Bot):
    """One of our bots (a chooser: position -> move, like `PIMCBot` or `make_bot("greedy")`) as
    an OpenSpiel bot of a ScopaState. Our bots decide from the seat's view (the `OracleBot`
    alone reads every card, by design). A move of several actions is played one action a step.

    >>> from scopa_solver.play.bots import GreedyBot
    >>> game = load()
    >>> state = game.new_initial_state()
    >>> for action in deal_actions(Position.new_round(seed=11)):
    ...     state.apply_action(action)
    >>> state.action_to_string(0, SpielBot(GreedyBot()).step(state))
    'Fd'
    """

    def __init__(self, bot: Callable[[Position], Any]) -> None:
        pyspiel.Bot.__init__(self)
        self.bot = bot
        self._planned: tuple[str, Move] = ("", Move(DECK[0]))

    def step(self, state: ScopaState) -> int:
        position = state.position()
        key = position.to_string()
        if self._planned[0] != key:         # the move being named is kept, not chosen again
            self._planned = (key, Move.parse(self.bot(position), position))
        return move_actions(state, self._planned[1])[0]

    def restart_at(self, state: ScopaState) -> None:
        self._planned = ("", Move(DECK[0]))

    def inform_action(self, state: ScopaState, player_id: int, action: int) -> None:
        pass

    def provides_policy(self) -> bool:
        return False


def deal_actions(position: Position) -> list[int]:
    """The chance actions that deal `position`'s cards in the game of `load(rules)` (a round's
    first position) or of `load(rules, position=position)` (any position): the table (round
    start only), every hand in seat order, the stock in deal order."""
    start = position.is_round_start()
    table = sorted(c.index for c in DECK if c.mask & position.table) if start else []
    hands = [c.index for hand in position.hands for c in DECK if c.mask & hand]
    return table + hands + [c.index for c in position.stock]


def _world_actions(view: View, world: kernel.KernelState) -> list[int]:
    """The chance actions of `load(rules, position=...)` that deal a world of `view`."""
    n = view.rules.players
    order = [(view.dealer + 1 + k) % n for k in range(n)]
    masks = list(world.hands) + [deal[seat] for deal in world.deals for seat in order]
    return [c.index for mask in masks for c in DECK if c.mask & mask]


# -- OpenSpiel's bots in our arena ----------------------------------------------------------------

class SpielChooser:
    """An OpenSpiel bot as a chooser of our arena (position -> move). Each decision builds the
    game of the rest of the round (`load(rules, position=...)`), deals it a world drawn from the
    player's view (never the real hidden cards, so no bot can read them), makes the bot with
    ``make_bot(game, seat, seed)`` and plays its actions until the move is complete. The seed of a
    decision comes from `seed` and the view (`view_seed`), as for our bots. `last_bot` is the bot
    of the last decision that had a choice (its figures: IS-MCTS's `simulations`)."""

    def __init__(self, make_bot: Callable[[ScopaGame, int, int], Any], name: str, seed: int = 0) -> None:
        self.make_bot, self.name, self.seed = make_bot, name, seed
        self.last_bot: Any = None

    def __call__(self, position: Position) -> Move:
        moves = position.legal_moves()
        if len(moves) == 1:
            return moves[0]
        view = position.view(position.to_move)
        seed = view_seed(self.seed, view)
        game = load(position.rules, position=position)
        state = game.new_initial_state()
        for action in _world_actions(view, view.state_of(next(view.sample_groups(1, seed=seed)))):
            state.apply_action(action)
        bot = self.last_bot = self.make_bot(game, position.to_move, seed & 0xFFFFFFFF)
        played = len(state.moves())
        while len(state.moves()) == played:
            state.apply_action(bot.step(state))
        return state.moves()[-1][1]

    def __repr__(self) -> str:
        return self.name


def _ismcts_class() -> type:
    from open_spiel.python.algorithms import ismcts

    class TimedISMCTSBot(ismcts.ISMCTSBot):
        """OpenSpiel's Python IS-MCTS stopped by a wall-clock budget as well as its simulation
        count (the C++ ISMCTSBot crashes on Python games in open_spiel 2.0.2)."""

        def __init__(self, *args: Any, seconds: Optional[float] = None, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.seconds = seconds
            self.simulations = 0

        def run_search(self, state: Any) -> list:
            # ISMCTSBot.run_search's loop with a deadline (a few simulations at least: the root
            # must be visited before it has a policy)
            import time
            self.reset()
            legal = state.legal_actions()
            if len(legal) == 1:
                return [(legal[0], 1.0)]
            self._root_node = self.create_new_node(state)
            deadline = None if self.seconds is None else time.perf_counter() + self.seconds
            self.simulations = 0
            while self.simulations < self._max_simulations and (
                    deadline is None or self.simulations < 2 or time.perf_counter() < deadline):
                self.run_simulation(self.sample_root_state(state))
                self.simulations += 1
            return self.get_final_policy(state, self._root_node)

    return TimedISMCTSBot


def ismcts_chooser(seconds: Optional[float] = 1.0, simulations: int = 10 ** 9, uct_c: float = 2.0,
                   rollouts: int = 1, seed: int = 0) -> SpielChooser:
    """OpenSpiel's IS-MCTS (Cowling et al. 2012; its Python ISMCTSBot, random-rollout leaves,
    the most visited move) as an arena chooser: `seconds` a decision (None: `simulations`)."""
    from open_spiel.python.algorithms import mcts
    cls = _ismcts_class()

    def make(game: ScopaGame, seat: int, seed: int) -> Any:
        rng = np.random.RandomState(seed)
        bot = cls(game, mcts.RandomRolloutEvaluator(rollouts, rng), uct_c, simulations, random_state=rng,
                  seconds=seconds)
        # the worlds drawn from the decision's seed too (OpenSpiel's sampler is seeded by the system)
        bot.set_resampler(lambda state, player: state.resample_from_infostate(player, rng.random_sample))
        return bot

    budget = f"{seconds:g} s" if seconds is not None else f"{simulations} sims"
    return SpielChooser(make, f"IS-MCTS({budget})", seed)


def mcts_chooser(simulations: int = 200, uct_c: float = 2.0, rollouts: int = 1, seed: int = 0) -> SpielChooser:
    """OpenSpiel's MCTS (its Python MCTSBot, random rollouts) on one world drawn from the
    player's view: perfect-information search of a single determinization."""
    from open_spiel.python.algorithms import mcts

    def make(game: ScopaGame, seat: int, seed: int) -> Any:
        rng = np.random.RandomState(seed)
        return mcts.MCTSBot(game, uct_c, simulations, mcts.RandomRolloutEvaluator(rollouts, rng), random_state=rng)

    return SpielChooser(make, f"MCTS({simulations} sims, 1 world)", seed)


def random_chooser(seed: int = 0) -> SpielChooser:
    """OpenSpiel's UniformRandomBot: a uniform action at each step (the card, then the take)."""
    from open_spiel.python.bots import uniform_random

    return SpielChooser(lambda game, seat, s: uniform_random.UniformRandomBot(seat, np.random.RandomState(s)),
                        "OpenSpiel random", seed)


class CFRChooser:
    """OpenSpiel's CFR+ (its Python CFRPlusSolver) on the rest of a two-player round once the
    stock is empty and the hands hold at most `max_cards` cards together, every unseen card
    equally likely (no inference from the play before): its average policy's most likely
    action. `early` (a chooser: position -> move) plays the decisions before. The tree of the
    rest is small there (4 cards: 6 deals, a few hundred states); from the last deal's first
    decision (6 cards) it is some 200,000 states, over 40 seconds in Python."""

    def __init__(self, early: Callable[[Position], Any], iterations: int = 100, max_cards: int = 4,
                 seed: int = 0) -> None:
        from open_spiel.python.algorithms import cfr

        class PolicyBot:
            def __init__(self, game: ScopaGame) -> None:
                solver = cfr.CFRPlusSolver(game)
                for _ in range(iterations):
                    solver.evaluate_and_update_policy()
                self.policy = solver.average_policy()

            def step(self, state: ScopaState) -> int:
                probs = self.policy.action_probabilities(state)
                return max(sorted(probs), key=lambda a: probs[a])

        self.early, self.max_cards = early, max_cards
        self.late = SpielChooser(lambda game, seat, s: PolicyBot(game), f"CFR+({iterations})", seed)
        self.name = f"{getattr(early, 'name', repr(early))}/CFR+({iterations})"

    def __call__(self, position: Position) -> Any:
        if position.rules.players != 2:
            raise RulesError("the CFR+ chooser plays two-player games only (the tree of any other is far too "
                             "big for tabular CFR)")
        if position.stock or sum(position.hand_sizes()) > self.max_cards:
            return self.early(position)
        return self.late(position)

    def __repr__(self) -> str:
        return self.name
