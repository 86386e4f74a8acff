# The Python face of the kernel. A position crosses the boundary as a plain tuple:
#   (hand0, hand1, table, pile0, pile1, scopas0, scopas1, to_move, dealer, last_capturer,
#    deals, rules)
# with card masks as ints, deals a tuple of (non-dealer mask, dealer mask) pairs, next deal
# first, and rules the RULE_* bit set. Everything is range-checked here, so nothing the caller
# passes can make the C code read or write out of bounds.

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
             "primiera_zero": RULE_PRIMIERA_ZERO}
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


cdef int load_position(object state, State* s, Game* g) except -1:
    cdef int k, n
    if not isinstance(state, tuple):
        raise TypeError(f"a kernel position is a KernelState (a 12-tuple), not {type(state).__name__}")
    cdef tuple pos = <tuple>state     # a KernelState is a tuple subclass
    if len(pos) != 12:
        raise ValueError("a kernel position is a 12-tuple")
    s.hand[0] = _cards(pos[0], "hand 0", MAX_HAND)
    s.hand[1] = _cards(pos[1], "hand 1", MAX_HAND)
    s.table = _cards(pos[2], "table", NCARDS)
    s.pile[0] = _cards(pos[3], "pile 0", NCARDS)
    s.pile[1] = _cards(pos[4], "pile 1", NCARDS)
    s.scopas[0] = _small(pos[5], "scopas 0", 0, 40)
    s.scopas[1] = _small(pos[6], "scopas 1", 0, 40)
    s.to_move = _small(pos[7], "to_move", 0, 1)
    s.dealer = _small(pos[8], "dealer", 0, 1)
    s.last_capturer = _small(pos[9], "last_capturer", -1, 1)
    deals = tuple(pos[10])
    n = len(deals)
    if n > MAX_DEALS:
        raise ValueError(f"at most {MAX_DEALS} deals in the stock, not {n}")
    s.deals_left = n
    memset(g.deal, 0, sizeof(g.deal))
    for k in range(n):
        if len(deals[k]) != 2:
            raise ValueError("a deal is a pair (non-dealer cards, dealer cards)")
        g.deal[n - 1 - k][0] = _cards(deals[k][0], "stock deal", MAX_HAND)
        g.deal[n - 1 - k][1] = _cards(deals[k][1], "stock deal", MAX_HAND)
        if popcount(g.deal[n - 1 - k][0]) != MAX_HAND or popcount(g.deal[n - 1 - k][1]) != MAX_HAND:
            raise ValueError("every deal in the stock gives 3 cards to each player")
    g.rules = _small(pos[11], "rules", 0, RULE_ALL)
    n = popcount(s.hand[s.to_move]) - popcount(s.hand[1 - s.to_move])
    if (s.hand[0] or s.hand[1]) and n != 0 and n != 1:
        raise ValueError(f"player {s.to_move} is to move with {popcount(s.hand[s.to_move])} cards "
                         f"against {popcount(s.hand[1 - s.to_move])}: play alternates")
    if s.deals_left and not (s.hand[0] or s.hand[1]):
        raise ValueError("both hands are empty while the stock still holds deals")
    s.zkey = cards_key(s)
    s.table_value = cards_value(s.table)
    return 0


cdef tuple dump_position(const State* s, tuple deals, int rules):
    return (s.hand[0], s.hand[1], s.table, s.pile[0], s.pile[1], s.scopas[0], s.scopas[1],
            s.to_move, s.dealer, s.last_capturer, deals[len(deals) - s.deals_left:], rules)


def legal_moves(object pos):
    """The legal moves of the side to move, packed (card << 40 | captured mask), in kernel order."""
    cdef State s
    cdef Game g
    cdef uint64_t moves[MAX_MOVES]
    cdef int n, i
    load_position(pos, &s, &g)
    if round_over(&s):
        return []
    n = generate_moves(&s, g.rules, moves)
    return [moves[i] for i in range(n)]


def play(object pos, object packed_move):
    """(after, scopa, dealt, leftovers, leftovers_to) for `move`; ValueError if it is illegal.

    after: the position after it; scopa: whether it scored one; dealt: whether it emptied both
    hands and the next deal came from the stock; leftovers: the table cards that went to the
    last capturer as it ended the round (0 if none), leftovers_to: that player (-1 if none).
    Worked out from the states before and after, so apply_move stays as the search uses it."""
    cdef State s, before
    cdef Game g
    cdef uint64_t moves[MAX_MOVES]
    cdef uint64_t move, table, leftovers = 0
    cdef int n, i, scopa, to = -1
    load_position(pos, &s, &g)
    try:
        move = packed_move
    except (TypeError, OverflowError):
        raise ValueError(f"not a packed move: {packed_move!r}") from None
    n = 0 if round_over(&s) else generate_moves(&s, g.rules, moves)
    for i in range(n):
        if moves[i] == move:
            before = s
            scopa = apply_move(&s, &g, move)
            # the table the move left, before any leftovers were swept up
            table = (before.table & ~move_capture(move)) | (0 if move_capture(move) else 1ULL << move_card(move))
            if round_over(&s) and s.last_capturer >= 0 and table:
                leftovers = table
                to = s.last_capturer
            return (dump_position(&s, tuple(pos[10]), g.rules), scopa != 0,
                    s.deals_left < before.deals_left, leftovers, to)
    raise ValueError("illegal move")


def score_piles_detail(pile0, pile1, int rules):
    """The end-of-round breakdown of two capture piles (scopas excluded) as a dict."""
    cdef ScoreDetail d
    score_piles(_cards(pile0, "pile 0", NCARDS), _cards(pile1, "pile 1", NCARDS),
                _small(rules, "rules", 0, RULE_ALL), &d)
    return dict(cards=(d.cards[0], d.cards[1]), coins=(d.coins[0], d.coins[1]),
                primiera=(d.primiera[0] if d.primiera[0] >= 0 else None,
                          d.primiera[1] if d.primiera[1] >= 0 else None),
                napola=(d.napola[0], d.napola[1]), carte=d.carte_winner, denari=d.denari_winner,
                settebello=d.settebello_owner, primiera_winner=d.primiera_winner,
                re_bello=d.re_bello_owner, points=(d.points[0], d.points[1]))


cdef inline uint64_t xorshift(uint64_t* x) noexcept nogil:
    x[0] ^= x[0] << 13
    x[0] ^= x[0] >> 7
    x[0] ^= x[0] << 17
    return x[0]


cdef enum:
    PLAYOUT_SIGNALS_EVERY = 100000      # moves (or playouts) between Ctrl-C checks


def random_playouts(object pos, object playouts, uint64_t seed=1):
    """Play `playouts` uniformly random rounds from pos in C; return the number of moves made.

    Any count (clamped to 2^64 - 1): Ctrl-C is checked every PLAYOUT_SIGNALS_EVERY moves and
    raises KeyboardInterrupt."""
    cdef State root, s
    cdef Game g
    cdef uint64_t moves[MAX_MOVES]
    cdef uint64_t rng = seed * 0x9E3779B97F4A7C15ULL + 1, total = 0, count, i = 0, next_check
    cdef int n
    count = _count(playouts, "playouts")
    load_position(pos, &root, &g)
    if round_over(&root):
        return 0
    next_check = PLAYOUT_SIGNALS_EVERY
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
    return total


cdef class KernelResult:
    """What one root search found, in plain values (moves packed as card << 40 | captures).

    lower/upper bound the value (equal when complete; scopas already made included); stop is
    0 when complete, else 1 nodes, 2 time, 3 interrupt (nodes is then at most max_nodes); best
    lists the optimal moves (WANT_BEST; a stopped search lists them only when it had proved the
    value and tested every move against it, so lower == upper, else best is None),
    move_bounds each move's (lower, upper) (WANT_ALL), pv the principal variation (WANT_PV) and
    end the (pile0, pile1, scopas0, scopas1) it ends with; probes/hits/stores count this search's
    table use and fill is the table's fill afterwards. The lists are built from the C result on
    each access (a batch of small searches would otherwise spend much of its time making them)."""
    cdef RootResult R
    cdef readonly double fill

    def __dealloc__(self):
        result_free(&self.R)

    @property
    def lower(self):
        return self.R.lower

    @property
    def upper(self):
        return self.R.upper

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
        return [(self.R.move_lower[i], self.R.move_upper[i]) for i in range(self.R.n_moves)]

    @property
    def pv(self):
        return [self.R.pv[i] for i in range(self.R.pv_len)]

    @property
    def end(self):
        if self.R.stop != STOP_NONE or not self.R.pv_len:
            return None
        return (self.R.end_pile[0], self.R.end_pile[1], self.R.end_scopas[0], self.R.end_scopas[1])


cdef class Searcher:
    """A search context: the transposition table, the move stack and the node counters.

    One Searcher per thread; it may be reused for many positions (the table keys include the
    whole position, stock included, so entries stay valid across positions)."""
    cdef Search S
    cdef readonly double tt_mb

    def __cinit__(self, tt_mb=64.0):
        cdef double mb
        memset(&self.S, 0, sizeof(Search))
        try:
            mb = tt_mb
        except OverflowError:           # an int too large for a double
            mb = float("inf")
        if mb != mb or mb < 0 or mb == float("inf"):
            raise ValueError(f"the transposition table size must be a finite number of MiB, "
                             f"0 or more, not {mb:g}")
        if mb > TT_MAX_MB:
            raise ValueError(f"a transposition table of {mb:g} MiB is over the limit of "
                             f"{TT_MAX_MB} MiB")
        self.tt_mb = mb
        if table_init(&self.S.table, mb) != 0:
            raise MemoryError(f"cannot allocate a {mb:g} MiB transposition table")
        self.S.use_table = self.S.table.entries != NULL
        self.S.move_stack = <uint64_t*>malloc(MAX_PLIES * MAX_MOVES * sizeof(uint64_t))
        if self.S.move_stack == NULL:
            raise MemoryError("cannot allocate the move stack")

    def __dealloc__(self):
        table_free(&self.S.table)
        free(self.S.move_stack)

    def clear(self):
        """Forget every stored position."""
        table_clear(&self.S.table)

    def table_stats(self):
        """Transposition-table figures since the Searcher was made: probes, hits, stores, fill,
        and `active`, the entries of the region in use (it grows with the searches, see tt.pxi)."""
        cdef Table* t = &self.S.table
        return dict(probes=t.probes, hits=t.hits, stores=t.stores, filled=t.filled,
                    capacity=t.capacity, fill=(<double>t.filled / t.capacity) if t.capacity else 0.0,
                    active=(t.mask + 1) * BUCKET if t.capacity else 0)

    cdef KernelResult _convert(self, RootResult* R):
        """Move the C result (and its buffers) into a KernelResult."""
        cdef KernelResult k = KernelResult.__new__(KernelResult)
        k.R = R[0]
        R.moves = NULL
        R.is_best = NULL
        R.move_lower = NULL
        R.move_upper = NULL
        k.fill = (<double>self.S.table.filled / self.S.table.capacity) if self.S.table.capacity else 0.0
        return k

    def search(self, object pos, int want=WANT_BEST | WANT_PV, object max_nodes=0,
               object time_limit=0.0, bint check_signals=True):
        """Search one position; see root.pxi for `want` and search_many for the limits."""
        results = self.search_many([pos], want, max_nodes, time_limit, check_signals)
        if results[0].stop == STOP_INTERRUPT:
            raise KeyboardInterrupt
        return results[0]

    def search_many(self, list positions, int want=WANT_BEST | WANT_PV, object max_nodes=0,
                    object time_limit=0.0, bint check_signals=False):
        """Search many positions in one call with the GIL released; limits apply to each.

        max_nodes: any int >= 0 (0: none; clamped to 2^64 - 1), and a stopped search has
        visited at most that many nodes; time_limit: seconds >= 0 (0 or inf: none)."""
        cdef uint64_t node_limit = _count(max_nodes, "max_nodes")
        cdef double seconds = _seconds(time_limit)
        cdef int count = len(positions), i, status = 0
        cdef State* states = <State*>malloc((count + 1) * sizeof(State))
        cdef Game* games = <Game*>malloc((count + 1) * sizeof(Game))
        cdef RootResult* results = <RootResult*>calloc(count + 1, sizeof(RootResult))
        cdef Search* S = &self.S
        try:
            if states == NULL or games == NULL or results == NULL:
                raise MemoryError("cannot allocate the batch")
            for i in range(count):
                load_position(positions[i], &states[i], &games[i])
            S.max_nodes = node_limit
            S.check_signals = check_signals
            S.abort = 0
            with nogil:
                for i in range(count):
                    search_set_game(S, &games[i])
                    S.nodes = 0
                    S.deadline = monotonic() + seconds if seconds > 0 else 0.0
                    status = root_search(S, &states[i], want, &results[i])
                    if status != 0 or results[i].stop == STOP_INTERRUPT:
                        break
            if status != 0:
                raise MemoryError("out of memory during the search")
            out = []
            for i in range(count):
                out.append(self._convert(&results[i]))
                if results[i].stop == STOP_INTERRUPT:
                    raise KeyboardInterrupt
            return out
        finally:
            for i in range(count):
                result_free(&results[i])
            free(states)
            free(games)
            free(results)

    def trace(self, object pos, int want=0, int max_events=100000):
        """Search one position recording every event (see trace.pxi); returns (events, result).

        Events are tuples: ("pass", depth, alpha, beta, move), ("enter", depth, alpha, beta, move),
        ("tt", depth, lower, upper), ("leaf", depth, value), ("exit", depth, value, n_moves,
        n_searched). ValueError if the search needs more than `max_events` events."""
        cdef Trace t
        cdef State s
        cdef Game g
        cdef RootResult R
        cdef int status, i
        cdef TraceEvent* e
        if max_events < 1:
            raise ValueError("max_events must be positive")
        load_position(pos, &s, &g)
        memset(&t, 0, sizeof(Trace))
        memset(&R, 0, sizeof(RootResult))
        t.events = <TraceEvent*>malloc(max_events * sizeof(TraceEvent))
        t.capacity = max_events
        if t.events == NULL:
            raise MemoryError("cannot allocate the trace")
        names = ("pass", "enter", "tt", "leaf", "exit")
        try:
            self.S.trace = &t
            self.S.max_nodes = 0
            self.S.deadline = 0.0
            self.S.abort = 0
            self.S.check_signals = True
            search_set_game(&self.S, &g)
            self.S.nodes = 0
            status = root_search(&self.S, &s, want, &R)
            if status != 0:
                raise MemoryError("out of memory during the search")
            if R.stop == STOP_INTERRUPT:
                raise KeyboardInterrupt
            if t.overflow:
                raise ValueError(f"the search needs more than {max_events} trace events")
            events = []
            for i in range(t.count):
                e = t.events + i
                if e.kind == EVENT_PASS or e.kind == EVENT_ENTER:
                    events.append((names[e.kind], e.depth, e.a, e.b, e.move))
                elif e.kind == EVENT_EXIT:
                    events.append((names[e.kind], e.depth, e.a, e.n_moves, e.n_searched))
                elif e.kind == EVENT_TABLE:
                    events.append((names[e.kind], e.depth, e.a, e.b))
                else:
                    events.append((names[e.kind], e.depth, e.a))
            return events, self._convert(&R)
        finally:
            self.S.trace = NULL
            result_free(&R)
            free(t.events)

    def request_stop(self):
        """Ask a search running in another thread to stop soon (it reports an interrupt)."""
        self.S.abort = 1

    def set_table(self, bint enabled):
        """Switch the transposition table off (baseline measurements) or back on."""
        self.S.use_table = enabled and self.S.table.entries != NULL
