# The kernel's Python face. A position of any game crosses the boundary as one 11-tuple:
#   (players, hands, table, piles, scopas, to_move, dealer, last_capturer, deals, rules, sides)
# hands/piles/scopas/sides one entry per seat, deals the stock's future deals next first (each one
# 3-card mask per seat), rules the RULE_* bits (RULE_ALL). Everything is checked here, so nothing
# the caller passes can make the C code read or write out of bounds.

from cpython.exc cimport PyErr_CheckSignals
from cpython.number cimport PyNumber_Index



cdef uint64_t _cards(object value, str what, int max_cards) except? 0xFFFFFFFFFFFFFFFF:
    cdef uint64_t v
    try:
        v = value
    except (TypeError, OverflowError):
        raise ValueError(f"{what}: not a set of the 40 cards ({value!r})") from None
    if v > ALL_CARDS:
        raise ValueError(f"{what}: not a set of the 40 cards ({value!r})")
    if popcount(v) > max_cards:
        raise ValueError(f"{what}: {popcount(v)} cards, at most {max_cards} allowed")
    return v


cdef inline uint64_t _seat_cards(object value, str what, int seat, int max_cards) except? 0xFFFFFFFFFFFFFFFF:
    """_cards for one seat's entry, its name ("hand 2") made only for an error: a position is
    loaded for every kernel call, and formatting names cost more than the loading."""
    cdef uint64_t v
    try:
        v = value
    except (TypeError, OverflowError):
        v = ALL_CARDS + 1
    if v <= ALL_CARDS and popcount(v) <= max_cards:
        return v
    return _cards(value, f"{what} {seat}", max_cards)


cdef int _small(object value, str what, int low, int high) except? -999:
    cdef long v
    try:
        v = value
    except (TypeError, OverflowError):
        raise ValueError(f"{what} must be a whole number, not {value!r}") from None
    if v < low or v > high:
        raise ValueError(f"{what} must be between {low} and {high}, not {v!r}")
    return <int>v


# What root_search can be asked for (root.pxi), for the Python side: best, pv, all, full window.
WANT_FLAGS = (WANT_BEST, WANT_PV, WANT_ALL, FULL_WINDOW)
# The rule switches as the kernel numbers them (rules.pxi), so that Python never copies them.
RULE_BITS = {"asso_piglia_tutto": RULE_ASSO_PIGLIA_TUTTO, "ace_sweep_is_scopa": RULE_ACE_SWEEP_IS_SCOPA,
             "re_bello": RULE_RE_BELLO, "napola": RULE_NAPOLA, "fewest_cards": RULE_FEWEST_CARDS,
             "primiera_zero": RULE_PRIMIERA_ZERO, "fifteen": RULE_FIFTEEN,
             "optional_capture": RULE_OPTIONAL_CAPTURE, "last_sweep_counts": RULE_LAST_SWEEP_COUNTS}
globals()["RULE_ALL"] = RULE_ALL        # the C name is taken by the enum; the value is the same
# The largest transposition table a Searcher makes, in MiB (tt.pxi).
MAX_TT_MB = TT_MAX_MB
# Time limits beyond this many seconds (about 31 years) mean no limit.
cdef double NO_TIME_LIMIT = 1e9


cdef uint64_t _count(object value, str what) except? 0xFFFFFFFFFFFFFFFF:
    """A non-negative Python int of any size, clamped to 2^64 - 1."""
    n = PyNumber_Index(value)
    if n < 0:
        raise ValueError(f"{what} must be 0 or more, not {n}")
    return <uint64_t>min(n, 0xFFFFFFFFFFFFFFFF)


cdef tuple _window(object window):
    """search_many's window: two whole numbers alpha < beta (beyond the values' range: none)."""
    try:
        alpha, beta = window
        alpha, beta = PyNumber_Index(alpha), PyNumber_Index(beta)
    except (TypeError, ValueError):
        raise ValueError(f"window must be (alpha, beta), two whole numbers, not {window!r}") from None
    lo = _small(alpha, "window alpha", -1000, 1000)
    hi = _small(beta, "window beta", -1000, 1000)
    if lo >= hi:
        raise ValueError(f"window must have alpha < beta, not {window!r}")
    return lo, hi


cdef double _seconds(object value) except? -1.0:
    """A time limit as the search takes it: 0 for none (0, inf or beyond NO_TIME_LIMIT)."""
    cdef double t
    try:
        t = value
    except OverflowError:               # an int too large for a double
        t = float("inf") if value > 0 else -1.0
    if t != t:
        raise ValueError("time_limit must be a number of seconds, not NaN")
    if t < 0:
        raise ValueError(f"time_limit must be 0 (none) or more seconds, not {t:g}")
    return 0.0 if t > NO_TIME_LIMIT else t


cdef inline uint64_t xorshift(uint64_t* x) noexcept nogil:
    x[0] ^= x[0] << 13
    x[0] ^= x[0] >> 7
    x[0] ^= x[0] << 17
    return x[0]


cdef enum:
    PLAYOUT_SIGNALS_EVERY = 100000      # moves (or playouts) between Ctrl-C checks

OBJECTIVES = ("value", "maxn")
# Why a search stopped, by its code (KernelResult.stop): the one list the Python side's StopReason
# is checked against. "request": the caller's StopToken (the result is returned); "interrupt":
# Ctrl-C (KeyboardInterrupt is raised).
STOP_REASONS = (None, "nodes", "time", "interrupt", "request")
assert STOP_REQUEST == len(STOP_REASONS) - 1


cdef class StopToken:
    """A stop owned by the caller: pass it to `Searcher.search_many` (to any number of searches,
    in any threads); `stop()` ends every one of them within about a thousand nodes, each reporting
    stop 4 ("request"). Set once, it stays set (the kernel only reads it): a search started after
    `stop()` stops at once, so no stop is ever lost. A new piece of work takes a new token."""
    cdef int flag

    def stop(self):
        """Stop every search watching this token, now and later (any thread)."""
        STORE_FLAG(&self.flag, 1)

    @property
    def stopped(self):
        """`stop()` has been called."""
        return LOAD_FLAG(&self.flag) != 0

    def __repr__(self):
        return f"<StopToken {'stopped' if self.stopped else 'running'}>"
globals()["MAX_MOVES"] = MAX_MOVES        # (the C name is the enum's)


cdef inline int _seat_small(object value, str what, int seat, int low, int high) except? -999:
    """_small for one seat's entry, named only for an error (see _seat_cards)."""
    cdef long v
    try:
        v = value
    except (TypeError, OverflowError):
        v = low - 1
    if low <= v <= high:
        return <int>v
    return _small(value, f"{what} {seat}", low, high)


cdef tuple _seq(object value, str what, int n):
    if type(value) is tuple and len(<tuple>value) == n:
        return <tuple>value
    if not isinstance(value, (tuple, list)):
        raise ValueError(f"{what}: one entry per seat, a tuple of {n}, not {type(value).__name__}")
    value = tuple(value)
    if len(value) != n:
        raise ValueError(f"{what}: {len(value)} entries for {n} seats")
    return value


cdef void set_keys(State* s, Game* g) noexcept nogil:
    """The Zobrist keys of a loaded position (its cards, each deal's) that the engine's
    search and play keep up to date."""
    cdef int k, p
    for k in range(s.deals_left):
        g.deal_key[k] = 0
        for p in range(g.players):
            g.deal_key[k] ^= hand_key(p, g.deal[k][p])
    s.zkey = cards_key(s, g.players)


cdef int load_state(object state, State* s, Game* g, bint keys=True) except -1:
    """Check and load a KernelState; `keys`: also its Zobrist keys (set_keys; the calls that only
    move need none)."""
    cdef int n, p, k, c, nd, expect, first, i
    cdef uint64_t seen = 0, m
    if not isinstance(state, tuple):
        raise TypeError(f"a kernel position is a KernelState (an 11-tuple), not {type(state).__name__}")
    cdef tuple pos = <tuple>state
    if len(pos) != 11:
        raise ValueError("a kernel position is an 11-tuple")
    memset(s, 0, sizeof(State))
    memset(g, 0, sizeof(Game))
    n = _small(pos[0], "players", 2, MAX_SEATS)
    g.players = n
    hands = _seq(pos[1], "hands", n)
    piles = _seq(pos[3], "piles", n)
    scopas = _seq(pos[4], "scopas", n)
    sides = _seq(pos[10], "sides", n)
    g.nsides = 0
    for p in range(n):
        k = _small(sides[p], "side", 0, n - 1)
        if k > g.nsides:
            raise ValueError("sides must be numbered 0.. in order of their first seat")
        if k == g.nsides:
            g.nsides += 1
        g.side[p] = k
        g.next_seat[p] = (p + 1) % n
    if g.nsides < 2:
        raise ValueError("a round needs at least two sides")

    for p in range(n):
        m = _seat_cards(hands[p], "hand", p, MAX_HAND)
        if m & seen:
            raise ValueError(f"hand {p}: a card is in two places")
        seen |= m
        s.hand[p] = m
        s.in_hands |= m
        m = _seat_cards(piles[p], "pile", p, NCARDS)
        if m & seen:
            raise ValueError(f"pile {p}: a card is in two places")
        seen |= m
        s.pile[p] = m
        s.scopas[p] = _seat_small(scopas[p], "scopas", p, 0, 40)
    m = _cards(pos[2], "table", NCARDS)
    if m & seen:
        raise ValueError("table: a card is in two places")
    seen |= m
    s.table = m
    s.to_move = _small(pos[5], "to_move", 0, n - 1)
    s.dealer = _small(pos[6], "dealer", 0, n - 1)
    s.last_capturer = _small(pos[7], "last_capturer", -1, n - 1)
    deals = pos[8]
    if not isinstance(deals, (tuple, list)):
        raise ValueError("deals: a tuple of deals, each one mask per seat")
    deals = tuple(deals)
    nd = len(deals)
    if nd > MAX_DEALS:
        raise ValueError(f"at most {MAX_DEALS} deals in the stock, not {nd}")
    s.deals_left = nd
    for k in range(nd):
        deal = _seq(deals[k], "a deal", n)
        for p in range(n):
            m = _seat_cards(deal[p], "stock deal for seat", p, DEAL_CARDS)
            if m & seen:
                raise ValueError("stock deal: a card is in two places")
            seen |= m
            if popcount(m) != DEAL_CARDS:
                raise ValueError("every deal in the stock gives 3 cards to each seat")
            g.deal[nd - 1 - k][p] = m
            g.deal_cards[nd - 1 - k] |= m
    g.rules = _small(pos[9], "rules", 0, RULE_ALL)
    if s.in_hands:
        # play goes leader (dealer + 1), leader + 1, ...: the seats that have played this turn hold
        # one card fewer than the seat to move and those after it
        c = popcount(s.hand[s.to_move])
        first = (s.to_move - s.dealer - 1 + 2 * n) % n      # seats that have played this turn
        for i in range(n):
            p = (s.dealer + 1 + i) % n
            expect = c - 1 if i < first else c
            if popcount(s.hand[p]) != expect:
                raise ValueError(f"seat {p} holds {popcount(s.hand[p])} cards where play order "
                                 f"(seat {s.to_move} to move, dealer {s.dealer}) needs {max(expect, 0)}")
    elif nd:
        raise ValueError("every hand is empty while the stock still holds deals")
    s.table_value = cards_value(s.table)
    if keys:
        set_keys(s, g)
    return 0


cdef tuple dump_state(const State* s, const Game* g, tuple deals):
    cdef int n = g.players, p
    return (n, tuple([s.hand[p] for p in range(n)]), s.table, tuple([s.pile[p] for p in range(n)]),
            tuple([s.scopas[p] for p in range(n)]), s.to_move, s.dealer, s.last_capturer,
            deals[len(deals) - s.deals_left:], g.rules, tuple([g.side[p] for p in range(n)]))


def legal_moves(object state):
    """The legal moves of the seat to move, packed (card << 40 | captured mask), in the canonical
    order (movegen.pxi; [] when the round is over)."""
    cdef State s
    cdef Game g
    cdef uint64_t* moves
    cdef int n, i
    load_state(state, &s, &g, False)
    if round_over(&s):
        return []
    moves = <uint64_t*>malloc(MAX_MOVES * sizeof(uint64_t))
    if moves == NULL:
        raise MemoryError
    try:
        n = generate_moves(&s, g.rules, moves)
        return [moves[i] for i in range(n)]
    finally:
        free(moves)


def play(object state, object packed_move):
    """(after, scopa, dealt, leftovers, leftovers_to) for a legal packed move; ValueError otherwise.

    after: the position after it; scopa: whether it scored one; dealt: whether it emptied the
    hands and the next deal came from the stock; leftovers: the table cards that went to the last
    capturer as it ended the round (0 if none), leftovers_to: that seat (-1 if none). Worked out
    from the states before and after, so apply_move stays as the search uses it."""
    cdef State s
    cdef Game g
    cdef uint64_t move, table, leftovers = 0
    cdef int scopa, to = -1, deals_before
    load_state(state, &s, &g, False)
    try:
        move = packed_move
    except (TypeError, OverflowError):
        raise ValueError(f"not a packed move: {packed_move!r}") from None
    if move not in legal_moves(state):
        raise ValueError("illegal move")
    table = (s.table & ~move_capture(move)) | (0 if move_capture(move) else 1ULL << move_card(move))
    deals_before = s.deals_left
    scopa = apply_move(&s, &g, move)
    if round_over(&s) and s.last_capturer >= 0 and table:
        leftovers = table
        to = s.last_capturer
    return (dump_state(&s, &g, tuple(state[8])), scopa != 0, s.deals_left < deals_before, leftovers, to)


def random_playouts(object state, object playouts, uint64_t seed=1):
    """Play `playouts` uniformly random rounds from the state in C; return the number of moves made.

    Any count (clamped to 2^64 - 1): Ctrl-C is checked every PLAYOUT_SIGNALS_EVERY moves and
    raises KeyboardInterrupt."""
    cdef State root, s
    cdef Game g
    cdef uint64_t* moves
    cdef uint64_t rng = seed * 0x9E3779B97F4A7C15ULL + 1, total = 0, count, i = 0, next_check
    cdef int n
    count = _count(playouts, "playouts")
    load_state(state, &root, &g, False)
    if round_over(&root):
        return 0
    moves = <uint64_t*>malloc(MAX_MOVES * sizeof(uint64_t))
    if moves == NULL:
        raise MemoryError
    next_check = PLAYOUT_SIGNALS_EVERY
    try:
        with nogil:
            while i < count:
                s = root
                while not round_over(&s):
                    n = generate_moves(&s, g.rules, moves)
                    if n == 0:              # cannot happen in a checked position; never divide by 0
                        break
                    apply_move(&s, &g, moves[xorshift(&rng) % n])
                    total += 1
                i += 1
                if total + i >= next_check:  # playouts counted too, in case one ever made no move
                    next_check = total + i + PLAYOUT_SIGNALS_EVERY
                    with gil:
                        PyErr_CheckSignals()
    finally:
        free(moves)
    return total


def other_piles_shift(object now, object then, object in_play, object rules):
    """Two sides, the same cards in play: (low, high) such that for every way the cards in
    play can end, side 0's margin with the piles `now` minus that with the piles `then` lies in
    [low, high], as the search reckons it when it answers from the table's entry for `then`
    (tt.pxi, "Other piles"; for tests). `now` and `then` are each two pile masks."""
    cdef uint64_t a0, a1, b0, b1, play
    cdef int r, low, high
    if not (isinstance(now, (tuple, list)) and len(now) == 2 and isinstance(then, (tuple, list)) and len(then) == 2):
        raise ValueError("now and then: two pile masks each")
    a0, a1 = _cards(now[0], "now[0]", NCARDS), _cards(now[1], "now[1]", NCARDS)
    b0, b1 = _cards(then[0], "then[0]", NCARDS), _cards(then[1], "then[1]", NCARDS)
    play = _cards(in_play, "in_play", NCARDS)
    r = _small(rules, "rules", 0, RULE_ALL)
    if r & RULE_NAPOLA:
        raise ValueError("napola: the table's entries of other piles are not used")
    if (a0 & a1) or (b0 & b1) or ((a0 | a1) & play) or (a0 | a1) != (b0 | b1):
        raise ValueError("the piles must be disjoint, apart from the cards in play, and hold the same cards")
    piles_shift(piles_summary(a0, a1, r, play), piles_summary(b0, b1, r, play), &low, &high)
    return low, high


def score(object piles, object scopas, object sides, object rules):
    """Per-side breakdown of the seats' piles (dict; see kernel.score)."""
    cdef uint64_t side_pile[MAX_SEATS]
    cdef Score d
    cdef int n, p, k, nsides = 0, r
    if not isinstance(piles, (tuple, list)):
        raise ValueError("piles: one mask per seat")
    n = len(piles)
    if n < 2 or n > MAX_SEATS:
        raise ValueError(f"between 2 and {MAX_SEATS} seats, not {n}")
    scopas = _seq(scopas, "scopas", n)
    sides = _seq(sides, "sides", n)
    r = _small(rules, "rules", 0, RULE_ALL)
    for p in range(MAX_SEATS):
        side_pile[p] = 0
    side_scopas = [0] * n
    for p in range(n):
        k = _small(sides[p], "side", 0, n - 1)
        if k > nsides:
            raise ValueError("sides must be numbered 0.. in order of their first seat")
        if k == nsides:
            nsides += 1
        m = _cards(piles[p], f"pile {p}", NCARDS)
        side_pile[k] |= m
        side_scopas[k] += _small(scopas[p], f"scopas {p}", 0, 40)
    if nsides < 2:
        raise ValueError("a round needs at least two sides")
    score_sides(side_pile, nsides, r, &d)
    opt = lambda w: None if w < 0 else w
    return dict(cards=[d.cards[k] for k in range(nsides)], coins=[d.coins[k] for k in range(nsides)],
                primiera=[d.primiera[k] if d.primiera[k] >= 0 else None for k in range(nsides)],
                napola=[d.napola[k] for k in range(nsides)],
                points=[d.points[k] + side_scopas[k] for k in range(nsides)],
                scopas=side_scopas[:nsides], carte=opt(d.carte), denari=opt(d.denari),
                settebello=opt(d.settebello), primiera_winner=opt(d.primiera_winner),
                re_bello=opt(d.re_bello))


MATCH_MAX = MATCH_ONE      # a MATCH value: the chance to win the match in 1/10,000ths
MATCH_MAX_CELLS = 1 << 22  # the most entries a leaf table may have


cdef class MatchTable:
    """The match objective's leaf table (search.pxi, MATCH): `values[k]` (ints 0..10000) is the
    chance, in 1/10,000ths, that side `side` wins the match when the round ends with every side's
    points `lows[i] + k_i`, k = sum(k_i * stride_i) row-major (side 0 slowest, the last side
    fastest), `dims[i]` the points of side i it covers. A search under it takes the side of its
    root's seat to move as `side`, and the table must cover that root's point bounds
    (`side_bounds`). Checked once here; `monotone` (the side's own points up never lower the
    entry, another side's up never raise it) says whether the search may cut on bounds, and
    `key` (its content's hash) keeps two tables' values apart in a searcher's table."""
    cdef int32_t* values
    cdef readonly int side, nsides, cells
    cdef readonly tuple lows, dims
    cdef readonly bint monotone
    cdef readonly uint64_t key
    cdef int low[MAX_SEATS]
    cdef int dim[MAX_SEATS]
    cdef int stride[MAX_SEATS]

    def __cinit__(self, object values, object lows, object dims, object side):
        cdef int i, n, k, j, at
        cdef long long cells = 1
        cdef uint64_t h
        cdef int32_t v
        self.values = NULL
        lows = tuple(lows)
        dims = tuple(dims)
        n = len(dims)
        if n < 2 or n > MAX_SEATS or len(lows) != n:
            raise ValueError(f"a match table needs lows and dims, one per side (2 to {MAX_SEATS}), "
                             f"not {len(lows)} and {n}")
        for i in range(n):
            self.low[i] = _small(lows[i], "match table low", 0, 1000)
            self.dim[i] = _small(dims[i], "match table dim", 1, MATCH_MAX_CELLS)
            cells *= self.dim[i]
            if cells > MATCH_MAX_CELLS:
                raise ValueError(f"a match table of more than {MATCH_MAX_CELLS} entries")
        k = 1
        for i in range(n - 1, -1, -1):
            self.stride[i] = k
            k *= self.dim[i]
        self.side = _small(side, "match table side", 0, n - 1)
        self.nsides = n
        self.cells = cells
        self.lows = tuple([self.low[i] for i in range(n)])
        self.dims = tuple([self.dim[i] for i in range(n)])
        values = list(values)
        if len(values) != cells:
            raise ValueError(f"a match table of dims {self.dims} has {cells} entries, not {len(values)}")
        self.values = <int32_t*>malloc(cells * sizeof(int32_t))
        if self.values == NULL:
            raise MemoryError("cannot allocate the match table")
        h = mix64(0x6A09E667F3BCC909ULL ^ <uint64_t>self.side)
        for i in range(n):
            h = mix64(h ^ (<uint64_t>self.low[i] << 32 | <uint64_t>self.dim[i]))
        for i in range(cells):
            v = _small(values[i], "match table entry", 0, MATCH_ONE)
            self.values[i] = v
            h = mix64(h ^ (<uint64_t>v + (<uint64_t>i << 16)))
        self.key = h | 1
        # monotone: along every side's axis, each step up moves the entry the right way
        self.monotone = True
        for at in range(cells):
            for i in range(n):
                if (at // self.stride[i]) % self.dim[i] == self.dim[i] - 1:
                    continue
                j = at + self.stride[i]
                if (self.values[j] < self.values[at]) if i == self.side else (self.values[j] > self.values[at]):
                    self.monotone = False
                    break
            if not self.monotone:
                break

    def __dealloc__(self):
        free(self.values)

    def __len__(self):
        return self.cells

    def value(self, object points):
        """The entry for every side's final round points (ValueError outside the table)."""
        cdef int i, at = 0, k
        points = tuple(points)
        if len(points) != self.nsides:
            raise ValueError(f"{self.nsides} sides' points, not {len(points)}")
        for i in range(self.nsides):
            k = _small(points[i], f"points of side {i}", self.low[i], self.low[i] + self.dim[i] - 1) - self.low[i]
            at += k * self.stride[i]
        return self.values[at]

    def __repr__(self):
        return (f"<MatchTable side={self.side} lows={self.lows} dims={self.dims} "
                f"monotone={bool(self.monotone)}>")

    cdef int check(self, const State* s, const Game* g, int seat) except -1:
        """The table fits this root: its game's sides, its mover's side (`seat`, the search's
        seat, on that side too), its point bounds."""
        cdef Engine F
        cdef int low[MAX_SEATS]
        cdef int high[MAX_SEATS]
        cdef uint64_t piles[MAX_SEATS]
        cdef int i
        if g.nsides != self.nsides:
            raise ValueError(f"the match table is for {self.nsides} sides, the position has {g.nsides}")
        if g.side[s.to_move] != self.side:
            raise ValueError(f"the match table is side {self.side}'s, the seat to move is side "
                             f"{g.side[s.to_move]}'s")
        if g.side[seat] != self.side:
            raise ValueError(f"a match search is for the side to move (side {self.side}), not for seat "
                             f"{seat}'s side {g.side[seat]}")
        memset(&F, 0, sizeof(Engine))
        set_game(&F, g, PARANOID, s.to_move)
        if round_over(s):
            side_points(s, g, True, low)
            for i in range(g.nsides):
                high[i] = low[i]
        else:
            side_piles(s, g, piles)
            sides_bounds(&F, s, s.in_hands | s.table | F.stock_mask[s.deals_left], piles, True, low, high)
        for i in range(g.nsides):
            if low[i] < self.low[i] or high[i] > self.low[i] + self.dim[i] - 1:
                raise ValueError(f"the match table covers side {i}'s points {self.low[i]}.."
                                 f"{self.low[i] + self.dim[i] - 1}, the position's may be {low[i]}..{high[i]}")
        return 0

    cdef void load(self, Engine* F) noexcept nogil:
        cdef int i
        F.match_values = self.values
        for i in range(self.nsides):
            F.match_low[i] = self.low[i]
            F.match_dim[i] = self.dim[i]
            F.match_stride[i] = self.stride[i]
        F.match_monotone = self.monotone
        F.match_hash = self.key


cdef class KernelResult:
    """What one root search found, in plain values (moves packed as card << 40 | captures).

    lower/upper bound the value (equal when complete; scopas already made included); stop is
    0 when complete, else 1 nodes, 2 time, 3 interrupt (nodes is then at most max_nodes); best
    lists the optimal moves (WANT_BEST; a stopped search lists them only when it had proved the
    value and tested every move against it, so lower == upper, else best is None),
    move_bounds each move's (lower, upper) (WANT_ALL), pv the principal variation (WANT_PV) and
    end the (piles, scopas) it ends with, one entry per seat (None when stopped, without a pv or
    under a horizon), points every side's round points at the end of the pv (objective "value",
    WANT_PV) or the max^n vector (None when stopped or not asked); objective "value", "maxn" or
    "match" (a MatchTable: values the mover's side's chance to win the match in 1/10,000ths, an
    unknown bound 0 or 10000; the others' unknown bound is -127 or 127);
    horizon None for an exact search, else the plies from the root where the search stopped and
    scored the positions statically (the values are then estimates), evaluations how many static
    evaluations it made; probes/hits/stores count this search's table use and fill is the
    table's fill afterwards. The lists are built from the C result on each access (a batch of
    small searches would otherwise spend much of its time making them)."""
    # Kept within 512 bytes, so that Python's small-object allocator makes it (a batch of small
    # searches made one a position; 0.43 -> 0.27 us a position when it first fitted).
    cdef RootResult R
    cdef readonly double fill
    cdef readonly uint64_t evaluations
    cdef int16_t _horizon       # 0: exact
    cdef int8_t _maxn
    cdef int8_t _match          # MATCH: values in 1/10,000ths, unknown bounds 0 and 10000

    def __repr__(self):
        return (f"<KernelResult lower={self.lower} upper={self.upper} stop={self.stop} nodes={self.nodes} "
                f"objective={self.objective!r} horizon={self.horizon}>")

    def __dealloc__(self):
        result_free(&self.R)

    @property
    def objective(self):
        return "maxn" if self._maxn else "match" if self._match else "value"

    cdef int _out(self, int x):
        """A bound as Python sees it: unbounded is 0 / 10000 under MATCH (every chance lies
        there), else -127 / 127 (the values' historical infinity)."""
        if self._match:
            return 0 if x < 0 else MATCH_ONE if x > MATCH_ONE else x
        return -NARROW_INF if x <= -NARROW_INF else NARROW_INF if x >= NARROW_INF else x

    @property
    def horizon(self):
        return self._horizon if self._horizon > 0 else None

    @property
    def lower(self):
        return self._out(self.R.lower)

    @property
    def upper(self):
        return self._out(self.R.upper)

    @property
    def stop(self):
        return self.R.stop

    @property
    def nodes(self):
        return self.R.nodes

    @property
    def seconds(self):
        return self.R.seconds

    @property
    def probes(self):
        return self.R.probes

    @property
    def hits(self):
        return self.R.hits

    @property
    def stores(self):
        return self.R.stores

    @property
    def moves(self):
        return [self.R.moves[i] for i in range(self.R.n_moves)]

    @property
    def best(self):
        if self.R.is_best == NULL:
            return None
        return [self.R.moves[i] for i in range(self.R.n_moves) if self.R.is_best[i]]

    @property
    def move_bounds(self):
        if self.R.move_lower == NULL:
            return None
        return [(self._out(self.R.move_lower[i]), self._out(self.R.move_upper[i])) for i in range(self.R.n_moves)]

    @property
    def pv(self):
        return [self.R.pv[i] for i in range(self.R.pv_len)]

    @property
    def end(self):
        cdef int p
        if not self.R.has_end or self.R.stop != STOP_NONE or not self.R.pv_len or self._horizon > 0:
            return None
        return (tuple([self.R.end_pile[p] for p in range(self.R.players)]),
                tuple([self.R.end_scopas[p] for p in range(self.R.players)]))

    @property
    def points(self):
        cdef int i
        if not self.R.has_points:
            return None
        return tuple([self.R.points[i] for i in range(self.R.nsides)])


cdef class Searcher:
    """A search context for every game: the transposition table, the move stacks and the node
    counters. One Searcher per thread; it may be reused for many positions of any games (the
    table keys include the whole position, stock, rules and seats included, so entries stay
    valid across positions)."""
    cdef Engine F
    cdef readonly double tt_mb
    cdef double cpu[2]
    cdef uint64_t nodes_done        # of every search this Searcher ended (nodes_total)

    def __cinit__(self, tt_mb=64.0):
        cdef double mb
        memset(&self.F, 0, sizeof(Engine))
        try:
            mb = tt_mb
        except OverflowError:
            mb = float("inf")
        if mb != mb or mb < 0 or mb == float("inf"):
            raise ValueError(f"the transposition table size must be a finite number of MiB, "
                             f"0 or more, not {mb:g}")
        if mb > TT_MAX_MB:
            raise ValueError(f"a transposition table of {mb:g} MiB is over the limit of "
                             f"{TT_MAX_MB} MiB")
        self.tt_mb = mb
        if table_init(&self.F.S.table, mb) != 0:
            raise MemoryError(f"cannot allocate a {mb:g} MiB transposition table")
        self.F.S.use_table = self.F.S.table.entries != NULL
        self.F.table_min_cards = -1     # by the game (search.pxi)
        self.F.scale = 1
        self.F.table_stride = -1
        self.F.table_every_from = -1
        self.F.guess_depth = -1
        self.F.use_bounds = 64
        self.F.use_equiv = 1
        self.F.use_last_round = 1
        self.F.use_others = 1
        self.F.use_order = 1
        # malloc, not calloc: only the levels a search reaches are ever touched
        self.F.moves = <uint64_t*>malloc(MAX_PLIES * MAX_MOVES * sizeof(uint64_t))
        if self.F.moves == NULL:
            raise MemoryError("cannot allocate the move stack")

    def __dealloc__(self):
        table_free(&self.F.S.table)
        free(self.F.moves)

    def clear(self):
        """Forget every stored position."""
        table_clear(&self.F.S.table)

    def table_stats(self):
        """Transposition-table figures since the Searcher was made: probes, hits, stores, fill,
        and `active`, the entries of the region in use (it grows with the searches, see tt.pxi)."""
        cdef Table* t = &self.F.S.table
        return dict(probes=t.probes, hits=t.hits, stores=t.stores, filled=t.filled,
                    capacity=t.capacity, fill=(<double>t.filled / t.capacity) if t.capacity else 0.0,
                    active=(t.mask + 1) * BUCKET if t.capacity else 0)

    def set_table(self, bint enabled):
        """Switch the transposition table off (baseline measurements) or back on."""
        self.F.S.use_table = enabled and self.F.S.table.entries != NULL

    def set_table_min_cards(self, int cards, int stride=1, int every_from=0):
        """Probe the table only at nodes with at least this many cards still to play (hands and
        stock), and where the cards in hands are a multiple of `stride` or at least `every_from`
        (0: that second rule off); tuning: by default 7, 3 and 16, two players 5, 3 and 16."""
        self.F.table_min_cards = max(0, cards)
        self.F.table_stride = max(1, stride)
        self.F.table_every_from = max(0, every_from)

    def set_bounds(self, int max_cards):
        """Cut on the bounds of what a position can still be worth at nodes with at most
        `max_cards` cards in hands (0: never; tuning)."""
        self.F.use_bounds = max_cards

    def set_first_guess(self, int depth=-1):
        """MTD(f)'s first guess: a horizon search `depth` plies deep (-1: by the plies, the
        default; 0: the piles' margin as they are, as before the guess search; tuning, tests)."""
        self.F.guess_depth = max(-1, depth)

    def set_equivalence(self, bint enabled):
        """Play one of the moves that differ only by same-rank cards whose suits cannot change
        any score (on by default; tuning and tests)."""
        self.F.use_equiv = enabled

    def set_parallel(self, int busy_cards=0, double region_mb=0):
        """Parallel search (tuning): put off the moves another thread is searching at nodes with
        at least `busy_cards` cards in hands (0: BUSY_MIN_CARDS, 12; more than any position:
        never, plain Lazy SMP), in a table region of at most `region_mb` MiB (0: 16)."""
        self.F.busy_cards = busy_cards
        self.F.parallel_mb = region_mb

    def parallel_cpu(self):
        """The last parallel search's (most CPU seconds of one thread, CPU seconds of them all):
        on a loaded machine the first is what its wall time would be with a core per thread."""
        return self.cpu[0], self.cpu[1]

    def set_last_round(self, bint enabled):
        """Solve the last round (no hand holding two cards, the stock empty) by a walk along its
        forced plays (on by default; off: the general search, for tests and tuning)."""
        self.F.use_last_round = enabled

    def set_other_piles(self, bint enabled):
        """Two sides: answer from the table's bounds for the same cards with other piles, moved
        by what the piles can change (on by default; off for tests and tuning)."""
        self.F.use_others = enabled

    def set_ordering(self, bint enabled):
        """Order the moves (table move, guess move, killers, static scores; on by default); off:
        the generation order everywhere, for measuring what ordering gives (scopa-solver bench)."""
        self.F.use_order = enabled

    @property
    def nodes_total(self):
        """Every node this Searcher has searched, the running search's included, read live from
        any thread (for progress lines: the difference of two readings; a parallel search's
        helper threads count once it ends)."""
        return self.nodes_done + self.F.S.nodes

    cdef KernelResult _convert(self, RootResult* R, int mode, int horizon, uint64_t evaluations):
        """Move the C result (and its buffers) into a KernelResult."""
        cdef KernelResult k = KernelResult.__new__(KernelResult)
        k._horizon = horizon
        k.evaluations = evaluations
        k.R = R[0]
        k._maxn = mode == MAXN
        k._match = mode == MATCH
        R.moves = NULL
        R.is_best = NULL
        R.move_lower = NULL
        R.move_upper = NULL
        R.pv = NULL
        k.fill = (<double>self.F.S.table.filled / self.F.S.table.capacity) if self.F.S.table.capacity else 0.0
        return k

    def search(self, object pos, int want=WANT_BEST | WANT_PV, object max_nodes=0,
               object time_limit=0.0, bint check_signals=True, object objective="value",
               object horizon=0, int threads=1, StopToken stop=None, int seat=-1):
        """Search one position; see search_many."""
        results = self.search_many([pos], want, max_nodes, time_limit, check_signals, objective, horizon,
                                   threads, stop, seat)
        if results[0].stop == STOP_INTERRUPT:
            raise KeyboardInterrupt
        return results[0]

    def search_many(self, list positions, int want=WANT_BEST | WANT_PV, object max_nodes=0,
                    object time_limit=0.0, bint check_signals=False, object objective="value",
                    object horizon=0, int threads=1, StopToken stop=None, int seat=-1,
                    object window=None):
        """Search many positions with the GIL released; limits apply to each.

        max_nodes: any int >= 0 (0: none; clamped to 2^64 - 1), and a stopped search has
        visited at most that many nodes; time_limit: seconds >= 0 (0 or inf: none).
        objective "value": two sides the margin, three or more the paranoid value; "maxn": every
        side's points with each seat maximising its own side's; a MatchTable (or a list of
        them, one per position): the match objective, the mover's side's chance to win the
        match in 1/10,000ths read at the round's end in the table (search.pxi, MATCH). horizon: 0 (or None) searches
        exactly; h > 0 stops h plies below the root and scores there by the static evaluation
        (eval.pxi), unless the round ends within h plies (the result is then exact).
        threads > 1: each position is searched by that many threads sharing this searcher's
        table (parallel.pxi; "value" only, max^n searches on one): the same results,
        `nodes` those of every thread, `max_nodes` for all of them together.
        stop: the caller's StopToken (None: only the limits and Ctrl-C stop it): once it is set,
        the running search and every later one of the batch stop at once with stop 4 ("request"),
        and the results are returned. Ctrl-C (check_signals, main thread only) raises
        KeyboardInterrupt. seat >= 0: with three or more sides under "value", the paranoid value
        of that seat's side (it maximises, every other side minimises), each result's values still
        for the side to move (negated when it is an opponent of that seat's side): a line after a
        move is searched from the mover's view (-1, the default: the side to move's own). Under a
        MatchTable only a seat of the side to move (ValueError otherwise).
        window (alpha, beta), alpha < beta, in the values' units (scopas made included): prove
        only where each value lies against it, by one fail-soft search (want 0, "value", exact;
        with threads, each proves against the window and the first to end answers): `lower` ==
        `upper` the value when inside, else `upper` <= alpha (the other
        bound -127: "value <= upper") or `lower` >= beta ("value >= lower", `upper` 127); a null
        window (t - 1, t) decides "value >= t" or "value <= t - 1". None: the exact search."""
        cdef uint64_t node_limit = _count(max_nodes, "max_nodes")
        cdef int window_lo = 0, window_hi = 0
        cdef double seconds = _seconds(time_limit)
        cdef int count = len(positions), i, status = 0, mode
        cdef State* states = NULL
        cdef Game* games = NULL
        cdef RootResult* results = NULL
        cdef int* modes = NULL
        cdef int* horizons = NULL
        cdef uint64_t* evaluations = NULL
        cdef int depth = 0 if horizon is None else _small(horizon, "horizon", 0, 1 << 20)
        cdef Engine* F = &self.F
        cdef list tables = None
        if isinstance(objective, MatchTable):
            tables = [objective] * count
        elif isinstance(objective, (list, tuple)):
            tables = list(objective)
            if len(tables) != count or not all(isinstance(t, MatchTable) for t in tables):
                raise ValueError(f"a match objective per position: {count} MatchTables")
        elif not isinstance(objective, str) or objective not in OBJECTIVES:
            raise ValueError(f"objective must be 'value', 'maxn' or a MatchTable, not {str(objective)[:20]!r}")
        if seat < -1 or seat >= MAX_SEATS:
            raise ValueError(f"seat must be -1 or a seat number, not {seat}")
        if window is not None:
            window_lo, window_hi = _window(window)
            if want != 0 or not isinstance(objective, str) or objective != "value" or depth != 0:
                raise ValueError("a windowed search proves bounds only: want 0, objective 'value', "
                                 "no horizon")
            want = WINDOWED
        states = <State*>malloc((count + 1) * sizeof(State))
        games = <Game*>malloc((count + 1) * sizeof(Game))
        results = <RootResult*>calloc(count + 1, sizeof(RootResult))
        modes = <int*>malloc((count + 1) * sizeof(int))
        horizons = <int*>malloc((count + 1) * sizeof(int))
        evaluations = <uint64_t*>calloc(count + 1, sizeof(uint64_t))
        try:
            if (states == NULL or games == NULL or results == NULL or modes == NULL
                    or horizons == NULL or evaluations == NULL):
                raise MemoryError("cannot allocate the batch")
            for i in range(count):
                load_state(positions[i], &states[i], &games[i])
                if seat >= games[i].players:
                    raise ValueError(f"seat {seat} is not at the table of {games[i].players} players")
                if tables is not None:
                    (<MatchTable>tables[i]).check(&states[i], &games[i], seat if seat >= 0 else states[i].to_move)
                    modes[i] = MATCH
                elif objective == "maxn":
                    modes[i] = MAXN
                else:
                    modes[i] = TWO_SIDES if games[i].nsides == 2 else PARANOID
            F.S.max_nodes = node_limit
            F.S.check_signals = check_signals
            F.S.abort = 0       # the kernel's own (parallel.pxi); the caller's token is never cleared
            F.S.token = &stop.flag if stop is not None else NULL
            F.S.trace = NULL
            with nogil:
                for i in range(count):
                    if modes[i] == MATCH:
                        with gil:
                            (<MatchTable>tables[i]).load(F)
                    set_game(F, &games[i], modes[i], seat if seat >= 0 and modes[i] == PARANOID
                             else states[i].to_move)
                    # the horizon as cards left, so that every search of the root (moves, pv)
                    # cuts at the same positions; their values never meet exact ones in the table
                    F.horizon_left = plies_left(F, &states[i]) - depth if depth > 0 else 0
                    F.scale = 1
                    if F.horizon_left > 0:
                        F.game_key = horizon_key(F)
                        horizons[i] = depth
                        if modes[i] == TWO_SIDES or modes[i] == PARANOID:   # max^n's table packs whole
                            F.scale = HORIZON_SCALE       # points; MATCH counts 1/10,000ths
                    else:
                        F.horizon_left = 0
                        horizons[i] = 0
                    F.evaluations = 0
                    F.S.nodes = 0
                    F.S.deadline = monotonic() + seconds if seconds > 0 else 0.0
                    results[i].window_lo = window_lo
                    results[i].window_hi = window_hi
                    # two players: a whole round takes about a millisecond, on one thread
                    if threads > 1 and modes[i] != MAXN and games[i].players > 2:
                        status = parallel_search(F, &states[i], want, &results[i], threads, self.cpu)
                    else:
                        status = root_search(F, &states[i], want, &results[i])
                    evaluations[i] = F.evaluations
                    self.nodes_done += results[i].nodes
                    F.S.nodes = 0
                    if status != 0 or results[i].stop == STOP_INTERRUPT:
                        break
            if status != 0:
                raise MemoryError("out of memory during the search")
            out = []
            for i in range(count):
                out.append(self._convert(&results[i], modes[i], horizons[i], evaluations[i]))
                if results[i].stop == STOP_INTERRUPT:
                    raise KeyboardInterrupt
            return out
        finally:
            F.S.token = NULL    # the token may be freed after this call
            for i in range(count if results != NULL else 0):
                result_free(&results[i])
            free(states)
            free(games)
            free(results)
            free(modes)
            free(horizons)
            free(evaluations)


    def trace(self, object pos, int want=0, int max_events=100000):
        """Search one position exactly under objective "value" (the margin with two sides, the
        paranoid value with more) recording every event (see trace.pxi); returns (events, result).

        Events are tuples: ("pass", depth, alpha, beta, move), ("enter", depth, alpha, beta, move),
        ("tt", depth, lower, upper), ("leaf", depth, value), ("exit", depth, value, n_moves,
        n_searched). Node values and windows are the mover's (the mover's
        team's: its side's with two sides; in paranoid the root's side or its opponents). Max^n
        is not traced. ValueError if the search needs more than `max_events` events."""
        cdef SearchTrace* ft
        cdef State s
        cdef Game g
        cdef RootResult R
        cdef int status, i
        cdef TraceEvent* e
        cdef Engine* F = &self.F
        if max_events < 1:
            raise ValueError("max_events must be positive")
        load_state(pos, &s, &g)
        ft = <SearchTrace*>calloc(1, sizeof(SearchTrace))
        if ft == NULL:
            raise MemoryError("cannot allocate the trace")
        memset(&R, 0, sizeof(RootResult))
        ft.t.events = <TraceEvent*>malloc(max_events * sizeof(TraceEvent))
        ft.t.capacity = max_events
        names = ("pass", "enter", "tt", "leaf", "exit")
        try:
            if ft.t.events == NULL:
                raise MemoryError("cannot allocate the trace")
            F.S.trace = &ft.t
            F.S.max_nodes = 0
            F.S.deadline = 0.0
            F.S.abort = 0
            F.S.token = NULL
            F.S.check_signals = True
            F.S.nodes = 0
            set_game(F, &g, TWO_SIDES if g.nsides == 2 else PARANOID, s.to_move)
            F.horizon_left = 0
            F.scale = 1
            F.evaluations = 0
            status = root_search(F, &s, want, &R)
            if status != 0:
                raise MemoryError("out of memory during the search")
            if R.stop == STOP_INTERRUPT:
                raise KeyboardInterrupt
            if ft.t.overflow:
                raise ValueError(f"the search needs more than {max_events} trace events")
            events = []
            for i in range(ft.t.count):
                e = ft.t.events + i
                a = max(-NARROW_INF, min(NARROW_INF, e.a))      # unbounded: -127 / 127
                b = max(-NARROW_INF, min(NARROW_INF, e.b))
                if e.kind == EVENT_PASS or e.kind == EVENT_ENTER:
                    events.append((names[e.kind], e.depth, a, b, e.move))
                elif e.kind == EVENT_EXIT:
                    events.append((names[e.kind], e.depth, a, e.n_moves, e.n_searched))
                elif e.kind == EVENT_TABLE:
                    events.append((names[e.kind], e.depth, a, b))
                else:
                    events.append((names[e.kind], e.depth, a))
            return events, self._convert(&R, TWO_SIDES, 0, 0)
        finally:
            F.S.trace = NULL
            result_free(&R)
            free(ft.t.events)
            free(ft)

def evaluate(object state, object root_seat=None):
    """The horizon search's static evaluation of a position (eval.pxi): every
    side's expected round points (scopas made not included) and the value the "value" search
    gives the position at a horizon, for its seat to move in a search rooted at `root_seat`'s
    side (default: the seat to move): with two sides the expected margin of points to come,
    with more the paranoid value (scopas made included); in points, to the quarter point the
    horizon search counts in."""
    cdef Engine F
    cdef State s
    cdef Game g
    cdef double e[MAX_SEATS]
    cdef int seat, value
    load_state(state, &s, &g)
    seat = s.to_move if root_seat is None else _small(root_seat, "root_seat", 0, g.players - 1)
    memset(&F, 0, sizeof(Engine))
    set_game(&F, &g, TWO_SIDES if g.nsides == 2 else PARANOID, seat)
    F.scale = HORIZON_SCALE
    expected_points(&s, &g, g.side, g.nsides, F.stock_mask[s.deals_left], e)
    value = horizon_value(&F, &s)
    return tuple([e[seat] for seat in range(g.nsides)]), value / <double>HORIZON_SCALE
