"""Batch jobs over many positions and game records, on this machine or a Dask cluster.

`run_job` runs one of the `JOBS` (solve, analyze, suggest, review, label) over an input file,
folder or ``random:N`` into JSON lines, Parquet or `.npz` (docs/batch.md); ``scopa-solver batch``
is its command line. `jobs` holds one function per job, `inputs` the readers, `outputs` the
writers and their schemas, `engines` where the chunks run. `solve_job` solves one position too
big for one sitting as a checkpointed job of work items on the same engines (`deal`).
"""
from __future__ import annotations

from .deal import DealJobError, DealOptions, JobResult, solve_job
from .engines import ENGINES, DaskEngine, EngineOptions, LocalEngine, make_engine
from .inputs import BatchInputError, read_items
from .jobs import JOBS, BatchItemError, BatchOptionError, Item, JobOptions, RunOptions, item_seed, run_chunk
from .outputs import FEATURES, FORMATS, BatchOutputError, encode_position, read_rows
from .runner import BatchSummary, chunk_size, run_job

__all__ = ["run_job", "solve_job", "JobOptions", "RunOptions", "EngineOptions", "DealOptions", "JobResult",
           "DealJobError", "BatchSummary", "JOBS", "ENGINES", "FORMATS", "FEATURES", "Item",
           "item_seed", "run_chunk", "read_items", "read_rows", "encode_position", "chunk_size", "make_engine",
           "LocalEngine", "DaskEngine", "BatchItemError", "BatchOptionError", "BatchInputError", "BatchOutputError"]
