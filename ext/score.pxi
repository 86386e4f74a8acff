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
    """The piles' round points of `mine` minus those of `theirs` (scopas not included): the
    search's leaf evaluation, the same scoring as score.pxi's f_score without the breakdown."""
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
