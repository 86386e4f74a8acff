# The kernel face's shared parts: the range checks every argument passes. The functions, the Searcher and its result are in family_api.pxi (a position of any
# game crosses the boundary as one tuple, described there).

from cpython.exc cimport PyErr_CheckSignals
from cpython.number cimport PyNumber_Index



cdef uint64_t _cards(object value, str what, int max_cards) except? 0xFFFFFFFFFFFFFFFF:
    cdef uint64_t v
    try:
        v = value
    except (TypeError, OverflowError):
        raise ValueError(f"{what}: not a set of the 40 cards ({value!r})") from None
    if v > ALL_CARDS:
        raise ValueError(f"{what}: not a set of the 40 cards ({value!r})")
    if popcount(v) > max_cards:
        raise ValueError(f"{what}: {popcount(v)} cards, at most {max_cards} allowed")
    return v


cdef inline uint64_t _seat_cards(object value, str what, int seat, int max_cards) except? 0xFFFFFFFFFFFFFFFF:
    """_cards for one seat's entry, its name ("hand 2") made only for an error: a position is
    loaded for every kernel call, and formatting names cost more than the loading."""
    cdef uint64_t v
    try:
        v = value
    except (TypeError, OverflowError):
        v = ALL_CARDS + 1
    if v <= ALL_CARDS and popcount(v) <= max_cards:
        return v
    return _cards(value, f"{what} {seat}", max_cards)


cdef int _small(object value, str what, int low, int high) except? -999:
    cdef long v
    try:
        v = value
    except (TypeError, OverflowError):
        raise ValueError(f"{what} must be a whole number, not {value!r}") from None
    if v < low or v > high:
        raise ValueError(f"{what} must be between {low} and {high}, not {v!r}")
    return <int>v


# What root_search can be asked for (root.pxi), for the Python side: best, pv, all, full window.
WANT_FLAGS = (WANT_BEST, WANT_PV, WANT_ALL, FULL_WINDOW)
# The rule switches as the kernel numbers them (rules.pxi), so that Python never copies them.
RULE_BITS = {"asso_piglia_tutto": RULE_ASSO_PIGLIA_TUTTO, "ace_sweep_is_scopa": RULE_ACE_SWEEP_IS_SCOPA,
             "re_bello": RULE_RE_BELLO, "napola": RULE_NAPOLA, "fewest_cards": RULE_FEWEST_CARDS,
             "primiera_zero": RULE_PRIMIERA_ZERO}
globals()["RULE_ALL"] = RULE_ALL        # the C name is taken by the enum; the value is the same
# The largest transposition table a Searcher makes, in MiB (tt.pxi).
MAX_TT_MB = TT_MAX_MB
# Time limits beyond this many seconds (about 31 years) mean no limit.
cdef double NO_TIME_LIMIT = 1e9


cdef uint64_t _count(object value, str what) except? 0xFFFFFFFFFFFFFFFF:
    """A non-negative Python int of any size, clamped to 2^64 - 1."""
    n = PyNumber_Index(value)
    if n < 0:
        raise ValueError(f"{what} must be 0 or more, not {n}")
    return <uint64_t>min(n, 0xFFFFFFFFFFFFFFFF)


cdef double _seconds(object value) except? -1.0:
    """A time limit as the search takes it: 0 for none (0, inf or beyond NO_TIME_LIMIT)."""
    cdef double t
    try:
        t = value
    except OverflowError:               # an int too large for a double
        t = float("inf") if value > 0 else -1.0
    if t != t:
        raise ValueError("time_limit must be a number of seconds, not NaN")
    if t < 0:
        raise ValueError(f"time_limit must be 0 (none) or more seconds, not {t:g}")
    return 0.0 if t > NO_TIME_LIMIT else t


cdef inline uint64_t xorshift(uint64_t* x) noexcept nogil:
    x[0] ^= x[0] << 13
    x[0] ^= x[0] >> 7
    x[0] ^= x[0] << 17
    return x[0]


cdef enum:
    PLAYOUT_SIGNALS_EVERY = 100000      # moves (or playouts) between Ctrl-C checks
