# Family move generation: the standard rule (single match first, else a sum of two or more; the
# same subset enumeration as the two-player kernel) and Scopa a 15 (any set of one or more table
# cards adding up to 15 - v, no priority of singles). Order (canonical, family_legal_moves):
# cards by index; for each card singles by index, then sums as _sum_captures finds them, then the
# lay-down when it is legal.

cdef int f_generate_moves(const FState* s, int rules, uint64_t* out) noexcept nogil:
    """Write the legal moves of the seat to move to out (room for FMAX_MOVES); return the count."""
    cdef int n = 0, start, card, v, b, need
    cdef uint64_t singles, hand = s.hand[s.to_move] & ALL_CARDS, table = s.table & ALL_CARDS
    cdef bint fifteen = (rules & RULE_FIFTEEN) != 0
    while hand:
        card = lowest_bit(hand)
        hand &= hand - 1
        v = CARD_VALUE[card]
        need = 15 - v if fifteen else v
        if need > s.table_value:                  # the whole table adds up to less: nothing to take
            out[n] = make_move(card, 0)
            n += 1
            continue
        if (not fifteen and v == 1 and (rules & RULE_ASSO_PIGLIA_TUTTO) and table
                and not (table & VALUE_CARDS[1])):
            out[n] = make_move(card, table)       # the ace takes the whole table
            n += 1
            if rules & RULE_OPTIONAL_CAPTURE:
                out[n] = make_move(card, 0)
                n += 1
            continue
        start = n
        singles = table & VALUE_CARDS[need] if need <= 10 else 0
        while singles:
            b = lowest_bit(singles)
            singles &= singles - 1
            out[n] = make_move(card, 1ULL << b)
            n += 1
        if fifteen or n == start:                 # standard: sums only without a single match
            n = _sum_captures(table, need, 0, card, out, n)
            if n > start and (rules & RULE_FEWEST_CARDS):
                n = _keep_fewest(out, start, n)
        if n == start or (rules & RULE_OPTIONAL_CAPTURE):
            out[n] = make_move(card, 0)            # nothing to take (or taking is optional): laid down
            n += 1
    return n
