# Move ordering: the table's best move first, then captures by what they win (a sweep, the
# settebello, coins, sevens and sixes for primiera, cards), then lay-downs that leave no sweep.

cdef inline int move_score(const State* s, uint64_t move) noexcept nogil:
    cdef int card = move_card(move)
    cdef uint64_t bit = 1ULL << card, capture = move_capture(move), won
    cdef int score
    if capture:
        won = capture | bit
        score = 1000 + 10 * popcount(won)
        if capture == s.table:
            score += 500
        if won & (1ULL << SETTEBELLO):
            score += 300
        score += 40 * popcount(won & COINS) + 30 * popcount(won & VALUE_CARDS[7]) + 15 * popcount(won & VALUE_CARDS[6])
        return score
    # a lay-down: better if the table then adds up to more than any card can take at once
    score = 200 if s.table_value + CARD_VALUE[card] > 10 else 0
    if bit & COINS:
        score -= 20
    if CARD_VALUE[card] >= 6 and CARD_VALUE[card] <= 7:
        score -= 30
    if card == SETTEBELLO:
        score -= 300
    return score


cdef enum:
    ORDER_LIMIT = 64    # beyond this many moves (huge tables only) keep the generation order


cdef void order_moves(const State* s, uint64_t* moves, int n, uint64_t first) noexcept nogil:
    """Sort moves best first (insertion sort: n is small); `first` (0 for none) leads."""
    cdef int scores[ORDER_LIMIT]
    cdef int i, j, sc
    cdef uint64_t m
    if n < 2:
        return
    if n > ORDER_LIMIT:             # only bring `first` to the front
        for i in range(n):
            if moves[i] == first:
                moves[i] = moves[0]
                moves[0] = first
        return
    for i in range(n):
        scores[i] = (1 << 30) if moves[i] == first else move_score(s, moves[i])
    for i in range(1, n):
        m = moves[i]
        sc = scores[i]
        j = i - 1
        while j >= 0 and scores[j] < sc:
            moves[j + 1] = moves[j]
            scores[j + 1] = scores[j]
            j -= 1
        moves[j + 1] = m
        scores[j + 1] = sc
