# End-of-round scoring: carte, denari, settebello, primiera and the variant points.
# Scopas are counted apart (they are made during play, not read off the piles).

cdef int primiera_total(uint64_t pile, int rules) noexcept nogil:
    """Sum of the best primiera value of each suit; -1 if a suit is missing and that disqualifies."""
    cdef int suit, best, total = 0
    for suit in range(4):
        best = PRIMIERA_BEST[(pile >> (10 * suit)) & 0x3FF]
        if best == 0 and not (rules & RULE_PRIMIERA_ZERO):
            return -1
        total += best
    return total


cdef int napola_points(uint64_t pile) noexcept nogil:
    """A, 2 and 3 of coins score 3, plus one per further coin in unbroken sequence."""
    cdef uint64_t coins = pile & COINS
    if (coins & 7) != 7:
        return 0
    return lowest_bit(~coins)        # length of the run of coins from the ace (at most 10)


cdef inline int sign(int x) noexcept nogil:
    return (x > 0) - (x < 0)


cdef inline int owner_sign(uint64_t mine, uint64_t theirs, int card) noexcept nogil:
    return <int>((mine >> card) & 1) - <int>((theirs >> card) & 1)


cdef inline int points_difference(uint64_t mine, uint64_t theirs, int rules) noexcept nogil:
    """The piles' round points of `mine` minus those of `theirs` (scopas not included): two
    sides' leaf value, the same scoring as score_sides below without the breakdown."""
    cdef int d = sign(popcount(mine) - popcount(theirs))
    d += sign(popcount(mine & COINS) - popcount(theirs & COINS))
    d += owner_sign(mine, theirs, SETTEBELLO)
    d += sign(primiera_total(mine, rules) - primiera_total(theirs, rules))   # -1: never wins
    if rules & RULE_RE_BELLO:
        d += owner_sign(mine, theirs, KING_OF_COINS)
    if rules & RULE_NAPOLA:
        d += napola_points(mine) - napola_points(theirs)
    return d


# Per side: a side's pile is the union of its seats' piles. Each category goes to the side with
# strictly the most (a shared top: nobody); settebello and re bello to the side holding the
# card; primiera per side (-1, a missing suit, never wins unless "zero"); napola per side. With
# two sides its points are those of points_difference.

ctypedef struct Score:
    int cards[MAX_SEATS]
    int coins[MAX_SEATS]
    int primiera[MAX_SEATS]     # -1: disqualified
    int napola[MAX_SEATS]
    int points[MAX_SEATS]       # from the piles (scopas not included)
    int carte, denari, settebello, primiera_winner, re_bello


cdef inline int strict_top(const int* x, int n) noexcept nogil:
    """The index holding strictly the largest value (>= 0), -1 when the top is shared or negative."""
    cdef int i, top = 0
    cdef bint shared = False
    for i in range(1, n):
        if x[i] > x[top]:
            top = i
            shared = False
        elif x[i] == x[top]:
            shared = True
    return -1 if shared or x[top] < 0 else top


cdef inline int holder(const uint64_t* piles, int n, int card) noexcept nogil:
    cdef int i
    for i in range(n):
        if (piles[i] >> card) & 1:
            return i
    return -1


cdef inline void side_piles(const State* s, const Game* g, uint64_t* out) noexcept nogil:
    cdef int p
    for p in range(g.nsides):
        out[p] = 0
    for p in range(g.players):
        out[g.side[p]] |= s.pile[p]


cdef void score_sides(const uint64_t* piles, int n, int rules, Score* d) noexcept nogil:
    cdef int i
    for i in range(n):
        d.cards[i] = popcount(piles[i])
        d.coins[i] = popcount(piles[i] & COINS)
        d.primiera[i] = primiera_total(piles[i], rules)
        d.napola[i] = napola_points(piles[i]) if rules & RULE_NAPOLA else 0
        d.points[i] = d.napola[i]
    d.carte = strict_top(d.cards, n)
    d.denari = strict_top(d.coins, n)
    d.primiera_winner = strict_top(d.primiera, n)
    d.settebello = holder(piles, n, SETTEBELLO)
    d.re_bello = holder(piles, n, KING_OF_COINS) if rules & RULE_RE_BELLO else -1
    if d.carte >= 0:
        d.points[d.carte] += 1
    if d.denari >= 0:
        d.points[d.denari] += 1
    if d.primiera_winner >= 0:
        d.points[d.primiera_winner] += 1
    if d.settebello >= 0:
        d.points[d.settebello] += 1
    if d.re_bello >= 0:
        d.points[d.re_bello] += 1


cdef inline void side_points(const State* s, const Game* g, bint with_scopas, int* out) noexcept nogil:
    """Every side's round points from the piles as they stand (and its scopas, if asked)."""
    cdef uint64_t piles[MAX_SEATS]
    cdef Score d
    cdef int i
    side_piles(s, g, piles)
    score_sides(piles, g.nsides, g.rules, &d)
    for i in range(g.nsides):
        out[i] = d.points[i]
    if with_scopas:
        for i in range(g.players):
            out[g.side[i]] += s.scopas[i]
