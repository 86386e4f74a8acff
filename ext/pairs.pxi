# Same-rank pair equivalence (experiment; TWO_SIDES, one thread, no horizon, untraced). Play looks
# only at ranks, so a permutation pi of the cards that keeps ranks maps the game tree of a
# position Y move for move onto that of pi(Y) (hands, table, piles and stock permuted) and every
# end onto the end with its piles permuted. Every searched node returns with its value a relation
# E on same-rank pairs (F.rel: bit 10 * field + rank, the six fields the suit pairs 01 02 03 12
# 13 23), always an equivalence relation on each rank's four cards, such that
#   (*) for every pi preserving E's classes, the value of pi(Y) satisfies what the search
#       returned for Y (equal inside the window, beyond it on the same side otherwise).
# Node by node:
#   - an end (or a position scored as it stands): the cards in one side's pile are one class,
#     and so are those outside the piles; a whole rank is one class when exchanging its cards
#     across the piles cannot change the score (safe_ranks);
#   - a bound cut: the cards in play are one class (the bounds read their set, counts and ranks),
#     and each side's pile one;
#   - the last round (a walk without relations) and answers of the table without a stored
#     relation: what holds everywhere, the classes of one hand, the table, one side's pile, and
#     the safe ranks whole;
#   - an inner node: the intersection (AND) of its searched children's relations, only the
#     cutting child's on a fail high. After move m was searched, a move tau(m), tau exchanging
#     same-rank cards of the mover's hand and of the table within the classes of m's child, is
#     skipped: tau(Y) = Y and its child is tau(child of m), and pi.tau preserves those classes;
#   - the static equivalence's drops (equiv.pxi) hold for pi fixing the ranks exchanged and the
#     piles' sides: the node's relation keeps only pairs in play of other ranks and the piles';
#   - a table answer: the relation stored beside the entry (a direct-mapped array keyed by the
#     whole key), kept only on pairs in play (the key holds the piles' summary, not the piles),
#     with the piles' classes. Each store covers every bound the entry holds: a node that read
#     the entry stores its relation intersected with the one it read.

cdef enum:
    PAIR_SLOTS_BITS = 20            # 16 MiB: two words a slot

cdef uint64_t ALL_PAIRS = (1ULL << 60) - 1
cdef uint8_t PAIR_FIELD[4][4]


cdef void _init_pairs() noexcept:
    cdef int a, b, f = 0
    for a in range(4):
        for b in range(4):
            PAIR_FIELD[a][b] = 255
    for a in range(4):
        for b in range(a + 1, 4):
            PAIR_FIELD[a][b] = f
            PAIR_FIELD[b][a] = f
            f += 1

_init_pairs()


cdef inline uint64_t pairs_of(uint64_t cards) noexcept nogil:
    """The same-rank pairs with both cards in `cards`."""
    cdef uint64_t s0 = cards & 0x3FF, s1 = (cards >> 10) & 0x3FF, s2 = (cards >> 20) & 0x3FF, s3 = (cards >> 30) & 0x3FF
    return ((s0 & s1) | ((s0 & s2) << 10) | ((s0 & s3) << 20) | ((s1 & s2) << 30)
            | ((s1 & s3) << 40) | ((s2 & s3) << 50))


cdef inline uint64_t rank_pairs(uint64_t ranks) noexcept nogil:
    """Every pair of the ranks in a 10-bit mask."""
    return ranks | (ranks << 10) | (ranks << 20) | (ranks << 30) | (ranks << 40) | (ranks << 50)


cdef inline uint64_t pair_bit(int a, int b) noexcept nogil:
    return 1ULL << (10 * PAIR_FIELD[a // 10][b // 10] + a % 10)


cdef uint64_t safe_ranks(const Engine* F, const uint64_t* piles, uint64_t in_play) noexcept nogil:
    """The ranks whose cards can be exchanged across the piles at every end from here without
    changing the score: not the settebello's (nor the re bello's), the denari won by three
    coins or more whatever happens, and worth less in primiera than every side's best of every
    suit already is (so never a best)."""
    cdef int rules = F.game.rules, d, m, low = 21, suit, i
    cdef uint64_t ranks = 0x3FF & ~(1ULL << SETTEBELLO)
    if rules & RULE_NAPOLA:
        return 0
    if rules & RULE_RE_BELLO:
        ranks &= ~(1ULL << KING_OF_COINS)
    d = popcount(piles[0] & COINS) - popcount(piles[1] & COINS)
    m = popcount(in_play & COINS)
    if d - m < 3 and d + m > -3:
        return 0
    for i in range(2):
        for suit in range(4):
            low = min(low, PRIMIERA_BEST[(piles[i] >> (10 * suit)) & 0x3FF])
    if low == 0:
        return 0
    return ranks & PRIMIERA_UPTO[low - 1]


cdef uint64_t end_pairs(const Engine* F, const State* s) noexcept nogil:
    """The relation of a position scored as it stands (leaf)."""
    cdef uint64_t piles[MAX_SEATS]
    side_piles(s, &F.game, piles)
    return (pairs_of(piles[0]) | pairs_of(piles[1]) | pairs_of(ALL_CARDS & ~(piles[0] | piles[1]))
            | rank_pairs(safe_ranks(F, piles, 0)))


cdef uint64_t static_pairs(const Engine* F, const State* s) noexcept nogil:
    """What holds at any node: one hand, the table, one side's pile, the safe ranks."""
    cdef uint64_t piles[MAX_SEATS]
    cdef uint64_t e
    cdef int p
    side_piles(s, &F.game, piles)
    e = pairs_of(s.table) | pairs_of(piles[0]) | pairs_of(piles[1])
    for p in range(F.game.players):
        e |= pairs_of(s.hand[p])
    return e | rank_pairs(safe_ranks(F, piles, s.in_hands | s.table | F.stock_mask[s.deals_left]))


cdef inline uint64_t piles_pairs(const Engine* F, const State* s) noexcept nogil:
    cdef uint64_t piles[MAX_SEATS]
    side_piles(s, &F.game, piles)
    return pairs_of(piles[0]) | pairs_of(piles[1])


cdef inline uint64_t in_play_of(const Engine* F, const State* s) noexcept nogil:
    return s.in_hands | s.table | F.stock_mask[s.deals_left]


cdef int PAIR_SLACK = 0      # experiment: give up the suits' categories where the slack allows


cdef inline uint64_t slack_pairs(const Engine* F, uint64_t rel, int* v, int alpha, int beta) noexcept nogil:
    """A value beyond the window by at least what any exchange of suits could move it (the
    denari, the primiera, the settebello and the re bello each changing hands: 2 points of
    margin apiece) holds, moved that far toward the window, for every such exchange: every
    pair is then equivalent."""
    cdef int L = 8 if F.game.rules & RULE_RE_BELLO else 6
    cdef uint64_t free = ALL_PAIRS
    if not PAIR_SLACK or F.game.rules & RULE_NAPOLA:
        return rel
    if v[0] >= beta + L and v[0] < VALUE_INF:
        v[0] -= L
        return free
    if v[0] <= alpha - L and v[0] > -VALUE_INF:
        v[0] += L
        return free
    return rel


cdef inline uint64_t pairs_probe(const Engine* F, const State* s, uint64_t key) noexcept nogil:
    """The relation of a table answer (see above)."""
    cdef uint64_t* e = F.pair_slots + 2 * ((key >> 12) & ((1ULL << PAIR_SLOTS_BITS) - 1))
    if e[0] == key:
        return e[1] | piles_pairs(F, s)
    return static_pairs(F, s)


cdef inline void pairs_store(Engine* F, const State* s, uint64_t key, uint64_t rel) noexcept nogil:
    cdef uint64_t* e = F.pair_slots + 2 * ((key >> 12) & ((1ULL << PAIR_SLOTS_BITS) - 1))
    e[0] = key
    e[1] = rel & pairs_of(in_play_of(F, s))


cdef inline bint is_image(uint64_t m, uint64_t m2, uint64_t rel) noexcept nogil:
    """Is m2 the image of m by exchanges of same-rank cards (in the hand, on the table) that
    keep rel's classes?"""
    cdef int a = move_card(m), b = move_card(m2), c, c2
    cdef uint64_t k = move_capture(m), k2 = move_capture(m2), d1, d2, cand
    if a % 10 != b % 10:
        return False
    if a != b and not (rel & pair_bit(a, b)):
        return False
    d1 = k & ~k2
    d2 = k2 & ~k
    while d1:
        c = lowest_bit(d1)
        d1 &= d1 - 1
        cand = d2 & VALUE_CARDS[c % 10 + 1]
        while cand:
            c2 = lowest_bit(cand)
            cand &= cand - 1
            if rel & pair_bit(c, c2):
                d2 &= ~(1ULL << c2)
                break
        else:
            return False
    return d2 == 0


cdef uint64_t PAIR_STATS[4]
cdef int PAIR_UNSOUND = 0


def pair_stats(reset=False, unsound=None, slack=None):
    global PAIR_UNSOUND, PAIR_SLACK
    if slack is not None:
        PAIR_SLACK = slack
    out = [PAIR_STATS[i] for i in range(4)]
    if reset:
        for i in range(4):
            PAIR_STATS[i] = 0
    if unsound is not None:
        PAIR_UNSOUND = unsound
    return out


cdef int skip_images(uint64_t* moves, int start, int n, uint64_t m, uint64_t rel) noexcept nogil:
    """Drop from moves[start:n] the images of the searched move m (order kept); the new count."""
    cdef int j, k = start
    for j in range(start, n):
        if moves[j] != m and is_image(m, moves[j], ALL_PAIRS):
            PAIR_STATS[0] += 1
            if is_image(m, moves[j], rel) or PAIR_UNSOUND:
                PAIR_STATS[1] += 1
                continue
        moves[k] = moves[j]
        k += 1
    return k
