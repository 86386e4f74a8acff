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
