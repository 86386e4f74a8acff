# The round's last two plays, one card in each hand and the stock empty. A third of the search's
# nodes are here, so they are scored in tight loops: no table and no recursion. The same moves
# are visited in the same order, and the same values returned, as the general search would
# (the traced search takes that path, and its node count must match).

cdef inline int last_card_value(const Game* g, const State* s, const uint64_t* moves, int n) noexcept nogil:
    """The best margin for the side to move playing the round's last card with one of its `n`
    moves (the pile margin after it; the last play never scores a scopa)."""
    cdef State child
    cdef int i, v, best = -VALUE_INF
    for i in range(n):
        child = s[0]
        v = apply_move(&child, g, moves[i]) - pile_margin(&child, g.rules)
        if v > best:
            best = v
    return best


cdef int last_play(Search* S, const State* s, int ply) noexcept nogil:
    """The round's last card as a node: its children are ends of the round, scored directly."""
    cdef uint64_t* moves = S.move_stack + ply * MAX_MOVES
    cdef int n = generate_moves(s, S.game.rules, moves)
    cdef int best = last_card_value(&S.game, s, moves, n)
    if S.trace != NULL:
        trace_event(S.trace, EVENT_LEAF, ply, best, best, 0, 0, 0)
    return node_exit(S, ply, best, n, n)


cdef int last_two_plays(Search* S, const State* s, int alpha, int beta, int ply) noexcept nogil:
    """Fail-soft value of the round's last two cards, one in each hand (the untraced path).
    Each reply is a node, as in the general search."""
    cdef State child
    cdef uint64_t* moves = S.move_stack + ply * MAX_MOVES
    cdef uint64_t* replies = moves + MAX_MOVES
    cdef int n = generate_moves(s, S.game.rules, moves), i, r, v, best = -VALUE_INF
    order_moves(s, moves, n, 0)
    for i in range(n):
        S.nodes += 1
        if S.nodes >= S.next_check:
            check_limits(S)
        if S.stop:
            return 0
        child = s[0]
        r = apply_move(&child, &S.game, moves[i])
        v = r - last_card_value(&S.game, &child, replies, generate_moves(&child, S.game.rules, replies))
        if v > best:
            best = v
            if best >= beta:
                break
    return best
