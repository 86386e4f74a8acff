# Position keys for the transposition table. Card locations (hands by seat, table, stock slots)
# use Zobrist keys updated incrementally by apply_move; the capture piles enter only through a
# packed summary of what can still decide the score, so piles that score alike share entries.

cdef inline uint64_t mix64(uint64_t x) noexcept nogil:
    # splitmix64 finaliser: a cheap, well-spread hash of one word
    x ^= x >> 30
    x *= 0xBF58476D1CE4E5B9ULL
    x ^= x >> 27
    x *= 0x94D049BB133111EBULL
    x ^= x >> 31
    return x


cdef uint64_t Z_HAND[MAX_SEATS][40]
cdef uint64_t Z_TABLE[40]
cdef uint64_t Z_SEAT[MAX_SEATS]
cdef uint64_t Z_DEALER[MAX_SEATS]
cdef uint64_t Z_LAST[MAX_SEATS + 1]
cdef uint64_t Z_STOCK[MAX_DEALS][MAX_SEATS][40]


cdef void _init_zobrist() noexcept:
    cdef uint64_t seed = 0xFA3117FA3117FA31ULL
    cdef int i, j, c
    for i in range(MAX_SEATS):
        for c in range(40):
            seed += 0x9E3779B97F4A7C15ULL
            Z_HAND[i][c] = mix64(seed)
            for j in range(MAX_DEALS):
                seed += 0x9E3779B97F4A7C15ULL
                Z_STOCK[j][i][c] = mix64(seed)
        seed += 0x9E3779B97F4A7C15ULL
        Z_SEAT[i] = mix64(seed)
        seed += 0x9E3779B97F4A7C15ULL
        Z_DEALER[i] = mix64(seed)
    for i in range(MAX_SEATS + 1):
        seed += 0x9E3779B97F4A7C15ULL
        Z_LAST[i] = mix64(seed)
    for c in range(40):
        Z_TABLE[c] = mix64(0x5C0BA5C0BA5C0BA5ULL + (15 * c + 3) * 0x9E3779B97F4A7C15ULL)

_init_zobrist()


cdef inline int clamp(int x, int limit) noexcept nogil:
    return limit if x > limit else (-limit if x < -limit else x)


cdef int primiera_outcome(uint64_t p0, uint64_t p1, uint64_t in_play, int rules) noexcept nogil:
    """1 or -1 when the primiera is already won by player 0 or 1 whatever the cards in play do,
    0 when it is already tied, 2 while it is open. A side's total can only grow as it captures,
    from its pile's total now up to that of its pile with every card in play."""
    cdef int low0 = primiera_total(p0, rules), low1 = primiera_total(p1, rules)
    cdef int high0 = primiera_total(p0 | in_play, rules), high1 = primiera_total(p1 | in_play, rules)
    if low0 > high1:
        return 1
    if low1 > high0:
        return -1
    if low0 == high0 and low1 == high1:
        return 0                    # both totals final and equal (the cases above excluded)
    return 2


cdef inline uint64_t piles_summary(uint64_t p0, uint64_t p1, int rules, uint64_t in_play) noexcept nogil:
    """Everything about two piles that the final score can still depend on, packed in a word
    (the search's with two sides: a side's pile for each).

    Card and coin counts matter only through their difference, and a difference larger than the
    cards still in play can no longer change sign, so it is clamped. Primiera needs each side's
    best value per suit while it is open, only its result once it is settled. Napola needs the
    exact coin sets (which also fix the settebello, the re bello and the coin count)."""
    cdef uint64_t w
    cdef int suit, shift, first_suit = 0, primiera
    w = <uint64_t>(clamp(popcount(p0) - popcount(p1), popcount(in_play) + 1) + 64)       # 7 bits
    if rules & RULE_NAPOLA:
        w |= ((p0 & COINS) << 7) | ((p1 & COINS) << 17)                                  # 20 bits
        first_suit = 1
        shift = 27
    else:
        w |= <uint64_t>(clamp(popcount(p0 & COINS) - popcount(p1 & COINS), popcount(in_play & COINS) + 1) + 16) << 7
        w |= (((p0 >> SETTEBELLO) & 1) | (((p1 >> SETTEBELLO) & 1) << 1)) << 12
        if rules & RULE_RE_BELLO:
            w |= (((p0 >> KING_OF_COINS) & 1) | (((p1 >> KING_OF_COINS) & 1) << 1)) << 14
        shift = 16
    primiera = primiera_outcome(p0, p1, in_play, rules)
    if primiera != 2:               # settled: its result (2 bits) in place of the suits' values
        return w | (<uint64_t>(primiera + 1) << shift) | (1ULL << 63)
    # five bits per primiera value (at most 21), both players, from the next free bit
    for suit in range(first_suit, 4):
        w |= <uint64_t>PRIMIERA_BEST[(p0 >> (10 * suit)) & 0x3FF] << shift
        w |= <uint64_t>PRIMIERA_BEST[(p1 >> (10 * suit)) & 0x3FF] << (shift + 5)
        shift += 10
    return w
