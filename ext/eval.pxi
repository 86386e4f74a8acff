# The static evaluation of the horizon search (docs/family.md, "Horizon search"): a
# position scored without searching it, in the exact search's units (round points), from what
# is already captured and what is still in play (hands, table, stock; worlds are fully known).
#
# Every side gets its expected round points:
#   - shares: side i takes each card still in play with probability p_i, its share of the seats
#     (every seat plays as many cards), leaning EVAL_LEFTOVER cards' worth towards the dealer's
#     side, which plays last and so tends to take what is left on the table at the end;
#   - carte, denari: the lead of i over j at the end is then
#     about normal around lead + (p_i - p_j) * left with variance left * (p_i + p_j - (p_i - p_j)^2),
#     and a lead that cannot be caught (or reached) is certain. P(i has strictly the most) is the
#     product of its pairwise chances (with two sides exactly the pairwise chance; ties: nobody);
#   - primiera: per suit, the side's best card so far b and the best still in play u; it expects
#     b + (u - b) * P(it takes one of the k cards in play better than b) = b + (u - b)(1 - (1-p)^k).
#     A side whose least possible total beats another's most possible wins for sure; otherwise a
#     logistic in the difference of the expected totals, its width growing with what is open;
#   - settebello, re bello: the holder of the captured card; a card in a seat's hand goes to that
#     side with EVAL_HELD; one on the table to the seat to move with EVAL_TAKE when it can take it
#     (a card of that value, or 15 minus it under Scopa a 15); else by shares;
#   - napola: a side with the ace, two and three of coins has its napola's points; one still
#     missing some of them, none in another pile, expects 3 * p^missing;
#   - scopa threat: the seat to move can sweep the table now (not the round's last play where
#     that does not score): EVAL_THREAT points to its side.
# Values: TWO_SIDES the margin of the two sides' expected points to come (the scopas already made
# are on the search's path). PARANOID scores the root side against the other sides pooled as
# one team (share, piles and chances together: they play together against it), adds the scopas
# made (the best other side's against the root side's) and takes EVAL_PARANOID_CARD off the
# root side per card still to play (colluding opponents do better than a pooled share: the bias
# measured without it grew with the cards left; 0.04 a card once the leftover lean is in). MAXN: every side's
# expected points, rounded. MATCH: every side's expected points (scopas made included), each
# side apart, read in the leaf table between its whole points (multilinear interpolation), so
# that a depth-limited match search has a value in the same units (1/10,000ths). The weights were set with benchmarks/bench_horizon.py (fixed: no
# process-wide state that every search thread would read); values are whole points, as exact.
# Cost: popcounts and a few erf/exp per side pair, only at horizon nodes.

from libc.math cimport erf, exp, pow, sqrt, floor

cdef const double EVAL_THREAT = 0.6     # a sweep the seat to move can make now
cdef const double EVAL_HELD = 0.6       # settebello / re bello in a seat's hand: its side's chance
cdef const double EVAL_TAKE = 0.8       # on the table, the seat to move able to take it
cdef const double EVAL_PRIMIERA_WIDTH = 0.15   # logistic width per primiera point still open
cdef const double EVAL_LEFTOVER = 4.0   # cards in play expected to end with the dealer's side (measured)
cdef const int EVAL_PARANOID_TEAMS = 1  # paranoid: the other sides pool their chances (as they play)
cdef const double EVAL_PARANOID_CARD = 0.04  # paranoid: the root side's loss per card still to play (measured)


# PRIMIERA_ABOVE[v]: the ranks (10-bit mask) whose primiera value is more than v.
cdef uint16_t PRIMIERA_ABOVE[22]


cdef void _init_eval() noexcept:
    cdef int v, r
    for v in range(22):
        PRIMIERA_ABOVE[v] = 0
        for r in range(10):
            if PRIMIERA_VALUE[r] > v:
                PRIMIERA_ABOVE[v] |= 1 << r

_init_eval()


cdef inline double count_beats(int lead, int left, double pi, double pj) noexcept nogil:
    """P(side i ends a count category with strictly more than side j): i leads by `lead`,
    `left` cards of the kind are still in play, each taken by i or j with shares pi, pj."""
    cdef double d, var, mean
    if lead > left:
        return 1.0
    if lead + left <= 0:
        return 0.0
    d = pi - pj
    var = left * (pi + pj - d * d)
    mean = lead + d * left
    if var < 1e-9:
        return 1.0 if mean >= 0.5 else 0.0
    return 0.5 * (1.0 + erf((mean - 0.5) / sqrt(2.0 * var)))


cdef inline double logistic(double x) noexcept nogil:
    return 1.0 / (1.0 + exp(-x))


cdef void special_card(const State* s, const Game* g, const int8_t* side, int nsides,
                       const uint64_t* piles, const double* share, int card, double* out) noexcept nogil:
    """Settebello or re bello: each side's chance of ending with `card`, added to out."""
    cdef uint64_t bit = 1ULL << card
    cdef int i, q, taker = -1, need
    cdef double w = 0.0
    for i in range(nsides):
        if piles[i] & bit:
            out[i] += 1.0
            return
    for q in range(g.players):
        if s.hand[q] & bit:
            taker = side[q]
            w = EVAL_HELD
    if s.table & bit:
        need = 15 - CARD_VALUE[card] if g.rules & RULE_FIFTEEN else CARD_VALUE[card]
        if 1 <= need <= 10 and (s.hand[s.to_move] & VALUE_CARDS[need]):
            taker = side[s.to_move]
            w = EVAL_TAKE
    if taker >= 0:
        out[taker] += w
    for i in range(nsides):
        out[i] += (1.0 - w) * share[i]


cdef void expected_points(const State* s, const Game* g, const int8_t* side, int n, uint64_t stock,
                            double* out) noexcept nogil:
    """Every side's expected round points from its pile and the cards in play (scopas already
    made not included; the seat to move's sweep threat and tempo included); `side`/`n` the
    seats' sides as the evaluation groups them (the game's, or the paranoid search's teams)."""
    cdef uint64_t piles[MAX_SEATS]
    cdef uint64_t play = s.in_hands | s.table | stock, rest, need, others
    cdef double share[MAX_SEATS]
    cdef double prim[MAX_SEATS]
    cdef int cards[MAX_SEATS]
    cdef int coins[MAX_SEATS]
    cdef int low[MAX_SEATS]
    cdef int high[MAX_SEATS]
    cdef int i, j, suit, b, u, np, p
    cdef int left = popcount(play), left_coins = popcount(play & COINS)
    cdef bint zero = (g.rules & RULE_PRIMIERA_ZERO) != 0
    cdef double pc, pd, pp, width, lean
    for i in range(n):
        share[i] = 0.0
        out[i] = 0.0
        piles[i] = 0
    for p in range(g.players):
        piles[side[p]] |= s.pile[p]
    # every seat plays as many cards; the dealer's side plays last and so tends to take the
    # table left at the end (EVAL_LEFTOVER of the cards in play)
    lean = EVAL_LEFTOVER / left if left > EVAL_LEFTOVER else 0.0
    for p in range(g.players):
        share[side[p]] += (1.0 - lean) / g.players
    share[side[s.dealer]] += lean
    for i in range(n):
        cards[i] = popcount(piles[i])
        coins[i] = popcount(piles[i] & COINS)
        prim[i] = 0.0
        low[i] = 0          # the least primiera it can end with (-1000: it may still miss a suit)
        high[i] = 0         # the most (-1000: it misses a suit for good)
        for suit in range(4):
            b = PRIMIERA_BEST[(piles[i] >> (10 * suit)) & 0x3FF]
            rest = (play >> (10 * suit)) & 0x3FF
            u = PRIMIERA_BEST[rest]
            low[i] += b
            high[i] += max(b, u)
            prim[i] += b
            if u > b:
                prim[i] += (u - b) * (1.0 - pow(1.0 - share[i], popcount(rest & PRIMIERA_ABOVE[b])))
            if b == 0 and not zero:
                low[i] = -100000
                if u == 0:
                    high[i] = -100000
        low[i] = max(low[i], -1000)
        high[i] = max(high[i], -1000)
    for i in range(n):
        pc = pd = pp = 1.0
        for j in range(n):
            if j == i:
                continue
            pc *= count_beats(cards[i] - cards[j], left, share[i], share[j])
            pd *= count_beats(coins[i] - coins[j], left_coins, share[i], share[j])
            if high[i] < 0 or high[i] <= low[j]:
                pp = 0.0
            elif low[i] <= high[j]:
                width = 1.0 + EVAL_PRIMIERA_WIDTH * ((high[i] - max(low[i], 0)) + (high[j] - max(low[j], 0)))
                pp *= logistic((prim[i] - prim[j]) / width)
        out[i] += pc + pd + pp
    special_card(s, g, side, n, piles, share, SETTEBELLO, out)
    if g.rules & RULE_RE_BELLO:
        special_card(s, g, side, n, piles, share, KING_OF_COINS, out)
    if g.rules & RULE_NAPOLA:
        for i in range(n):
            np = napola_points(piles[i])
            if np:
                out[i] += np
                continue
            need = 7 & ~piles[i]
            others = 0
            for j in range(n):
                if j != i:
                    others |= piles[j]
            if not (need & others):
                out[i] += 3.0 * pow(share[i], popcount(need))
    if (can_sweep(s.table, s.table_value, s.hand[s.to_move], g.rules)
            and (left - popcount(s.table) > 1 or (g.rules & RULE_LAST_SWEEP_COUNTS))):
        out[side[s.to_move]] += EVAL_THREAT


cdef inline int round_value(double v) noexcept nogil:
    cdef int r = <int>floor(v + 0.5)
    return max(-(NARROW_INF - 1), min(NARROW_INF - 1, r))


cdef enum:
    HORIZON_SCALE = 4    # a horizon value search counts quarter points (whole points tie too often)


cdef inline int unscale(int x, int scale) noexcept nogil:
    if x <= -VALUE_INF or x >= VALUE_INF:
        return x
    return <int>floor(<double>x / scale + 0.5)


cdef void unscale_result(RootResult* R, int scale) noexcept nogil:
    """A horizon search's root figures back in whole points (the best moves stay those of the
    finer values)."""
    cdef int i
    R.lower = unscale(R.lower, scale)
    R.upper = unscale(R.upper, scale)
    if R.move_lower != NULL:
        for i in range(R.n_moves):
            R.move_lower[i] = unscale(R.move_lower[i], scale)
            R.move_upper[i] = unscale(R.move_upper[i], scale)


cdef int horizon_value(Engine* F, const State* s) noexcept nogil:
    """The static value of s for its seat to move, as alphabeta values it: TWO_SIDES the expected
    margin of points to come, PARANOID the root side's expected points (scopas made included)
    minus the best other side's, negated for the other team."""
    cdef double e[MAX_SEATS]
    cdef double best = -1e9, v
    cdef int made[MAX_SEATS]
    cdef int i, me = F.game.side[s.to_move]
    F.evaluations += 1
    if F.mode == MATCH:
        expected_points(s, &F.game, F.game.side, F.game.nsides, F.stock_mask[s.deals_left], e)
        for i in range(F.game.players):
            e[F.game.side[i]] += s.scopas[i]
        i = match_interpolated(F, e)
        return i if F.team[s.to_move] == 0 else -i
    if F.mode == TWO_SIDES:
        expected_points(s, &F.game, F.game.side, 2, F.stock_mask[s.deals_left], e)
        return round_value(F.scale * (e[me] - e[1 - me]))
    if EVAL_PARANOID_TEAMS:
        # the other sides play as one team against the root side: score the two teams, and the
        # best other side's scopas against the root side's
        expected_points(s, &F.game, F.team, 2, F.stock_mask[s.deals_left], e)
        for i in range(F.game.nsides):
            made[i] = 0
        for i in range(F.game.players):
            made[F.game.side[i]] += s.scopas[i]
        for i in range(F.game.nsides):
            if i != F.root_side and made[i] > best:
                best = made[i]
        v = e[0] + made[F.root_side] - e[1] - best - EVAL_PARANOID_CARD * plies_left(F, s)
        return round_value(F.scale * (v if F.team[s.to_move] == 0 else -v))
    expected_points(s, &F.game, F.game.side, F.game.nsides, F.stock_mask[s.deals_left], e)
    for i in range(F.game.players):
        e[F.game.side[i]] += s.scopas[i]
    for i in range(F.game.nsides):
        if i != F.root_side and e[i] > best:
            best = e[i]
    v = e[F.root_side] - best
    return round_value(F.scale * (v if F.team[s.to_move] == 0 else -v))


cdef int match_interpolated(const Engine* F, const double* points) noexcept nogil:
    """The leaf table read at fractional points, every side's (multilinear between the whole
    points around them, clamped into the table), rounded."""
    cdef int ns = F.game.nsides, i, corner, at, base[MAX_SEATS]
    cdef double frac[MAX_SEATS]
    cdef double x, w, total = 0.0
    for i in range(ns):
        x = points[i] - F.match_low[i]
        if x <= 0 or F.match_dim[i] == 1:
            x = 0.0
        elif x >= F.match_dim[i] - 1:
            x = F.match_dim[i] - 1.0
        base[i] = <int>floor(x)
        if base[i] >= F.match_dim[i] - 1:
            base[i] = F.match_dim[i] - 1
            frac[i] = 0.0
        else:
            frac[i] = x - base[i]
    for corner in range(1 << ns):
        w = 1.0
        at = 0
        for i in range(ns):
            if (corner >> i) & 1:
                w *= frac[i]
                at += (base[i] + 1) * F.match_stride[i] if frac[i] > 0 else 0
            else:
                w *= 1.0 - frac[i]
                at += base[i] * F.match_stride[i]
        if w > 0:
            total += w * F.match_values[at]
    return <int>floor(total + 0.5)


cdef void horizon_vector(Engine* F, const State* s, int* out) noexcept nogil:
    """MAXN: every side's expected points to come, rounded (scopas made not included)."""
    cdef double e[MAX_SEATS]
    cdef int i
    F.evaluations += 1
    expected_points(s, &F.game, F.game.side, F.game.nsides, F.stock_mask[s.deals_left], e)
    for i in range(F.game.nsides):
        out[i] = max(0, round_value(e[i]))


cdef inline bint at_horizon(const Engine* F, const State* s) noexcept nogil:
    """Horizon search: s is as deep as the search goes (its cards left at the threshold)."""
    return F.horizon_left > 0 and plies_left(F, s) <= F.horizon_left
