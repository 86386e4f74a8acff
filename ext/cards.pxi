# Cards as bits: index = suit * 10 + (rank - 1), suits d c s b; a set of cards is a uint64 mask.

from libc.stdint cimport uint64_t, int64_t, uint32_t, int32_t, uint16_t, int16_t, uint8_t, int8_t

cdef extern from *:
    int popcount "__builtin_popcountll"(unsigned long long) nogil
    int lowest_bit "__builtin_ctzll"(unsigned long long) nogil

cdef enum:
    NCARDS = 40
    SETTEBELLO = 6      # 7 of coins
    KING_OF_COINS = 9   # re bello
    DEAL_CARDS = 3        # cards a deal from the stock gives each seat

cdef uint64_t ALL_CARDS = (1ULL << 40) - 1
cdef uint64_t COINS = 0x3FF

# Capture value (1..10) of each card index.
cdef uint8_t CARD_VALUE[40]
# VALUE_CARDS[v]: the four cards of capture value v; LOW_CARDS[v]: all cards of value <= v (up to
# 15: Scopa a 15 looks for sums up to 14).
cdef uint64_t VALUE_CARDS[11]
cdef uint64_t LOW_CARDS[16]
# PRIMIERA_BEST[m]: best primiera value among the ranks in a 10-bit mask of one suit (0 if empty).
cdef uint8_t PRIMIERA_BEST[1024]
# Primiera value by rank index 0..9 (A 2 3 4 5 6 7 F C R).
cdef uint8_t PRIMIERA_VALUE[10]


cdef void _init_cards() noexcept:
    cdef int c, v, m, r, best
    cdef uint8_t prim[10]
    prim[:] = [16, 12, 13, 14, 15, 18, 21, 10, 10, 10]
    for r in range(10):
        PRIMIERA_VALUE[r] = prim[r]
    for v in range(11):
        VALUE_CARDS[v] = 0
        LOW_CARDS[v] = 0
    for c in range(NCARDS):
        v = c % 10 + 1
        CARD_VALUE[c] = v
        VALUE_CARDS[v] |= 1ULL << c
    for v in range(1, 11):
        LOW_CARDS[v] = LOW_CARDS[v - 1] | VALUE_CARDS[v]
    for v in range(11, 16):
        LOW_CARDS[v] = LOW_CARDS[10]
    for m in range(1024):
        best = 0
        for r in range(10):
            if (m >> r) & 1 and prim[r] > best:
                best = prim[r]
        PRIMIERA_BEST[m] = best

_init_cards()


cdef inline int cards_value(uint64_t cards) noexcept nogil:
    """Sum of the capture values of a set of cards (most sets are a capture: a card or two)."""
    cdef int total = 0
    while cards:
        total += CARD_VALUE[lowest_bit(cards)]
        cards &= cards - 1
    return total
