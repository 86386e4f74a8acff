# Same-rank equivalence (TWO_SIDES and PARANOID). Play looks at capture values only: which card
# takes what, sweeps, deals and the last capturer depend on ranks, never on suits. So exchanging
# two cards of one rank everywhere maps the game tree from a position onto the tree from the
# exchanged position, move for move, and every end onto an end whose piles differ by the two
# cards. When that exchange cannot change any side's score, the two positions have the same value.
# A card is "plain" when no category can tell it from another card of its rank:
#   - not the settebello, not the re bello (when it scores);
#   - a coin only when the denari are decided whatever happens (one side already has more than
#     any other side can reach) and napola does not score;
#   - for the primiera: the primiera is settled (one side's lowest total beats every other
#     side's highest), or every side already holds a card of its suit worth at least as much (so
#     it can never be a side's best of its suit).
# Two plain cards of one rank in the mover's hand, or on the table, can then be exchanged without
# changing the position: a move and its image under the exchange have children of equal value.
# Of the moves that differ only by such exchanges the search plays one: the card, and for each
# rank the table cards taken, the lowest of their plain equals. (Max^n keeps every move: its ties
# go to the first move in canonical order, which an exchange can reorder.)

cdef extern from *:
    int leading_zeros "__builtin_clzll"(unsigned long long) nogil

cdef uint64_t PRIMIERA_UPTO[22]    # ranks (a 10-bit mask) of primiera value at most v


cdef void _init_equiv() noexcept:
    cdef int v, r
    for v in range(22):
        PRIMIERA_UPTO[v] = 0
        for r in range(10):
            if PRIMIERA_VALUE[r] <= v:
                PRIMIERA_UPTO[v] |= 1ULL << r

_init_equiv()


cdef inline uint64_t rank_dups(uint64_t cards) noexcept nogil:
    """The ranks (a 10-bit mask) held twice or more in `cards`."""
    cdef uint64_t a = cards & 0x3FF, b = (cards >> 10) & 0x3FF, c = (cards >> 20) & 0x3FF, d = (cards >> 30) & 0x3FF
    return (a & (b | c | d)) | (b & (c | d)) | (c & d)


cdef inline int _others_top_coins(const uint64_t* piles, int ns, int i) noexcept nogil:
    cdef int j, top = 0, c
    for j in range(ns):
        if j != i:
            c = popcount(piles[j] & COINS)
            if c > top:
                top = c
    return top


cdef uint64_t plain_cards(const Engine* F, const State* s) noexcept nogil:
    """The cards whose suit can no longer change any score (see above)."""
    cdef const Game* g = &F.game
    cdef int ns = g.nsides, i, suit, best, rules = g.rules, mc, top
    cdef uint64_t piles[MAX_SEATS]
    cdef uint64_t plain = ALL_CARDS & ~(1ULL << SETTEBELLO), prim = 0
    cdef uint64_t in_play = s.in_hands | s.table | F.stock_mask[s.deals_left]
    cdef int plow[MAX_SEATS]
    cdef int phigh[MAX_SEATS]
    cdef bint settled
    side_piles(s, g, piles)
    if rules & RULE_RE_BELLO:
        plain &= ~(1ULL << KING_OF_COINS)
    mc = popcount(in_play & COINS)
    if mc and not (rules & RULE_NAPOLA):
        settled = False
        for i in range(ns):
            top = popcount(piles[i] & COINS) - mc
            if top > 0 and top > _others_top_coins(piles, ns, i):
                settled = True
        if not settled:
            plain &= ~COINS
    elif mc:
        plain &= ~COINS
    for suit in range(4):
        best = 21
        for i in range(ns):
            best = min(best, PRIMIERA_BEST[(piles[i] >> (10 * suit)) & 0x3FF])
        prim |= PRIMIERA_UPTO[best] << (10 * suit)
    if (plain & ~prim) & (s.hand[s.to_move] | s.table):
        for i in range(ns):
            plow[i] = primiera_total(piles[i], rules)
            phigh[i] = primiera_total(piles[i] | in_play, rules)
        settled = True
        for i in range(ns):
            if plow[i] != phigh[i]:
                settled = False
        for i in range(ns):
            if plow[i] >= 0 and plow[i] > _others_top(phigh, ns, i):
                settled = True
        if not settled:
            plain &= prim
    return plain


cdef int drop_equivalent(const Engine* F, const State* s, uint64_t* moves, int n) noexcept nogil:
    """Keep one move of each class of moves equivalent by exchanges of plain cards (in place,
    canonical order kept); return the new count."""
    cdef uint64_t hand = s.hand[s.to_move], plain, hand_dups, table_dups, m, capture, cls, sel, low
    cdef int i, k = 0, card, r, top
    hand_dups = rank_dups(hand)
    table_dups = rank_dups(s.table)
    if not (hand_dups | table_dups):
        return n
    plain = plain_cards(F, s)
    hand_dups = rank_dups(hand & plain)
    table_dups = rank_dups(s.table & plain)
    if not (hand_dups | table_dups):
        return n
    for i in range(n):
        m = moves[i]
        card = move_card(m)
        if (hand_dups >> (card % 10)) & 1 and (plain >> card) & 1 and \
                (hand & plain & VALUE_CARDS[card % 10 + 1] & ((1ULL << card) - 1)):
            continue                        # a lower plain card of its rank plays the same
        capture = move_capture(m)
        if capture and table_dups:
            low = 0
            for r in range(10):
                if (table_dups >> r) & 1:
                    cls = s.table & plain & VALUE_CARDS[r + 1]
                    sel = capture & cls
                    if sel:
                        top = 63 - leading_zeros(sel)
                        low |= cls & ~sel & ((1ULL << top) - 1)
            if low:
                continue                    # a lower plain equal left on the table: taken instead, the same
        moves[k] = m
        k += 1
    return k
