# The transposition table: buckets of four 16-byte entries (one cache line), fixed memory.
# An entry keeps the upper 48 bits of the key (the low bits chose the bucket), the size of the
# subtree (cards still to play) and a generation for replacement, the best move, and a lower and
# an upper bound on the points still to come for the side to move.

from libc.stdlib cimport malloc, free, calloc
from libc.string cimport memset

cdef extern from "<stdlib.h>" nogil:
    int posix_memalign(void** memptr, size_t alignment, size_t size)

cdef extern from "<sys/mman.h>" nogil:
    int madvise(void* addr, size_t length, int advice)
    int MADV_HUGEPAGE

cdef extern from *:
    void prefetch "__builtin_prefetch"(const void*) nogil

cdef enum:
    BUCKET = 4
    VALUE_INF = 127

ctypedef struct TTEntry:
    uint64_t lock     # key & ~0xFFFF | in-use bit 15 | plies << 8 | generation
    uint64_t data     # move (46 bits) | (lower + 128) << 46 | (upper + 128) << 54

ctypedef struct Table:
    TTEntry* entries
    uint64_t mask         # number of buckets - 1
    uint64_t capacity     # entries
    uint8_t generation
    uint64_t probes, hits, stores, filled


cdef int table_init(Table* t, double megabytes) noexcept nogil:
    """Allocate about `megabytes` (a power-of-two number of buckets, at least one); 0 disables."""
    cdef uint64_t buckets = 1
    t.entries = NULL
    t.mask = 0
    t.capacity = 0
    t.generation = 0
    t.probes = t.hits = t.stores = t.filled = 0
    if megabytes <= 0:
        return 0
    while buckets * 2 * BUCKET * sizeof(TTEntry) <= megabytes * 1048576.0:
        buckets *= 2
    # 2 MiB alignment and huge pages where the system allows: a probe is a random access into
    # the whole table, and with 4 KiB pages nearly every probe would also miss the TLB
    cdef void* memory = NULL
    if posix_memalign(&memory, 2097152, buckets * BUCKET * sizeof(TTEntry)) != 0:
        return -1
    t.entries = <TTEntry*>memory
    madvise(memory, buckets * BUCKET * sizeof(TTEntry), MADV_HUGEPAGE)
    memset(t.entries, 0, buckets * BUCKET * sizeof(TTEntry))   # touch every page now, not mid-search
    t.mask = buckets - 1
    t.capacity = buckets * BUCKET
    return 0


cdef void table_clear(Table* t) noexcept nogil:
    if t.entries != NULL:
        memset(t.entries, 0, t.capacity * sizeof(TTEntry))
    t.filled = 0


cdef void table_free(Table* t) noexcept nogil:
    free(t.entries)
    t.entries = NULL
    t.capacity = 0


cdef inline void table_prefetch(const Table* t, uint64_t key) noexcept nogil:
    prefetch(t.entries + (key & t.mask) * BUCKET)


cdef inline bint table_probe(Table* t, uint64_t key, int* lower, int* upper, uint64_t* move) noexcept nogil:
    cdef TTEntry* e = t.entries + (key & t.mask) * BUCKET
    cdef uint64_t lock = key & ~0xFFFFULL
    cdef int i
    t.probes += 1
    for i in range(BUCKET):
        if (e[i].lock & ~0xFFFFULL) == lock and e[i].lock != 0:
            t.hits += 1
            move[0] = e[i].data & ((1ULL << 46) - 1)
            lower[0] = <int>((e[i].data >> 46) & 0xFF) - 128
            upper[0] = <int>((e[i].data >> 54) & 0xFF) - 128
            return True
    return False


cdef inline void table_store(Table* t, uint64_t key, int lower, int upper, uint64_t move, int plies) noexcept nogil:
    """Store bounds, tightening those already known for the key; otherwise replace the entry of an
    older search or, failing that, the one with the smallest subtree."""
    cdef TTEntry* e = t.entries + (key & t.mask) * BUCKET
    cdef uint64_t lock = key & ~0xFFFFULL
    cdef int i, victim = 0, worst = 1 << 30, cost, old_lower, old_upper
    t.stores += 1
    for i in range(BUCKET):
        if (e[i].lock & ~0xFFFFULL) == lock and e[i].lock != 0:
            old_lower = <int>((e[i].data >> 46) & 0xFF) - 128
            old_upper = <int>((e[i].data >> 54) & 0xFF) - 128
            if old_lower > lower:
                lower = old_lower
            if old_upper < upper:
                upper = old_upper
            victim = i
            break
        if e[i].lock == 0:
            cost = -1
            t.filled += 1
        else:
            cost = <int>((e[i].lock >> 8) & 0x3F) + (0 if <uint8_t>(e[i].lock & 0xFF) == t.generation else -1000)
        if cost < worst:
            worst = cost
            victim = i
        if cost == -1:
            break
    e[victim].lock = lock | 0x8000ULL | (<uint64_t>(plies & 0x3F) << 8) | t.generation
    e[victim].data = (move & ((1ULL << 46) - 1)) | (<uint64_t>(lower + 128) << 46) | (<uint64_t>(upper + 128) << 54)
