# Making a move: captures into the seat's own pile, scopas (not on the round's very last play
# unless last_sweep_counts), dealing the next deal to every seat when all hands are empty (the
# leader, dealer + 1, then plays first), leftovers to the last capturing seat.


cdef uint64_t hand_key(int seat, uint64_t cards) noexcept nogil:
    cdef uint64_t key = 0
    cdef int b
    while cards:
        b = lowest_bit(cards)
        cards &= cards - 1
        key ^= Z_HAND[seat][b]
    return key


cdef uint64_t cards_key(const State* s, int players) noexcept nogil:
    """The Zobrist key of hands and table from scratch (apply_move keeps it up to date)."""
    cdef uint64_t key = 0, t = s.table
    cdef int p, b
    for p in range(players):
        key ^= hand_key(p, s.hand[p])
    while t:
        b = lowest_bit(t)
        t &= t - 1
        key ^= Z_TABLE[b]
    return key


cdef inline bint round_over(const State* s) noexcept nogil:
    return s.in_hands == 0 and s.deals_left == 0


cdef int apply_move(State* s, const Game* g, uint64_t move) noexcept nogil:
    """Play `move` (assumed legal) for the seat to move; return 1 if it scores a scopa, else 0."""
    cdef int p = s.to_move, card = move_card(move), b, k, q, scopa = 0
    cdef uint64_t bit = 1ULL << card, capture = move_capture(move), rest
    cdef bint ace_sweep
    s.hand[p] &= ~bit
    s.in_hands &= ~bit
    s.zkey ^= Z_HAND[p][card]
    if capture:
        ace_sweep = ((g.rules & RULE_ASSO_PIGLIA_TUTTO) and not (g.rules & RULE_FIFTEEN)
                     and CARD_VALUE[card] == 1 and not (s.table & VALUE_CARDS[1]))
        s.table &= ~capture
        s.pile[p] |= capture | bit
        s.last_capturer = p
        rest = capture
        while rest:
            b = lowest_bit(rest)
            rest &= rest - 1
            s.zkey ^= Z_TABLE[b]
            s.table_value -= CARD_VALUE[b]
        if (s.table == 0 and (not round_over(s) or (g.rules & RULE_LAST_SWEEP_COUNTS))
                and (not ace_sweep or (g.rules & RULE_ACE_SWEEP_IS_SCOPA))):
            scopa = 1
            s.scopas[p] += 1
    else:
        s.table |= bit
        s.zkey ^= Z_TABLE[card]
        s.table_value += CARD_VALUE[card]
    s.to_move = g.next_seat[p]
    if s.in_hands == 0:
        if s.deals_left > 0:
            k = s.deals_left - 1
            for q in range(g.players):
                s.hand[q] = g.deal[k][q]
            s.in_hands = g.deal_cards[k]
            s.zkey ^= g.deal_key[k]
            s.deals_left = k
            s.to_move = g.next_seat[s.dealer]
        elif s.last_capturer >= 0:
            s.pile[s.last_capturer] |= s.table
            s.table = 0
            s.table_value = 0
    return scopa
