# Bounds on what a position can still be worth (TWO_SIDES and PARANOID cut on them, MAXN
# stops on them), from its piles and the cards still in play, without search: a side's final
# points lie between what it already holds for sure and what it could still get. Per side i,
# over every way the cards in play can end up (a relaxation: the sides are bounded apart, never
# jointly, so the bounds are valid):
#   carte, denari  sure when its count beats every other side's count plus all the cards (coins)
#                  in play; possible when its count plus them beats every other side's count;
#   primiera       the same with totals (a pile's total only grows as it captures, up to that of
#                  the pile with every card in play; -1, a missing suit, never wins);
#   settebello, re bello   held: sure for its holder; in play: possible for every side;
#   napola         between the pile's coins and the pile's coins with every coin in play;
#   scopas         those made, plus at most one per play still to come by the side's seats,
#                  except the round's last play (the dealer's, unless last_sweep_counts), the
#                  play about to be made when it cannot take the whole table, and the next
#                  seat's when no play of the mover leaves it a table it can take whole.
# The search returns a bound at once when [lo, hi] lies outside its window; max^n stops at a node
# once a move reaches the most its side can get.


cdef inline uint64_t rank_set(uint64_t cards) noexcept nogil:
    """The ranks (bit v - 1 for capture value v) present in `cards`."""
    return (cards | (cards >> 10) | (cards >> 20) | (cards >> 30)) & 0x3FF


cdef bint next_may_sweep(const Game* g, const State* s) noexcept nogil:
    """Can the seat after the mover take the whole table at its next play? False only when no
    play of the mover leaves a table it can sweep (a capture by a card of value v takes v, 15 - v
    in Scopa a 15; a lay-down adds v; nobody sweeps a table worth more than 14). True when not
    known (its next play after a deal, or the round's last play, counted apart)."""
    cdef int n1 = g.next_seat[s.to_move], rules = g.rules, v, after
    cdef uint64_t theirs = s.hand[n1], totals = 0, values
    cdef bint fifteen = (rules & RULE_FIFTEEN) != 0, can
    if not theirs or (s.deals_left == 0 and popcount(s.in_hands) == 2):
        return True
    if (rules & RULE_ASSO_PIGLIA_TUTTO) and not fifteen and (theirs & VALUE_CARDS[1]):
        return True
    values = rank_set(s.hand[s.to_move])
    while values:
        v = lowest_bit(values) + 1
        values &= values - 1
        if (not fifteen and v == 1 and (rules & RULE_ASSO_PIGLIA_TUTTO) and s.table
                and not (s.table & VALUE_CARDS[1])):
            can = True                  # the ace takes the whole table: nothing left to sweep
            after = 0
        elif fifteen:
            can = can_capture(v - 1, s.table, rules)
            after = s.table_value - (15 - v)
        else:
            can = can_capture(v - 1, s.table, rules)
            after = s.table_value - v
        if can and 0 < after <= 14:
            totals |= 1ULL << after
        if not can or (rules & RULE_OPTIONAL_CAPTURE):
            after = s.table_value + v
            if after <= 14:
                totals |= 1ULL << after
    # the totals the next seat sweeps: v (bit v - 1 of its ranks), 15 - v in Scopa a 15
    values = rank_set(theirs)
    if not fifteen:
        return ((totals >> 1) & values) != 0
    while values:
        v = lowest_bit(values) + 1
        values &= values - 1
        if (totals >> (15 - v)) & 1:
            return True
    return False


cdef inline int _others_top(const int* x, int n, int i) noexcept nogil:
    """The largest x[j] for j != i."""
    cdef int j, top = -1000
    for j in range(n):
        if j != i and x[j] > top:
            top = x[j]
    return top


cdef void sides_bounds(const Engine* F, const State* s, uint64_t in_play, const uint64_t* piles,
                        bint primiera, int* low, int* high) noexcept nogil:
    """Every side's final round points (scopas included) lie in [low[i], high[i]]; without
    `primiera` its point is left out of both, and the next seat's sweep is not looked at (the
    caller allows for both)."""
    cdef const Game* g = &F.game
    cdef int ns = g.nsides, i, p, o
    cdef int cards[MAX_SEATS]
    cdef int coins[MAX_SEATS]
    cdef int m = popcount(in_play), mc = popcount(in_play & COINS), rules = g.rules
    for i in range(ns):
        low[i] = 0
        high[i] = 0
    for p in range(g.players):
        i = g.side[p]
        low[i] += s.scopas[p]
        high[i] += s.scopas[p] + popcount(s.hand[p]) + DEAL_CARDS * s.deals_left
    # the plays that cannot sweep: the round's last, and the next one when it cannot
    if not (rules & RULE_LAST_SWEEP_COUNTS):
        high[g.side[s.dealer]] -= 1
    if not (s.deals_left == 0 and popcount(s.in_hands) == 1) and \
            not can_sweep(s.table, s.table_value, s.hand[s.to_move], rules):
        high[g.side[s.to_move]] -= 1
    for i in range(ns):
        cards[i] = popcount(piles[i])
        coins[i] = popcount(piles[i] & COINS)
    for i in range(ns):
        o = _others_top(cards, ns, i)
        if cards[i] > o + m:
            low[i] += 1
            high[i] += 1
        elif cards[i] + m > o:
            high[i] += 1
        o = _others_top(coins, ns, i)
        if coins[i] > o + mc:
            low[i] += 1
            high[i] += 1
        elif coins[i] + mc > o:
            high[i] += 1
        if (piles[i] >> SETTEBELLO) & 1:
            low[i] += 1
            high[i] += 1
        elif (in_play >> SETTEBELLO) & 1:
            high[i] += 1
        if rules & RULE_RE_BELLO:
            if (piles[i] >> KING_OF_COINS) & 1:
                low[i] += 1
                high[i] += 1
            elif (in_play >> KING_OF_COINS) & 1:
                high[i] += 1
        if rules & RULE_NAPOLA:
            low[i] += napola_points(piles[i])
            high[i] += napola_points(piles[i] | (in_play & COINS))
    if primiera:
        side_bounds_rest(F, s, in_play, piles, low, high)


cdef void side_bounds_rest(const Engine* F, const State* s, uint64_t in_play, const uint64_t* piles,
                             int* low, int* high) noexcept nogil:
    """What sides_bounds leaves out without `primiera`: the primiera and the next seat's sweep."""
    cdef const Game* g = &F.game
    cdef int ns = g.nsides, i, rules = g.rules
    cdef int plow[MAX_SEATS]
    cdef int phigh[MAX_SEATS]
    if not next_may_sweep(g, s):
        high[g.side[g.next_seat[s.to_move]]] -= 1
    for i in range(ns):
        plow[i] = primiera_total(piles[i], rules)
        phigh[i] = primiera_total(piles[i] | in_play, rules)
    for i in range(ns):
        if plow[i] >= 0 and plow[i] > _others_top(phigh, ns, i):
            low[i] += 1
            high[i] += 1
        elif phigh[i] >= 0 and phigh[i] > _others_top(plow, ns, i):
            high[i] += 1


cdef inline void _frame(const Engine* F, const State* s, const int* low, const int* high,
                        int* lo, int* hi) noexcept nogil:
    """The sides' bounds as bounds on the value of s for the seat to move, in the search's frame:
    TWO_SIDES the points still to come (scopas from here on and the piles' margin), PARANOID the
    root side's points minus the best other side's (negated for the other team)."""
    cdef int me, p, made = 0, a, b, i, top_low = -1000, top_high = -1000
    if F.mode == TWO_SIDES:
        me = F.game.side[s.to_move]
        for p in range(F.game.players):     # values are points to come: the scopas made go out
            made += s.scopas[p] if F.game.side[p] == me else -s.scopas[p]
        lo[0] = low[me] - high[1 - me] - made
        hi[0] = high[me] - low[1 - me] - made
        return
    for i in range(F.game.nsides):
        if i != F.root_side:
            if low[i] > top_low:
                top_low = low[i]
            if high[i] > top_high:
                top_high = high[i]
    a = low[F.root_side] - top_high
    b = high[F.root_side] - top_low
    if F.team[s.to_move] == 0:
        lo[0] = a
        hi[0] = b
    else:
        lo[0] = -b
        hi[0] = -a


cdef inline bint _decide(int lo, int hi, int alpha, int beta, int* value) noexcept nogil:
    if hi <= alpha:
        value[0] = hi
        return True
    if lo >= beta:
        value[0] = lo
        return True
    return False


cdef inline bint two_bounds_cut(const Engine* F, const State* s, int alpha, int beta,
                                  int* value) noexcept nogil:
    """bounds_cut for two sides, straight (the scopas made cancel out of points to come)."""
    cdef const Game* g = &F.game
    cdef int me = g.side[s.to_move], p, rules = g.rules, lo, hi, m, d, t
    cdef uint64_t mine = 0, theirs = 0, my_hands = 0, in_play
    cdef int my_seats = 0, seats = g.players
    for p in range(seats):
        if g.side[p] == me:
            mine |= s.pile[p]
            my_hands |= s.hand[p]
            my_seats += 1
        else:
            theirs |= s.pile[p]
    in_play = s.in_hands | s.table | F.stock_mask[s.deals_left]
    # scopas to come: one per play at most, the round's last and (if it cannot) the next aside
    hi = popcount(my_hands) + DEAL_CARDS * s.deals_left * my_seats
    lo = -(popcount(s.in_hands & ~my_hands) + DEAL_CARDS * s.deals_left * (seats - my_seats))
    if not (rules & RULE_LAST_SWEEP_COUNTS):
        if g.side[s.dealer] == me:
            hi -= 1
        else:
            lo += 1
    if not (s.deals_left == 0 and popcount(s.in_hands) == 1) and \
            not can_sweep(s.table, s.table_value, s.hand[s.to_move], rules):
        hi -= 1
    m = popcount(in_play)
    d = popcount(mine) - popcount(theirs)
    lo += sign(d - m)
    hi += sign(d + m)
    m = popcount(in_play & COINS)
    d = popcount(mine & COINS) - popcount(theirs & COINS)
    lo += sign(d - m)
    hi += sign(d + m)
    t = owner_sign(mine, theirs, SETTEBELLO)
    if t or not ((in_play >> SETTEBELLO) & 1):
        lo += t
        hi += t
    else:
        lo -= 1
        hi += 1
    if rules & RULE_RE_BELLO:
        t = owner_sign(mine, theirs, KING_OF_COINS)
        if t or not ((in_play >> KING_OF_COINS) & 1):
            lo += t
            hi += t
        else:
            lo -= 1
            hi += 1
    if rules & RULE_NAPOLA:
        lo += napola_points(mine) - napola_points(theirs | (in_play & COINS))
        hi += napola_points(mine | (in_play & COINS)) - napola_points(theirs)
    # the dearer parts only when they can matter: the primiera moves either bound by one, the
    # next seat's sweep one of them by one more
    if _decide(lo - 1, hi + 1, alpha, beta, value):
        return True
    if hi - 2 > alpha and lo + 2 < beta:
        return False
    lo += sign(primiera_total(mine, rules) - primiera_total(theirs | in_play, rules))
    hi += sign(primiera_total(mine | in_play, rules) - primiera_total(theirs, rules))
    if _decide(lo, hi, alpha, beta, value):
        return True
    if hi - 1 > alpha and lo + 1 < beta:
        return False
    if not next_may_sweep(g, s):
        if g.side[g.next_seat[s.to_move]] == me:
            hi -= 1
        else:
            lo += 1
    return _decide(lo, hi, alpha, beta, value)


cdef bint bounds_cut(const Engine* F, const State* s, int alpha, int beta, int* value) noexcept nogil:
    """True, with a fail-soft bound in `value`, when the bounds alone decide the node for the
    window (alpha, beta). The primiera and the next seat's sweep (the dearest parts) are looked
    at only when they can matter: left out, every side's high bound counted with the primiera's
    point and no low bound with it, and the sweep counted, the value bounds are loose by at most 3."""
    cdef uint64_t piles[MAX_SEATS]
    cdef int low[MAX_SEATS]
    cdef int high[MAX_SEATS]
    cdef int lo, hi, i
    cdef uint64_t in_play = s.in_hands | s.table | F.stock_mask[s.deals_left]
    if F.mode == TWO_SIDES:
        return two_bounds_cut(F, s, alpha, beta, value)
    if F.mode == MATCH:
        return match_bounds_cut(F, s, alpha, beta, value)
    cdef int loose[MAX_SEATS]
    side_piles(s, &F.game, piles)
    sides_bounds(F, s, in_play, piles, False, low, high)
    for i in range(F.game.nsides):
        loose[i] = high[i] + 1
    _frame(F, s, low, loose, &lo, &hi)
    if _decide(lo, hi, alpha, beta, value):
        return True
    if hi - 3 > alpha and lo + 3 < beta:
        return False
    side_bounds_rest(F, s, in_play, piles, low, high)
    _frame(F, s, low, high, &lo, &hi)
    return _decide(lo, hi, alpha, beta, value)


cdef inline int match_corner(const Engine* F, const int* low, const int* high, bint best,
                             int low_shift, int high_shift) noexcept nogil:
    """The leaf table at the corner of the sides' bounds that is worst (best: best) for the
    root side: its points low (high), every other side's high (low); each low moved by
    low_shift and each high by high_shift first."""
    cdef int points[MAX_SEATS]
    cdef int i
    for i in range(F.game.nsides):
        if (i == F.root_side) == best:
            points[i] = high[i] + high_shift
        else:
            points[i] = low[i] + low_shift
    return match_entry(F, points)


cdef inline void match_frame(const Engine* F, const State* s, int a, int b, int* lo, int* hi) noexcept nogil:
    """The root side's chance within [a, b], as bounds for the seat to move."""
    if F.team[s.to_move] == 0:
        lo[0] = a
        hi[0] = b
    else:
        lo[0] = -b
        hi[0] = -a


cdef bint match_bounds_cut(const Engine* F, const State* s, int alpha, int beta, int* value) noexcept nogil:
    """bounds_cut for MATCH: the sides' point bounds through the leaf table, sound only when
    the table is monotone (the root side's points up never lower its chance, another side's up
    never raise it): the chance then lies between the table at the worst corner of the bounds
    and at the best. Not monotone: no cut. As bounds_cut, the primiera and the next seat's sweep
    only when they can matter (the loose bounds move each side's low by at most 1 and its high
    by at most 2)."""
    cdef uint64_t piles[MAX_SEATS]
    cdef int low[MAX_SEATS]
    cdef int high[MAX_SEATS]
    cdef int lo, hi
    cdef uint64_t in_play = s.in_hands | s.table | F.stock_mask[s.deals_left]
    if not F.match_monotone:
        return False
    side_piles(s, &F.game, piles)
    sides_bounds(F, s, in_play, piles, False, low, high)
    # loose: every high with the primiera's point, no low with it, the next seat's sweep counted
    match_frame(F, s, match_corner(F, low, high, False, 0, 1), match_corner(F, low, high, True, 0, 1),
                &lo, &hi)
    if _decide(lo, hi, alpha, beta, value):
        return True
    # the tight bounds can be at most this much tighter: each low +1, each high -2 (of the loose)
    match_frame(F, s, match_corner(F, low, high, False, 1, -1), match_corner(F, low, high, True, 1, -1),
                &lo, &hi)
    if hi > alpha and lo < beta:
        return False
    side_bounds_rest(F, s, in_play, piles, low, high)
    match_frame(F, s, match_corner(F, low, high, False, 0, 0), match_corner(F, low, high, True, 0, 0),
                &lo, &hi)
    return _decide(lo, hi, alpha, beta, value)


def side_bounds(object state):
    """[(low, high), ...]: every side's final round points (scopas included) lie between them,
    whatever is played from `state` (the bounds the search cuts on; for tests)."""
    cdef State s
    cdef Game g
    cdef Engine F
    cdef int low[MAX_SEATS]
    cdef int high[MAX_SEATS]
    cdef uint64_t piles[MAX_SEATS]
    cdef int i
    load_state(state, &s, &g)
    memset(&F, 0, sizeof(Engine))
    set_game(&F, &g, PARANOID, s.to_move)
    if round_over(&s):
        side_points(&s, &g, True, low)
        return [(low[i], low[i]) for i in range(g.nsides)]
    side_piles(&s, &g, piles)
    sides_bounds(&F, &s, s.in_hands | s.table | F.stock_mask[s.deals_left], piles, True, low, high)
    return [(low[i], high[i]) for i in range(g.nsides)]


cdef int maxn_most(const Engine* F, const State* s, bint primiera) noexcept nogil:
    """Max^n: the most points still to come (from the piles and scopas from here on) the side to
    move can reach; once a move reaches it, no later move can do strictly better. Without
    `primiera` its point is counted as possible (one more at most)."""
    cdef int low[MAX_SEATS]
    cdef int high[MAX_SEATS]
    cdef uint64_t piles[MAX_SEATS]
    cdef int p, me = F.game.side[s.to_move], most
    side_piles(s, &F.game, piles)
    sides_bounds(F, s, s.in_hands | s.table | F.stock_mask[s.deals_left], piles, primiera, low, high)
    most = high[me] + (0 if primiera else 1)
    for p in range(F.game.players):
        if F.game.side[p] == me:
            most -= s.scopas[p]
    return most


cdef inline int maxn_floor(const Engine* F, const State* s) noexcept nogil:
    """At most maxn_most: the plays still to come by the side to move, less the two that may
    not sweep (its high bound holds one possible scopa for each of the others)."""
    cdef int p, me = F.game.side[s.to_move], plays = -2
    for p in range(F.game.players):
        if F.game.side[p] == me:
            plays += popcount(s.hand[p]) + DEAL_CARDS * s.deals_left
    return plays
