"""The kernel face: the one package that talks to the compiled kernel (``_kernel``, see ``ext/``).

Everything the Python layer asks of the kernel goes through here, one job a module:

- `face`: `KernelState`, the one named state a position of any game crosses the boundary as
  (card sets as 40-bit masks); `legal_moves`, `play` (the next state and its `PlayEvents`),
  scoring, the kernel's types and constants; the only module that imports ``_kernel``;
- `limit`: `Limit`, how far a search may go and what it may use, checked once when made (and
  the checks behind it);
- `pool`: the searchers (a transposition table and buffers each) kept in one bounded pool, and
  their stop at the interpreter's exit;
- `timebox`: `time_box`, a deadline that reaches every search of a piece of work (a tree, a
  review, a web request) without passing it down, and that another thread can cancel; a
  decision's `time_budget`;
- `deepening`: iterative deepening of one family state towards exact (`deepen`);
- `workers`: the lasting worker threads of the batches, started with Ctrl-C held back;
- `scheduler`: `run_batch`, the one scheduler of every batch of searches (solver batches and
  PIMC worlds): dynamic batches over worker threads with the GIL released, per-search limits,
  an overall deadline, progress, and a stop that reaches every worker on Ctrl-C or interpreter
  exit.

Every module's public names (its ``__all__``) are imported from here: use
``from scopa_solver.kernel import X`` or ``kernel.X``. A module's other names are for its
siblings only.
"""
from __future__ import annotations

from . import deepening, face, limit, pool, scheduler, timebox
from .deepening import *  # noqa: F401,F403
from .face import *  # noqa: F401,F403
from .limit import *  # noqa: F401,F403
from .limit import NO_LIMIT  # noqa: F401
from .pool import *  # noqa: F401,F403
from .scheduler import *  # noqa: F401,F403
from .timebox import *  # noqa: F401,F403

__all__ = face.__all__ + limit.__all__ + pool.__all__ + timebox.__all__ + deepening.__all__ + scheduler.__all__
