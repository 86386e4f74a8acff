"""Batch jobs (scopa_solver.batch, `scopa-solver batch`): every job against the library's own
calls, bad items as rows, resume without redoing, Ctrl-C, Parquet and npz read back, and a real
dask.distributed LocalCluster of two worker processes: the same rows as the local engine, and
a worker killed mid-run."""
from __future__ import annotations

import json
import math
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from scopa_solver import Limit, Position, analyze, review, solve, suggest
from scopa_solver.batch import (FORMATS, BatchInputError, BatchOutputError, EngineOptions, Item, JobOptions, RunOptions,
                                chunk_size,
                                encode_position, item_seed, read_items, read_rows, run_chunk, run_job)
from scopa_solver.batch.engines import WORKERS_PER_CORE
from scopa_solver.cli import main
from scopa_solver.play.record import GameRecord

from helpers import named_pipe

ROOT = Path(__file__).resolve().parent.parent
RECORD = ROOT / "tests" / "data" / "record-v1.json"
LINES = [
    "3c3bRb/CsRs6b 3d5d2cCb Ad6d7dFdRd6cCcRc2s3s4s5s6s4b7b/2d4dCdAc4c5c7cFcAs7sFsAb2b5bFb - 0/0 0 1 0",  # 1
    "not a position",                                  # 2: bad notation
    "7d2c/4c3b 3s4s -/- - 0/0 0 1 -",                  # 3
    "7d7d/4c3b 3s4s -/- - 0/0 0 1 -",                  # 4: a card twice
    "",                                                # 5: skipped
    "# a comment",                                     # 6: skipped
    "7cRs4b/?3 3d4c7sRb Fd3c2sAbFb/Ad2d6dCdAc2c5c6cFcCcRc3s5sFsCs2b3b6bCb ?6 0/0 0 1 0",   # 7: a view
]


def same(rows):
    """The rows without the wall time (the one figure that varies between runs)."""
    return [{k: v for k, v in row.items() if k != "seconds"} for row in rows]


@pytest.fixture
def positions(tmp_path):
    path = tmp_path / "positions.txt"
    path.write_text("\n".join(LINES) + "\n")
    return path


# -- the jobs, against the library ----------------------------------------------------------------

def test_solve_and_analyze_match_the_library_and_report_bad_lines(positions, tmp_path):
    out = tmp_path / "solve.jsonl"
    summary = run_job("solve", positions, out, engine=EngineOptions(workers=1), run=RunOptions(progress=False))
    rows = read_rows(out)
    assert [r["key"] for r in rows] == ["1", "2", "3", "4", "7"] and [r["index"] for r in rows] == [0, 1, 2, 3, 4]
    assert (summary.items, summary.done, summary.errors, summary.complete) == (5, 5, 3, True)
    assert rows[1]["error"].startswith("NotationError") and rows[3]["error"].startswith("DuplicateCardError")
    assert rows[4]["error"].startswith("NotationError")          # a view is no position to solve
    for row in (rows[0], rows[2]):
        expected = json.loads(json.dumps(solve(Position.from_string(LINES[int(row["key"]) - 1])).to_dict()))
        assert row["ok"] and row["error"] is None
        assert row["result"] == {k: v for k, v in expected.items() if not k.startswith("tt_") and k not in ("nodes", "seconds")}
    out = tmp_path / "analyze.jsonl"
    run_job("analyze", positions, out, engine=EngineOptions(workers=1), run=RunOptions(progress=False))
    row = read_rows(out)[0]
    assert row["result"]["moves"] == json.loads(json.dumps([mv.to_dict() for mv in analyze(Position.from_string(LINES[0]))]))
    assert row["result"]["value"] == solve(Position.from_string(LINES[0])).value


def test_suggest_uses_each_items_own_seed(positions, tmp_path):
    out = tmp_path / "suggest.jsonl"
    run_job("suggest", positions, out, options=JobOptions(worlds=30, seed=5), engine=EngineOptions(workers=1),
            run=RunOptions(progress=False))
    rows = {r["key"]: r for r in read_rows(out)}
    pos = Position.from_string(LINES[0])
    s = suggest(pos.view(pos.to_move), Limit(threads=1), worlds=30, seed=item_seed(5, "1"), progress=False)
    assert rows["1"]["result"]["moves"] == json.loads(json.dumps([m.to_dict() for m in s.moves])) and rows["1"]["result"]["best"] == str(s.best)
    assert rows["7"]["ok"] and rows["7"]["result"]["view"] == LINES[6]          # a view is suggested from
    assert not rows["2"]["ok"] and not rows["4"]["ok"]
    # the same figures whatever the chunks: one item per chunk, or all in one
    again = tmp_path / "again.jsonl"
    run_job("suggest", positions, again, options=JobOptions(worlds=30, seed=5), engine=EngineOptions(workers=1),
            run=RunOptions(chunk=1, progress=False))
    assert same(read_rows(again)) == same(read_rows(out))
    assert item_seed(5, "1") != item_seed(5, "3") != item_seed(6, "3")


def test_review_of_a_folder_of_records(tmp_path):
    folder = tmp_path / "games"
    folder.mkdir()
    shutil.copy(RECORD, folder / "a.json")
    (folder / "b.json").write_text('{"format": "scopa-solver game", "version": 99}')
    (folder / "notes.txt").write_text("not a record, not read")
    out = tmp_path / "review.jsonl"
    summary = run_job("review", folder, out, options=JobOptions(worlds=0), engine=EngineOptions(workers=1),
                      run=RunOptions(progress=False))
    rows = read_rows(out)
    assert [r["key"] for r in rows] == ["a.json", "b.json"] and (summary.done, summary.errors) == (2, 1)
    assert rows[1]["error"].startswith("RecordError")
    expected = json.loads(json.dumps(review(GameRecord.load(RECORD), fair=None, progress=False).to_dict()))
    assert rows[0]["result"]["decisions"] == expected["decisions"]
    assert rows[0]["result"]["summary"] == expected["summary"]


def test_label_npz_encoding(tmp_path):
    out = tmp_path / "labels.npz"
    summary = run_job("label", "random:6", out, options=JobOptions(worlds=8, seed=3), engine=EngineOptions(workers=1),
                      run=RunOptions(progress=False))
    assert summary.complete and summary.errors == 0 and not (tmp_path / "labels.npz.partial.jsonl").exists()
    import numpy as np
    with np.load(out) as data:
        arrays = {k: data[k] for k in data.files}
    shapes = {k: (a.dtype.str[1:], a.shape) for k, a in arrays.items() if k not in ("keys", "error_keys", "errors")}
    assert shapes == {"planes": ("u1", (6, 5, 40)), "scalars": ("i1", (6, 5)), "value": ("i2", (6,)),
                      "move_value": ("f4", (6, 40)), "pimc_mean": ("f4", (6, 40))}
    assert list(arrays["keys"]) == ["0", "1", "2", "3", "4", "5"] and arrays["error_keys"].shape == (0,)
    # the same positions again as JSON lines: the arrays encode them
    rows = read_rows(Path(run_job("label", "random:6", tmp_path / "labels.jsonl",
                                  options=JobOptions(worlds=8, seed=3), engine=EngineOptions(workers=1),
                                  run=RunOptions(progress=False)).output))
    for i, row in enumerate(rows):
        pos = Position.from_string(row["result"]["position"])
        planes = arrays["planes"][i]
        assert planes.sum(axis=0).max() <= 1                     # each card in one place at most
        assert planes[0].sum() == bin(pos.hands[pos.to_move]).count("1")
        assert planes.sum() == 40 - 0                            # the 40 cards, each seen or unseen
        assert arrays["value"][i] == solve(pos).value == row["result"]["value"]
        held = {m.card.index for m in pos.legal_moves()}
        assert {c for c in range(40) if not math.isnan(arrays["move_value"][i][c])} == held
        assert {c for c in range(40) if not math.isnan(arrays["pimc_mean"][i][c])} == held
        best = max(mv.value for mv in analyze(pos))
        assert np.nanmax(arrays["move_value"][i]) == best
    with pytest.raises(ValueError, match="new output"):     # the arrays of a finished run take no more
        run_job("label", "random:7", out, options=JobOptions(worlds=8, seed=3), engine=EngineOptions(workers=1),
                run=RunOptions(resume=True, progress=False))
    planes, scalars = encode_position(Position.from_string("7d/3c 4s3s -/- - 0/0 0 1 -"))
    assert [sum(p) for p in planes] == [1, 2, 0, 0, 1] and scalars == [0, 0, 0, 1, 0]


@pytest.mark.parametrize("job", ["solve", "analyze"])
def test_parquet_value_column_holds_proved_values_only(job, tmp_path):
    """At a node limit the result holds the depth's estimate and says it is not complete; the
    value column (documented as the exact value) leaves it out rather than pass it for one."""
    pq = pytest.importorskip("pyarrow.parquet")
    run_job(job, "random:2", tmp_path / "a.parquet", Limit(nodes=10), engine=EngineOptions(workers=1),
            run=RunOptions(progress=False))
    back = pq.read_table(tmp_path / "a.parquet").to_pylist()
    results = [json.loads(r["result"]) for r in back]
    assert all(r["complete"] is False and r["value"] is not None and r["horizon"] for r in results)
    assert [r["value"] for r in back] == [None, None]


def test_parquet_reads_back_equal_to_the_json_lines(positions, tmp_path):
    pq = pytest.importorskip("pyarrow.parquet")
    run_job("solve", positions, tmp_path / "a.jsonl", engine=EngineOptions(workers=1), run=RunOptions(progress=False))
    run_job("solve", positions, tmp_path / "a.parquet", engine=EngineOptions(workers=1), run=RunOptions(progress=False))
    table = pq.read_table(tmp_path / "a.parquet")
    assert table.column_names == ["key", "index", "ok", "error", "seconds", "value", "best", "mean", "result"]
    back = [dict(r, result=None if r["result"] is None else json.loads(r["result"])) for r in table.to_pylist()]
    rows = read_rows(tmp_path / "a.jsonl")
    assert [{k: r[k] for k in ("key", "index", "ok", "error", "result")} for r in back] == \
           [{k: r[k] for k in ("key", "index", "ok", "error", "result")} for r in rows]
    assert [r["value"] for r in back] == [r["result"]["value"] if r["ok"] else None for r in rows]
    assert [r["best"] for r in back] == [r["result"]["best_moves"][0] if r["ok"] else None for r in rows]
    # a finished Parquet output takes the items a longer input adds, and keeps the others
    run_job("solve", "random:3", tmp_path / "b.parquet", engine=EngineOptions(workers=1),
            run=RunOptions(progress=False))
    more = run_job("solve", "random:5", tmp_path / "b.parquet", engine=EngineOptions(workers=1),
                   run=RunOptions(resume=True, progress=False))
    assert (more.skipped, more.done) == (3, 2) and not (tmp_path / "b.parquet.partial.jsonl").exists()
    assert pq.read_table(tmp_path / "b.parquet").column("key").to_pylist() == ["0", "1", "2", "3", "4"]


# -- resume, interrupts, refusing to overwrite ----------------------------------------------------

def test_resume_after_a_limit_redoes_nothing(tmp_path):
    out = tmp_path / "r.jsonl"
    seen: list = []
    first = run_job("suggest", "random:9", out, options=JobOptions(worlds=6), engine=EngineOptions(workers=1),
                    run=RunOptions(items=4, chunk=2, progress=False),
                    on_chunk=lambda rows: seen.extend(r["key"] for r in rows))
    assert (first.done, first.remaining, first.complete) == (4, 5, False)
    with open(out, "a") as f:               # a run killed in the middle of a line
        f.write('{"key":"7","index":7,"ok":tr')
    second = run_job("suggest", "random:9", out, options=JobOptions(worlds=6), engine=EngineOptions(workers=1),
                     run=RunOptions(resume=True, chunk=2, progress=False),
                     on_chunk=lambda rows: seen.extend(r["key"] for r in rows))
    assert (second.skipped, second.done, second.complete) == (4, 5, True)
    assert sorted(seen, key=int) == [str(i) for i in range(9)]          # every item exactly once
    whole = tmp_path / "whole.jsonl"
    run_job("suggest", "random:9", whole, options=JobOptions(worlds=6), engine=EngineOptions(workers=1),
            run=RunOptions(progress=False))
    assert same(read_rows(out)) == same(read_rows(whole))            # in input order once complete


def test_workers_are_capped_by_items_and_cores(tmp_path):
    said: list = []
    summary = run_job("solve", "random:2", tmp_path / "w.jsonl", engine=EngineOptions(workers=100),
                      run=RunOptions(progress=False), say=said.append)
    assert (summary.done, summary.workers) == (2, 2)            # one a job item, not 100 processes
    assert said == ["100 workers asked, 2 started (one per item to solve)"]
    said.clear()
    cap = WORKERS_PER_CORE * (os.cpu_count() or 1)
    summary = run_job("solve", f"random:{cap + 3}", tmp_path / "c.jsonl", engine=EngineOptions(workers=cap + 1),
                      run=RunOptions(progress=False, items=cap + 2), say=said.append)
    assert summary.workers == cap and said and "per core" in said[0]


def test_existing_output_is_refused_and_interrupt_keeps_what_was_written(tmp_path):
    out = tmp_path / "i.jsonl"
    out.write_text("precious\n")
    with pytest.raises(ValueError, match="--resume"):
        run_job("solve", "random:2", out, engine=EngineOptions(workers=1), run=RunOptions(progress=False))
    assert out.read_text() == "precious\n"

    def stop(rows):
        raise KeyboardInterrupt
    with pytest.raises(KeyboardInterrupt):      # Ctrl-C after the first chunk, two worker processes
        run_job("solve", "random:40", out, engine=EngineOptions(workers=2),
                run=RunOptions(chunk=5, overwrite=True, progress=False), on_chunk=stop)
    kept = read_rows(out)
    assert len(kept) == 5
    summary = run_job("solve", "random:40", out, engine=EngineOptions(workers=2),
                      run=RunOptions(chunk=5, resume=True, progress=False))
    assert (summary.skipped, summary.done) == (5, 35) and len(read_rows(out)) == 40


def test_local_pool_survives_a_killed_worker_process(tmp_path):
    import multiprocessing
    killed: list = []

    def kill_one(rows):
        if not killed:
            pool = [p for p in multiprocessing.active_children() if "Dask" not in p.name]
            os.kill(pool[0].pid, signal.SIGKILL)
            killed.append(pool[0].pid)
    out = tmp_path / "k.jsonl"
    summary = run_job("suggest", "random:10", out, options=JobOptions(worlds=30, seed=2),
                      engine=EngineOptions(workers=2), run=RunOptions(chunk=1, progress=False), on_chunk=kill_one)
    assert killed and (summary.done, summary.errors, summary.complete) == (10, 0, True)
    run_job("suggest", "random:10", tmp_path / "one.jsonl", options=JobOptions(worlds=30, seed=2),
            engine=EngineOptions(workers=1), run=RunOptions(progress=False))
    assert same(read_rows(out)) == same(read_rows(tmp_path / "one.jsonl"))


def test_a_pool_broken_before_a_submit_fails_that_chunk_not_the_job():
    """A worker killed between two results: the next submit meets a broken pool. It gets a
    failed future (the caller's one path for a dead worker), never an exception of its own."""
    import concurrent.futures as cf
    import multiprocessing

    from scopa_solver.batch.engines import LocalEngine, lost
    engine = LocalEngine(2)
    engine.start()
    try:
        chunk, options = [Item("1", 0, "text", "7d2c/4c3b 3s4s -/- - 0/0 0 1 -")], JobOptions()
        assert engine.submit("solve", chunk, options).result()[0]["ok"]
        victim = [p for p in multiprocessing.active_children() if "Dask" not in p.name][0]
        os.kill(victim.pid, signal.SIGKILL)
        give_up = time.monotonic() + 30
        while time.monotonic() < give_up:       # until the pool has seen the death: it fails a chunk
            if isinstance(engine.submit("solve", chunk, options).exception(timeout=30), cf.BrokenExecutor):
                break
        future = engine.submit("solve", chunk, options)     # on the pool known broken
        assert lost(future) and isinstance(future.exception(), cf.BrokenExecutor)
        engine.restart()
        assert engine.submit("solve", chunk, options).result()[0]["ok"]
    finally:
        engine.close(cancel=True)


def test_ctrl_c_on_the_command_line_then_resume(tmp_path):
    out = tmp_path / "c.jsonl"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    argv = [sys.executable, "-m", "scopa_solver", "batch", "suggest", "random:60", "-o", str(out),
            "--worlds", "200", "--workers", "2", "--chunk", "1"]
    proc = subprocess.Popen(argv, env=env, stderr=subprocess.PIPE, text=True)
    give_up = time.monotonic() + 60
    while not read_rows(out) and time.monotonic() < give_up and proc.poll() is None:
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 130, err
    assert "--resume" in err and "Traceback" not in err
    written = len(read_rows(out))
    assert 1 <= written < 60
    assert main(["batch", "suggest", "random:60", "-o", str(out), "--worlds", "2", "--resume", "--workers", "1",
                 "--json"]) == 0
    assert len(read_rows(out)) == 60


def test_command_line_bad_input_is_one_line(tmp_path, capsys):
    out = tmp_path / "o.jsonl"
    for argv in (["batch", "solve", str(tmp_path / "missing.txt"), "-o", str(out)],
                 ["batch", "solve", "random:2", "-o", str(tmp_path / "x.npz")],
                 ["batch", "solve", "random:2", "-o", str(out), "--scheduler", "tcp://127.0.0.1:1"],
                 ["batch", "solve", "random:2", "-o", str(out), "--rules", "nonsense"],
                 ["batch", "fly", "random:2", "-o", str(out)],
                 ["batch", "solve", "random:2"]):
        assert main(argv) == 2, argv
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and err.startswith("scopa-solver: error:"), (argv, err)
    assert main(["batch", "solve", "random:3", "-o", str(out), "--workers", "1", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert (summary["done"], summary["errors"], summary["complete"]) == (3, 0, True)
    assert main(["batch", "solve", "random:3", "-o", str(out)]) == 2          # never silently overwritten
    assert "exists" in capsys.readouterr().err


def test_inputs_keys_and_chunks(tmp_path):
    path = tmp_path / "p.jsonl"
    path.write_text('{"key": "a", "position": "7d/3c 4s -/- - 0/0 0 1 -"}\n"7d/3c 4s -/- - 0/0 0 1 -"\n{broken\n')
    assert [(i.key, i.kind) for i in read_items(path)] == [("a", "json"), ("2", "json"), ("3", "json")]
    rows = run_chunk("solve", read_items(path), JobOptions())
    assert [r["ok"] for r in rows] == [True, True, False] and rows[2]["error"].startswith("BatchItemError")
    path.write_text('{"key": "a"}\n{"key": "a"}\n')
    with pytest.raises(ValueError, match="twice"):
        read_items(path)
    assert chunk_size("suggest", 200, 2, JobOptions(worlds=20)) * 8 >= 200
    assert chunk_size("review", 10, 2, JobOptions()) == 1 and FORMATS == ("jsonl", "parquet", "npz")
    assert run_chunk("label", [Item("x", 0, "record", "{}")], JobOptions())[0]["ok"] is False


# -- a real dask.distributed cluster --------------------------------------------------------------

@pytest.fixture(scope="module")
def client():
    distributed = pytest.importorskip("distributed")
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0")
    c = distributed.Client(cluster)
    yield c
    c.close()
    cluster.close()


def test_dask_gives_the_local_engines_rows(client, tmp_path):
    for job, source, options in (("solve", "random:300", JobOptions(seed=9)),
                                 ("suggest", "random:8", JobOptions(seed=9, worlds=10))):
        local = run_job(job, source, tmp_path / f"{job}-local.jsonl", options=options, engine=EngineOptions(workers=2),
                        run=RunOptions(progress=False))
        said: list = []
        dask = run_job(job, source, tmp_path / f"{job}-dask.jsonl", options=options,
                       engine=EngineOptions(name="dask", client=client), run=RunOptions(progress=False), say=said.append)
        assert (local.engine, dask.engine, dask.workers, dask.errors) == ("local", "dask", 2, 0)
        rows = read_rows(tmp_path / f"{job}-dask.jsonl")
        assert [r["key"] for r in rows] == [str(i) for i in range(len(rows))]     # input order
        assert same(rows) == same(read_rows(tmp_path / f"{job}-local.jsonl"))
    assert any("dashboard" in text for text in said) or client.dashboard_link is None


def test_dask_job_survives_a_killed_worker(client, tmp_path):
    pids = list(client.run(os.getpid).values())
    killed: list = []

    def kill_one(rows):
        if not killed:
            os.kill(pids[0], signal.SIGKILL)
            killed.append(pids[0])
    out = tmp_path / "k.jsonl"
    summary = run_job("suggest", "random:12", out, options=JobOptions(worlds=40, seed=4),
                      engine=EngineOptions(name="dask", client=client), run=RunOptions(chunk=1, progress=False),
                      on_chunk=kill_one)
    assert killed and (summary.done, summary.errors, summary.complete) == (12, 0, True)
    local = tmp_path / "k-local.jsonl"
    run_job("suggest", "random:12", local, options=JobOptions(worlds=40, seed=4), engine=EngineOptions(workers=1),
            run=RunOptions(progress=False))
    assert same(read_rows(out)) == same(read_rows(local))


def test_the_benchmark_runs_small():
    import importlib.util
    spec = importlib.util.spec_from_file_location("bench_batch_test", ROOT / "benchmarks" / "bench_batch.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    figures = bench.run(solve_items=8, suggest_items=2, worlds=4, engines=("local",), repeats=1)
    assert sorted((r["job"], r["workers"], r["items"], r["errors"]) for r in figures["runs"]) == \
           [("solve", 1, 8, 0), ("solve", 2, 8, 0), ("suggest", 1, 2, 0), ("suggest", 2, 2, 0)]
    assert set(figures["scaling"]) == {"solve local", "suggest local"} and figures["dask_over_local"] == {}
    json.dumps(figures, allow_nan=False)
    assert "items/s" in bench.report(figures) and callable(bench.main)


# -- hostile input, outputs that are not ours, workers without a parent, quiet Dask ---------------

GOOD = "7d2c/4c3b 3s4s -/- - 0/0 0 1 -"


def test_a_deeply_nested_json_line_is_that_items_error(tmp_path, capsys):
    path = tmp_path / "deep.jsonl"
    lines = [json.dumps(GOOD), '{"a":' * 2000 + "1" + "}" * 2000, "[" * 3000 + "]" * 3000,
             '{"key": "k", "position": ' + json.dumps(GOOD) + "}"]
    path.write_text("\n".join(lines) + "\n")
    out = tmp_path / "deep-out.jsonl"
    assert main(["batch", "solve", str(path), "-o", str(out), "--workers", "1", "--json"]) == 0, capsys.readouterr().err
    rows = read_rows(out)
    assert [(r["key"], r["ok"]) for r in rows] == [("1", True), ("2", False), ("3", False), ("k", True)]
    for row in rows[1:3]:
        assert row["error"].startswith("BatchItemError") and "nested" in row["error"], row["error"]
        assert "internal error" not in row["error"]


def test_resume_refuses_a_file_that_is_not_a_batch_output_and_a_symlink(tmp_path, capsys):
    notes = tmp_path / "notes.jsonl"
    notes.write_text('{"mine": 1}\nprecious words\n')
    assert main(["batch", "solve", "random:2", "-o", str(notes), "--resume", "--workers", "1"]) == 2
    err = capsys.readouterr().err
    assert "not a batch output" in err and "--force" in err and err.count("\n") == 1, err
    assert notes.read_text() == '{"mine": 1}\nprecious words\n'
    real = tmp_path / "real.jsonl"
    assert main(["batch", "solve", "random:2", "-o", str(real), "--limit", "1", "--workers", "1"]) == 0
    link = tmp_path / "link.jsonl"
    link.symlink_to(real)
    assert main(["batch", "solve", "random:2", "-o", str(link), "--resume", "--workers", "1"]) == 2
    assert "symbolic link" in capsys.readouterr().err and len(read_rows(real)) == 1
    # --force: through the link into its target, the link kept
    assert main(["batch", "solve", "random:2", "-o", str(link), "--resume", "--force", "--workers", "1"]) == 0
    assert link.is_symlink() and [r["key"] for r in read_rows(real)] == ["0", "1"]
    assert main(["batch", "solve", "random:2", "-o", str(notes), "--resume", "--force", "--workers", "1"]) == 0
    assert [r["key"] for r in read_rows(notes)] == ["0", "1"]


def _alive(pid: int) -> bool:
    """Is `pid` a live process (not a zombie: a reaped or dead child no longer counts)?"""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def _children(pid: int) -> list[int]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            return [int(p) for p in f.read().split()]
    except OSError:
        return []


@pytest.mark.skipif(not os.path.exists("/proc/self/task"), reason="reads the process tree from /proc")
def test_pool_workers_exit_when_the_main_process_is_killed(tmp_path):
    out = tmp_path / "orphans.jsonl"
    argv = [sys.executable, "-m", "scopa_solver", "batch", "suggest", "random:60", "-o", str(out),
            "--worlds", "200", "--workers", "2", "--chunk", "1"]
    proc = subprocess.Popen(argv, env=dict(os.environ, PYTHONPATH=str(ROOT)), stderr=subprocess.DEVNULL)
    give_up = time.monotonic() + 60
    while not read_rows(out) and time.monotonic() < give_up and proc.poll() is None:
        time.sleep(0.05)
    workers = _children(proc.pid)
    assert len(workers) >= 2 and all(map(_alive, workers)), workers
    proc.kill()
    proc.wait(timeout=10)
    give_up = time.monotonic() + 10         # they exit at once; 10 s only says "not left running"
    while any(map(_alive, workers)) and time.monotonic() < give_up:
        time.sleep(0.05)
    left = [pid for pid in workers if _alive(pid)]
    for pid in left:                        # do not leave them running on a failure
        os.kill(pid, signal.SIGKILL)
    assert not left


def test_dask_runs_and_ctrl_c_print_no_tracebacks(tmp_path):
    pytest.importorskip("distributed")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    base = [sys.executable, "-m", "scopa_solver", "batch", "--engine", "dask", "--workers", "2"]
    done = subprocess.run(base + ["solve", "random:20", "-o", str(tmp_path / "n.jsonl")], env=env,
                          capture_output=True, text=True, timeout=180)
    assert done.returncode == 0 and len(read_rows(tmp_path / "n.jsonl")) == 20, done.stderr
    assert "Traceback" not in done.stderr and "Error" not in done.stderr, done.stderr
    out = tmp_path / "c.jsonl"
    proc = subprocess.Popen(base + ["suggest", "random:60", "-o", str(out), "--worlds", "200", "--chunk", "1"],
                            env=env, stderr=subprocess.PIPE, text=True, start_new_session=True)
    give_up = time.monotonic() + 120
    while not read_rows(out) and time.monotonic() < give_up and proc.poll() is None:
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGINT)      # as Ctrl-C on a terminal: every process of the group
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 130 and "--resume" in err, err
    assert err.count("Traceback") == 0 and len(err) < 400, err


def _on_a_terminal(argv: list, columns: int = 100) -> tuple[int, str]:
    """Run `argv` with a terminal (a pseudo-terminal of `columns`) as its standard streams."""
    import fcntl
    import pty
    import struct
    import termios
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, columns, 0, 0))
    proc = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    os.close(slave)
    data = b""
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:         # the terminal closed: the program ended
            break
        if not chunk:
            break
        data += chunk
    os.close(master)
    return proc.wait(timeout=60), data.decode("utf-8", "replace")


@pytest.mark.skipif(sys.platform == "win32", reason="a pseudo-terminal")
def test_a_progress_bar_on_a_terminal_and_none_with_json(tmp_path):
    # seconds of work (the bar shows after one), a chunk per item for a live count
    argv = [sys.executable, "-m", "scopa_solver", "batch", "suggest", "random:24", "--worlds", "100", "--workers", "1",
            "--chunk", "1"]
    code, shown = _on_a_terminal(argv + ["-o", str(tmp_path / "bar.jsonl")])
    assert code == 0 and "batch suggest:" in shown and "/24 [" in shown and "item/s" in shown, shown
    assert shown.rstrip().endswith("(local, 1 worker)")            # the bar cleared, the summary last
    code, shown = _on_a_terminal(argv + ["-o", str(tmp_path / "quiet.jsonl"), "--json", "--limit", "12"])
    assert code == 0 and "batch suggest:" not in shown and json.loads(shown)["done"] == 12


@pytest.mark.skipif(not hasattr(os, "fork") or not os.path.exists("/proc/self/stat"), reason="fork and /proc")
def test_the_portable_parent_watch_ends_an_orphaned_worker():
    script = """if True:
        import os, time
        from scopa_solver.batch import engines
        engines._exit_with_parent = lambda: False      # as where Linux's parent-death signal is missing
        engines._PARENT_POLL_SECONDS = 0.05
        ready, told = os.pipe()
        pid = os.fork()
        if pid == 0:
            engines._pool_worker(os.getppid())
            os.write(told, b"ready")
            time.sleep(60)
            os._exit(0)
        os.read(ready, 5)   # the watch began while the parent was alive
        print(pid, flush=True)
        os._exit(0)         # then the parent dies
    """
    done = subprocess.run([sys.executable, "-c", script], env=dict(os.environ, PYTHONPATH=str(ROOT)),
                          capture_output=True, text=True, timeout=60)
    orphan = int(done.stdout)
    give_up = time.monotonic() + 10
    while _alive(orphan) and time.monotonic() < give_up:
        time.sleep(0.05)
    alive = _alive(orphan)
    if alive:
        os.kill(orphan, signal.SIGKILL)
    assert not alive


# -- inputs and outputs that are not regular files: refused at once (a named pipe waited) ---------

def test_an_input_that_is_a_named_pipe_is_refused_at_once(tmp_path):
    with pytest.raises(BatchInputError, match="positions.txt is a named pipe, not a regular file"):
        read_items(named_pipe(tmp_path / "positions.txt"))


def test_a_named_pipe_among_records_is_an_item_not_read(tmp_path):
    named_pipe(tmp_path / "a.json")
    (tmp_path / "c.json").write_text("{}")        # read here; judged as a record by the job
    items = read_items(tmp_path)
    assert [(i.key, i.kind) for i in items] == [("a.json", "unread"), ("c.json", "record")]
    assert "a.json is a named pipe, not a regular file" in items[0].text


def test_resuming_into_a_named_pipe_is_refused_at_once(tmp_path):
    named_pipe(tmp_path / "out.jsonl")
    for force in (False, True):
        with pytest.raises(BatchOutputError, match="out.jsonl is a named pipe, not a batch output"):
            run_job("solve", "random:1", tmp_path / "out.jsonl", engine=EngineOptions(workers=1),
                    run=RunOptions(resume=True, force=force, progress=False))


def test_the_limit_travels_in_job_options_and_run_jobs_limit_replaces_it(tmp_path):
    """One `Limit` for each item's searches: in `JobOptions`, or given to `run_job` (which
    replaces the options' own); a node limit of 1 cuts every exact search."""
    from scopa_solver.batch import BatchOptionError
    from scopa_solver.kernel import NO_LIMIT
    one = EngineOptions(workers=1)
    quiet = RunOptions(progress=False, overwrite=True)
    for name, limit, options in (("given", Limit(nodes=1), JobOptions(limit=NO_LIMIT)),
                                 ("options", None, JobOptions(limit=Limit(nodes=1)))):
        run_job("analyze", "random:2", tmp_path / f"{name}.jsonl", limit, options=options, engine=one, run=quiet)
        assert [r["result"]["complete"] for r in read_rows(tmp_path / f"{name}.jsonl")] == [False, False]
    run_job("analyze", "random:2", tmp_path / "free.jsonl", NO_LIMIT, options=JobOptions(limit=Limit(nodes=1)),
            engine=one, run=quiet)
    assert all(r["result"]["complete"] for r in read_rows(tmp_path / "free.jsonl"))
    for bad in (lambda: JobOptions(limit=5), lambda: RunOptions(items=-1), lambda: RunOptions(chunk=0)):
        with pytest.raises(BatchOptionError):
            bad()
