# The transposition table: buckets of four 16-byte entries (one cache line) in fixed memory.
# A search uses only as much of that memory as it needs: the active region starts small enough
# to stay in the processor's cache, doubles (entries moved along) when the current search has
# filled half of it, and halves again after a search that used little of it (the entries of the
# upper half are then out of reach, not wrong). A probe into a cold 64 MiB table is a trip to
# main memory; most searches store a few thousand entries and now never leave the cache.
# An entry keeps the key with its low 12 bits replaced by an in-use bit, the size of the subtree
# (cards still to play) and a generation for replacement (the bucket, at least 2^12 of them
# unless the table is tiny, supplies those bits), then the best move and a lower and an upper
# bound on the points still to come for the side to move.
# The match objective (search.pxi, MATCH) stores chances in 1/10,000ths: its entries are wide,
# 15 bits a bound, the move in the 34 bits left, its captures as a subset of the node's table
# (pack_table_move: the caller knows the table); a table of more than 28 cards keeps no move.
# Lockless (Hyatt): the first word holds that key word XOR the data word, so that an entry torn
# by two threads writing it at once (a parallel search shares one table: parallel.pxi)
# fails its key check and is a miss, never a wrong bound. Each word is read once (relaxed
# atomic loads: plain moves, the compiler may not read twice).

from libc.stdlib cimport malloc, free, calloc
from libc.string cimport memset

cdef extern from "<stdlib.h>" nogil:
    int posix_memalign(void** memptr, size_t alignment, size_t size)

cdef extern from "<sys/mman.h>" nogil:
    int madvise(void* addr, size_t length, int advice)
    int MADV_HUGEPAGE

cdef enum:
    BUCKET = 4
    VALUE_INF = 16383           # beyond every value: round points and match chances (0..10000)
    NARROW_INF = 127            # the narrow entries' infinity (points: |value| <= 126)
    FIRST_REGION = 4096         # buckets (256 KiB): the active region of a fresh or cleared table
    OTHERS = 65536              # entries (1 MiB) by the cards alone (measured: docs/search.md)
    TT_MAX_MB = 65536           # the largest table table_init makes (2^30 buckets)

cdef extern from *:
    """
    #define TT_LOAD(p) __atomic_load_n((p), __ATOMIC_RELAXED)
    #define TT_STORE(p, v) __atomic_store_n((p), (v), __ATOMIC_RELAXED)
    """
    uint64_t TT_LOAD(uint64_t* p) noexcept nogil
    void TT_STORE(uint64_t* p, uint64_t v) noexcept nogil

cdef const uint64_t KEY_BITS = ~0xFFFULL
cdef const uint64_t IN_USE = 0x800ULL

ctypedef struct TTEntry:
    uint64_t lock     # (key & KEY_BITS | IN_USE | plies << 5 | generation (5 bits)) ^ data
    uint64_t data     # move (46 bits) | (lower + 128) << 46 | (upper + 128) << 54

ctypedef struct Table:
    TTEntry* entries
    TTEntry* others       # entries by the cards alone, other piles (see "Other piles" below)
    bint others_written   # since the last clear (only two-sided searches write there)
    uint64_t mask         # buckets in the active region - 1
    uint64_t used_mask    # the largest active region since the last clear (what clear wipes)
    uint64_t max_mask     # buckets allocated - 1
    uint64_t capacity     # entries allocated
    uint8_t generation
    uint64_t fresh        # entries the current search has written into empty or stale slots
    uint64_t probes, hits, stores, filled


cdef int table_init(Table* t, double megabytes) noexcept nogil:
    """Allocate about `megabytes` (a power-of-two number of buckets, at least one), at most
    TT_MAX_MB; 0, a negative size or NaN disables. -1 if the memory is not there."""
    cdef uint64_t buckets = 1
    cdef double limit
    t.entries = NULL
    t.others = NULL
    t.others_written = False
    t.mask = t.max_mask = t.used_mask = 0
    t.capacity = 0
    t.generation = 0
    t.probes = t.hits = t.stores = t.filled = t.fresh = 0
    if not (megabytes > 0):             # NaN too
        return 0
    # capped first, so that the doubling below stops far from wrapping around (inf, 1e13...)
    limit = min(megabytes, <double>TT_MAX_MB) * 1048576.0
    while <double>(buckets * 2 * BUCKET * sizeof(TTEntry)) <= limit:
        buckets *= 2
    # 2 MiB alignment and huge pages where the system allows: a probe is a random access into
    # the whole table, and with 4 KiB pages nearly every probe would also miss the TLB
    cdef void* memory = NULL
    if posix_memalign(&memory, 2097152, buckets * BUCKET * sizeof(TTEntry)) != 0:
        return -1
    t.entries = <TTEntry*>memory
    madvise(memory, buckets * BUCKET * sizeof(TTEntry), MADV_HUGEPAGE)
    memset(t.entries, 0, buckets * BUCKET * sizeof(TTEntry))   # touch every page now, not mid-search
    t.max_mask = buckets - 1
    t.mask = t.used_mask = min(buckets, FIRST_REGION) - 1
    t.capacity = buckets * BUCKET
    t.others = <TTEntry*>calloc(OTHERS, sizeof(TTEntry))
    if t.others == NULL:
        free(t.entries)
        t.entries = NULL
        return -1
    return 0


cdef void table_clear(Table* t) noexcept nogil:
    """Forget every entry (only the regions used since the last clear were written) and go back
    to the first region."""
    if t.entries != NULL:
        memset(t.entries, 0, (t.used_mask + 1) * BUCKET * sizeof(TTEntry))
        if t.others_written:
            memset(t.others, 0, OTHERS * sizeof(TTEntry))
            t.others_written = False
    t.mask = t.used_mask = min(t.max_mask, FIRST_REGION - 1)
    t.filled = 0
    t.fresh = 0


cdef void table_new_search(Table* t) noexcept nogil:
    """Start a search: a new generation, and half the region if the last search filled less
    than an eighth of it (so one big search does not spread all later small ones out of cache)."""
    t.generation = (t.generation + 1) & 31
    if t.mask + 1 > FIRST_REGION and 8 * t.fresh < (t.mask + 1) * BUCKET:
        t.mask = (t.mask + 1) // 2 - 1
    t.fresh = 0


cdef void table_grow(Table* t) noexcept nogil:
    """Double the active region: the entries whose key has the new index bit set move to the
    front of the bucket's twin in the new half (which holds nothing, or entries of earlier
    searches from before a halving); both buckets stay packed from slot 0, as table_store
    expects."""
    cdef uint64_t half = t.mask + 1, b
    cdef int i, kept, moved
    cdef TTEntry* e
    cdef TTEntry* twin
    for b in range(half):
        e = t.entries + b * BUCKET
        twin = e + half * BUCKET
        kept = moved = 0
        for i in range(BUCKET):
            if e[i].lock ^ e[i].data == 0:
                break
            if (e[i].lock ^ e[i].data) & half:
                twin[moved] = e[i]
                moved += 1
            else:
                e[kept] = e[i]
                kept += 1
        for i in range(kept, BUCKET):
            e[i].lock = 0
            e[i].data = 0
    t.mask = 2 * half - 1
    if t.mask > t.used_mask:
        t.used_mask = t.mask


cdef void table_free(Table* t) noexcept nogil:
    free(t.entries)
    free(t.others)
    t.entries = NULL
    t.others = NULL
    t.others_written = False
    t.capacity = 0


cdef inline bint table_probe_any(Table* t, uint64_t key, int* lower, int* upper, uint64_t* move,
                                 bint wide) noexcept nogil:
    cdef TTEntry* e = t.entries + (key & t.mask) * BUCKET
    cdef uint64_t lock = key & KEY_BITS | IN_USE, data     # IN_USE: an empty slot never matches
    cdef int i
    t.probes += 1
    for i in range(BUCKET):
        data = TT_LOAD(&e[i].data)
        if ((TT_LOAD(&e[i].lock) ^ data) & (KEY_BITS | IN_USE)) == lock:
            t.hits += 1
            unpack_entry(data, lower, upper, move, wide)
            return True
    return False


cdef inline void unpack_entry(uint64_t data, int* lower, int* upper, uint64_t* move, bint wide) noexcept nogil:
    cdef int a, b
    if wide:
        move[0] = data & ((1ULL << 34) - 1)
        lower[0] = <int>((data >> 34) & 0x7FFF) - 16384
        upper[0] = <int>((data >> 49) & 0x7FFF) - 16384
        return
    move[0] = data & ((1ULL << 46) - 1)
    a = <int>((data >> 46) & 0xFF) - 128
    b = <int>((data >> 54) & 0xFF) - 128
    lower[0] = a if a > -NARROW_INF else -VALUE_INF
    upper[0] = b if b < NARROW_INF else VALUE_INF


cdef inline uint64_t pack_entry(int lower, int upper, uint64_t move, bint wide) noexcept nogil:
    if wide:
        return ((move & ((1ULL << 34) - 1)) | (<uint64_t>(lower + 16384) << 34)
                | (<uint64_t>(upper + 16384) << 49))
    if lower < -NARROW_INF:
        lower = -NARROW_INF
    if upper > NARROW_INF:
        upper = NARROW_INF
    return (move & ((1ULL << 46) - 1)) | (<uint64_t>(lower + 128) << 46) | (<uint64_t>(upper + 128) << 54)


cdef inline bint table_probe(Table* t, uint64_t key, int* lower, int* upper, uint64_t* move) noexcept nogil:
    return table_probe_any(t, key, lower, upper, move, False)


cdef inline uint64_t pack_table_move(uint64_t table, uint64_t move) noexcept nogil:
    """A move in 34 bits: its card, its captures as a subset of `table` (ranked by card); 0 (no
    move) when the table holds more than 28 cards."""
    cdef uint64_t capture = move & ((1ULL << 40) - 1), out = 0, low
    cdef int k = 0
    if popcount(table) > 28:
        return 0
    while table:
        low = table & (~table + 1)
        if capture & low:
            out |= 1ULL << k
        k += 1
        table &= table - 1
    return ((move >> 40) << 28) | out


cdef inline uint64_t unpack_table_move(uint64_t table, uint64_t packed) noexcept nogil:
    cdef uint64_t capture = 0, low
    cdef int k = 0
    if packed == 0:
        return 0
    while table:
        low = table & (~table + 1)
        if (packed >> k) & 1:
            capture |= low
        k += 1
        table &= table - 1
    return ((packed >> 28) << 40) | capture


cdef inline void table_store_any(Table* t, uint64_t key, int lower, int upper, uint64_t move, int plies,
                                 bint wide) noexcept nogil:
    """Store bounds, tightening those already known for the key; otherwise replace the entry of an
    older search or, failing that, the one with the smallest subtree. `move` must reach at least
    `lower` (when lower is a bound), and the entry keeps that: its move reaches its lower bound."""
    cdef TTEntry* e = t.entries + (key & t.mask) * BUCKET
    cdef uint64_t lock = key & KEY_BITS | IN_USE, data, word
    cdef int i, victim = 0, worst = 1 << 30, cost, old_lower, old_upper
    cdef uint64_t old_move
    t.stores += 1
    for i in range(BUCKET):
        data = TT_LOAD(&e[i].data)
        word = TT_LOAD(&e[i].lock) ^ data
        if (word & (KEY_BITS | IN_USE)) == lock:
            unpack_entry(data, &old_lower, &old_upper, &old_move, wide)
            if old_lower > lower:       # the stored move proves the higher bound: keep it
                lower = old_lower
                move = old_move
            if old_upper < upper:
                upper = old_upper
            victim = i
            break
        if word == 0:
            cost = -2000
        else:
            cost = <int>((word >> 5) & 0x3F) + (0 if (word & 31) == t.generation else -1000)
        if cost < worst:
            worst = cost
            victim = i
        if cost == -2000:
            break
    if worst < 0:                   # an empty slot or one left by an earlier search
        if worst == -2000:
            t.filled += 1
        t.fresh += 1
    data = pack_entry(lower, upper, move, wide)
    TT_STORE(&e[victim].data, data)
    TT_STORE(&e[victim].lock, (lock | (<uint64_t>(plies & 0x3F) << 5) | t.generation) ^ data)
    if 2 * t.fresh > (t.mask + 1) * BUCKET and t.mask < t.max_mask:
        table_grow(t)


cdef inline void table_store(Table* t, uint64_t key, int lower, int upper, uint64_t move, int plies) noexcept nogil:
    table_store_any(t, key, lower, upper, move, plies, False)


# Other piles (two sides, no napola). Positions with the same cards in play, seat to move,
# dealer and last capturer's side but other piles (the two sides took the same cards in another
# order, or each other's) play out the same game tree, and their values differ by at most what
# the piles can change at its ends (piles_shift). A second, small direct-mapped array keeps the
# last bounds stored for each such "cards key" with its piles' summary (48 bits: piles_summary)
# and the two narrow bounds, lockless as above; a probe that finds other piles there shifts
# their bounds.

cdef inline bint others_probe(Table* t, uint64_t play_key, uint64_t* summary, int* lower,
                              int* upper) noexcept nogil:
    """The entry for `play_key` (whatever its piles): their summary and its bounds."""
    cdef TTEntry* e = t.others + ((play_key >> 32) & (OTHERS - 1))
    cdef uint64_t data = TT_LOAD(&e.data), a, b
    if (TT_LOAD(&e.lock) ^ data) != (play_key | 1):
        return False
    summary[0] = data & ((1ULL << 48) - 1)
    a = (data >> 48) & 0xFF
    b = data >> 56
    lower[0] = <int>a - 128 if a > 128 - NARROW_INF else -VALUE_INF
    upper[0] = <int>b - 128 if b < 128 + NARROW_INF else VALUE_INF
    return True


cdef inline void others_store(Table* t, uint64_t play_key, uint64_t summary, int lower,
                              int upper) noexcept nogil:
    """Keep these bounds for the cards key (tightening those of the same piles)."""
    cdef TTEntry* e = t.others + ((play_key >> 32) & (OTHERS - 1))
    cdef uint64_t data = TT_LOAD(&e.data), old
    cdef int old_lower, old_upper
    if others_probe(t, play_key, &old, &old_lower, &old_upper) and old == summary:
        lower = max(lower, old_lower)
        upper = min(upper, old_upper)
    lower = max(lower, -NARROW_INF)
    upper = min(upper, NARROW_INF)
    data = summary | (<uint64_t>(lower + 128) << 48) | (<uint64_t>(upper + 128) << 56)
    t.others_written = True
    TT_STORE(&e.data, data)
    TT_STORE(&e.lock, (play_key | 1) ^ data)
