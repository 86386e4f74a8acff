# Dynamic suit relevance (partition search, F_TWO and F_PARANOID; off under a horizon). Play
# looks only at ranks, so a permutation pi of the 40 cards that keeps every card's rank maps the
# game tree of a position Y move for move onto that of pi(Y) (the hands, table, piles and stock
# permuted), and each end onto the end with its piles permuted. Every searched node returns with
# its value a set R of cards (F.rel) such that:
#   (*) for every rank-keeping pi that fixes each card of R, the value of pi(Y) satisfies what
#       the search returned for Y: equal to it inside the window, beyond it on the same side
#       as the fail-soft bound otherwise.
# Proof of (*) node by node, the search's proof tree mapped by pi:
#   - end of round: carte is a count; R holds every coin (denari, settebello, re bello, napola)
#     and, per side pile Q, its best card of each suit and every card worth more (in primiera)
#     than Q's weakest suit: pi(Q) has Q's ranks, keeps those bests and cannot raise a suit
#     above them, so each side's primiera total, and so the score, is unchanged. With two sides
#     and a value beyond the window only its bound must hold: the favoured side's bests are
#     kept and the other's total cannot rise; and where the slack beyond the window allows, the
#     bound gives up the denari point or the primiera point (moves toward the window by what
#     the favoured side could lose there), and those cards (the coins but the settebello and re
#     bello; napola keeps every coin) need not be fixed;
#   - a bound cut (family_bounds.pxi): counts and ranks (sweeps) are pi-invariant; the coin
#     counts are kept by fixing the coins (or given up within the slack, as above); when the
#     primiera was looked at, pile totals must not fall (bests fixed) nor totals with every card
#     in play rise (cards above the weakest best fixed), on the side the cut needs;
#   - an inner node: pi maps its moves onto pi(Y)'s; R is the union of its searched children's
#     (only the cutting child's on a fail high); a move skipped here as the image tau(m) of a
#     searched move m, tau exchanging same-rank cards of the mover's hand and of the table
#     outside R(child of m) (so tau(Y) = Y and its child is tau(child of m)), is covered
#     too: pi.tau fixes R(child of m) pointwise, so (*) for that child gives it;
#   - a move dropped by the static equivalence (family_equiv.pxi, primiera plainness by the
#     held suits only): R takes the exchanged cards, every side's best card of each suit, and
#     every coin if a coin was exchanged, so that pi commutes with the exchange and the cards
#     stay plain in pi(Y);
#   - a table entry (its bounds cut or narrowed the window): R is the set stored beside it by a
#     position with the same key and the same exact side piles (a fingerprint), else every
#     card: the key holds only a summary of the piles, and pi(Y), pi(Y') need not share a key.
#     Each store overwrites its key's slot with a set covering all the entry's bounds (the
#     node's set includes the entry's when it read one), so a slot never outlives its bounds.
# So after searching move m, a same-rank image of it whose exchanged cards lie outside the
# child's set has the same (bound on the) value and is skipped.

cdef enum:
    REL_BITS = 20                   # slots of the relevance array (two words each: 16 MiB)

cdef uint8_t PRIM_ANCHOR[1024]     # the rank (bit) of a suit's best primiera card
cdef uint16_t PRIM_ABOVE[22]       # ranks of primiera value above v


cdef void _init_partition() noexcept:
    cdef int m, r, best, v
    for m in range(1024):
        best = -1
        PRIM_ANCHOR[m] = 255
        for r in range(10):
            if (m >> r) & 1 and (best < 0 or PRIMIERA_VALUE[r] > PRIMIERA_VALUE[best]):
                best = r
        PRIM_ANCHOR[m] = best if best >= 0 else 255
    for v in range(22):
        PRIM_ABOVE[v] = 0
        for r in range(10):
            if PRIMIERA_VALUE[r] > v:
                PRIM_ABOVE[v] |= 1 << r

_init_partition()


cdef inline uint64_t spread_ranks(uint64_t ranks) noexcept nogil:
    return ranks | (ranks << 10) | (ranks << 20) | (ranks << 30)


cdef inline uint64_t prim_anchors(uint64_t q) noexcept nogil:
    cdef uint64_t rel = 0, m
    cdef int suit
    for suit in range(4):
        m = (q >> (10 * suit)) & 0x3FF
        if m:
            rel |= 1ULL << (PRIM_ANCHOR[m] + 10 * suit)
    return rel


cdef inline uint64_t prim_high(uint64_t q) noexcept nogil:
    """Cards of q worth more than its weakest suit's best: fixed, no permutation raises q's total."""
    cdef int suit, b, low = 21
    for suit in range(4):
        b = PRIMIERA_BEST[(q >> (10 * suit)) & 0x3FF]
        if b < low:
            low = b
    return q & spread_ranks(PRIM_ABOVE[low])


cdef inline uint64_t special_coins(int rules) noexcept nogil:
    """The coins a permutation must never move: the settebello, the re bello, napola's run."""
    if rules & RULE_NAPOLA:
        return COINS
    return (1ULL << SETTEBELLO) | ((1ULL << KING_OF_COINS) if rules & RULE_RE_BELLO else 0)


cdef inline uint64_t weaken(const FSearch* F, int lc, int lp, int slack, uint64_t prim, int* loss) noexcept nogil:
    """Two sides, a bound with `slack` beyond the window: give up the denari (the bound loses lc,
    the coins are free) and the primiera (lp, its cards free) as far as the slack allows."""
    cdef uint64_t special = special_coins(F.game.rules)
    if special == COINS:
        lc = 1000
    if lc + lp <= slack:
        loss[0] = lc + lp
        return special
    if lc <= slack and (lp > slack or lc <= lp):
        loss[0] = lc
        return special | prim
    if lp <= slack:
        loss[0] = lp
        return COINS
    loss[0] = 0
    return COINS | prim


cdef uint64_t f_rel_end(const FSearch* F, const FState* s, int* v, int alpha, int beta) noexcept nogil:
    """An end of round (or a position without moves) of value v[0]: every coin, and what keeps
    each side's primiera total. With two sides and v beyond the window, only what keeps the
    bound: the side it favours must not lose primiera total nor the other gain; and where the
    slack beyond the window allows, the bound gives up the denari or the primiera point (v[0]
    moves toward the window by what that side could lose) and those cards go free."""
    cdef uint64_t piles[FMAX_SEATS]
    cdef uint64_t rel = COINS
    cdef int i, ben, slack, loss, rules = F.game.rules
    side_piles(s, &F.game, piles)
    if F.mode == F_TWO and (v[0] >= beta or v[0] <= alpha):
        ben = F.game.side[s.to_move]
        slack = v[0] - beta
        if v[0] <= alpha:
            ben = 1 - ben
            slack = alpha - v[0]
        rel = weaken(F, sign(popcount(piles[ben] & COINS) - popcount(piles[1 - ben] & COINS)) + 1,
                     sign(primiera_total(piles[ben], rules) - primiera_total(piles[1 - ben], rules)) + 1,
                     slack, prim_anchors(piles[ben]) | prim_high(piles[1 - ben]), &loss)
        v[0] += -loss if v[0] >= beta else loss
        return rel
    for i in range(F.game.nsides):
        rel |= prim_anchors(piles[i]) | prim_high(piles[i])
    return rel


cdef uint64_t f_rel_bound(const FSearch* F, const FState* s, int* v, int alpha, int beta,
                          bint read_primiera) noexcept nogil:
    """A bound cut of value v[0]: what keeps the terms it read from moving against the cut (the
    coin counts; pile primiera totals must not fall, totals with every card in play must not
    rise): with two sides for the side the bound favours, which may give up the denari or the
    primiera term as f_rel_end does; with more, every coin and every side's both totals."""
    cdef uint64_t piles[FMAX_SEATS]
    cdef uint64_t rel = COINS, in_play = s.in_hands | s.table | F.stock_mask[s.deals_left], prim = 0
    cdef int i, ben, slack, loss, lp = 1000, rules = F.game.rules
    side_piles(s, &F.game, piles)
    if F.mode == F_TWO:
        ben = F.game.side[s.to_move]
        slack = v[0] - beta
        if v[0] <= alpha:
            ben = 1 - ben
            slack = alpha - v[0]
        if read_primiera:
            prim = prim_anchors(piles[ben]) | prim_high(piles[1 - ben] | in_play)
            lp = sign(primiera_total(piles[ben], rules) - primiera_total(piles[1 - ben] | in_play, rules)) + 1
        else:
            lp = 0                      # not read: nothing to give up
        rel = weaken(F, sign(popcount(piles[ben] & COINS) - popcount(piles[1 - ben] & COINS)
                             - popcount(in_play & COINS)) + 1, lp, slack, prim, &loss)
        v[0] += -loss if v[0] >= beta else loss
        return rel
    if read_primiera:
        for i in range(F.game.nsides):
            rel |= prim_anchors(piles[i]) | prim_high(piles[i] | in_play)
    return rel


cdef uint64_t f_rel_anchors(const FSearch* F, const FState* s) noexcept nogil:
    cdef uint64_t piles[FMAX_SEATS]
    cdef uint64_t rel = 0
    cdef int i
    side_piles(s, &F.game, piles)
    for i in range(F.game.nsides):
        rel |= prim_anchors(piles[i])
    return rel


cdef inline uint64_t piles_fingerprint(const FSearch* F, const FState* s) noexcept nogil:
    """A hash of the sides' exact piles (the table key has only their summary)."""
    cdef uint64_t piles[FMAX_SEATS]
    cdef uint64_t h = 0
    cdef int i
    side_piles(s, &F.game, piles)
    for i in range(F.game.nsides):
        h ^= mix64(piles[i] + 0x9E3779B97F4A7C15ULL * (i + 1))
    return h


cdef inline uint64_t rel_probe(const FSearch* F, uint64_t key, uint64_t fp) noexcept nogil:
    """The set stored with the entry of `key` by a position with these exact piles, else every card."""
    cdef uint64_t* e = F.rel_table + 2 * ((key >> 16) & ((1ULL << REL_BITS) - 1))
    if e[0] == (key ^ fp) and e[0] != 0:
        return e[1]
    return ALL_CARDS


cdef inline void rel_store(FSearch* F, uint64_t key, uint64_t fp, uint64_t rel) noexcept nogil:
    cdef uint64_t* e = F.rel_table + 2 * ((key >> 16) & ((1ULL << REL_BITS) - 1))
    e[0] = key ^ fp
    e[1] = rel


cdef inline int rank_signature_differs(uint64_t a, uint64_t b) noexcept nogil:
    """Do two card sets hold different multisets of ranks?"""
    cdef uint64_t sa = 0, sb = 0
    cdef int c
    if popcount(a) != popcount(b):
        return True
    while a:
        c = lowest_bit(a)
        a &= a - 1
        sa += 1ULL << (4 * (c % 10))
    while b:
        c = lowest_bit(b)
        b &= b - 1
        sb += 1ULL << (4 * (c % 10))
    return sa != sb


cdef inline bint f_is_image(uint64_t m, uint64_t m2, uint64_t rel) noexcept nogil:
    """Is m2 the image of m under an exchange of same-rank cards (hand and table) outside rel?"""
    cdef int a = move_card(m), b = move_card(m2)
    cdef uint64_t k = move_capture(m), k2 = move_capture(m2), d1, d2, support
    if a % 10 != b % 10 or (k == 0) != (k2 == 0):
        return False
    support = (1ULL << a) ^ (1ULL << b)
    d1 = k & ~k2
    d2 = k2 & ~k
    support |= d1 | d2
    if support & rel:
        return False
    return not rank_signature_differs(d1, d2)


cdef int f_skip_images(uint64_t* moves, int i, int n, uint64_t rel) noexcept nogil:
    """Drop from moves[i + 1:n] the images of moves[i] outside rel (order kept); the new count."""
    cdef int j, k = i + 1
    cdef uint64_t m = moves[i]
    for j in range(i + 1, n):
        if not f_is_image(m, moves[j], rel):
            moves[k] = moves[j]
            k += 1
    return k
