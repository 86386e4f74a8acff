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


cdef uint8_t PRIMIERA_ORDER[22]     # a suit's best primiera value (0, or 10 to 21) as 4 bits, in order
cdef enum:
    PRIMIERA_SETTLED = 15           # piles_summary: in the first suit's place, the primiera is settled


cdef void _init_primiera_order() noexcept:
    cdef int v, k = 0
    for v in range(22):
        PRIMIERA_ORDER[v] = k
        if v == 0 or v >= 10:       # the values a suit's best can take: 0 and 10 to 21
            k += 1

_init_primiera_order()


cdef inline uint64_t piles_summary(uint64_t p0, uint64_t p1, int rules, uint64_t in_play) noexcept nogil:
    """Everything about two piles that the final score can still depend on, packed in a word
    (the search's with two sides: a side's pile for each).

    Card and coin counts matter only through their difference, and a difference larger than the
    cards still in play can no longer change sign, so it is clamped. Primiera needs each side's
    best value per suit while it is open (4 bits each: its rank among the values a best can
    take), only its result once it is settled. Without napola the word fits in 48 bits
    (piles_shift reads it); napola needs the exact coin sets (which also fix the settebello, the
    re bello and the coin count)."""
    cdef uint64_t w
    cdef int suit, shift, primiera
    w = <uint64_t>(clamp(popcount(p0) - popcount(p1), popcount(in_play) + 1) + 64)       # 7 bits
    if rules & RULE_NAPOLA:
        w |= ((p0 & COINS) << 7) | ((p1 & COINS) << 17)                                  # 20 bits
        primiera = primiera_outcome(p0, p1, in_play, rules)
        if primiera != 2:
            return w | (<uint64_t>(primiera + 1) << 27) | (1ULL << 63)
        shift = 27
        for suit in range(1, 4):
            w |= <uint64_t>PRIMIERA_BEST[(p0 >> (10 * suit)) & 0x3FF] << shift
            w |= <uint64_t>PRIMIERA_BEST[(p1 >> (10 * suit)) & 0x3FF] << (shift + 5)
            shift += 10
        return w
    w |= <uint64_t>(clamp(popcount(p0 & COINS) - popcount(p1 & COINS), popcount(in_play & COINS) + 1) + 16) << 7
    w |= (((p0 >> SETTEBELLO) & 1) | (((p1 >> SETTEBELLO) & 1) << 1)) << 12
    if rules & RULE_RE_BELLO:
        w |= (((p0 >> KING_OF_COINS) & 1) | (((p1 >> KING_OF_COINS) & 1) << 1)) << 14
    primiera = primiera_outcome(p0, p1, in_play, rules)
    if primiera != 2:               # settled: its result in place of the suits' values
        return w | (<uint64_t>PRIMIERA_SETTLED << 16) | (<uint64_t>(primiera + 1) << 20)
    for suit in range(4):
        w |= <uint64_t>PRIMIERA_ORDER[PRIMIERA_BEST[(p0 >> (10 * suit)) & 0x3FF]] << (16 + 8 * suit)
        w |= <uint64_t>PRIMIERA_ORDER[PRIMIERA_BEST[(p1 >> (10 * suit)) & 0x3FF]] << (20 + 8 * suit)
    return w


cdef inline void _shift_by(int d, int* lo, int* hi) noexcept nogil:
    """A count's point is sign(difference at the end); with the difference now d more, at every
    end that sign moves by 0 to d (at most 2 either way)."""
    if d > 2:
        d = 2
    elif d < -2:
        d = -2
    if d > 0:
        hi[0] += d
    else:
        lo[0] += d


cdef void piles_shift(uint64_t now, uint64_t then, int* low, int* high) noexcept nogil:
    """What the final points of side 0 minus side 1's can differ by, for the same cards in play,
    between piles summarised `now` and piles summarised `then` (piles_summary, no napola): for
    every way the cards in play can end, (margin with the piles of `now`) - (with those of
    `then`) lies in [low, high]. So a value or bound known for `then` bounds the one for `now`
    (the game tree from the cards in play is the same; its leaves are moved by that much)."""
    cdef int lo = 0, hi = 0, d, suit, a, b, c, e
    cdef bint up = True, down = True, settled_now, settled_then
    _shift_by(<int>(now & 0x7F) - <int>(then & 0x7F), &lo, &hi)                    # carte
    _shift_by(<int>((now >> 7) & 0x1F) - <int>((then >> 7) & 0x1F), &lo, &hi)      # denari
    # settebello and re bello: already in a pile in both (or in play in both), exact
    d = (<int>((now >> 12) & 1) - <int>((now >> 13) & 1) + <int>((now >> 14) & 1) - <int>((now >> 15) & 1)
         - <int>((then >> 12) & 1) + <int>((then >> 13) & 1) - <int>((then >> 14) & 1) + <int>((then >> 15) & 1))
    lo += d
    hi += d
    settled_now = ((now >> 16) & 15) == PRIMIERA_SETTLED
    settled_then = ((then >> 16) & 15) == PRIMIERA_SETTLED
    if settled_now or settled_then:
        # a settled result is exact; an open one is anything from -1 to 1
        a = <int>((now >> 20) & 3) - 1 if settled_now else -1
        b = <int>((now >> 20) & 3) - 1 if settled_now else 1
        c = <int>((then >> 20) & 3) - 1 if settled_then else -1
        e = <int>((then >> 20) & 3) - 1 if settled_then else 1
        lo += a - e
        hi += b - c
    else:
        # each side's total only grows with its bests: if side 0's are all as high and side 1's
        # all as low, side 0 does at least as well at every end, and so on
        for suit in range(8):
            d = <int>((now >> (16 + 4 * suit)) & 15) - <int>((then >> (16 + 4 * suit)) & 15)
            if suit & 1:
                d = -d                  # side 1's best
            if d < 0:
                up = False
            elif d > 0:
                down = False
        if not down:
            hi += 2
        if not up:
            lo -= 2
    low[0] = lo
    high[0] = hi
