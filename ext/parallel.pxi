# One position on every core: N threads run the whole root search (root_search: MTD(f), and
# the best moves, pv and every move's value as asked) on the same position, each with its own
# search context (killers, move stack, counters, stop) and one shared table, so that what one
# thread proves the others read. Alone that would make them search the same tree side by side;
# they split it as in simplified ABDADA (Weill's ABDADA, Kerrigan's form): at a node with at
# least `busy_cards` cards, a move from the third on that another thread is searching right
# now (a small shared set of (position, move) hashes) is put off to the end of the move list,
# by when its value is usually in the table. The first two moves are searched by every thread
# (at a cut node one of them nearly always cuts; putting off from the second on: x1.21 nodes
# at k = 6 against x1.13, k = 7 x1.43 against x1.38). The first thread to end gives the
# answer and stops the others; the answer is the one-thread answer (each thread's search is
# exact over a table that holds only true bounds: values, best moves and pv do not depend on
# the order). The table (tt.pxi) is lockless (a torn entry is a miss) and, for the while, its
# region fixed at PARALLEL_MB at most (growing or halving it would move entries under the
# other threads' feet).

from posix.types cimport sigset_t
from posix.time cimport CLOCK_THREAD_CPUTIME_ID

cdef extern from "<pthread.h>" nogil:
    ctypedef unsigned long pthread_t
    int pthread_create(pthread_t* thread, void* attr, void* (*start)(void*) noexcept nogil, void* arg)
    int pthread_join(pthread_t thread, void** result)

cdef extern from "<signal.h>" nogil:
    int pthread_sigmask(int how, const sigset_t* new, sigset_t* old)
    int sigfillset(sigset_t* s)
    int SIG_SETMASK

cdef extern from *:
    """
    #define CLAIM_FIRST(p, v) __sync_bool_compare_and_swap((p), -1, (v))
    """
    bint CLAIM_FIRST(int* p, int v) noexcept nogil

cdef enum:
    MAX_THREADS = 256
    BUSY_SLOTS = 16384          # moves being searched: 128 KiB, stays in cache
    BUSY_MIN_CARDS = 12         # nodes that put busy moves off (smaller subtrees: not worth a hash)
    BUSY_FROM = 2               # the moves before this one are searched by every thread
    PARALLEL_MB = 16            # the table region of a parallel search, at most


cdef inline bint busy_defer(Engine* F, uint64_t key, uint64_t* moves, int i, int* n,
                              uint64_t* mark) noexcept nogil:
    """Move i of a node (not its first): True if another thread is searching it (it is copied to
    the end of the list, searched there without this test); else it is marked as searched by
    this thread (`mark`, for busy_done). The first BUSY_FROM moves are neither."""
    cdef uint64_t h
    cdef uint64_t* slot
    if i < BUSY_FROM:
        return False
    h = mix64(key ^ (moves[i] * 0x9E3779B97F4A7C15ULL)) | 1
    slot = F.busy + (h & (BUSY_SLOTS - 1))
    if TT_LOAD(slot) == h and n[0] < MAX_MOVES:
        moves[n[0]] = moves[i]
        n[0] += 1
        return True
    TT_STORE(slot, h)
    mark[0] = h
    return False


cdef inline void busy_done(Engine* F, uint64_t mark) noexcept nogil:
    cdef uint64_t* slot = F.busy + (mark & (BUSY_SLOTS - 1))
    if TT_LOAD(slot) == mark:       # a race here only costs a later thread a deferral
        TT_STORE(slot, 0)


ctypedef struct Worker:
    Engine* F
    const State* root
    int want
    int index
    int status
    RootResult R
    Worker* all                # every worker, for the first one to end to stop the others
    int n
    int* first                  # the worker that ended first (-1: none yet)
    double cpu                  # its thread's CPU seconds


cdef void* worker_run(void* arg) noexcept nogil:
    cdef Worker* w = <Worker*>arg
    cdef int i
    cdef timespec ts
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    w.cpu = -(ts.tv_sec + ts.tv_nsec * 1e-9)
    w.status = root_search(w.F, w.root, w.want, &w.R)
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    w.cpu += ts.tv_sec + ts.tv_nsec * 1e-9
    if CLAIM_FIRST(w.first, w.index):
        for i in range(w.n):
            if i != w.index:
                STORE_FLAG(&w.all[i].F.S.abort, 1)
    return NULL


cdef int parallel_search(Engine* F, const State* root, int want, RootResult* R, int threads,
                           double* cpu) noexcept nogil:
    """root_search of `root` on `threads` threads sharing F's table (this thread is one of
    them, the only one that looks at Ctrl-C); the same result, its nodes and table counts those
    of every thread, its seconds the wall time. A node limit is shared out among the threads;
    when a limit or a stop ends one thread's search, every thread stops and the result is this
    thread's (its stop the reason of the one that ended first). `cpu`: every thread's CPU
    seconds, the most first (on an idle machine the wall time). -1 if memory ran out."""
    cdef int n = min(max(threads, 1), MAX_THREADS), i, started = 1, first = -1, status, win
    cdef Worker* workers = <Worker*>calloc(n, sizeof(Worker))
    cdef Engine* helpers = <Engine*>calloc(n, sizeof(Engine))
    cdef uint64_t* busy = <uint64_t*>calloc(BUSY_SLOTS, sizeof(uint64_t))
    cdef pthread_t* ids = <pthread_t*>calloc(n, sizeof(pthread_t))
    cdef Table* t = &F.S.table
    cdef uint64_t max_nodes = F.S.max_nodes, nodes = 0, probes = 0, hits = 0, stores = 0, saved_max
    cdef double start = monotonic()
    cdef sigset_t all_signals, old_signals
    cdef Worker* w
    if workers == NULL or helpers == NULL or busy == NULL or ids == NULL or n == 1 or t.entries == NULL:
        free(workers); free(helpers); free(busy); free(ids)
        status = root_search(F, root, want, R)
        cpu[0] = cpu[1] = R.seconds
        return status
    # a fixed region for the whole search: no grow (t.max_mask == t.mask for the while) and no
    # halving at its start (fresh); PARALLEL_MB of the table at most (measured: x1.3 faster than
    # the whole 64 MiB at k = 7 for x1.1 more nodes; a probe is a trip to memory either way, but
    # fewer distinct pages, fewer TLB misses)
    t.mask = t.max_mask
    while (t.mask > FIRST_REGION - 1 and (t.mask + 1) * BUCKET * sizeof(TTEntry)
           > (F.parallel_mb if F.parallel_mb > 0 else PARALLEL_MB) * 1048576.0):
        t.mask = (t.mask + 1) // 2 - 1
    if t.mask > t.used_mask:
        t.used_mask = t.mask
    saved_max = t.max_mask
    t.max_mask = t.mask
    t.fresh = t.capacity
    F.busy = busy
    if F.busy_cards <= 0:
        F.busy_cards = BUSY_MIN_CARDS
    if max_nodes:
        F.S.max_nodes = max(1, max_nodes // <uint64_t>n)
    for i in range(n):
        w = &workers[i]
        w.root = root
        w.want = want
        w.index = i
        w.all = workers
        w.n = n
        w.first = &first
        w.R.window_lo = R.window_lo     # a windowed search: every thread proves against it
        w.R.window_hi = R.window_hi
        if i == 0:
            w.F = F
            continue
        w.F = &helpers[i]
        helpers[i] = F[0]
        helpers[i].S.check_signals = 0
        helpers[i].S.abort = 0
        helpers[i].S.trace = NULL
        helpers[i].S.nodes = 0
        helpers[i].S.table.probes = helpers[i].S.table.hits = helpers[i].S.table.stores = 0
        helpers[i].S.table.filled = 0
        helpers[i].moves = <uint64_t*>malloc(MAX_PLIES * MAX_MOVES * sizeof(uint64_t))
    # the helpers take no signal: Ctrl-C is this thread's to see
    sigfillset(&all_signals)
    pthread_sigmask(SIG_SETMASK, &all_signals, &old_signals)
    for i in range(1, n):
        if helpers[i].moves == NULL or pthread_create(&ids[i], NULL, worker_run, &workers[i]) != 0:
            break
        started += 1
    pthread_sigmask(SIG_SETMASK, &old_signals, NULL)
    worker_run(&workers[0])
    for i in range(1, started):
        pthread_join(ids[i], NULL)
    status = 0
    cpu[0] = cpu[1] = 0.0
    for i in range(started):
        cpu[0] = max(cpu[0], workers[i].cpu)
        cpu[1] += workers[i].cpu
        if workers[i].status != 0:
            status = -1
        nodes += workers[i].R.nodes
        probes += workers[i].R.probes
        hits += workers[i].R.hits
        stores += workers[i].R.stores
        if i > 0:
            t.probes += helpers[i].S.table.probes
            t.hits += helpers[i].S.table.hits
            t.stores += helpers[i].S.table.stores
            t.filled += helpers[i].S.table.filled
            t.others_written |= helpers[i].S.table.others_written
    # the answer: the first thread's if it completed, else this thread's, stopped for the reason
    # the first one had (a helper's stop of this thread is not a request from outside)
    win = first if first > 0 and workers[first].R.stop == STOP_NONE else 0
    R[0] = workers[win].R
    if first > 0:
        F.S.abort = 0
        R.stop = workers[first].R.stop
    for i in range(started):
        if i != win:
            result_free(&workers[i].R)
    for i in range(1, started):
        F.evaluations += helpers[i].evaluations
    for i in range(1, n):
        free(helpers[i].moves)
    R.nodes = nodes
    R.probes = probes
    R.hits = hits
    R.stores = stores
    R.seconds = monotonic() - start
    F.S.max_nodes = max_nodes
    t.max_mask = saved_max
    F.busy = NULL
    free(workers); free(helpers); free(busy); free(ids)
    return status
