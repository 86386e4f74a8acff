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


cdef inline int winner(int a, int b) noexcept nogil:
    """0 if a is strictly larger, 1 if b is, -1 on a tie."""
    return 0 if a > b else (1 if b > a else -1)


ctypedef struct ScoreDetail:
    int cards[2]
    int coins[2]
    int primiera[2]     # -1: disqualified (a missing suit)
    int napola[2]
    int carte_winner, denari_winner, settebello_owner, primiera_winner, re_bello_owner
    int points[2]       # without scopas


cdef inline void _award(ScoreDetail* d, int player) noexcept nogil:
    if player >= 0:
        d.points[player] += 1


cdef void score_piles(uint64_t pile0, uint64_t pile1, int rules, ScoreDetail* d) noexcept nogil:
    cdef uint64_t pile[2]
    cdef int p
    pile[0] = pile0 & ALL_CARDS
    pile[1] = pile1 & ALL_CARDS
    for p in range(2):
        d.cards[p] = popcount(pile[p])
        d.coins[p] = popcount(pile[p] & COINS)
        d.primiera[p] = primiera_total(pile[p], rules)
        d.napola[p] = napola_points(pile[p]) if rules & RULE_NAPOLA else 0
        d.points[p] = d.napola[p]
    d.carte_winner = winner(d.cards[0], d.cards[1])
    d.denari_winner = winner(d.coins[0], d.coins[1])
    d.primiera_winner = winner(d.primiera[0], d.primiera[1])   # -1 never beats a real total
    d.settebello_owner = 0 if (pile[0] >> SETTEBELLO) & 1 else (1 if (pile[1] >> SETTEBELLO) & 1 else -1)
    d.re_bello_owner = -1
    if rules & RULE_RE_BELLO:
        d.re_bello_owner = 0 if (pile[0] >> KING_OF_COINS) & 1 else (1 if (pile[1] >> KING_OF_COINS) & 1 else -1)
    _award(d, d.carte_winner)
    _award(d, d.denari_winner)
    _award(d, d.primiera_winner)
    _award(d, d.settebello_owner)
    _award(d, d.re_bello_owner)


cdef inline int owner_sign(uint64_t mine, uint64_t theirs, int card) noexcept nogil:
    return <int>((mine >> card) & 1) - <int>((theirs >> card) & 1)


cdef inline int points_difference(uint64_t mine, uint64_t theirs, int rules) noexcept nogil:
    """The piles' round points of `mine` minus those of `theirs` (scopas not included): the
    search's leaf evaluation, the same scoring as score_piles without the breakdown."""
    cdef int d = sign(popcount(mine) - popcount(theirs))
    d += sign(popcount(mine & COINS) - popcount(theirs & COINS))
    d += owner_sign(mine, theirs, SETTEBELLO)
    d += sign(primiera_total(mine, rules) - primiera_total(theirs, rules))   # -1: never wins
    if rules & RULE_RE_BELLO:
        d += owner_sign(mine, theirs, KING_OF_COINS)
    if rules & RULE_NAPOLA:
        d += napola_points(mine) - napola_points(theirs)
    return d


cdef inline int pile_margin(const State* s, int rules) noexcept nogil:
    """Points from the piles for the side to move minus the opponent's (scopas not included)."""
    return points_difference(s.pile[s.to_move], s.pile[1 - s.to_move], rules)
