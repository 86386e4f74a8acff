# Making a move: captures, scopas (not on the very last play), dealing from the stock and the
# end of the round (leftovers to the last capturer).

cdef uint64_t Z_HAND[2][40]
cdef uint64_t Z_TABLE[40]


cdef uint64_t hand_key(int player, uint64_t cards) noexcept nogil:
    cdef uint64_t key = 0
    cdef int b
    while cards:
        b = lowest_bit(cards)
        cards &= cards - 1
        key ^= Z_HAND[player][b]
    return key


cdef inline bint round_over(const State* s) noexcept nogil:
    return s.hand[0] == 0 and s.hand[1] == 0 and s.deals_left == 0


cdef int apply_move(State* s, const Game* g, uint64_t move) noexcept nogil:
    """Play `move` (assumed legal) for the side to move; return 1 if it scores a scopa, else 0."""
    cdef int p = s.to_move, card = move_card(move), b, k, scopa = 0
    cdef uint64_t bit = 1ULL << card, capture = move_capture(move), rest
    cdef bint ace_sweep
    s.hand[p] &= ~bit
    s.zkey ^= Z_HAND[p][card]
    if capture:
        ace_sweep = ((g.rules & RULE_ASSO_PIGLIA_TUTTO) and CARD_VALUE[card] == 1
                     and not (s.table & VALUE_CARDS[1]))
        s.table &= ~capture
        s.pile[p] |= capture | bit
        s.last_capturer = p
        rest = capture
        while rest:
            b = lowest_bit(rest)
            rest &= rest - 1
            s.zkey ^= Z_TABLE[b]
            s.table_value -= CARD_VALUE[b]
        if s.table == 0 and not round_over(s) and (not ace_sweep or (g.rules & RULE_ACE_SWEEP_IS_SCOPA)):
            scopa = 1
            s.scopas[p] += 1
    else:
        s.table |= bit
        s.zkey ^= Z_TABLE[card]
        s.table_value += CARD_VALUE[card]
    s.to_move = 1 - p
    if s.hand[0] == 0 and s.hand[1] == 0:
        if s.deals_left > 0:
            k = s.deals_left - 1
            s.hand[1 - s.dealer] = g.deal[k][0]
            s.hand[s.dealer] = g.deal[k][1]
            s.deals_left = k
            s.to_move = 1 - s.dealer
            s.zkey ^= hand_key(1 - s.dealer, g.deal[k][0]) ^ hand_key(s.dealer, g.deal[k][1])
        elif s.last_capturer >= 0:
            s.pile[s.last_capturer] |= s.table
            s.table = 0
            s.table_value = 0
    return scopa
