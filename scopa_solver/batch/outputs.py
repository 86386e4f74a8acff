"""Where the rows of a batch job go: JSON lines written as items finish, then Parquet or `.npz`.

Every row is first appended to a JSON lines file and flushed, so an interrupted run loses
nothing it finished and ``resume`` skips the keys already there. For the ``jsonl`` format that
file is the output (sorted into input order once the run completes); for ``parquet`` and
``npz`` it is the journal ``OUTPUT.partial.jsonl``, converted when the run completes and then
removed.

Parquet schema (one row per item, in input order):

=========  ===========  ======================================================================
column     type         meaning
=========  ===========  ======================================================================
key        string       the item's key (line number, file name, generated number)
index      int64        the item's place in the input
ok         bool         false when the item failed
error      string       the error message (null when ok)
seconds    float64      wall time of the item (the only figure that varies between runs)
value      int64        exact value: solve's value, analyze's and label's best value (else null)
best       string       best move: solve's first optimal move, analyze's, suggest's, label's
mean       float64      suggest: the best move's mean over the worlds (else null)
result     string       the job's whole result as JSON (null on error): the ``result`` of the
                        JSON lines
=========  ===========  ======================================================================

The ``npz`` feature encoding (``label`` only) is in `FEATURES`.
"""
from __future__ import annotations

import json
import math
import os
from pathlib import Path
from typing import IO, Any, Iterable, Optional, Union

from ..core.position import Move, Position
from ..errors import ScopaError, excerpt
from ..files import file_kind, open_regular, shown_path, write_atomic

__all__ = ["FORMATS", "FEATURES", "ResultWriter", "read_rows", "encode_position", "write_parquet",
           "write_npz", "BatchOutputError", "PARQUET_COLUMNS"]

FORMATS = ("jsonl", "parquet", "npz")
PARQUET_COLUMNS = ("key", "index", "ok", "error", "seconds", "value", "best", "mean", "result")

FEATURES = """\
keys         <U (n,)          each labelled item's key, in input order
planes       uint8 (n, 5, 40) from the mover's view, card c = suit * 10 + rank - 1 (suits d c s b,
                              as the notation): plane 0 the mover's hand, 1 the table, 2 the
                              mover's captured pile, 3 the opponent's pile, 4 the cards the mover
                              cannot see (the opponent's hand and the stock)
scalars      int8 (n, 5)      the mover's scopas, the opponent's scopas, deals left in the stock,
                              cards in the opponent's hand, 1 if the mover is the dealer
value        int16 (n,)       the exact round margin for the mover with perfect play
move_value   float32 (n, 40)  per card of the mover's hand: the exact value of its best move
                              (NaN for a card not in the hand)
pimc_mean    float32 (n, 40)  per card of the mover's hand: the PIMC mean of its best move from
                              the mover's view (NaN for a card not in the hand)
error_keys   <U (m,)          the keys of the items that failed
errors       <U (m,)          their error messages
"""


class BatchOutputError(ScopaError):
    """An output that cannot be written: one that exists (without resume or overwrite), a format
    the job has no encoding for, a missing library."""


def journal_path(output: Path, fmt: str) -> Path:
    """Where the rows are appended as they finish."""
    return output if fmt == "jsonl" else output.with_name(output.name + ".partial.jsonl")


def read_rows(path: Union[str, "os.PathLike[str]"]) -> list[dict]:
    """The rows of a JSON lines output (a cut last line, from a killed run, is left out)."""
    path = Path(path)
    rows: list = []
    if not path.exists():
        return rows
    with open_regular(path, encoding="utf-8", error=BatchOutputError) as f:
        for line in f:
            if not line.endswith("\n"):
                break
            try:
                row = json.loads(line)
            except (ValueError, RecursionError):     # not JSON, or nested too deep for it
                continue
            if isinstance(row, dict) and "key" in row:
                rows.append(row)
    return rows


class ResultWriter:
    """Appends rows to the journal, one flushed line per row; `finish` writes the final output."""

    def __init__(self, output: Path, fmt: str, job: str, resume: bool, overwrite: bool, force: bool = False) -> None:
        if fmt not in FORMATS:
            raise BatchOutputError(f"output format must be one of {', '.join(FORMATS)}, not {excerpt(fmt)}")
        if fmt == "npz" and job != "label":
            raise BatchOutputError("the npz feature arrays are for the label job: use jsonl or parquet")
        if output.exists() and not (resume or overwrite):
            raise BatchOutputError(f"{excerpt(str(output))} exists: --resume to finish it, --overwrite to replace it")
        if resume:
            output = _not_foreign(output, fmt, force)
        self.output, self.fmt, self.job = output, fmt, job
        self.journal = journal_path(output, fmt)
        if overwrite and not resume:
            for path in {output, self.journal}:
                if path.exists():
                    path.unlink()
        rows = read_rows(self.journal) if resume else []
        self.finished = False       # an npz of a finished run: no rows can be added to it
        self._file: Optional[IO[str]] = None    # opened by the first row: a run that fails to start leaves no file
        self.done: set = set()
        if resume and fmt != "jsonl" and output.exists() and not self.journal.exists():
            if fmt == "parquet":    # back into the journal, which the new rows join
                self.write(_read_parquet(output))
            else:
                self.finished = True
                rows = _read_npz_keys(output)
        self.done |= {row["key"] for row in rows}

    def write(self, rows: Iterable[dict]) -> None:
        if self._file is None:
            self.journal.parent.mkdir(parents=True, exist_ok=True)
            _cut_partial_line(self.journal)
            self._file = open_regular(self.journal, "a", encoding="utf-8", error=BatchOutputError)
        for row in rows:
            self._file.write(json.dumps(row, separators=(",", ":")) + "\n")
            self.done.add(row["key"])
        self._file.flush()

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None

    def finish(self) -> None:
        """Every row in input order into the final output (the journal removed unless jsonl)."""
        self.close()
        if self.finished:
            return
        rows = sorted(read_rows(self.journal), key=lambda r: r["index"])
        def write(tmp: str) -> None:
            if self.fmt == "jsonl":
                with open(tmp, "w", encoding="utf-8") as f:
                    for row in rows:
                        f.write(json.dumps(row, separators=(",", ":")) + "\n")
            elif self.fmt == "parquet":
                write_parquet(rows, Path(tmp), self.job)
            else:
                write_npz(rows, Path(tmp))
        write_atomic(self.output, write)
        if self.journal != self.output and self.journal.exists():
            self.journal.unlink()
        self.finished = True


def _not_foreign(output: Path, fmt: str, force: bool) -> Path:
    """The path to resume: never, unless `force`, a file that is not a batch output (its lines
    would be dropped) nor through a symbolic link (the journal's rows would go into the target,
    the final output replace the link); with `force` a link's target."""
    for path in {output, journal_path(output, fmt)}:
        if path.is_symlink() and not force:
            raise BatchOutputError(f"{excerpt(str(path))} is a symbolic link: not writing through it "
                                   "(--force writes into its target)")
        kind = file_kind(path) if path.exists() and not path.is_dir() else None
        if kind is not None:        # a named pipe or a device: reading it would wait, --force or not
            raise BatchOutputError(f"{shown_path(path)} is {kind}, not a batch output: not touching it")
    output = Path(os.path.realpath(output)) if force else output
    for path in {output, journal_path(output, fmt)}:
        why = _foreign(path, fmt if path == output else "jsonl") if path.exists() and not force else None
        if why:
            raise BatchOutputError(f"{excerpt(str(path))} is not a batch output ({why}): not touching it "
                                   "(choose another output, or --force)")
    return output


def _foreign(path: Path, fmt: str) -> Optional[str]:
    """Why the file at `path` is not a batch output of `fmt`, or None when it is one."""
    if path.is_dir():
        return "a folder"
    if fmt == "jsonl":
        with open_regular(path, "rb", error=BatchOutputError) as f:
            for number, line in enumerate(f, 1):
                if not line.endswith(b"\n"):       # the cut last line of a killed run
                    break
                try:
                    row = json.loads(line)
                except (ValueError, RecursionError):     # not JSON, or nested too deep for it
                    row = None
                if not (isinstance(row, dict) and {"key", "index", "ok"} <= row.keys()):
                    return f"line {number} is not a result row"
        return None
    try:
        if fmt == "parquet":
            import pyarrow.parquet as pq
            names = set(pq.read_schema(path).names)
        else:
            import numpy as np
            with np.load(path) as data:
                names = set(data.files)
    except Exception as exc:    # whatever pyarrow or numpy make of a file that is not theirs
        return f"not {fmt}: {type(exc).__name__}"
    wanted = set(PARQUET_COLUMNS) if fmt == "parquet" else {"keys", "error_keys"}
    return None if wanted <= names else f"not the {fmt} of a batch job"


def _cut_partial_line(path: Path) -> None:
    """A killed run can leave half a line: cut it so the next row starts on its own line."""
    if not path.exists() or path.stat().st_size == 0:
        return
    with open_regular(path, "rb+", error=BatchOutputError) as f:
        data = f.read()
        if not data.endswith(b"\n"):
            f.truncate(data.rfind(b"\n") + 1)


def _read_parquet(output: Path) -> list[dict]:
    """The rows of a Parquet output, as they were in the journal."""
    import pyarrow.parquet as pq
    columns = ("key", "index", "ok", "error", "seconds", "result")
    return [dict(r, result=None if r["result"] is None else json.loads(r["result"]))
            for r in pq.read_table(output, columns=list(columns)).to_pylist()]


def _read_npz_keys(output: Path) -> list[dict]:
    import numpy as np
    with np.load(output) as data:
        return [{"key": str(k)} for k in list(data["keys"]) + list(data["error_keys"])]


# -- Parquet --------------------------------------------------------------------------------------

def _summary(job: str, row: dict) -> tuple[Optional[int], Optional[str], Optional[float]]:
    """The value, best-move and mean columns of a row of `job`: the value column holds proved
    values only (a depth-limited estimate stays in the result's JSON)."""
    r = row.get("result")
    if not r or job == "review":
        return None, None, None
    if job == "suggest":
        return None, r["best"], r["moves"][0]["mean"]
    proved = r["value"] if r.get("complete", True) else None
    if job == "solve":
        return proved, (r["best_moves"] or [None])[0], None
    if job == "analyze":
        return proved, r["moves"][0]["move"] if r["moves"] else None, None
    return r["value"], r["best"], None


def write_parquet(rows: list[dict], path: Path, job: str) -> None:
    """The rows as a Parquet file of the documented schema (needs pyarrow: the [batch] extra)."""
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        raise BatchOutputError("Parquet output needs pyarrow: pip install 'scopa-solver[batch]'") from None
    schema = pa.schema([("key", pa.string()), ("index", pa.int64()), ("ok", pa.bool_()), ("error", pa.string()),
                        ("seconds", pa.float64()), ("value", pa.int64()), ("best", pa.string()),
                        ("mean", pa.float64()), ("result", pa.string())])
    summaries = [_summary(job, r) for r in rows]
    columns = {
        "key": [r["key"] for r in rows], "index": [r["index"] for r in rows], "ok": [r["ok"] for r in rows],
        "error": [r["error"] for r in rows], "seconds": [r["seconds"] for r in rows],
        "value": [s[0] for s in summaries], "best": [s[1] for s in summaries], "mean": [s[2] for s in summaries],
        "result": [None if r["result"] is None else json.dumps(r["result"], separators=(",", ":")) for r in rows]}
    pq.write_table(pa.table(columns, schema=schema), path)


# -- the npz feature encoding ---------------------------------------------------------------------

def encode_position(pos: Position) -> tuple[list[list[int]], list[int]]:
    """The planes (5 x 40) and scalars (5) of a two-player position from the mover's view
    (see `FEATURES`).

    >>> planes, scalars = encode_position(Position.from_string("7d/3c 4s3s -/- - 0/0 0 1 -"))
    >>> [sum(p) for p in planes], scalars
    ([1, 2, 0, 0, 1], [0, 0, 0, 1, 0])
    """
    me = pos.to_move
    other = 1 - me
    stock = 0
    for card in pos.stock:
        stock |= card.mask
    masks = (pos.hands[me], pos.table, pos.piles[me], pos.piles[other], pos.hands[other] | stock)
    planes = [[(m >> c) & 1 for c in range(40)] for m in masks]
    scalars = [pos.scopas[me], pos.scopas[other], pos.deals_left, bin(pos.hands[other]).count("1"),
               int(pos.dealer == me)]
    return planes, scalars


def _per_card(moves: list[dict], field: str) -> list[float]:
    """The best figure of each card's moves (NaN for a card no move plays)."""
    out = [math.nan] * 40
    for m in moves:
        c = Move.parse(m["move"]).card.index
        v = float(m[field])
        if math.isnan(out[c]) or v > out[c]:
            out[c] = v
    return out


def write_npz(rows: list[dict], path: Path) -> None:
    """`label` rows as the arrays of `FEATURES` (numpy's compressed npz)."""
    import numpy as np
    good = [r for r in rows if r["ok"]]
    bad = [r for r in rows if not r["ok"]]
    encoded = [encode_position(Position.from_string(r["result"]["position"])) for r in good]
    arrays: dict[str, Any] = {
        "keys": np.array([r["key"] for r in good], dtype=str).reshape(len(good)),
        "planes": np.array([e[0] for e in encoded], dtype=np.uint8).reshape(len(good), 5, 40),
        "scalars": np.array([e[1] for e in encoded], dtype=np.int8).reshape(len(good), 5),
        "value": np.array([r["result"]["value"] for r in good], dtype=np.int16).reshape(len(good)),
        "move_value": np.array([_per_card(r["result"]["moves"], "value") for r in good],
                               dtype=np.float32).reshape(len(good), 40),
        "pimc_mean": np.array([_per_card(r["result"]["pimc"], "mean") for r in good],
                              dtype=np.float32).reshape(len(good), 40),
        "error_keys": np.array([r["key"] for r in bad], dtype=str).reshape(len(bad)),
        "errors": np.array([r["error"] for r in bad], dtype=str).reshape(len(bad)),
    }
    with open(path, "wb") as f:
        np.savez_compressed(f, **arrays)
