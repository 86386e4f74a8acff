# The family root: the value (MTD(f)), every optimal move (WANT_BEST), a principal variation
# (WANT_PV) and every move's value (WANT_ALL), as root.pxi does for two players; under max^n the
# vector of every side's points, each move's value for the seat to move, and the max^n line.

cdef inline bint f_achieves(FSearch* F, const FState* s, uint64_t move, int value) noexcept nogil:
    """Does `move` reach at least `value` at s? One zero-window search of the child (level 1)."""
    cdef FState child = s[0]
    cdef int r = f_apply_move(&child, &F.game, move) * F.scale
    if F.mode != F_TWO:
        r = 0
    if F.S.trace != NULL: f_trace_child_pass(F, s, &child, r, value - 1, value, move)
    return f_child_value(F, s, &child, r, value - 1, value, 1) >= value


cdef inline int f_scopa_offset(const FSearch* F, const FState* s) noexcept nogil:
    """F_TWO: the scopas already made, own side minus the other (values are points to come)."""
    cdef int p, d = 0
    if F.mode != F_TWO:
        return 0
    for p in range(F.game.players):
        d += s.scopas[p] if F.team[p] == F.team[s.to_move] else -s.scopas[p]
    return d


cdef void f_result_end(FSearch* F, const FState* node, FRootResult* FR) noexcept nogil:
    cdef int p
    for p in range(F.game.players):
        FR.end_pile[p] = node.pile[p]
        FR.end_scopas[p] = node.scopas[p]
    side_points(node, &F.game, True, FR.points)
    FR.has_points = 1


cdef int f_root_value(FSearch* F, const FState* root, int want, FRootResult* FR) noexcept nogil:
    cdef RootResult* R = &FR.R
    cdef Search* S = &F.S
    cdef FState node, child
    cdef int offset = f_scopa_offset(F, root) * F.scale, lower, upper, value, i, j, n, r, found
    cdef bint same
    cdef uint64_t* moves
    if f_round_over(root):
        lower = upper = value = f_leaf(F, root)
    elif want & FULL_WINDOW:
        trace_pass(S.trace, 0, 0, -VALUE_INF, VALUE_INF, 0)
        value = f_node(F, root, -VALUE_INF, VALUE_INF, 0)
        lower = upper = value
        if S.stop:
            lower = -VALUE_INF
            upper = VALUE_INF
    else:
        value = f_mtdf(F, root, f_first_guess(F, root), &lower, &upper)
    R.lower = lower + offset if lower > -VALUE_INF else -VALUE_INF
    R.upper = upper + offset if upper < VALUE_INF else VALUE_INF

    if (want & WANT_ALL) and not S.stop:
        R.move_lower = <int*>malloc(R.n_moves * sizeof(int) + 1)
        R.move_upper = <int*>malloc(R.n_moves * sizeof(int) + 1)
        if R.move_lower == NULL or R.move_upper == NULL:
            return -1
        for i in range(R.n_moves):
            child = root[0]
            r = f_apply_move(&child, &F.game, R.moves[i]) * F.scale
            if F.mode != F_TWO:
                r = 0
            same = F.team[child.to_move] == F.team[root.to_move]
            if f_round_over(&child):
                lower = upper = f_leaf(F, &child)
            else:
                S.trace_depth = 1; S.trace_move = R.moves[i]
                f_mtdf(F, &child, value - r if same else r - value, &lower, &upper)
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

    if (want & WANT_BEST) and not S.stop:
        R.is_best = <uint8_t*>malloc(R.n_moves + 1)
        if R.is_best == NULL:
            return -1
        for i in range(R.n_moves):
            if R.move_lower != NULL:
                R.is_best[i] = R.move_lower[i] == value + offset and R.move_upper[i] == value + offset
            else:
                R.is_best[i] = R.n_moves == 1 or f_achieves(F, root, R.moves[i], value)
                if S.stop:
                    break
        if S.stop:
            free(R.is_best)
            R.is_best = NULL

    if (want & WANT_PV) and not S.stop:
        node = root[0]
        while not f_round_over(&node) and not f_at_horizon(F, &node) and R.pv_len < MAX_PV and not S.stop:
            moves = F.moves           # level 0 is free: the tests search from level 1
            S.trace_depth = R.pv_len
            n = f_generate_moves(&node, F.game.rules, moves)
            f_order_moves(&node, &F.game, moves, n, 0)
            found = -1
            for i in range(n):
                if n == 1 or f_achieves(F, &node, moves[i], value):
                    found = i
                    break
                if S.stop:
                    break
            if found < 0:
                break
            R.pv[R.pv_len] = moves[found]
            R.pv_len += 1
            child = node
            r = f_apply_move(&node, &F.game, moves[found]) * F.scale
            if F.mode != F_TWO:
                r = 0
            value = value - r if F.team[node.to_move] == F.team[child.to_move] else r - value
        if S.stop:
            R.pv_len = 0
        elif not F.horizon_left:      # a horizon search's line ends mid-round
            f_result_end(F, &node, FR)
    return 0


cdef int f_root_maxn(FSearch* F, const FState* root, int want, FRootResult* FR) noexcept nogil:
    cdef RootResult* R = &FR.R
    cdef Search* S = &F.S
    cdef FState node, child
    cdef int ns = F.game.nsides, i, j, n, r, me, found, best_value
    cdef int made[FMAX_SEATS]
    cdef int cv[FMAX_SEATS]
    cdef int best[FMAX_SEATS]
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
    if f_round_over(root):
        side_points(root, &F.game, False, best)
    else:
        S.nodes += 1                    # the root, as f_maxn counts every node
        if S.nodes >= S.next_check:
            check_limits(S)
        for i in range(R.n_moves if not S.stop else 0):
            child = root[0]
            r = f_apply_move(&child, &F.game, R.moves[i])
            f_maxn(F, &child, 1, cv)
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
        FR.points[i] = best[i] + made[i]
    FR.has_points = 1
    if want & WANT_PV:
        node = root[0]
        while not f_round_over(&node) and not f_at_horizon(F, &node) and R.pv_len < MAX_PV:
            moves = F.moves
            n = f_generate_moves(&node, F.game.rules, moves)
            me = F.game.side[node.to_move]
            found = 0
            best_value = 0
            for i in range(n if n > 1 else 0):
                child = node
                r = f_apply_move(&child, &F.game, moves[i])
                f_maxn(F, &child, 1, cv)
                if S.stop:
                    break
                if i == 0 or cv[me] + r > best_value:
                    best_value = cv[me] + r
                    found = i
            if S.stop:
                break
            R.pv[R.pv_len] = moves[found]
            R.pv_len += 1
            f_apply_move(&node, &F.game, moves[found])
        if S.stop:                      # the line cut short: the vector is still exact
            R.pv_len = 0
        else:
            for i in range(F.game.players):
                FR.end_pile[i] = node.pile[i]
                FR.end_scopas[i] = node.scopas[i]
    return 0


cdef int f_root_search(FSearch* F, const FState* root, int want, FRootResult* FR) noexcept nogil:
    """Search `root` as `want` asks under F.mode; -1 if memory ran out, else 0."""
    cdef RootResult* R = &FR.R
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
    FR.nsides = F.game.nsides
    FR.has_points = 0
    S.stop = STOP_NONE
    S.next_signal_check = 0
    check_limits(S)
    table_new_search(&S.table)
    memset(F.killer, 0, sizeof(F.killer))
    F.guess_horizon = 0
    S.trace_depth = 0; S.trace_move = 0
    R.n_moves = f_generate_moves(root, F.game.rules, F.moves) if not f_round_over(root) else 0
    R.moves = <uint64_t*>malloc(R.n_moves * sizeof(uint64_t) + 1)
    if R.moves == NULL:
        return -1
    memcpy(R.moves, F.moves, R.n_moves * sizeof(uint64_t))
    if F.mode == F_MAXN:
        status = f_root_maxn(F, root, want, FR)
    else:
        status = f_root_value(F, root, want, FR)
    if S.stop:
        FR.has_points = 0
    if F.scale > 1:
        f_unscale(R, F.scale)
    R.stop = S.stop
    R.probes = S.table.probes - probes
    R.hits = S.table.hits - hits
    R.stores = S.table.stores - stores
    R.nodes = S.nodes - nodes_before
    R.seconds = monotonic() - start
    return status
