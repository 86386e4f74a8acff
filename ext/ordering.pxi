# Move ordering of the alpha-beta search (TWO_SIDES, PARANOID; max^n keeps the canonical order,
# its tie rule) and MTD(f)'s first guess. A node plays first the table's move, else the move a
# shallow horizon search of the root stored for it (high in the tree), then the moves by their
# static scores (move_score), the ply's two killer moves (the last that cut there) raised.
# The first guess of a large search is that horizon search's value (eval.pxi's static
# evaluation guess_plies plies below the root): it saves MTD(f) passes, and its stored moves order
# the first pass, which the exact table cannot yet. What did not pay is in docs/benchmarks.md
# ("The family's ordering and first guess").

cdef inline int move_score(const State* s, const Game* g, uint64_t move) noexcept nogil:
    """Ordering: sweeps, then captures by what they win (settebello, coins, sevens, sixes,
    cards), then lay-downs; any move that leaves the next seat (its hand is known) a sweep
    much later when that seat is an opponent."""
    cdef int card = move_card(move), t, nxt = g.next_seat[s.to_move]
    cdef uint64_t bit = 1ULL << card, capture = move_capture(move), won
    cdef int score
    if capture:
        won = capture | bit
        score = 1000 + 10 * popcount(won)
        if capture == s.table:
            score += 500
        if won & (1ULL << SETTEBELLO):
            score += 300
        score += 40 * popcount(won & COINS) + 30 * popcount(won & VALUE_CARDS[7]) + 15 * popcount(won & VALUE_CARDS[6])
        if capture == s.table:          # a sweep leaves nothing to sweep
            return score
        # what a capture takes adds up to the card's value (15 - it in Scopa a 15; the ace that
        # takes everything sweeps)
        t = s.table_value - (15 - CARD_VALUE[card] if g.rules & RULE_FIFTEEN else CARD_VALUE[card])
        if can_sweep(s.table & ~capture, t, s.hand[nxt], g.rules):
            score += 100 if g.side[nxt] == g.side[s.to_move] else -600
        return score
    t = s.table_value + CARD_VALUE[card]
    score = 0
    if can_sweep(s.table | bit, t, s.hand[nxt], g.rules):
        score = 100 if g.side[nxt] == g.side[s.to_move] else -600
    if bit & COINS:
        score -= 20
    if CARD_VALUE[card] >= 6 and CARD_VALUE[card] <= 7:
        score -= 30
    if card == SETTEBELLO:
        score -= 300
    score -= CARD_VALUE[card]           # lay the small cards first: they leave the table less to take
    return score


cdef enum:
    ORDER_LIMIT = 64         # beyond this many moves (huge tables only) keep the generation order
    GUESS_MIN_PLIES = 20     # a smaller search starts from the static evaluation (the horizon
                             # search would cost more than it saves)
    KILLER_BONUS = 300       # measured: 10-20% fewer nodes; 100..1000 no better


cdef inline int guess_plies(int plies, int players) noexcept nogil:
    """The first guess's horizon: a third of the plies, at least 8 and at most a deal's plays
    (measured on scientifico k = 5..7, the whole rounds and the last deals: shallower guesses
    worse, deeper ones dearer than they save)."""
    return max(8, min(plies // 3, 3 * players))


cdef void order_moves(const Engine* F, const State* s, uint64_t* moves, int n, uint64_t first,
                        int ply) noexcept nogil:
    """Sort moves best first (insertion sort: n is small); `first` (0 for none) leads. Below the
    root (ply >= 0) the guess's stored move and the ply's killers count too."""
    cdef const Game* g = &F.game
    cdef int scores[ORDER_LIMIT]
    cdef int i, j, sc
    cdef uint64_t m
    if n < 2 or not F.use_order:      # off: the generation order (bench's technique switches)
        return
    if first == 0 and ply >= 0 and F.guess_horizon and plies_left(F, s) > F.guess_horizon:
        first = guess_move(F, s)
    if n > ORDER_LIMIT:
        for i in range(n):
            if moves[i] == first:
                moves[i] = moves[0]
                moves[0] = first
        return
    for i in range(n):
        scores[i] = (1 << 30) if moves[i] == first else move_score(s, g, moves[i])
        if ply >= 0 and (moves[i] == F.killer[ply][0] or moves[i] == F.killer[ply][1]):
            scores[i] += KILLER_BONUS
    for i in range(1, n):
        m = moves[i]
        sc = scores[i]
        j = i - 1
        while j >= 0 and scores[j] < sc:
            moves[j + 1] = moves[j]
            scores[j + 1] = scores[j]
            j -= 1
        moves[j + 1] = m
        scores[j + 1] = sc


cdef inline uint64_t horizon_key(const Engine* F) noexcept nogil:
    """The game key of a horizon search (F.horizon_left set): its values never meet exact ones."""
    return mix64(F.game_key ^ (0xA24BAED4963EE407ULL * <uint64_t>F.horizon_left))


cdef uint64_t guess_move(const Engine* F, const State* s) noexcept nogil:
    """The move the first guess's horizon search stored for s, or 0."""
    cdef Engine* G = <Engine*>F          # the key is worked out under the guess's horizon
    cdef int horizon = F.horizon_left, lower, upper
    cdef uint64_t game_key = F.game_key, key, move = 0
    if not F.S.use_table:
        return 0
    G.horizon_left = F.guess_horizon
    G.game_key = horizon_key(G)
    key = position_key(G, s)
    G.horizon_left = horizon
    G.game_key = game_key
    if not probe_node(G, s, key, &lower, &upper, &move):
        return 0
    return move


cdef int first_guess(Engine* F, const State* root) noexcept nogil:
    """MTD(f)'s first guess at the root, in the search's units: from GUESS_MIN_PLIES plies on a
    horizon search guess_plies plies deep (its moves then order the search: F.guess_horizon),
    else the static evaluation; F.guess_depth overrides the depth (0: the piles' margin as they
    are; tuning). Not in a horizon search (its own units) nor a traced one (the trace would miss
    its nodes): the static evaluation there."""
    cdef Search* S = &F.S
    cdef uint64_t evaluations = F.evaluations, game_key = F.game_key
    cdef int v, scale = F.scale, plies = plies_left(F, root), depth
    cdef int units = 1 if F.mode == MATCH else HORIZON_SCALE     # MATCH counts 1/10,000ths alike
    depth = F.guess_depth if F.guess_depth >= 0 else guess_plies(plies, F.game.players)
    F.guess_horizon = 0
    if depth == 0:
        return leaf(F, root)
    if F.horizon_left or S.trace != NULL or (F.guess_depth < 0 and plies < GUESS_MIN_PLIES) \
            or depth >= plies:
        F.scale = units
        v = horizon_value(F, root)
        F.scale = scale
        F.evaluations = evaluations
        return v if F.horizon_left else <int>floor(<double>v / units + 0.5)
    # the horizon search: full window, quarter points, its nodes counted as the search's
    F.horizon_left = plies - depth
    F.scale = units
    F.game_key = horizon_key(F)
    v = alphabeta(F, root, -VALUE_INF, VALUE_INF, 0)
    F.guess_horizon = F.horizon_left
    F.horizon_left = 0
    F.scale = scale
    F.game_key = game_key
    F.evaluations = evaluations
    return <int>floor(<double>v / units + 0.5)
