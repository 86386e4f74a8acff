# The round's last round of plays, for every game: the stock empty and no hand holding two cards,
# so every seat plays its one card in turn and the only choices left are what a card takes
# (several single matches, several sums, an optional capture). Two fifths of a round's nodes are
# here; they are solved by a tight walk along the forced plays, branching (fail-soft alpha-beta,
# max^n) only where a card has more than one legal play: no table, bounds, ordering, equivalence,
# limits or trace inside (the whole last round is one node of the search, a leaf of its trace).
# The moves, their order and the ends are those of the general search, so the values are equal.


cdef inline bint in_last_round(const Engine* F, const State* s) noexcept nogil:
    """Every seat holds at most one card and the stock is empty (valid positions: hands differ
    by at most one card, so no more cards in hands than seats says it)."""
    return (s.deals_left == 0 and popcount(s.in_hands) <= F.game.players and F.use_last_round
            and not F.horizon_left)


cdef inline bint before_last_round(const Engine* F, const State* s, int cards) noexcept nogil:
    """The round's last seat to play its second-last card: its children are walks, together
    cheaper than trying the bounds first (measured: 2-5% less CPU time)."""
    return s.deals_left == 0 and cards == F.game.players + 1 and F.use_last_round


cdef inline int last_round_moves(const Engine* F, const State* s, int card, uint64_t* out) noexcept nogil:
    """The legal plays of `card`, the mover's only card (the common cases without generating)."""
    cdef int rules = F.game.rules, v = CARD_VALUE[card]
    cdef uint64_t singles
    if not (rules & (RULE_FIFTEEN | RULE_OPTIONAL_CAPTURE | RULE_ASSO_PIGLIA_TUTTO)):
        if v > s.table_value:
            out[0] = make_move(card, 0)
            return 1
        singles = s.table & VALUE_CARDS[v]
        if singles and not (singles & (singles - 1)):
            out[0] = make_move(card, singles)
            return 1
    return generate_moves(s, rules, out)


cdef int last_round(Engine* F, const State* s, int alpha, int beta, int ply) noexcept nogil:
    """Fail-soft value of s for the seat to move (TWO_SIDES, PARANOID) in the last round. Along a
    forced line the value of s is off + sgn * (the value of the current position)."""
    cdef State cur = s[0], child
    cdef uint64_t* moves = F.moves + ply * MAX_MOVES
    cdef int off = 0, sgn = 1, n, i, r, v, a, b, best, card
    cdef bint last_fast = not (F.game.rules & (RULE_OPTIONAL_CAPTURE | RULE_LAST_SWEEP_COUNTS))
    while cur.in_hands:
        if not cur.hand[cur.to_move]:       # only in states no valid position reaches
            break
        card = lowest_bit(cur.hand[cur.to_move])
        if last_fast and not (cur.in_hands & (cur.in_hands - 1)):
            last_card_end(F, &cur, &child)    # whatever it takes, the table follows it
            n = 1
            r = 0
        else:
            n = last_round_moves(F, &cur, card, moves)
            if n > 1:
                break
            child = cur
            r = play_child(F, &child, moves[0])
        off += sgn * r
        if F.team[child.to_move] != F.team[cur.to_move]:
            sgn = -sgn
        cur = child
    if not cur.in_hands or not cur.hand[cur.to_move]:
        return off + sgn * leaf(F, &cur)
    # a choice: cur's window from s's
    if sgn > 0:
        a = alpha - off
        b = beta - off
    else:
        a = off - beta
        b = off - alpha
    best = -VALUE_INF
    for i in range(n):
        child = cur
        r = play_child(F, &child, moves[i])
        if F.team[child.to_move] == F.team[cur.to_move]:
            v = r + last_round(F, &child, a - r, b - r, ply + 1)
        else:
            v = r - last_round(F, &child, r - b, r - a, ply + 1)
        if v > best:
            best = v
            if v > a:
                a = v
                if a >= b:
                    break
    return off + sgn * best


cdef void maxn_last_round(Engine* F, const State* s, int ply, int* out) noexcept nogil:
    """Max^n in the last round: every side's points still to come, ties to the first play in
    canonical order (as maxn)."""
    cdef State cur = s[0], child
    cdef uint64_t* moves = F.moves + ply * MAX_MOVES
    cdef int ns = F.game.nsides, n, i, j, r, me, card
    cdef int made[MAX_SEATS]
    cdef int cv[MAX_SEATS]
    cdef bint last_fast = not (F.game.rules & (RULE_OPTIONAL_CAPTURE | RULE_LAST_SWEEP_COUNTS))
    for j in range(ns):
        made[j] = 0
    n = 0
    while cur.in_hands:
        if not cur.hand[cur.to_move]:
            break
        card = lowest_bit(cur.hand[cur.to_move])
        if last_fast and not (cur.in_hands & (cur.in_hands - 1)):
            last_card_end(F, &cur, &child)
            cur = child
            break
        n = last_round_moves(F, &cur, card, moves)
        if n > 1:
            break
        child = cur
        made[F.game.side[cur.to_move]] += apply_move(&child, &F.game, moves[0])
        cur = child
        n = 0
    if n <= 1:
        side_points(&cur, &F.game, False, out)
    else:
        me = F.game.side[cur.to_move]
        for i in range(n):
            child = cur
            r = apply_move(&child, &F.game, moves[i])
            maxn_last_round(F, &child, ply + 1, cv)
            cv[me] += r
            if i == 0 or cv[me] > out[me]:
                for j in range(ns):
                    out[j] = cv[j]
    for j in range(ns):
        out[j] += made[j]


cdef inline int walk_capture(const Engine* F, int card, uint64_t table, int tv, int left,
                             uint64_t* moves) noexcept nogil:
    """What the plain rule makes `card` take from `table` in the walks below, in `moves` (each
    as the table cards it takes): 1 capture (0: it is laid down), or the n > 1 to choose from."""
    cdef int v = CARD_VALUE[card], n = 0
    cdef uint64_t singles
    moves[0] = 0
    if v > tv:
        return 1
    singles = table & VALUE_CARDS[v]
    if left == 1:                       # the last card: whatever it takes, the table follows it
        if singles or can_capture(card, table, F.game.rules):
            moves[0] = table
        return 1
    if singles:
        while singles:
            moves[n] = singles & (~singles + 1)
            singles &= singles - 1
            n += 1
        return n
    n = _sum_captures(table, v, 0, card, moves, 0)
    if n > 1 and (F.game.rules & RULE_FEWEST_CARDS):
        n = _keep_fewest(moves, 0, n)
    if n == 1:
        moves[0] = move_capture(moves[0])
    return n if n > 1 else 1


cdef int _two_sides_walk(const Engine* F, const State* s, uint64_t table, int tv, uint64_t p0,
                         uint64_t p1, int last, int seat, int left, int made, int alpha, int beta,
                         int ply) noexcept nogil:
    """TWO_SIDES under the plain rule (no Scopa a 15, ace sweep, optional capture, last sweep): the
    last round on the bare table and side piles. The value is side 0's (its scopas made from here
    minus side 1's, plus the piles' margin), fail-soft in (alpha, beta); each seat plays the one
    card s gave it, s.hand[seat]."""
    cdef int card, v, side, n, i, w, best
    cdef uint64_t bit, cap
    cdef uint64_t* moves = F.moves + ply * MAX_MOVES
    while left:
        card = lowest_bit(s.hand[seat])
        bit = 1ULL << card
        side = F.game.side[seat]
        v = CARD_VALUE[card]
        n = walk_capture(F, card, table, tv, left, moves)
        if n > 1:
            break
        cap = moves[0]
        if cap:
            table &= ~cap
            tv -= v                     # (after the last card it no longer matters)
            if side == 0:
                p0 |= cap | bit
            else:
                p1 |= cap | bit
            last = side
            if not table and left > 1:
                made += 1 if side == 0 else -1
        else:
            table |= bit
            tv += v
        seat = F.game.next_seat[seat]
        left -= 1
    if not left:
        if last == 0:
            p0 |= table
        elif last == 1:
            p1 |= table
        return made + points_difference(p0, p1, F.game.rules)
    # a choice between the n captures in moves (each worth v)
    best = -VALUE_INF if side == 0 else VALUE_INF
    for i in range(n):
        cap = move_capture(moves[i])
        w = made + (1 if side == 0 else -1) * (cap == table)
        if side == 0:
            w = _two_sides_walk(F, s, table & ~cap, tv - v, p0 | cap | bit, p1, 0,
                                F.game.next_seat[seat], left - 1, w, max(alpha, best), beta, ply + 1)
            if w > best:
                best = w
                if best >= beta:
                    break
        else:
            w = _two_sides_walk(F, s, table & ~cap, tv - v, p0, p1 | cap | bit, 1,
                                F.game.next_seat[seat], left - 1, w, alpha, min(beta, best), ply + 1)
            if w < best:
                best = w
                if best <= alpha:
                    break
    return best


cdef inline int two_sides_last_round(Engine* F, const State* s, int alpha, int beta, int ply) noexcept nogil:
    """last_round by _two_sides_walk, for the seat to move."""
    cdef uint64_t piles[MAX_SEATS]
    cdef int last = F.game.side[s.last_capturer] if s.last_capturer >= 0 else -1
    side_piles(s, &F.game, piles)
    if F.game.side[s.to_move] == 0:
        return _two_sides_walk(F, s, s.table, s.table_value, piles[0], piles[1], last, s.to_move,
                               popcount(s.in_hands), 0, alpha, beta, ply)
    return -_two_sides_walk(F, s, s.table, s.table_value, piles[0], piles[1], last, s.to_move,
                            popcount(s.in_hands), 0, -beta, -alpha, ply)


cdef int _sides_walk(const Engine* F, const State* s, uint64_t table, int tv, const uint64_t* piles0,
                     const int* scopas0, int last, int seat, int left, int alpha, int beta,
                     int ply) noexcept nogil:
    """_two_sides_walk for PARANOID and MATCH: piles and scopas by side, the value the root
    team's (its side's points minus the best other side's, scopas made included; MATCH the leaf
    table's entry), fail-soft."""
    cdef const Game* g = &F.game
    cdef int card, v, side, n = 0, i, w, best, top, mine
    cdef uint64_t bit, cap
    cdef uint64_t* moves = F.moves + ply * MAX_MOVES
    cdef uint64_t piles[MAX_SEATS]
    cdef int scopas[MAX_SEATS]
    cdef Score d
    for i in range(g.nsides):
        piles[i] = piles0[i]
        scopas[i] = scopas0[i]
    while left:
        card = lowest_bit(s.hand[seat])
        bit = 1ULL << card
        side = g.side[seat]
        v = CARD_VALUE[card]
        n = walk_capture(F, card, table, tv, left, moves)
        if n > 1:
            break
        cap = moves[0]
        if cap:
            table &= ~cap
            tv -= v
            piles[side] |= cap | bit
            last = side
            if not table and left > 1:
                scopas[side] += 1
        else:
            table |= bit
            tv += v
        seat = g.next_seat[seat]
        left -= 1
    if not left:
        if last >= 0:
            piles[last] |= table
        score_sides(piles, g.nsides, g.rules, &d)
        if F.mode == MATCH:             # the root side's chance after every side's points
            for i in range(g.nsides):
                scopas[i] += d.points[i]
            return match_entry(F, scopas)
        top = -1000
        for i in range(g.nsides):
            if i != F.root_side and d.points[i] + scopas[i] > top:
                top = d.points[i] + scopas[i]
        return d.points[F.root_side] + scopas[F.root_side] - top
    # a choice between the n captures in moves; the root team maximises
    mine = F.team[seat] == 0
    best = -VALUE_INF if mine else VALUE_INF
    cdef uint64_t pile = piles[side]
    cdef int made = scopas[side]
    for i in range(n):
        cap = move_capture(moves[i])
        piles[side] = pile | cap | bit
        scopas[side] = made + (cap == table)
        if mine:
            w = _sides_walk(F, s, table & ~cap, tv - v, piles, scopas, side, g.next_seat[seat],
                            left - 1, max(alpha, best), beta, ply + 1)
            if w > best:
                best = w
                if best >= beta:
                    break
        else:
            w = _sides_walk(F, s, table & ~cap, tv - v, piles, scopas, side, g.next_seat[seat],
                            left - 1, alpha, min(beta, best), ply + 1)
            if w < best:
                best = w
                if best <= alpha:
                    break
    return best


cdef inline int sides_last_round(Engine* F, const State* s, int alpha, int beta, int ply) noexcept nogil:
    """last_round by _sides_walk (PARANOID, MATCH), for the seat to move."""
    cdef uint64_t piles[MAX_SEATS]
    cdef int scopas[MAX_SEATS]
    cdef int i, last = F.game.side[s.last_capturer] if s.last_capturer >= 0 else -1
    side_piles(s, &F.game, piles)
    for i in range(F.game.nsides):
        scopas[i] = 0
    for i in range(F.game.players):
        scopas[F.game.side[i]] += s.scopas[i]
    if F.team[s.to_move] == 0:
        return _sides_walk(F, s, s.table, s.table_value, piles, scopas, last, s.to_move,
                           popcount(s.in_hands), alpha, beta, ply)
    return -_sides_walk(F, s, s.table, s.table_value, piles, scopas, last, s.to_move,
                        popcount(s.in_hands), -beta, -alpha, ply)


cdef inline int last_round_value(Engine* F, const State* s, int alpha, int beta, int ply) noexcept nogil:
    """The last round's fail-soft value for the seat to move: on the bare table and side piles
    under the plain capture rule (a third faster), else by apply_move."""
    if F.game.rules & (RULE_FIFTEEN | RULE_ASSO_PIGLIA_TUTTO | RULE_OPTIONAL_CAPTURE | RULE_LAST_SWEEP_COUNTS):
        return last_round(F, s, alpha, beta, ply)
    if F.mode == TWO_SIDES:
        return two_sides_last_round(F, s, alpha, beta, ply)
    return sides_last_round(F, s, alpha, beta, ply)
