# Legal move generation. A move is packed in a uint64: bits 0-39 the captured table cards,
# bits 40-45 the played card. A lay-down captures nothing.

cdef enum:
    # Worst case for one node: three kings in hand against a table holding every card below 10
    # gives 3 x 1,698 sum captures (counted exhaustively); round up.
    MAX_MOVES = 5120

cdef inline uint64_t make_move(int card, uint64_t capture) noexcept nogil:
    return (<uint64_t>card << 40) | capture

cdef inline int move_card(uint64_t move) noexcept nogil:
    return <int>(move >> 40) & 63

cdef inline uint64_t move_capture(uint64_t move) noexcept nogil:
    return move & ALL_CARDS


cdef int _sum_captures(uint64_t candidates, int remaining, uint64_t chosen, int card,
                       uint64_t* out, int n) noexcept nogil:
    # Every set of two or more candidates adding up to `remaining` more than `chosen`; candidates
    # are taken in index order so each set is found once.
    cdef int b, w
    candidates &= LOW_CARDS[remaining]
    while candidates:
        b = lowest_bit(candidates)
        candidates &= candidates - 1
        w = CARD_VALUE[b]
        if w == remaining:
            if chosen:
                out[n] = make_move(card, chosen | (1ULL << b))
                n += 1
        else:
            n = _sum_captures(candidates, remaining - w, chosen | (1ULL << b), card, out, n)
    return n


cdef int _keep_fewest(uint64_t* out, int start, int n) noexcept nogil:
    # fewest_cards variant: keep only the sum captures with the fewest cards.
    cdef int i, k = start, fewest = 64
    for i in range(start, n):
        if popcount(move_capture(out[i])) < fewest:
            fewest = popcount(move_capture(out[i]))
    for i in range(start, n):
        if popcount(move_capture(out[i])) == fewest:
            out[k] = out[i]
            k += 1
    return k


cdef int generate_moves(const State* s, int rules, uint64_t* out) noexcept nogil:
    """Write the legal moves of the side to move to out (room for MAX_MOVES); return the count."""
    cdef int n = 0, start, card, v, b
    cdef uint64_t singles, hand = s.hand[s.to_move] & ALL_CARDS, table = s.table & ALL_CARDS
    while hand:
        card = lowest_bit(hand)
        hand &= hand - 1
        v = CARD_VALUE[card]
        if v > s.table_value:                     # the whole table adds up to less: nothing to take
            out[n] = make_move(card, 0)
            n += 1
            continue
        if v == 1 and (rules & RULE_ASSO_PIGLIA_TUTTO) and table and not (table & VALUE_CARDS[1]):
            out[n] = make_move(card, table)       # the ace takes the whole table
            n += 1
            continue
        singles = table & VALUE_CARDS[v]
        if singles:                               # single match first: exactly one of them
            while singles:
                b = lowest_bit(singles)
                singles &= singles - 1
                out[n] = make_move(card, 1ULL << b)
                n += 1
            continue
        start = n
        n = _sum_captures(table, v, 0, card, out, n)
        if n > start and (rules & RULE_FEWEST_CARDS):
            n = _keep_fewest(out, start, n)
        if n == start:
            out[n] = make_move(card, 0)            # nothing to take: the card is laid down
            n += 1
    return n
