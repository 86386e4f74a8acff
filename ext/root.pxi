# The root: the value (MTD(f)), every optimal move (WANT_BEST), a principal variation (WANT_PV)
# and every move's value (WANT_ALL); under max^n the vector of every side's points, each move's
# value for the seat to move, and the max^n line. Works with nogil so batches run on several
# threads; buffers are malloc'd here and freed by result_free.

from libc.string cimport memcpy

cdef enum:
    WANT_BEST = 1       # mark every optimal root move
    WANT_PV = 2         # principal variation to the end of the round
    WANT_ALL = 4        # exact value of every root move (analyze)
    FULL_WINDOW = 8     # baseline: one full-window search instead of the zero-window driver
    WINDOWED = 16       # bounds only: one fail-soft search within (R.window_lo, R.window_hi)

ctypedef struct RootResult:
    # Kept small (the pv and the per-move arrays are malloc'd): a Python KernelResult holds one,
    # and a batch of small searches makes one a position.
    int lower, upper          # bounds on the value, scopas already made included (equal: exact)
    int stop                  # STOP_* reason, STOP_NONE when complete
    int n_moves
    uint64_t* moves           # the root's legal moves
    uint8_t* is_best          # WANT_BEST: 1 for each optimal move
    int* move_lower           # WANT_ALL: bounds on each move's value
    int* move_upper
    uint64_t* pv              # WANT_PV: the principal variation (room for MAX_PLIES moves)
    int pv_len
    int8_t players, nsides
    int8_t has_end            # end_pile, end_scopas: where the pv ends (exact searches)
    int8_t has_points         # points: every side's round points at the end of the pv, or the max^n vector
    uint64_t end_pile[MAX_SEATS]
    int8_t end_scopas[MAX_SEATS]
    int8_t points[MAX_SEATS]
    uint64_t nodes
    double seconds
    uint64_t probes, hits, stores   # transposition-table use by this search
    int window_lo, window_hi  # WINDOWED (set by the caller): the window, scopas made included


cdef void result_free(RootResult* R) noexcept nogil:
    free(R.moves)
    free(R.is_best)
    free(R.move_lower)
    free(R.move_upper)
    free(R.pv)
    R.moves = NULL
    R.is_best = NULL
    R.move_lower = NULL
    R.move_upper = NULL
    R.pv = NULL


cdef inline bint achieves(Engine* F, const State* s, uint64_t move, int value) noexcept nogil:
    """Does `move` reach at least `value` at s? One zero-window search of the child (level 1)."""
    cdef State child = s[0]
    cdef int r = play_child(F, &child, move)
    if F.S.trace != NULL: trace_child_pass(F, s, &child, r, value - 1, value, move)
    return child_value(F, s, &child, r, value - 1, value, 1) >= value


cdef inline int scopa_offset(const Engine* F, const State* s) noexcept nogil:
    """TWO_SIDES: the scopas already made, own side minus the other (values are points to come)."""
    cdef int p, d = 0
    if F.mode != TWO_SIDES:
        return 0
    for p in range(F.game.players):
        d += s.scopas[p] if F.team[p] == F.team[s.to_move] else -s.scopas[p]
    return d


cdef bint listed_best(const RootResult* R, uint64_t move) noexcept nogil:
    cdef int i
    for i in range(R.n_moves):
        if R.moves[i] == move:
            return R.is_best[i]
    return False


cdef void result_end(Engine* F, const State* node, RootResult* R, bint points) noexcept nogil:
    """Where the pv ends: the piles and scopas, and (`points`) every side's round points."""
    cdef int p
    cdef int out[MAX_SEATS]
    for p in range(F.game.players):
        R.end_pile[p] = node.pile[p]
        R.end_scopas[p] = node.scopas[p]
    R.has_end = 1
    if points:
        side_points(node, &F.game, True, out)
        for p in range(F.game.nsides):
            R.points[p] = out[p]
        R.has_points = 1


cdef enum:
    ONE_PASS_PLIES = 12     # roots this small: one pass (one_pass_root) instead of MTD(f)


cdef int one_pass_root(Engine* F, const State* root, RootResult* R, int* lower, int* upper) noexcept nogil:
    """A small root: one pass over its moves, the window kept one point below the best value so
    far, so that every move tying it comes out exact. The value and (in R.is_best, when given)
    every optimal move at once: on trees this small the zero-window passes and the test of each
    move cost more nodes than this one pass."""
    cdef State child
    cdef uint64_t* order = F.moves       # level 0: the searches below start at level 1
    cdef int n = R.n_moves, i, j, r, v, a, best = -VALUE_INF
    memcpy(order, R.moves, n * sizeof(uint64_t))
    order_moves(F, root, order, n, 0, -1)
    for i in range(n):
        a = best - 1 if R.is_best != NULL and best > -VALUE_INF else best
        child = root[0]
        r = play_child(F, &child, order[i])
        if F.S.trace != NULL: trace_child_pass(F, root, &child, r, a, VALUE_INF, order[i])
        v = child_value(F, root, &child, r, a, VALUE_INF, 1)
        if F.S.stop:
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


cdef int proven_move(Engine* F, const State* s, const uint64_t* moves, int n, int value) noexcept nogil:
    """The index in `moves` of the move the table shows reaching `value` at s, or -1. An entry's
    move reaches its lower bound (alphabeta stores it so, table_store keeps it so): that move
    needs no test. (A move that is not in the list, a collision's, is ignored.)"""
    cdef int lower, upper, i
    cdef uint64_t move
    if not F.S.use_table or plies_left(F, s) < F.probe_min:    # no stride: a root child is stored whatever its cards
        return -1
    if not probe_node(F, s, position_key(F, s), &lower, &upper, &move) or lower < value:
        return -1
    for i in range(n):
        if moves[i] == move:
            return i
    return -1


cdef int root_value(Engine* F, const State* root, int want, RootResult* R) noexcept nogil:
    cdef Search* S = &F.S
    cdef State node, child
    cdef int offset = scopa_offset(F, root) * F.scale, lower, upper, value, i, j, n, r, found, proven
    cdef bint same
    cdef uint64_t* moves
    if round_over(root):
        lower = upper = value = leaf(F, root)
    elif want & WINDOWED:
        # a proof against the window: the value inside it, else a bound beyond it (fail-soft);
        # a null window (t - 1, t) proves "value >= t" or "value <= t - 1" in one pass
        lower = max(-VALUE_INF, R.window_lo - offset)
        upper = min(VALUE_INF, R.window_hi - offset)
        trace_pass(S.trace, 0, 0, lower, upper, 0)
        value = search_node(F, root, lower, upper, 0)
        if S.stop:
            lower, upper = -VALUE_INF, VALUE_INF
        elif value <= lower:
            lower, upper = -VALUE_INF, value
        elif value >= upper:
            lower, upper = value, VALUE_INF
        else:
            lower = upper = value
    elif want & FULL_WINDOW:
        trace_pass(S.trace, 0, 0, -VALUE_INF, VALUE_INF, 0)
        value = search_node(F, root, -VALUE_INF, VALUE_INF, 0)
        lower = upper = value
        if S.stop:
            lower = -VALUE_INF
            upper = VALUE_INF
    elif plies_left(F, root) <= ONE_PASS_PLIES and not (want & WANT_ALL):
        if want & WANT_BEST:
            R.is_best = <uint8_t*>calloc(R.n_moves + 1, 1)
            if R.is_best == NULL:
                return -1
        value = one_pass_root(F, root, R, &lower, &upper)
        if S.stop:                      # a pass cut short proves no move optimal
            free(R.is_best)
            R.is_best = NULL
    else:
        value = mtdf(F, root, first_guess(F, root), &lower, &upper)
    R.lower = lower + offset if lower > -VALUE_INF else -VALUE_INF
    R.upper = upper + offset if upper < VALUE_INF else VALUE_INF

    if (want & WANT_ALL) and not S.stop:
        R.move_lower = <int*>malloc(R.n_moves * sizeof(int) + 1)
        R.move_upper = <int*>malloc(R.n_moves * sizeof(int) + 1)
        if R.move_lower == NULL or R.move_upper == NULL:
            return -1
        for i in range(R.n_moves):
            child = root[0]
            r = play_child(F, &child, R.moves[i])
            same = F.team[child.to_move] == F.team[root.to_move]
            if round_over(&child):
                lower = upper = leaf(F, &child)
            else:
                S.trace_depth = 1; S.trace_move = R.moves[i]
                mtdf(F, &child, value - r if same else r - value, &lower, &upper)
            if same:
                R.move_lower[i] = r + lower + offset if lower > -VALUE_INF else -VALUE_INF
                R.move_upper[i] = r + upper + offset if upper < VALUE_INF else VALUE_INF
            else:
                R.move_lower[i] = r - upper + offset if upper < VALUE_INF else -VALUE_INF
                R.move_upper[i] = r - lower + offset if lower > -VALUE_INF else VALUE_INF
            if S.stop:
                for j in range(i, R.n_moves):
                    R.move_lower[j] = -VALUE_INF
                    R.move_upper[j] = VALUE_INF
                break

    if (want & WANT_BEST) and not S.stop and R.is_best == NULL:
        R.is_best = <uint8_t*>malloc(R.n_moves + 1)
        if R.is_best == NULL:
            return -1
        proven = proven_move(F, root, R.moves, R.n_moves, value) if R.move_lower == NULL else -1
        for i in range(R.n_moves):
            if R.move_lower != NULL:
                R.is_best[i] = R.move_lower[i] == value + offset and R.move_upper[i] == value + offset
            else:
                R.is_best[i] = R.n_moves == 1 or i == proven or achieves(F, root, R.moves[i], value)
                if S.stop:
                    break
        if S.stop:
            free(R.is_best)
            R.is_best = NULL

    if (want & WANT_PV) and not S.stop:
        node = root[0]
        while not round_over(&node) and not at_horizon(F, &node) and R.pv_len < MAX_PLIES and not S.stop:
            moves = F.moves           # level 0 is free: the tests search from level 1
            S.trace_depth = R.pv_len
            n = generate_moves(&node, F.game.rules, moves)
            order_moves(F, &node, moves, n, 0, -1)
            # the first move in this order that reaches the value: a forced move needs no test, at
            # the root an optimal move may be listed already, and from the table's proven move on
            # none needs one
            proven = proven_move(F, &node, moves, n, value) if n > 1 else -1
            found = proven
            for i in range(n if proven < 0 else proven):
                if n == 1 or (R.pv_len == 0 and R.is_best != NULL and listed_best(R, moves[i])) \
                        or achieves(F, &node, moves[i], value):
                    found = i
                    break
                if S.stop:              # each further test would count a node past the limit
                    break
            if found < 0:
                break
            R.pv[R.pv_len] = moves[found]
            R.pv_len += 1
            child = node
            r = play_child(F, &node, moves[found])
            value = value - r if F.team[node.to_move] == F.team[child.to_move] else r - value
        if S.stop:
            R.pv_len = 0
        elif not F.horizon_left:      # a horizon search's line ends mid-round
            result_end(F, &node, R, True)
    return 0


cdef int root_maxn(Engine* F, const State* root, int want, RootResult* R) noexcept nogil:
    cdef Search* S = &F.S
    cdef State node, child
    cdef int ns = F.game.nsides, i, j, n, r, me, found, best_value
    cdef int made[MAX_SEATS]
    cdef int cv[MAX_SEATS]
    cdef int best[MAX_SEATS]
    cdef uint64_t* moves
    for i in range(ns):
        made[i] = 0
    for i in range(F.game.players):
        made[F.game.side[i]] += root.scopas[i]
    R.move_lower = <int*>malloc(R.n_moves * sizeof(int) + 1)
    R.move_upper = <int*>malloc(R.n_moves * sizeof(int) + 1)
    R.is_best = <uint8_t*>calloc(R.n_moves + 1, 1)
    if R.move_lower == NULL or R.move_upper == NULL or R.is_best == NULL:
        return -1
    me = F.game.side[root.to_move]
    if round_over(root):
        side_points(root, &F.game, False, best)
    else:
        S.nodes += 1                    # the root, as maxn counts every node
        if S.nodes >= S.next_check:
            check_limits(S)
        for i in range(R.n_moves if not S.stop else 0):
            child = root[0]
            r = apply_move(&child, &F.game, R.moves[i])
            maxn(F, &child, 1, cv)
            if S.stop:
                break
            cv[me] += r
            R.move_lower[i] = R.move_upper[i] = cv[me] + made[me]
            if i == 0 or cv[me] > best[me]:
                for j in range(ns):
                    best[j] = cv[j]
    if S.stop:
        R.lower = -VALUE_INF
        R.upper = VALUE_INF
        free(R.is_best)
        free(R.move_lower)
        free(R.move_upper)
        R.is_best = NULL
        R.move_lower = R.move_upper = NULL
        return 0
    best_value = best[me] + made[me]
    R.lower = R.upper = best_value
    for i in range(R.n_moves):
        R.is_best[i] = R.move_lower[i] == best_value
    if not (want & WANT_ALL):
        free(R.move_lower)
        free(R.move_upper)
        R.move_lower = R.move_upper = NULL
    if not (want & WANT_BEST):
        free(R.is_best)
        R.is_best = NULL
    for i in range(ns):
        R.points[i] = best[i] + made[i]
    R.has_points = 1
    if want & WANT_PV:
        node = root[0]
        while not round_over(&node) and not at_horizon(F, &node) and R.pv_len < MAX_PLIES:
            moves = F.moves
            n = generate_moves(&node, F.game.rules, moves)
            me = F.game.side[node.to_move]
            found = 0
            best_value = 0
            for i in range(n if n > 1 else 0):
                child = node
                r = apply_move(&child, &F.game, moves[i])
                maxn(F, &child, 1, cv)
                if S.stop:
                    break
                if i == 0 or cv[me] + r > best_value:
                    best_value = cv[me] + r
                    found = i
            if S.stop:
                break
            R.pv[R.pv_len] = moves[found]
            R.pv_len += 1
            apply_move(&node, &F.game, moves[found])
        if S.stop:                      # the line cut short: the vector is still exact
            R.pv_len = 0
        else:
            result_end(F, &node, R, False)
    return 0


cdef int root_search(Engine* F, const State* root, int want, RootResult* R) noexcept nogil:
    """Search `root` as `want` asks under F.mode; -1 if memory ran out, else 0."""
    cdef Search* S = &F.S
    cdef double start = monotonic()
    cdef uint64_t nodes_before = S.nodes
    cdef uint64_t probes = S.table.probes, hits = S.table.hits, stores = S.table.stores
    cdef int status
    R.moves = NULL
    R.is_best = NULL
    R.move_lower = NULL
    R.move_upper = NULL
    R.pv_len = 0
    R.n_moves = 0
    R.pv = NULL
    R.players = F.game.players
    R.nsides = F.game.nsides
    R.has_end = 0
    R.has_points = 0
    S.stop = STOP_NONE
    S.next_signal_check = 0
    check_limits(S)
    table_new_search(&S.table)
    memset(F.killer, 0, sizeof(F.killer))
    F.guess_horizon = 0
    S.trace_depth = 0; S.trace_move = 0
    R.n_moves = generate_moves(root, F.game.rules, F.moves) if not round_over(root) else 0
    R.moves = <uint64_t*>malloc(R.n_moves * sizeof(uint64_t) + 1)
    if R.moves == NULL:
        return -1
    memcpy(R.moves, F.moves, R.n_moves * sizeof(uint64_t))
    if want & WANT_PV:
        R.pv = <uint64_t*>malloc(MAX_PLIES * sizeof(uint64_t))
        if R.pv == NULL:
            return -1
    if F.mode == MAXN:
        status = root_maxn(F, root, want, R)
    else:
        status = root_value(F, root, want, R)
    if S.stop:
        R.has_points = 0
        R.has_end = 0
    if F.scale > 1:
        unscale_result(R, F.scale)
    R.stop = S.stop
    R.probes = S.table.probes - probes
    R.hits = S.table.hits - hits
    R.stores = S.table.stores - stores
    R.nodes = S.nodes - nodes_before
    R.seconds = monotonic() - start
    return status
