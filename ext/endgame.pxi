# The round's last three plays, the stock empty. Two fifths of a whole round's nodes are here, so
# they are scored in tight loops: no table, no trace, and the last card without generating its
# moves.
# The same moves are visited in the same order, and the same values returned, as the general
# search would (the traced search takes that path, and its node count must match).

cdef inline bint can_capture(int card, uint64_t table, int rules) noexcept nogil:
    """Does playing `card` on `table` take anything (a single match, a sum, or the ace's sweep)?"""
    cdef int v = CARD_VALUE[card], b
    cdef uint32_t sums = 1                   # bit t: some set of the smaller cards adds up to t
    cdef uint64_t smaller
    if not table:
        return False
    if table & VALUE_CARDS[v]:
        return True
    if v == 1:
        return (rules & RULE_ASSO_PIGLIA_TUTTO) != 0
    smaller = table & LOW_CARDS[v - 1]
    while smaller:
        b = lowest_bit(smaller)
        smaller &= smaller - 1
        sums |= sums << CARD_VALUE[b]
    return (sums >> v) & 1


cdef inline int last_card_value(const Game* g, const State* s) noexcept nogil:
    """The best margin for the side to move playing the round's last card (the pile margin after
    it; the last play never scores a scopa). Whatever it captures, the leftovers then go to it
    too, so every capture ends the same: the table and the card join its pile. No moves needed."""
    cdef State child = s[0]
    cdef int card
    if not s.hand[s.to_move]:            # only in states no valid position reaches
        return pile_margin(s, g.rules)
    card = lowest_bit(s.hand[s.to_move])
    apply_move(&child, g, make_move(card, s.table if can_capture(card, s.table, g.rules) else 0))
    return -pile_margin(&child, g.rules)


cdef int last_play(Search* S, const State* s, int ply) noexcept nogil:
    """The round's last card as a node: its children are ends of the round, scored directly."""
    cdef uint64_t* moves = S.move_stack + ply * MAX_MOVES
    cdef int n, best = last_card_value(&S.game, s)
    if S.trace == NULL:
        return best
    n = generate_moves(s, S.game.rules, moves)     # the trace reports the moves
    trace_event(S.trace, EVENT_LEAF, ply, best, best, 0, 0, 0)
    return node_exit(S, ply, best, n, n)


cdef int last_two_plays(Search* S, const State* s, int alpha, int beta, int ply) noexcept nogil:
    """Fail-soft value of the round's last two cards, one in each hand (the untraced path).
    Each reply is a node, as in the general search."""
    cdef State child
    cdef uint64_t* moves = S.move_stack + ply * MAX_MOVES
    cdef int n = generate_moves(s, S.game.rules, moves), i, r, v, best = -VALUE_INF
    if n == 0:                          # only in states no valid position reaches
        return pile_margin(s, S.game.rules)
    order_moves(s, moves, n, 0)
    for i in range(n):
        S.nodes += 1
        if S.nodes >= S.next_check:
            check_limits(S)
        if S.stop:
            return 0
        child = s[0]
        r = apply_move(&child, &S.game, moves[i])
        v = r - last_card_value(&S.game, &child)
        if v > best:
            best = v
            if best >= beta:
                break
    return best


cdef int last_three_plays(Search* S, const State* s, int alpha, int beta, int ply) noexcept nogil:
    """Fail-soft value of the round's last three cards, two in the hand of the side to move (the
    untraced path): each move's reply is a node, counted and checked as alphabeta would."""
    cdef State child
    cdef uint64_t* moves = S.move_stack + ply * MAX_MOVES
    cdef int n = generate_moves(s, S.game.rules, moves), i, r, v, a = alpha, best = -VALUE_INF
    if n == 0:                          # only in states no valid position reaches
        return pile_margin(s, S.game.rules)
    order_moves(s, moves, n, 0)
    for i in range(n):
        child = s[0]
        r = apply_move(&child, &S.game, moves[i])
        S.nodes += 1
        if S.nodes >= S.next_check:
            check_limits(S)
        if S.stop:
            return 0
        v = r - last_two_plays(S, &child, r - beta, r - a, ply + 1)
        if S.stop:
            return 0
        if v > best:
            best = v
            if v > a:
                a = v
                if a >= beta:
                    break
    return best
