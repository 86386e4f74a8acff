# The exact search, for every game. Three objectives over one move generator and one table:
#   TWO_SIDES       two sides: fail-soft alpha-beta on the margin of the side to move, values the
#               points still to come (scopas made from here on + the piles' final margin);
#               consecutive seats of one side keep the sign.
#   PARANOID  three or more sides, objective "value": the root seat's side maximises its
#               points minus the best other side's, every other seat minimises that; the same
#               two-team alpha-beta, values absolute (scopas are in the state and the key).
#   MAXN      each seat maximises its own side's points; no deep pruning; the table stores
#               the exact vector of points still to come (final pile points + scopas from
#               here on), first move in canonical order on ties.
#   MATCH     the match objective, any number of sides: the root seat's side maximises its
#               chance to win the match (1/10,000ths, 0..10000), every other seat minimises it
#               (two sides: zero-sum; more: paranoid). A round's end is worth the caller's leaf
#               table's entry for every side's final round points (MatchTable, api.pxi); values
#               absolute as in paranoid (scopas and piles in the key), the table's content in
#               game_key, wide table entries (tt.pxi), bounds through the table only when it is
#               monotone (bounds.pxi), the horizon's expected points interpolated in it (eval.pxi).
# The table (tt.pxi: buckets of four, bounds tightened on the same key, else the entry of an
# older search, else the smallest subtree is replaced) is keyed on the cards in play (hands by
# seat, table, the stock), seat to move, dealer, last capturer and a summary of the piles that
# fixes what they can still score: with two sides piles_summary (clamped differences, settled
# primiera); with more, per side its card and
# coin counts, best primiera card per suit, settebello and re bello, napola's coins (and in
# paranoid the scopas).

from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC
from cpython.exc cimport PyErr_Clear

cdef extern from "Python.h":
    # declared without Cython's "except -1": the search looks at the result itself and must
    # not unwind through nogil code
    int check_signals_now "PyErr_CheckSignals"()

cdef enum:
    STOP_NONE = 0
    STOP_NODES = 1
    STOP_TIME = 2
    STOP_INTERRUPT = 3      # Ctrl-C: the search raises KeyboardInterrupt
    STOP_REQUEST = 4        # the caller's StopToken was set: the stopped result is returned
    CHECK_EVERY = 1024      # nodes between clock and Ctrl-C checks
    SIGNALS_EVERY = 65536   # nodes between Ctrl-C checks

ctypedef struct Search:
    # what every search keeps, whatever its game: the table, the node count and the limits
    Table table
    bint use_table
    bint check_signals      # only the main thread can see Ctrl-C
    uint64_t nodes, max_nodes
    uint64_t next_check     # node count of the next limit check (at most max_nodes)
    uint64_t next_signal_check
    double deadline         # monotonic seconds; 0: none
    int stop
    int abort               # the kernel's own: the first thread of a parallel search stops the others
    int* token              # the caller's StopToken flag (NULL: none); read, never written
    Trace* trace            # NULL unless the search is being recorded
    int trace_depth         # depth below the traced position of the node a pass starts from
    uint64_t trace_move     # and the move that led to that node (0 at the traced position)


cdef inline double monotonic() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9


cdef extern from *:
    """
    #define LOAD_FLAG(p) __atomic_load_n((p), __ATOMIC_RELAXED)
    #define STORE_FLAG(p, v) __atomic_store_n((p), (v), __ATOMIC_RELAXED)
    """
    int LOAD_FLAG(int* p) noexcept nogil
    void STORE_FLAG(int* p, int v) noexcept nogil


cdef void check_limits(Search* S) noexcept nogil:
    S.next_check = S.nodes + CHECK_EVERY
    if S.max_nodes and S.next_check > S.max_nodes:
        S.next_check = S.max_nodes
    if S.token != NULL and LOAD_FLAG(S.token):
        S.stop = STOP_REQUEST
    elif S.abort:
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


cdef extern from *:
    void prefetch "__builtin_prefetch"(const void*) nogil

cdef enum:
    TWO_SIDES = 0
    PARANOID = 1
    MAXN = 2
    MATCH = 3
    MATCH_ONE = 10000        # MATCH values: the chance to win the match in 1/10,000ths
    # probes where they pay in CPU time (a probe is a trip to memory; measured in docs/benchmarks.md
    # and docs/search.md): where the cards in hands are a multiple of 3 (and at the root's
    # children), from 7 cards still to play, two players from 5
    TABLE_MIN_CARDS = 7
    TABLE_STRIDE = 3
    TABLE_MIN_CARDS_TWO = 5
    TABLE_EVERY_FROM = 16    # and at every node with this many cards in hands or more: its subtree dwarfs a probe

ctypedef struct Engine:
    Search S                 # node counting, limits, stop, the table (its game and stock unused)
    Game game
    int mode
    int root_side            # paranoid: the side maximising
    int8_t team[MAX_SEATS]  # TWO_SIDES / PARANOID: 0 or 1 per seat
    uint64_t game_key        # rules, seats, sides, mode (and the root side in paranoid)
    uint64_t stock_key[MAX_DEALS + 1]
    uint64_t stock_mask[MAX_DEALS + 1]
    uint64_t* moves          # MAX_PLIES levels of MAX_MOVES moves
    int table_min_cards      # probe only with at least this many cards still to play (hands and stock)
    int table_stride         # and where the cards in hands are a multiple of it (1: everywhere)
    int table_every_from     # or with at least this many cards in hands (0: no such)
    int probe_min                    # those in force (set_table_min_cards's, or by the game: -1)
    uint64_t probe_hands             # bit c: probe with c cards in hands (the stride's multiples)
    # move ordering (ordering.pxi)
    uint64_t killer[MAX_PLIES][2]   # the last two moves that cut off at each ply
    int guess_depth                  # the first guess's horizon search: -1 by the plies (tuning)
    int guess_horizon                # its horizon (cards left), whose stored moves order (0: none)
    int horizon_left         # horizon search: nodes with this many cards left are scored by
                             # eval.pxi (0: exact); its count is in game_key
    int scale                # value units per point: 1, HORIZON_SCALE in a horizon value search
    uint64_t evaluations     # static evaluations made (horizon nodes)
    int use_equiv                    # play one of the moves equivalent by same-rank exchanges (equiv.pxi)
    int use_bounds                   # cut on the value's bounds (bounds.pxi) with at most this many cards in hands
    uint64_t* busy                   # parallel search: the moves other threads are searching (parallel.pxi; NULL: one thread)
    int busy_cards                   # defer those only at nodes with at least this many cards in hands
    double parallel_mb               # the most table a parallel search uses, MiB (0: PARALLEL_MB)
    int use_last_round               # solve the last round by endgame.pxi's forced walk
    int use_others                   # two sides: the table's bounds for the same cards with other piles (tt.pxi)
    int use_order                    # order the moves (ordering.pxi); off: generation order (research)
    # MATCH: the leaf table (the caller's, read only): entry sum((points[i] - match_low[i]) *
    # match_stride[i]) is the root side's chance after final round points `points`
    const int32_t* match_values
    int match_low[MAX_SEATS]
    int match_dim[MAX_SEATS]
    int match_stride[MAX_SEATS]
    int match_monotone               # own points up never lower it, others' never raise it
    uint64_t match_hash              # the table's content (in game_key)


cdef void set_game(Engine* F, const Game* g, int mode, int root_seat) noexcept nogil:
    cdef int k, p, b, stride
    cdef uint64_t key = 0, cards
    F.game = g[0]
    F.mode = mode
    F.probe_min = F.table_min_cards if F.table_min_cards >= 0 else \
        (TABLE_MIN_CARDS_TWO if g.players == 2 else TABLE_MIN_CARDS)
    stride = F.table_stride if F.table_stride >= 1 else TABLE_STRIDE
    F.probe_hands = 0
    k = 0
    while k < 64:                       # a mask, not a division at every node
        F.probe_hands |= 1ULL << k
        k += stride
    k = F.table_every_from if F.table_every_from >= 0 else TABLE_EVERY_FROM
    while 0 < k < 64:
        F.probe_hands |= 1ULL << k
        k += 1
    F.root_side = g.side[root_seat]
    for p in range(g.players):
        if mode == PARANOID or mode == MATCH:
            F.team[p] = 0 if g.side[p] == F.root_side else 1
        else:
            F.team[p] = g.side[p]
    F.stock_key[0] = 0
    F.stock_mask[0] = 0
    for k in range(MAX_DEALS):
        for p in range(g.players):
            cards = g.deal[k][p]
            while cards:
                b = lowest_bit(cards)
                cards &= cards - 1
                key ^= Z_STOCK[k][p][b]
        F.stock_key[k + 1] = key
        F.stock_mask[k + 1] = F.stock_mask[k] | g.deal_cards[k]
    key = <uint64_t>g.rules | (<uint64_t>g.players << 10) | (<uint64_t>mode << 14) | \
          (<uint64_t>(F.root_side if mode == PARANOID or mode == MATCH else 7) << 16)
    for p in range(g.players):
        key |= <uint64_t>g.side[p] << (20 + 3 * p)
    F.game_key = mix64(key ^ 0xD1B54A32D192ED03ULL)
    if mode == MATCH:
        F.game_key = mix64(F.game_key ^ F.match_hash)


cdef inline uint64_t side_summary(uint64_t pile, int rules) noexcept nogil:
    """What one side's pile can still score with: counts, primiera by suit, the special cards."""
    cdef uint64_t w = popcount(pile) | (<uint64_t>popcount(pile & COINS) << 6)
    cdef int suit
    for suit in range(4):
        w |= <uint64_t>PRIMIERA_BEST[(pile >> (10 * suit)) & 0x3FF] << (10 + 5 * suit)
    w |= ((pile >> SETTEBELLO) & 1) << 30
    w |= ((pile >> KING_OF_COINS) & 1) << 31
    if rules & RULE_NAPOLA:
        w |= (pile & COINS) << 32
    return w


cdef inline uint64_t play_key(const Engine* F, const State* s) noexcept nogil:
    """The key of everything but the piles, which fixes the game tree from s: the cards in play,
    seat to move, dealer, last capturer's side, the game."""
    return (s.zkey ^ F.stock_key[s.deals_left] ^ Z_SEAT[s.to_move] ^ Z_DEALER[s.dealer]
            ^ Z_LAST[(F.game.side[s.last_capturer] if s.last_capturer >= 0 else -1) + 1] ^ F.game_key)


cdef inline uint64_t two_sides_summary(const Engine* F, const State* s) noexcept nogil:
    cdef uint64_t piles[MAX_SEATS]
    side_piles(s, &F.game, piles)
    return piles_summary(piles[0], piles[1], F.game.rules, s.in_hands | s.table | F.stock_mask[s.deals_left])


cdef uint64_t position_key(const Engine* F, const State* s) noexcept nogil:
    cdef int i
    cdef uint64_t piles[MAX_SEATS]
    cdef uint64_t key = play_key(F, s)
    cdef int scopas[MAX_SEATS]
    cdef bint absolute = F.mode == PARANOID or F.mode == MATCH
    if F.mode == TWO_SIDES and not F.horizon_left:     # the horizon's value needs the finer summary
        return key ^ mix64(two_sides_summary(F, s))
    side_piles(s, &F.game, piles)
    if absolute:
        for i in range(F.game.nsides):
            scopas[i] = 0
        for i in range(F.game.players):
            scopas[F.game.side[i]] += s.scopas[i]
    for i in range(F.game.nsides):
        key ^= mix64(side_summary(piles[i], F.game.rules) + 0x9E3779B97F4A7C15ULL * (i + 1)
                     + ((<uint64_t>scopas[i] << 48) if absolute else 0))
    return key


cdef inline int match_entry(const Engine* F, const int* points) noexcept nogil:
    """The leaf table's entry for every side's final round points (clamped into the table:
    the caller's table covers the root's bounds, so only a horizon's estimates ever are)."""
    cdef int i, k, at = 0
    for i in range(F.game.nsides):
        k = points[i] - F.match_low[i]
        if k < 0:
            k = 0
        elif k >= F.match_dim[i]:
            k = F.match_dim[i] - 1
        at += k * F.match_stride[i]
    return F.match_values[at]


cdef int leaf(const Engine* F, const State* s) noexcept nogil:
    """The value at the end of the round (or of a position without moves) for the seat to move:
    TWO_SIDES the piles' margin of its side; PARANOID the root side's points (scopas included)
    minus the best other side's, negated for the other team; MATCH the leaf table's entry (the
    root side's chance), negated for the other team."""
    cdef uint64_t piles[MAX_SEATS]
    cdef int points[MAX_SEATS]
    cdef int i, best = -1000, v
    if F.mode == TWO_SIDES:
        side_piles(s, &F.game, piles)
        v = points_difference(piles[0], piles[1], F.game.rules)
        return v if F.game.side[s.to_move] == 0 else -v
    side_points(s, &F.game, True, points)
    if F.mode == MATCH:
        v = match_entry(F, points)
        return v if F.team[s.to_move] == 0 else -v
    for i in range(F.game.nsides):
        if i != F.root_side and points[i] > best:
            best = points[i]
    v = points[F.root_side] - best
    return v if F.team[s.to_move] == 0 else -v


cdef inline bint can_sweep(uint64_t table, int table_value, uint64_t hand, int rules) noexcept nogil:
    """Can a card of `hand` take the whole of `table` at once?"""
    cdef int v
    if not table or not hand:
        return False
    if rules & RULE_FIFTEEN:
        v = 15 - table_value
        return 1 <= v <= 10 and (hand & VALUE_CARDS[v]) != 0
    if (rules & RULE_ASSO_PIGLIA_TUTTO) and (hand & VALUE_CARDS[1]) and not (table & VALUE_CARDS[1]):
        return True
    # a single card of value v, or a sum of several (none of them alone worth v)
    return table_value <= 10 and (hand & VALUE_CARDS[table_value]) != 0


cdef inline int plies_left(const Engine* F, const State* s) noexcept nogil:
    """Cards still to play (the subtree's size, for replacement), at most 63."""
    return popcount(s.in_hands | F.stock_mask[s.deals_left]) & 63


cdef inline bint last_card_fast(const Engine* F, const State* s) noexcept nogil:
    """The round's last card, when every legal play of it ends alike (whatever it takes, the
    leftovers follow it to the same pile; no sweep scores): no lay-down choice, no last sweep."""
    return (s.deals_left == 0 and popcount(s.in_hands) == 1
            and not (F.game.rules & (RULE_OPTIONAL_CAPTURE | RULE_LAST_SWEEP_COUNTS)))


cdef inline void last_card_end(const Engine* F, const State* s, State* end) noexcept nogil:
    cdef int card = lowest_bit(s.in_hands)
    end[0] = s[0]
    apply_move(end, &F.game, make_move(card, s.table if can_capture(card, s.table, F.game.rules) else 0))


cdef inline int last_card_value(const Engine* F, const State* s) noexcept nogil:
    """Its value for the seat to move, without generating moves (the node is counted by the caller)."""
    cdef State end
    cdef int v
    last_card_end(F, s, &end)
    v = leaf(F, &end)
    return v if F.team[end.to_move] == F.team[s.to_move] else -v


cdef inline int play_child(Engine* F, State* child, uint64_t move) noexcept nogil:
    """Play `move` on `child` (a copy of its parent); what it scores in the search's units: a
    scopa with two sides (values are points still to come), 0 in paranoid (values are absolute:
    the scopas are in the state)."""
    cdef int scopa = apply_move(child, &F.game, move)
    return scopa * F.scale if F.mode == TWO_SIDES else 0


cdef inline int child_value(Engine* F, const State* s, const State* child, int r,
                              int alpha, int beta, int ply) noexcept nogil:
    """The child's value seen from s's seat: the same team keeps the sign."""
    if F.team[child.to_move] == F.team[s.to_move]:
        return r + search_node(F, child, alpha - r, beta - r, ply)
    return r - search_node(F, child, r - beta, r - alpha, ply)


cdef inline void note_killer(Engine* F, int ply, uint64_t move) noexcept nogil:
    """`move` cut off at `ply`: the ply's latest killer (ordering.pxi)."""
    if F.killer[ply][0] != move:
        F.killer[ply][1] = F.killer[ply][0]
        F.killer[ply][0] = move


cdef int alphabeta(Engine* F, const State* s, int alpha, int beta, int ply) noexcept nogil:
    """Fail-soft alpha-beta (TWO_SIDES, PARANOID): the exact value inside (alpha, beta), else a
    bound beyond it."""
    cdef Search* S = &F.S
    cdef State child
    cdef uint64_t key = 0, table_move = 0, best_move, searched, ckey = 0, summary = 0, other
    cdef uint64_t* moves
    cdef int n, i, r, v, best, lower, upper, a, cards, first, low, high
    cdef uint64_t mark
    cdef bint use_table, hit
    S.nodes += 1
    if S.nodes >= S.next_check:
        check_limits(S)
    if S.stop:
        return 0
    if s.in_hands == 0:                 # apply_move deals: the end of the round
        return leaf(F, s)
    if F.horizon_left and at_horizon(F, s):
        return horizon_value(F, s)
    if last_card_fast(F, s):
        return last_card_value(F, s)
    if in_last_round(F, s):
        return last_round_value(F, s, alpha, beta, ply)
    cards = popcount(s.in_hands)
    # the root's children always: the tests of every root move and the pv search them again
    use_table = (S.use_table and plies_left(F, s) >= F.probe_min
                 and ((F.probe_hands >> cards) & 1 or ply == 1))
    if use_table:                       # the bucket on its way from memory while the bounds are tried
        if F.use_others and F.mode == TWO_SIDES and not F.horizon_left and not (F.game.rules & RULE_NAPOLA):
            ckey = play_key(F, s)
            summary = two_sides_summary(F, s)
            key = ckey ^ mix64(summary)     # position_key's
            prefetch(S.table.others + ((ckey >> 32) & (OTHERS - 1)))
        else:
            key = position_key(F, s)
        prefetch(S.table.entries + (key & S.table.mask) * BUCKET)
    # the bounds are of the final points: not of a horizon's estimates (nor in its units); with
    # the stock still to deal they are too wide to cut (measured: 10-20% more instructions)
    if (s.deals_left == 0 and cards <= F.use_bounds and not F.horizon_left and not before_last_round(F, s, cards)
            and bounds_cut(F, s, alpha, beta, &v)):
        return v
    moves = F.moves + ply * MAX_MOVES
    if use_table:
        hit = probe_node(F, s, key, &lower, &upper, &table_move)
        # the same cards with other piles: their bounds moved by what the piles can change
        if ckey and others_probe(&S.table, ckey, &other, &low, &high) and other != summary:
            piles_shift(summary, other, &v, &r)
            if F.game.side[s.to_move]:
                v, r = -r, -v
            low = low + v if low > -VALUE_INF else -VALUE_INF
            high = high + r if high < VALUE_INF else VALUE_INF
            if not hit:
                hit = True
                lower, upper = low, high
            else:
                lower = max(lower, low)
                upper = min(upper, high)
        if hit:
            if S.trace != NULL and (lower >= beta or upper <= alpha): trace_event(S.trace, EVENT_TABLE, ply, lower, upper, table_move, 0, 0)
            if lower >= beta:
                return lower
            if upper <= alpha:
                return upper
            if lower > alpha:
                alpha = lower
            if upper < beta:
                beta = upper
    best = -VALUE_INF
    a = alpha
    searched = 0
    # the table's move first, before any other is generated: it orders first anyway, and most
    # often cuts (a trace keeps the usual order of its events)
    if table_move and S.trace == NULL and is_legal(s, F.game.rules, table_move, moves):
        child = s[0]
        r = play_child(F, &child, table_move)
        v = child_value(F, s, &child, r, a, beta, ply + 1)
        if S.stop:
            return 0
        best = v
        best_move = table_move
        searched = table_move
        if v > a:
            a = v
            if a >= beta:
                note_killer(F, ply, best_move)
                store_node(F, s, key, best, VALUE_INF, best_move, plies_left(F, s))
                if ckey:
                    others_store(&S.table, ckey, summary, best, VALUE_INF)
                return best
    n = generate_moves(s, F.game.rules, moves)
    if n == 0:
        return leaf(F, s)
    if F.use_equiv and n > 1:                  # (one move: nothing to drop)
        n = drop_equivalent(F, s, moves, n)
    order_moves(F, s, moves, n, table_move, ply)
    if not searched:
        best_move = moves[0]
    # parallel: a move another thread is searching waits at the end of the list (first = n)
    first = n if F.busy != NULL and use_table and cards >= F.busy_cards else 0
    i = 0 if searched and moves[0] == searched else -1
    while i + 1 < n:
        i += 1
        mark = 0
        if 0 < i < first and busy_defer(F, key, moves, i, &n, &mark):
            continue
        child = s[0]
        r = play_child(F, &child, moves[i])
        if S.trace != NULL: S.trace.next_move = moves[i]
        v = child_value(F, s, &child, r, a, beta, ply + 1)
        if mark:
            busy_done(F, mark)
        if S.stop:
            return 0
        if v > best:
            best = v
            best_move = moves[i]
            if v > a:
                a = v
                if a >= beta:
                    note_killer(F, ply, best_move)
                    break
    if use_table:
        lower = best if best > alpha else -VALUE_INF
        upper = best if best < beta else VALUE_INF
        store_node(F, s, key, lower, upper, best_move, plies_left(F, s))
        if ckey:
            others_store(&S.table, ckey, summary, lower, upper)
    return best


cdef inline bint probe_node(Engine* F, const State* s, uint64_t key, int* lower, int* upper,
                            uint64_t* move) noexcept nogil:
    """table_probe for the position s (MATCH: wide entries, the move's captures by s's table)."""
    if F.mode != MATCH:
        return table_probe(&F.S.table, key, lower, upper, move)
    if not table_probe_any(&F.S.table, key, lower, upper, move, True):
        return False
    move[0] = unpack_table_move(s.table, move[0])
    return True


cdef inline void store_node(Engine* F, const State* s, uint64_t key, int lower, int upper,
                            uint64_t move, int plies) noexcept nogil:
    if F.mode != MATCH:
        table_store(&F.S.table, key, lower, upper, move, plies)
    else:
        table_store_any(&F.S.table, key, lower, upper, pack_table_move(s.table, move), plies, True)


cdef int mtdf(Engine* F, const State* s, int guess, int* lower, int* upper) noexcept nogil:
    cdef int g = guess, beta, v
    lower[0] = -VALUE_INF
    upper[0] = VALUE_INF
    while lower[0] < upper[0] and not F.S.stop:     # (the first guess's search may have stopped)
        beta = g + 1 if g == lower[0] else g
        trace_pass(F.S.trace, F.S.trace_depth, 0, beta - 1, beta, F.S.trace_move)
        v = search_node(F, s, beta - 1, beta, 0)
        if F.S.stop:
            break
        if v < beta:
            upper[0] = v
        else:
            lower[0] = v
        g = v
    return g


cdef inline uint64_t pack_vector(const int* v, int n) noexcept nogil:
    cdef uint64_t w = 0
    cdef int i
    for i in range(n):
        w |= <uint64_t>(v[i] & 127) << (7 * i)
    return w


cdef inline void unpack_vector(uint64_t w, int n, int* v) noexcept nogil:
    cdef int i
    for i in range(n):
        v[i] = <int>((w >> (7 * i)) & 127)


cdef void maxn(Engine* F, const State* s, int ply, int* out) noexcept nogil:
    """Max^n: every side's points still to come (the piles' final points and the scopas made from
    here on) when each seat maximises its own side's; ties to the first move in canonical order.
    On a stop `out` is meaningless (F.S.stop says so)."""
    cdef Search* S = &F.S
    cdef State child
    cdef uint64_t key = 0, vec
    cdef uint64_t* moves
    cdef int n, i, j, r, lower, upper, me = F.game.side[s.to_move], ns = F.game.nsides, most
    cdef int cv[MAX_SEATS]
    cdef bint use_table
    cdef int stage
    S.nodes += 1
    if S.nodes >= S.next_check:
        check_limits(S)
    if S.stop:
        return
    if s.in_hands == 0:
        side_points(s, &F.game, False, out)
        return
    if F.horizon_left and at_horizon(F, s):
        horizon_vector(F, s, out)
        return
    if last_card_fast(F, s):
        last_card_end(F, s, &child)
        side_points(&child, &F.game, False, out)
        return
    if in_last_round(F, s):
        maxn_last_round(F, s, ply, out)
        return
    # without cutoffs every subtree is searched whole: the table pays from two cards fewer
    use_table = S.use_table and popcount(s.in_hands) >= F.probe_min - 2
    if use_table:
        key = position_key(F, s)
        if table_probe(&S.table, key, &lower, &upper, &vec):
            unpack_vector(vec, ns, out)
            return
    moves = F.moves + ply * MAX_MOVES
    n = generate_moves(s, F.game.rules, moves)
    if n == 0:
        side_points(s, &F.game, False, out)
        return
    # the most the side to move can still get, worked out only once a move comes near it: not
    # below its plays still to come less two (stage 0), within two of the estimate without the
    # primiera and the next seat's sweep (1), exact (2)
    most = maxn_floor(F, s) if n > 1 and F.use_bounds and not F.horizon_left else 1000
    stage = 0
    for i in range(n):
        child = s[0]
        r = apply_move(&child, &F.game, moves[i])
        maxn(F, &child, ply + 1, cv)
        if S.stop:
            return
        cv[me] += r
        if i == 0 or cv[me] > out[me]:
            for j in range(ns):
                out[j] = cv[j]
            if stage == 0 and out[me] >= most:
                most = maxn_most(F, s, False)
                stage = 1
            if stage == 1 and out[me] >= most - 2:
                most = maxn_most(F, s, True)
                stage = 2
            if stage == 2 and out[me] >= most:
                break                   # nothing later can do strictly better: the first stays
    if use_table:
        table_store(&S.table, key, 0, 0, pack_vector(out, ns), plies_left(F, s))
