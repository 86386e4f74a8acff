# The root: the value, every optimal move, the principal variation, or the value of every move.
# Works with nogil so batches run on several threads; buffers are malloc'd and freed by the caller.

from libc.string cimport memcpy

cdef enum:
    # every card the kernel can be given to play: two hands and MAX_DEALS deals (the result
    # then stays small enough for Python's own allocator)
    MAX_PV = 6 * (MAX_DEALS + 1)

cdef enum:
    WANT_BEST = 1       # mark every optimal root move
    WANT_PV = 2         # principal variation to the end of the round
    WANT_ALL = 4        # exact value of every root move (analyze)
    FULL_WINDOW = 8     # baseline: one full-window search instead of the zero-window driver

ctypedef struct RootResult:
    int lower, upper          # bounds on the value, scopas already made included (equal: exact)
    int stop                  # STOP_* reason, STOP_NONE when complete
    int n_moves
    uint64_t* moves           # the root's legal moves
    uint8_t* is_best          # WANT_BEST: 1 for each optimal move
    int* move_lower           # WANT_ALL: bounds on each move's value
    int* move_upper
    int pv_len
    uint64_t pv[MAX_PV]
    uint64_t end_pile[2]      # WANT_PV: the piles and scopas at the end of the pv
    int end_scopas[2]
    uint64_t nodes
    double seconds
    uint64_t probes, hits, stores   # transposition-table use by this search


cdef inline bint achieves(Search* S, const State* s, int depth, uint64_t move, int value) noexcept nogil:
    """Does `move` reach at least `value` (points to come) at s, `depth` plies below the root?
    One zero-window search of the child (from move-stack level 1)."""
    cdef State child = s[0]
    cdef int r = apply_move(&child, &S.game, move)
    trace_pass(S.trace, depth + 1, 1, r - value, r - value + 1, move)
    return r - alphabeta(S, &child, r - value, r - value + 1, 1) >= value


cdef bint _is_listed_best(const RootResult* R, uint64_t move) noexcept nogil:
    cdef int i
    for i in range(R.n_moves):
        if R.moves[i] == move:
            return R.is_best[i]
    return False


cdef bint _table_proves_first(Search* S, const State* s, uint64_t first, int value) noexcept nogil:
    """Does the table show that `first` reaches `value` at s? An entry's move reaches its lower
    bound (table_store keeps it so), so no test is needed when that move comes first anyway."""
    cdef int lower, upper
    cdef uint64_t move
    if not S.use_table or popcount(s.hand[0] | s.hand[1]) < TABLE_MIN_HAND_CARDS:
        return False
    return table_probe(&S.table, position_key(S, s), &lower, &upper, &move) and lower >= value \
        and move == first


cdef void result_free(RootResult* R) noexcept nogil:
    free(R.moves)
    free(R.is_best)
    free(R.move_lower)
    free(R.move_upper)
    R.moves = NULL
    R.is_best = NULL
    R.move_lower = NULL
    R.move_upper = NULL


cdef int last_deal_root(Search* S, const State* root, RootResult* R, int* lower, int* upper) noexcept nogil:
    """A root in the last deal: one full-window pass over its moves, the window kept one point
    below the best value so far, so that every move tying it comes out exact. The value and
    (in R.is_best, when given) every optimal move at once: on trees this small the zero-window
    passes and the tests of each move cost more nodes than this one pass."""
    cdef State child
    cdef uint64_t* order = S.move_stack       # level 0: the searches below start at level 1
    cdef int n = R.n_moves, i, j, r, v, a, best = -VALUE_INF
    memcpy(order, R.moves, n * sizeof(uint64_t))
    order_moves(root, order, n, 0)
    for i in range(n):
        a = best - 1 if R.is_best != NULL and best > -VALUE_INF else best
        child = root[0]
        r = apply_move(&child, &S.game, order[i])
        trace_pass(S.trace, 1, 1, r - VALUE_INF, r - a, order[i])
        v = r - alphabeta(S, &child, r - VALUE_INF, r - a, 1)
        if S.stop:
            lower[0] = -VALUE_INF
            upper[0] = VALUE_INF
            return 0
        if v > best:
            best = v
            if R.is_best != NULL:
                memset(R.is_best, 0, n)
        if v == best and R.is_best != NULL:
            for j in range(n):
                if R.moves[j] == order[i]:
                    R.is_best[j] = 1
    lower[0] = upper[0] = best
    return best


cdef int root_search(Search* S, const State* root, int want, RootResult* R) noexcept nogil:
    """Search `root` as `want` asks; return -1 if memory ran out, else 0 (R.stop tells limits)."""
    cdef State node, child
    cdef int scopas = root.scopas[root.to_move] - root.scopas[1 - root.to_move]
    cdef int lower, upper, value, i, j, n, r, found
    cdef uint64_t* moves
    cdef double start = monotonic()
    cdef uint64_t nodes_before = S.nodes
    cdef uint64_t probes = S.table.probes, hits = S.table.hits, stores = S.table.stores
    R.moves = NULL
    R.is_best = NULL
    R.move_lower = NULL
    R.move_upper = NULL
    R.pv_len = 0
    R.n_moves = 0
    S.stop = STOP_NONE
    S.next_signal_check = 0
    check_limits(S)             # sets the first check: a node limit is exact
    table_new_search(&S.table)
    S.trace_depth = 0
    S.trace_move = 0
    R.n_moves = generate_moves(root, S.game.rules, S.move_stack) if not round_over(root) else 0
    R.moves = <uint64_t*>malloc(R.n_moves * sizeof(uint64_t) + 1)
    if R.moves == NULL:
        return -1
    memcpy(R.moves, S.move_stack, R.n_moves * sizeof(uint64_t))
    if round_over(root):
        lower = upper = value = pile_margin(root, S.game.rules)
    elif want & FULL_WINDOW:
        value = full_window(S, root, &lower, &upper)
    elif root.deals_left == 0 and not (want & WANT_ALL):
        if want & WANT_BEST:
            R.is_best = <uint8_t*>calloc(R.n_moves + 1, 1)
            if R.is_best == NULL:
                return -1
        value = last_deal_root(S, root, R, &lower, &upper)
        if S.stop:                      # a pass cut short proves no move optimal
            free(R.is_best)
            R.is_best = NULL
    else:
        # first guess: the piles' score as they stand (late in a round most points are settled)
        value = mtdf(S, root, pile_margin(root, S.game.rules), &lower, &upper)
    R.lower = lower + scopas if lower > -VALUE_INF else -VALUE_INF
    R.upper = upper + scopas if upper < VALUE_INF else VALUE_INF

    if (want & WANT_ALL) and not S.stop:
        R.move_lower = <int*>malloc(R.n_moves * sizeof(int) + 1)
        R.move_upper = <int*>malloc(R.n_moves * sizeof(int) + 1)
        if R.move_lower == NULL or R.move_upper == NULL:
            return -1
        for i in range(R.n_moves):
            child = root[0]
            r = apply_move(&child, &S.game, R.moves[i])
            if round_over(&child):
                lower = upper = pile_margin(&child, S.game.rules)
            else:
                S.trace_depth = 1
                S.trace_move = R.moves[i]
                mtdf(S, &child, r - value, &lower, &upper)
            # the child's bounds are for the opponent: negate and swap
            R.move_lower[i] = r - upper + scopas if upper < VALUE_INF else -VALUE_INF
            R.move_upper[i] = r - lower + scopas if lower > -VALUE_INF else VALUE_INF
            if S.stop:                  # the rest stay unknown: no node past the limit
                for j in range(i, R.n_moves):
                    R.move_lower[j] = -VALUE_INF
                    R.move_upper[j] = VALUE_INF
                break

    if (want & WANT_BEST) and not S.stop and R.is_best == NULL:
        R.is_best = <uint8_t*>malloc(R.n_moves + 1)
        if R.is_best == NULL:
            return -1
        for i in range(R.n_moves):
            if R.move_lower != NULL:
                R.is_best[i] = R.move_lower[i] == value + scopas
            else:
                R.is_best[i] = R.n_moves == 1 or achieves(S, root, 0, R.moves[i], value)
                if S.stop:
                    break
        if S.stop:                      # tests cut short prove nothing: report no best moves
            free(R.is_best)
            R.is_best = NULL

    if (want & WANT_PV) and not S.stop:
        node = root[0]
        while not round_over(&node) and R.pv_len < MAX_PV and not S.stop:
            moves = S.move_stack      # level 0 is free here: achieves() searches from level 1
            n = generate_moves(&node, S.game.rules, moves)
            order_moves(&node, moves, n, 0)
            found = -1
            if n > 1 and _table_proves_first(S, &node, moves[0], value):
                found = 0
            for i in range(n if found < 0 else 0):
                # a forced move needs no test; at the root an optimal move may be known already
                if n == 1 or (R.pv_len == 0 and R.is_best != NULL and _is_listed_best(R, moves[i])) \
                        or achieves(S, &node, R.pv_len, moves[i], value):
                    found = i
                    break
                if S.stop:              # each further test would count a node past the limit
                    break
            if found < 0:               # only when a limit stopped the search
                break
            R.pv[R.pv_len] = moves[found]
            R.pv_len += 1
            r = apply_move(&node, &S.game, moves[found])
            value = r - value
        if S.stop:                      # a line cut short is no principal variation
            R.pv_len = 0
        R.end_pile[0] = node.pile[0]
        R.end_pile[1] = node.pile[1]
        R.end_scopas[0] = node.scopas[0]
        R.end_scopas[1] = node.scopas[1]

    R.stop = S.stop
    R.probes = S.table.probes - probes
    R.hits = S.table.hits - hits
    R.stores = S.table.stores - stores
    R.nodes = S.nodes - nodes_before
    R.seconds = monotonic() - start
    return 0
