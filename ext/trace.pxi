# Recording the search as it runs, for the "search" game tree: every node entered (with its
# window and the move that led to it), table answers, ends of round, and what each node returned
# after how many of its moves. Off (a NULL buffer) in normal searches: one test per node.

cdef enum:
    EVENT_PASS = 0      # a root-level search starts: depth, alpha, beta, move tested (or 0)
    EVENT_ENTER = 1     # a node: depth, alpha, beta, the move that led to it
    EVENT_TABLE = 2     # answered by the table: depth, lower, upper
    EVENT_LEAF = 3      # end of the round: depth, value
    EVENT_EXIT = 4      # a node returns: depth, value, moves generated, moves searched

ctypedef struct TraceEvent:
    uint64_t move
    int16_t a, b
    int16_t n_moves, n_searched
    int8_t kind, depth

ctypedef struct Trace:
    TraceEvent* events
    int capacity, count
    bint overflow
    int depth_offset        # depth of the current pass's root minus its alphabeta ply
    uint64_t next_move      # the move leading to the node about to be entered



cdef inline void trace_event(Trace* t, int kind, int ply, int a, int b, uint64_t move,
                             int n_moves, int n_searched) noexcept nogil:
    cdef TraceEvent* e
    if t.count >= t.capacity:
        t.overflow = True
        return
    e = t.events + t.count
    t.count += 1
    e.kind = kind
    e.depth = ply + t.depth_offset
    e.a = a
    e.b = b
    e.move = move
    e.n_moves = n_moves
    e.n_searched = n_searched


cdef inline void trace_pass(Trace* t, int depth, int ply, int alpha, int beta, uint64_t move) noexcept nogil:
    """Start a root-level search at `depth` below the traced position, searched from `ply`."""
    if t != NULL:
        t.depth_offset = depth - ply
        t.next_move = move
        trace_event(t, EVENT_PASS, ply, alpha, beta, move, 0, 0)


# The search (TWO_SIDES, PARANOID) records itself through these hooks. The recursion's calls go
# through search_node: untraced it is alphabeta itself (one test of
# the trace pointer); traced it records the node's enter, its end of round (or last card scored
# without children), and its exit with the moves it had and the children it searched, so
# search.pxi carries only the table-answer and next-move hooks. Max^n is not traced.

ctypedef struct SearchTrace:
    Trace t                         # first: F.S.trace points here
    int children[MAX_PLIES + 2]    # children entered so far by the open node at each ply


cdef inline int search_node(Engine* F, const State* s, int alpha, int beta, int ply) noexcept nogil:
    if F.S.trace == NULL:
        return alphabeta(F, s, alpha, beta, ply)
    return traced_node(F, s, alpha, beta, ply)


cdef int traced_node(Engine* F, const State* s, int alpha, int beta, int ply) noexcept nogil:
    cdef SearchTrace* ft = <SearchTrace*>F.S.trace
    cdef Trace* t = &ft.t
    cdef int v, n = 0, searched, start
    trace_event(t, EVENT_ENTER, ply, alpha, beta, t.next_move, 0, 0)
    if ply > 0:
        ft.children[ply - 1] += 1
    ft.children[ply] = 0
    start = t.count
    v = alphabeta(F, s, alpha, beta, ply)
    searched = ft.children[ply]
    if s.in_hands:                  # this node's move-stack level is free again
        n = generate_moves(s, F.game.rules, F.moves + ply * MAX_MOVES)
    if (searched == 0 and t.count == start and not F.S.stop
            and (n == 0 or last_card_fast(F, s) or in_last_round(F, s) or (F.horizon_left and at_horizon(F, s)))):
        trace_event(t, EVENT_LEAF, ply, v, v, 0, 0, 0)
    trace_event(t, EVENT_EXIT, ply, v, 0, 0, n, searched)
    return v


cdef inline void trace_child_pass(Engine* F, const State* s, const State* child, int r,
                                    int alpha, int beta, uint64_t move) noexcept nogil:
    """A root-level search of s's child after `move` (achieves), F.S.trace_depth below the
    traced position, with the child's window as child_value gives it."""
    if F.team[child.to_move] == F.team[s.to_move]:
        trace_pass(F.S.trace, F.S.trace_depth + 1, 1, alpha - r, beta - r, move)
    else:
        trace_pass(F.S.trace, F.S.trace_depth + 1, 1, r - beta, r - alpha, move)
