# Legal move generation for every game. A move is packed in a uint64: bits 0-39 the captured
# table cards, bits 40-45 the played card; a lay-down captures nothing. The standard rule: a
# single match first, else a sum of two or more cards; Scopa a 15: any set of one or more table
# cards adding up to 15 - v, no priority of singles. The order (canonical, legal_moves): cards by
# index; for each card the singles by index, then the sums as _sum_captures finds them, then the
# lay-down when it is legal.

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


cdef inline int card_moves(const State* s, int rules, int card, uint64_t* out, int n) noexcept nogil:
    """Append the legal plays of `card` (in the mover's hand) to out[n:]; return the new count."""
    cdef int start, v = CARD_VALUE[card], need, b
    cdef uint64_t singles, table = s.table & ALL_CARDS
    cdef bint fifteen = (rules & RULE_FIFTEEN) != 0
    need = 15 - v if fifteen else v
    if need > s.table_value:                  # the whole table adds up to less: nothing to take
        out[n] = make_move(card, 0)
        return n + 1
    if (not fifteen and v == 1 and (rules & RULE_ASSO_PIGLIA_TUTTO) and table
            and not (table & VALUE_CARDS[1])):
        out[n] = make_move(card, table)       # the ace takes the whole table
        n += 1
        if rules & RULE_OPTIONAL_CAPTURE:
            out[n] = make_move(card, 0)
            n += 1
        return n
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


cdef int generate_moves(const State* s, int rules, uint64_t* out) noexcept nogil:
    """Write the legal moves of the seat to move to out (room for MAX_MOVES); return the count."""
    cdef int n = 0
    cdef uint64_t hand = s.hand[s.to_move] & ALL_CARDS
    while hand:
        n = card_moves(s, rules, lowest_bit(hand), out, n)
        hand &= hand - 1
    return n


cdef bint is_legal(const State* s, int rules, uint64_t move, uint64_t* room) noexcept nogil:
    """Is `move` (a table entry's: possibly another position's) legal for the seat to move?
    `room`: scratch for the card's plays (MAX_MOVES)."""
    cdef int card = move_card(move), n, i
    if card >= NCARDS or not (s.hand[s.to_move] >> card) & 1 or (move_capture(move) & ~s.table):
        return False
    n = card_moves(s, rules, card, room, 0)
    for i in range(n):
        if room[i] == move:
            return True
    return False


cdef inline bint can_capture(int card, uint64_t table, int rules) noexcept nogil:
    """Does playing `card` on `table` take anything: a single match, a sum, the ace's sweep, or
    in Scopa a 15 a set adding up to 15 - v?"""
    cdef int v = CARD_VALUE[card], need, b
    cdef uint32_t sums = 1                   # bit t: some set of the cards looked at adds up to t
    cdef uint64_t low
    if not table:
        return False
    if rules & RULE_FIFTEEN:
        need = 15 - v
        low = table & LOW_CARDS[need]
    else:
        if table & VALUE_CARDS[v]:
            return True
        if v == 1:
            return (rules & RULE_ASSO_PIGLIA_TUTTO) != 0
        need = v
        low = table & LOW_CARDS[v - 1]
    while low:
        b = lowest_bit(low)
        low &= low - 1
        sums |= sums << CARD_VALUE[b]
    return (sums >> need) & 1
