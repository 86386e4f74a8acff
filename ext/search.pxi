# Perfect-information search: fail-soft negamax alpha-beta with the transposition table, and the
# zero-window driver (MTD(f)) over the integer value. Values are points still to come for the
# side to move (scopas made from here on plus the final pile score), so scopas already made
# stay out of the table; the caller adds them back.

from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC
from cpython.exc cimport PyErr_Clear

cdef extern from "Python.h":
    # declared without Cython's "except -1": the search looks at the result itself and must
    # not unwind through nogil code
    int check_signals_now "PyErr_CheckSignals"()

cdef enum:
    MAX_PLIES = 48          # cards that can still be played: 6 in hands + 30 in the stock, with room
    STOP_NONE = 0
    STOP_NODES = 1
    STOP_TIME = 2
    STOP_INTERRUPT = 3
    CHECK_EVERY = 1024      # nodes between clock and Ctrl-C checks
    # The table pays only where positions transpose and subtrees are big: the first two plays
    # of a deal. Deeper in a deal a probe (a likely cache miss) costs more than the subtree it
    # saves (measured: 20 M nodes/s and fewer nodes, against 6 M nodes/s probing everywhere).
    TABLE_MIN_HAND_CARDS = 5
    SIGNALS_EVERY = 65536   # nodes between Ctrl-C checks

ctypedef struct Search:
    Game game
    Table table
    bint use_table
    bint check_signals      # only the main thread can see Ctrl-C
    uint64_t nodes, max_nodes
    uint64_t next_check     # node count of the next limit check (at most max_nodes)
    uint64_t next_signal_check
    double deadline         # monotonic seconds; 0: none
    int stop
    int abort               # set from another thread to stop the search (Ctrl-C in a batch)
    # per deals-left: Zobrist key and cards of the stock still to be dealt
    uint64_t stock_key[MAX_DEALS + 1]
    uint64_t stock_mask[MAX_DEALS + 1]
    uint64_t* move_stack    # MAX_PLIES levels of MAX_MOVES moves
    Trace* trace            # NULL unless the search is being recorded
    int trace_depth         # depth below the traced position of the node a pass starts from
    uint64_t trace_move     # and the move that led to that node (0 at the traced position)


cdef inline double monotonic() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9


cdef void search_set_game(Search* S, const Game* g) noexcept nogil:
    """Adopt the rules and stock of a root position and precompute the stock's key and counts."""
    cdef int k, r
    cdef uint64_t key = 0, cards
    cdef int b
    S.game = g[0]
    S.stock_key[0] = 0
    S.stock_mask[0] = 0
    for k in range(MAX_DEALS):
        for r in range(2):
            cards = g.deal[k][r]
            while cards:
                b = lowest_bit(cards)
                cards &= cards - 1
                key ^= Z_STOCK[k][r][b]
        S.stock_key[k + 1] = key
        S.stock_mask[k + 1] = S.stock_mask[k] | g.deal[k][0] | g.deal[k][1]


cdef inline uint64_t position_key(const Search* S, const State* s) noexcept nogil:
    cdef int d = s.deals_left
    cdef uint64_t summary = score_summary(s, S.game.rules, s.hand[0] | s.hand[1] | s.table | S.stock_mask[d])
    return (s.zkey ^ S.stock_key[d] ^ Z_SIDE[s.to_move] ^ Z_DEALER[s.dealer] ^ Z_LAST[s.last_capturer + 1]
            ^ mix64(summary ^ (<uint64_t>S.game.rules << 57)))


cdef void check_limits(Search* S) noexcept nogil:
    S.next_check = S.nodes + CHECK_EVERY
    if S.max_nodes and S.next_check > S.max_nodes:
        S.next_check = S.max_nodes
    if S.abort:
        S.stop = STOP_INTERRUPT
    elif S.max_nodes and S.nodes >= S.max_nodes:
        S.stop = STOP_NODES
    elif S.deadline > 0 and monotonic() >= S.deadline:
        S.stop = STOP_TIME
    elif S.check_signals and S.nodes >= S.next_signal_check:
        S.next_signal_check = S.nodes + SIGNALS_EVERY
        with gil:
            if check_signals_now() != 0:
                PyErr_Clear()
                S.stop = STOP_INTERRUPT


cdef inline int node_exit(Search* S, int ply, int value, int n, int searched) noexcept nogil:
    if S.trace != NULL:
        trace_event(S.trace, EVENT_EXIT, ply, value, 0, 0, n, searched)
    return value


cdef int alphabeta(Search* S, const State* s, int alpha, int beta, int ply) noexcept nogil:
    """Fail-soft negamax: the exact value if it lies inside (alpha, beta), else a bound beyond."""
    cdef State child
    cdef uint64_t key = 0, table_move = 0, best_move
    cdef uint64_t* moves
    cdef int n, i, r, v, best, lower, upper, a, cards
    cdef bint use_table
    S.nodes += 1
    if S.trace != NULL:
        trace_event(S.trace, EVENT_ENTER, ply, alpha, beta, S.trace.next_move, 0, 0)
    if S.nodes >= S.next_check:
        check_limits(S)
    if S.stop:
        return node_exit(S, ply, 0, 0, 0)
    if s.hand[0] == 0 and s.hand[1] == 0:       # apply_move deals, so this is the end of the round
        v = pile_margin(s, S.game.rules)
        if S.trace != NULL:
            trace_event(S.trace, EVENT_LEAF, ply, v, v, 0, 0, 0)
        return node_exit(S, ply, v, 0, 0)
    cards = popcount(s.hand[0] | s.hand[1])
    if s.deals_left == 0:
        if cards == 1:
            return last_play(S, s, ply)
        if cards == 2 and S.trace == NULL:
            return last_two_plays(S, s, alpha, beta, ply)
        if cards == 3 and S.trace == NULL:
            return last_three_plays(S, s, alpha, beta, ply)
    use_table = S.use_table and cards >= TABLE_MIN_HAND_CARDS
    moves = S.move_stack + ply * MAX_MOVES
    if use_table:
        key = position_key(S, s)
        if table_probe(&S.table, key, &lower, &upper, &table_move):
            if lower >= beta or upper <= alpha:     # answered before generating any move
                if S.trace != NULL:
                    trace_event(S.trace, EVENT_TABLE, ply, lower, upper, table_move, 0, 0)
                    return node_exit(S, ply, lower if lower >= beta else upper,
                                     generate_moves(s, S.game.rules, moves), 0)
                return lower if lower >= beta else upper
            if lower > alpha:
                alpha = lower
            if upper < beta:
                beta = upper
    n = generate_moves(s, S.game.rules, moves)
    if n == 0:                                  # only in states no valid position reaches
        return node_exit(S, ply, pile_margin(s, S.game.rules), 0, 0)
    order_moves(s, moves, n, table_move)
    best = -VALUE_INF
    best_move = moves[0]
    a = alpha
    i = 0
    for i in range(n):
        child = s[0]
        r = apply_move(&child, &S.game, moves[i])
        if S.trace != NULL:
            S.trace.next_move = moves[i]
        v = r - alphabeta(S, &child, r - beta, r - a, ply + 1)
        if S.stop:
            return node_exit(S, ply, 0, n, i + 1)
        if v > best:
            best = v
            best_move = moves[i]
            if v > a:
                a = v
                if a >= beta:
                    break
    if use_table:
        # fail-soft: below the window an upper bound, above it a lower bound, inside it exact
        table_store(&S.table, key, best if best > alpha else -VALUE_INF, best if best < beta else VALUE_INF,
                    best_move, cards + 6 * s.deals_left)
    return node_exit(S, ply, best, n, i + 1)


cdef int mtdf(Search* S, const State* s, int guess, int* lower, int* upper) noexcept nogil:
    """Zero-window searches converging on the value from `guess`; on a stop, lower..upper holds it."""
    cdef int g = guess, beta, v
    lower[0] = -VALUE_INF
    upper[0] = VALUE_INF
    while lower[0] < upper[0]:
        beta = g + 1 if g == lower[0] else g
        trace_pass(S.trace, S.trace_depth, 0, beta - 1, beta, S.trace_move)
        v = alphabeta(S, s, beta - 1, beta, 0)
        if S.stop:
            break
        if v < beta:
            upper[0] = v
        else:
            lower[0] = v
        g = v
    return g


cdef int full_window(Search* S, const State* s, int* lower, int* upper) noexcept nogil:
    """Plain alpha-beta over the whole range (the baseline the zero-window driver is measured against)."""
    cdef int v
    trace_pass(S.trace, S.trace_depth, 0, -VALUE_INF, VALUE_INF, S.trace_move)
    v = alphabeta(S, s, -VALUE_INF, VALUE_INF, 0)
    if S.stop:
        lower[0] = -VALUE_INF
        upper[0] = VALUE_INF
    else:
        lower[0] = upper[0] = v
    return v
