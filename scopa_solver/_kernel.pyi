"""Type stub of scopa_solver._kernel, the Cython search kernel built from ext/ (api.pxi is its
Python face).

A position of any game crosses the boundary as one 11-tuple (``KernelPosition``):

    (players, hands, table, piles, scopas, to_move, dealer, last_capturer, deals, rules, sides)

2..6 seats in playing order; hands (at most 10 cards each), piles, scopas (0..40) and sides one
entry per seat; card sets as 40-bit masks (bit = card index); last_capturer -1 (nobody yet) or a
seat; deals the stock's deals next first (at most 6), each one 3-card mask per seat; rules up to
RULE_ALL; sides numbered 0.. in order of their first seat, at least two. The cards must all
be in different places, and the hands must fit the play order (the seats from the leader,
dealer + 1, up to the seat to move hold one card fewer). ValueError otherwise. A move is packed
as ``card << 40 | captured mask``. One engine searches every game.
"""
from typing import Iterable, Optional, Sequence, Union

KernelPosition = tuple[int, tuple[int, ...], int, tuple[int, ...], tuple[int, ...], int, int, int,
                       tuple[tuple[int, ...], ...], int, tuple[int, ...]]

WANT_FLAGS: tuple[int, int, int, int]
"""(WANT_BEST, WANT_PV, WANT_ALL, FULL_WINDOW): what a search is asked for: every optimal root
move, a principal variation, the value of every root move, one full-window pass (baseline)."""

RULE_BITS: dict[str, int]
"""The rule switches as the kernel numbers them: asso_piglia_tutto 1, ace_sweep_is_scopa 2,
re_bello 4, napola 8, fewest_cards 16, primiera_zero 32, fifteen 64 (Scopa a 15),
optional_capture 128, last_sweep_counts 256."""

RULE_ALL: int
"""Every rule bit together (511)."""

OBJECTIVES: tuple[str, str]
"""("value", "maxn"): what a Searcher searches for."""

MATCH_MAX: int
"""10000: a match value's sure win (the chance to win the match in 1/10,000ths)."""

MATCH_MAX_CELLS: int
"""The most entries a MatchTable may have (4,194,304)."""

MAX_MOVES: int
"""Room for the legal moves of one node (16384; the worst case is 11,894)."""

MAX_TT_MB: int
"""The largest transposition table a Searcher makes, in MiB (65536)."""


def legal_moves(pos: KernelPosition) -> list[int]:
    """The packed legal moves of the seat to move ([] when the round is over), in the canonical
    order: cards by index; for each its single captures by index, then its sum captures, then
    its lay-down when legal."""


def play(pos: KernelPosition, packed_move: int) -> tuple[KernelPosition, bool, bool, int, int]:
    """(after, scopa, dealt, leftovers, leftovers_to): the position after the move, whether it
    scored a scopa, whether it emptied the hands and the next deal came from the stock, the
    table cards the last capturer took at the end of the round (0 if none) and that seat
    (-1 if none). ValueError if the move is illegal or not a packed move."""


def random_playouts(pos: KernelPosition, playouts: int, seed: int = 1) -> int:
    """Play `playouts` uniformly random rounds from pos (any count >= 0, clamped to 2**64 - 1)
    and return the number of moves made. Checks Ctrl-C every 100,000 moves: KeyboardInterrupt."""


class MatchTable:
    """The match objective's leaf table: `values[k]` (ints 0..10000) the chance, in 1/10,000ths,
    that side `side` wins the match when the round ends with every side's points lows[i] + k_i,
    k = sum(k_i * stride_i) row-major (side 0 slowest). A search under it takes its root's mover's
    side as `side`, and the table must cover that root's point bounds (side_bounds): ValueError
    otherwise. ValueError for bad lows, dims, side or entries, or more than MATCH_MAX_CELLS."""

    def __init__(self, values: Iterable[int], lows: Sequence[int], dims: Sequence[int], side: int) -> None: ...

    side: int
    nsides: int
    cells: int
    lows: tuple[int, ...]
    dims: tuple[int, ...]
    monotone: bool
    """The side's own points up never lower an entry, another side's up never raise it: the
    search then cuts on bounds through the table (else it does not)."""
    key: int
    """The content's hash (in the search's table keys)."""

    def __len__(self) -> int: ...

    def value(self, points: Sequence[int]) -> int:
        """The entry for every side's final round points (ValueError outside the table)."""


Objective = Union[str, MatchTable, Sequence[MatchTable]]


class KernelResult:
    """What one root search found. Moves are packed. Values, scopas already made included:
    "value" with two sides the margin of the side to move, with three or more the paranoid value
    (own side's points minus the best other side's); "maxn" the mover's side's points; "match"
    (a MatchTable) the mover's side's chance to win the match in 1/10,000ths."""

    @property
    def lower(self) -> int:
        """Lower bound on the value (-127: none; "match": 0); equal to upper when complete."""

    @property
    def upper(self) -> int:
        """Upper bound on the value (127: none; "match": 10000)."""

    @property
    def stop(self) -> int:
        """Why it stopped, an index of STOP_REASONS: 0 complete, 1 node limit, 2 time limit,
        3 interrupt (Ctrl-C), 4 the caller's StopToken."""

    @property
    def nodes(self) -> int:
        """Nodes visited; at most max_nodes when a limit was set."""

    @property
    def seconds(self) -> float:
        """Time the search took, measured in the kernel."""

    @property
    def probes(self) -> int:
        """Transposition-table probes of this search."""

    @property
    def hits(self) -> int:
        """Probes that found their position."""

    @property
    def stores(self) -> int:
        """Entries written by this search."""

    @property
    def fill(self) -> float:
        """Share of the table's entries in use after the search."""

    @property
    def moves(self) -> list[int]:
        """The root's legal moves."""

    @property
    def best(self) -> Optional[list[int]]:
        """Every optimal root move (WANT_BEST), None if not asked or not proven. A stopped
        search reports them only if it proved them all: then lower == upper."""

    @property
    def move_bounds(self) -> Optional[list[tuple[int, int]]]:
        """(lower, upper) of each root move, in `moves` order (WANT_ALL); None if not asked
        or stopped before it began."""

    @property
    def pv(self) -> list[int]:
        """A principal variation to the end of the round (WANT_PV); empty if stopped."""

    @property
    def end(self) -> Optional[tuple[tuple[int, ...], tuple[int, ...]]]:
        """(piles, scopas), one entry per seat, at the end of the pv; None if stopped, without a
        pv or under a horizon."""

    @property
    def points(self) -> Optional[tuple[int, ...]]:
        """Every side's round points at the end of the pv (value, WANT_PV) or the max^n vector;
        None if stopped or not asked."""

    @property
    def objective(self) -> str:
        """"value", "maxn" or "match"."""

    @property
    def horizon(self) -> Optional[int]:
        """None: exact; else the plies below the root where a horizon search scored positions
        statically (values are estimates, the pv ends there, no end, no points under "value")."""

    @property
    def evaluations(self) -> int:
        """Static evaluations the search made (0 when exact)."""


def score(piles: tuple[int, ...], scopas: tuple[int, ...], sides: tuple[int, ...], rules: int) -> dict:
    """Per-side breakdown: lists cards, coins, primiera (None: disqualified), napola, scopas,
    points (scopas included); winners carte, denari, settebello, primiera_winner, re_bello as
    a side or None (nobody: a shared top, or nobody holds the card)."""


def other_piles_shift(now: tuple[int, int], then: tuple[int, int], in_play: int, rules: int) -> tuple[int, int]:
    """Two sides, the same cards in play: the range of side 0's margin with the piles `now`
    minus that with the piles `then`, over every end (the search's reckoning; for tests)."""


def side_bounds(pos: KernelPosition) -> list[tuple[int, int]]:
    """Every side's (low, high) final round points (scopas included) from `pos` on."""


def evaluate(pos: KernelPosition, root_seat: Optional[int] = None) -> tuple[tuple[float, ...], float]:
    """The horizon search's static evaluation: every side's expected round points (scopas made
    not included) and the value a "value" search rooted at `root_seat` (default: the seat to
    move) gives the position at a horizon, for its seat to move (in quarter points: the
    search's resolution there; it reports whole points)."""


STOP_REASONS: tuple[None, str, str, str, str]
"""(None, "nodes", "time", "interrupt", "request"): KernelResult.stop's names, by code."""


class StopToken:
    """A stop owned by the caller, for any number of searches in any threads (search_many's
    `stop`): `stop()` ends every one of them (stop 4, the results returned); it stays set, and
    the kernel only reads it, so a stop is never lost. A new piece of work takes a new token."""

    def stop(self) -> None:
        """Stop every search watching this token, now and later."""

    @property
    def stopped(self) -> bool:
        """`stop()` has been called."""


class Searcher:
    """A search context for every game: transposition table, move stacks, node counters. One
    per thread; reusable across positions and games."""

    def __init__(self, tt_mb: float = 64.0) -> None:
        """A table of about tt_mb MiB (a power-of-two number of 64-byte buckets; 0: none).
        ValueError if tt_mb is NaN, infinite, negative or over MAX_TT_MB; MemoryError if the
        memory cannot be had."""

    @property
    def tt_mb(self) -> float:
        """The table size asked for, in MiB."""

    def clear(self) -> None:
        """Forget every stored position."""

    def table_stats(self) -> dict:
        """probes, hits, stores, filled, capacity (entries), fill (share), active (entries in use)."""

    def search(self, pos: KernelPosition, want: int = 3, max_nodes: int = 0, time_limit: float = 0.0,
               check_signals: bool = True, objective: Objective = "value",
               horizon: Optional[int] = 0, threads: int = 1,
               stop: Optional[StopToken] = None, seat: int = -1) -> KernelResult:
        """Search one position (want: WANT_FLAGS bits; limits and stop as in search_many).
        KeyboardInterrupt if interrupted."""

    def search_many(self, positions: list[KernelPosition], want: int = 3, max_nodes: int = 0,
                    time_limit: float = 0.0, check_signals: bool = False,
                    objective: Objective = "value", horizon: Optional[int] = 0,
                    threads: int = 1, stop: Optional[StopToken] = None, seat: int = -1,
                    window: Optional[tuple[int, int]] = None) -> list[KernelResult]:
        """Search each position with the GIL released, the limits applying to each. max_nodes:
        int >= 0 (0: none, larger than 2**64 - 1: clamped); time_limit: seconds >= 0 (0 or inf:
        none); ValueError for negatives and NaN. KeyboardInterrupt on Ctrl-C (check_signals, the
        main thread only). `stop`: the caller's StopToken; once set, the running search and every
        later one stop at once (stop 4) and the results are returned. `seat` >= 0: with three or
        more sides under "value", the paranoid value of that seat's side, given for the side to
        move (negated when it is that side's opponent); -1: the side to move's (under a
        MatchTable only a seat of the side to move). Under `objective` ("value", "maxn",
        a MatchTable for every position or a list of them, one per position; ValueError otherwise);
        `horizon` > 0 plies: scored statically there unless the round ends sooner (exact).
        `threads` > 1: each position searched by that many threads sharing the table (the
        same results; `nodes` every thread's, `max_nodes` for all; max^n on one thread).
        `window` (alpha, beta), alpha < beta: bounds only (want 0, "value", exact, the side to
        move's frame; with threads each proves against it): one fail-soft search, `lower` ==
        `upper` the value inside the window, else `upper` <= alpha (`lower` -127) or `lower` >=
        beta (`upper` 127); a null window (t - 1, t) decides "value >= t" or "value <= t - 1"."""

    def trace(self, pos: KernelPosition, want: int = 0,
              max_events: int = 100000) -> tuple[list[tuple], KernelResult]:
        """(events, result) of the exact search under objective "value": every event as tuples
        ("pass", depth, alpha, beta, move), ("enter", depth, alpha, beta, move), ("tt", depth,
        lower, upper), ("leaf", depth, value), ("exit", depth, value, n_moves, n_searched);
        values and windows are the mover's team's (with two sides, the mover's side's).
        ValueError past max_events."""

    @property
    def nodes_total(self) -> int:
        """Every node this Searcher has searched, the running search's included, read live from
        any thread (progress lines take the difference of two readings)."""

    def set_table(self, enabled: bool) -> None:
        """Switch the transposition table off or back on."""

    def set_table_min_cards(self, cards: int, stride: int = 1, every_from: int = 0) -> None:
        """Probe the table only at nodes with at least this many cards still to play (hands and
        stock), and where the cards in the hands are a multiple of `stride` or at least
        `every_from` (0: that rule off); tuning: the default, 7, 3 and 16, two players 5, 3 and
        16, measured in docs/benchmarks.md and docs/search.md."""

    def set_last_round(self, enabled: bool) -> None:
        """Solve the last round (the stock empty, no hand holding two cards) by a walk along its
        forced plays (on by default; off: the general search, for tests and tuning)."""

    def set_bounds(self, max_cards: int) -> None:
        """Cut on the bounds of what a position can still be worth at nodes with at most
        `max_cards` cards in the hands (0: never; tuning)."""

    def set_ordering(self, enabled: bool) -> None:
        """Order the moves (on by default); off: the generation order everywhere (research)."""

    def set_other_piles(self, enabled: bool) -> None:
        """Two sides: answer from the table's bounds for the same cards with other piles, moved
        by what the piles can change (on by default; off for tests and tuning)."""

    def set_equivalence(self, enabled: bool) -> None:
        """Play one of the moves that differ only by same-rank cards whose suits cannot change
        any score (on by default; tuning and tests)."""

    def set_parallel(self, busy_cards: int = 0, region_mb: float = 0.0) -> None:
        """Parallel search (tuning): put off the moves another thread is searching at nodes with
        at least `busy_cards` cards in hands (0: 12), in a table region of at most `region_mb`
        MiB (0: 16)."""

    def parallel_cpu(self) -> tuple[float, float]:
        """The last parallel search's CPU seconds: of its busiest thread, of all its threads."""

    def set_first_guess(self, depth: int = -1) -> None:
        """MTD(f)'s first guess: a horizon search `depth` plies deep (default -1: by the plies,
        the static evaluation below 20; 0: the piles' margin as they are; tuning, tests)."""
