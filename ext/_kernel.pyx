# cython: language_level=3
"""scopa_solver._kernel: the rules as bit operations and the exact perfect-information search,
one engine for every game of the family.

One file per part of the algorithm, included here so that everything compiles into one C module
and inlines across parts."""

include "cards.pxi"
include "rules.pxi"
include "movegen.pxi"
include "score.pxi"
include "zobrist.pxi"
include "play.pxi"
include "tt.pxi"
include "trace.pxi"
include "search.pxi"
include "endgame.pxi"
include "eval.pxi"
include "ordering.pxi"
include "bounds.pxi"
include "equiv.pxi"
include "root.pxi"
include "parallel.pxi"
include "api.pxi"
