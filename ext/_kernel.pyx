# cython: language_level=3
"""scopa_solver._kernel: the rules as bit operations and the exact perfect-information search.

One file per part of the algorithm, included here so that everything compiles into one C module
and inlines across parts."""

include "cards.pxi"
include "rules.pxi"
include "movegen.pxi"
include "play.pxi"
include "score.pxi"
include "zobrist.pxi"
include "tt.pxi"
include "ordering.pxi"
include "trace.pxi"
include "search.pxi"
include "endgame.pxi"
include "root.pxi"
include "api.pxi"
include "family_rules.pxi"
include "family_movegen.pxi"
include "family_play.pxi"
include "family_score.pxi"
include "family_search.pxi"
include "family_trace.pxi"
include "family_eval.pxi"
include "family_root.pxi"
include "family_api.pxi"
