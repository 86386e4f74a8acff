"""A whole deal as a job (scopa_solver.batch.solve_job, `scopa-solver solve --job DIR`): the value
equals `solve`'s on every game and cut, the bounds only narrow and always hold the value, a run
stopped by a limit, a time limit, a stop event, Ctrl-C or SIGKILL resumes to the same value,
a killed worker (local pool and a two-worker Dask LocalCluster) changes nothing, a folder
that is not the job's or a damaged description is refused with one clear line, a damaged,
duplicated or foreign record is named and its item solved again (--verify: a wrong value too),
one run at a time uses a folder, and items longer than the time limit are split until the job
finishes."""
from __future__ import annotations

import json
import multiprocessing
import os
import signal
import subprocess
import sys
import threading
import time
from dataclasses import replace
from pathlib import Path

import pytest

from scopa_solver import Rules, analyze, solve
from scopa_solver.batch import (BatchOptionError, DealJobError, DealOptions, EngineOptions, RunOptions, read_rows,
                                solve_job)
from scopa_solver.kernel import Limit
from scopa_solver.cli import main

from helpers import late, named_pipe

ROOT = Path(__file__).resolve().parent.parent


SCIENTIFICO = Rules(players=4, game="scientifico")
EXACT = DealOptions(proof="exact")      # every item solved with the full window (the records hold values)
GAMES = [(Rules(), 12), (Rules(), 9), (Rules(players=3), 9), (Rules(players=3), 6), (Rules(players=4), 12),
         (SCIENTIFICO, 12), (SCIENTIFICO, 16)]


def job(pos, tmp_path, name="job", limit=None, *, engine=None, run=None, **kw):
    """`solve_job` in `tmp_path / name`: one worker and no progress bar unless asked."""
    engine = EngineOptions(workers=1) if engine is None else engine
    engine = replace(engine, workers=1) if engine.workers is None else engine
    run = RunOptions() if run is None else run
    run = replace(run, progress=False) if run.progress is None else run
    return solve_job(pos, tmp_path / name, limit, engine=engine, run=run, **kw)


@pytest.mark.parametrize("rules,left", GAMES)
def test_the_value_is_solves_on_every_game_and_cut(rules, left, tmp_path):
    for seed in range(3):
        pos = late(rules, seed, left)
        want = solve(pos).value
        moves = {str(m.move): m.value for m in analyze(pos)}
        for split in (1, 2, 3):
            r = job(pos, tmp_path, f"{seed}-{split}", deal=DealOptions(split=split))
            assert (r.value, r.lower, r.upper, r.complete) == (want, want, want, True), (pos.to_string(), split)
            # the items proved against thresholds: every optimal move, as the direct search
            assert sorted(r.best_moves) == sorted(m for m, v in moves.items() if v == want)
            assert all(lo <= moves[m] <= hi for m, lo, hi in r.moves)
            assert r.solved + r.pruned == r.items and r.remaining == 0
            # each item solved with the full window (the baseline): the moves it proved optimal
            e = job(pos, tmp_path, f"{seed}-{split}-exact", deal=DealOptions(split=split, proof="exact"))
            assert (e.value, e.complete, e.proof) == (want, True, "exact") and e.best_moves
            assert all(moves[m] == want for m in e.best_moves) and all(lo <= moves[m] <= hi for m, lo, hi in e.moves)
            every = job(pos, tmp_path, f"{seed}-{split}-every", deal=DealOptions(split=split, every_root_move=True))
            assert {m: lo for m, lo, hi in every.moves if lo == hi} == moves
            assert sorted(every.best_moves) == sorted(m for m, v in moves.items() if v == want)


@pytest.mark.parametrize("proof", ["bounds", "exact"])
def test_the_bounds_narrow_and_hold_the_value_then_a_limit_resumes(tmp_path, proof):
    pos = late(SCIENTIFICO, 4, 16)
    want = solve(pos).value
    seen: list = []
    saved: list = []

    def narrowed(now):      # result.json streams the bounds: rewritten after every item
        seen.append(now)
        data = json.loads((tmp_path / "job" / "result.json").read_text())
        saved.append((data["lower"], data["upper"]) == (now.lower, now.upper))
    first = job(pos, tmp_path, run=RunOptions(items=3), on_item=narrowed, deal=DealOptions(proof=proof))
    assert (first.stopped, first.solved_now, first.value, first.complete) == ("limit", 3, None, False)
    assert first.lower <= want <= first.upper and first.remaining > 0
    assert "--resume" in str(first) and json.loads((tmp_path / "job" / "result.json").read_text())["stopped"] == "limit"
    rest = job(pos, tmp_path, run=RunOptions(resume=True), on_item=narrowed, deal=DealOptions(proof=proof))
    assert saved and all(saved)
    records = (tmp_path / "job" / "items.jsonl").read_text().splitlines()
    assert (rest.value, rest.complete, rest.solved_now) == (want, True, len(records) - 3)
    assert rest.proof == proof and (rest.bounded > 0) == (proof == "bounds")
    for before, after in zip(seen, seen[1:]):
        assert before.lower <= after.lower <= want <= after.upper <= before.upper
    again = job(None, tmp_path, run=RunOptions(resume=True), deal=DealOptions(proof=proof))  # finished: no more
    assert (again.value, again.solved_now, again.nodes) == (want, 0, rest.nodes)


def test_time_limit_and_stop_event_leave_a_job_to_resume(tmp_path):
    pos = late(SCIENTIFICO, 6, 16)
    want = solve(pos).value
    r = job(pos, tmp_path, limit=Limit(time=1e-6))
    assert r.stopped == "time" and r.value is None
    stop = threading.Event()
    r = job(pos, tmp_path, run=RunOptions(resume=True), on_item=lambda now: stop.set(), stop=stop)
    assert r.stopped == "stop" and r.solved_now == 1
    assert job(pos, tmp_path, run=RunOptions(resume=True)).value == want


def test_a_killed_local_worker_changes_nothing(tmp_path):
    pos = late(SCIENTIFICO, 8, 16)
    killed: list = []

    def kill_one(now):
        if not killed:
            pool = [p for p in multiprocessing.active_children() if "Dask" not in p.name]
            os.kill(pool[0].pid, signal.SIGKILL)
            killed.append(pool[0].pid)
    r = job(pos, tmp_path, engine=EngineOptions(workers=2), on_item=kill_one)
    assert killed and r.value == solve(pos).value and r.complete


@pytest.fixture(scope="module")
def client():
    distributed = pytest.importorskip("distributed")
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0")
    c = distributed.Client(cluster)
    yield c
    c.close()
    cluster.close()


def test_dask_gives_the_value_and_survives_a_killed_worker(client, tmp_path):
    for seed in (1, 2):
        pos = late(SCIENTIFICO, seed, 16)
        r = job(pos, tmp_path, f"d{seed}", engine=EngineOptions(name="dask", client=client))
        assert (r.value, r.engine, r.workers) == (solve(pos).value, "dask", 2)
    pids = list(client.run(os.getpid).values())
    killed: list = []

    def kill_one(now):
        if not killed:
            os.kill(pids[0], signal.SIGKILL)
            killed.append(pids[0])
    pos = late(SCIENTIFICO, 3, 16)
    r = job(pos, tmp_path, "killed", engine=EngineOptions(name="dask", client=client), on_item=kill_one)
    assert killed and r.value == solve(pos).value and r.complete


def _run_until_a_row(argv, items: Path, sig, may_end: bool = False):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen([sys.executable, "-m", "scopa_solver"] + argv, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    give_up, before = time.monotonic() + 60, len(read_rows(items))
    while len(read_rows(items)) == before and time.monotonic() < give_up and proc.poll() is None:
        time.sleep(0.02)
    assert may_end or proc.poll() is None, "the job ended before it could be stopped"
    if proc.poll() is None:
        proc.send_signal(sig)
    out, err = proc.communicate(timeout=30)
    return proc.returncode, out, err


def test_the_command_killed_or_interrupted_then_resumed(tmp_path, capsys):
    pos = late(SCIENTIFICO, 2, 20)        # five cards a hand: long enough to stop in the middle
    want = solve(pos).value
    folder = tmp_path / "cli"
    code, _, err = _run_until_a_row(["solve", pos.to_string(), "--job", str(folder), "--workers", "1"],
                                    folder / "items.jsonl", signal.SIGKILL)
    assert code == -signal.SIGKILL
    code, _, err = _run_until_a_row(["solve", "--job", str(folder), "--resume", "--workers", "1"],
                                    folder / "items.jsonl", signal.SIGINT, may_end=True)
    # the few items left may all be done as the signal comes: the job ends in its own time (0)
    # or the signal ends the interpreter's exit, the result saved (its own death, no message)
    assert code in (0, 130, -signal.SIGINT) and "Traceback" not in err
    assert code != 130 or "--resume" in err
    assert main(["solve", "--job", str(folder), "--resume", "--workers", "2", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["value"], data["complete"]) == (want, True)
    assert main(["solve", "--job", str(folder), "--resume"]) == 0
    assert f"value {want:+d}" in capsys.readouterr().out
    # the full-window items chosen from the command line, for comparisons
    assert main(["solve", pos.to_string(), "--job", str(tmp_path / "exact"), "--proof", "exact", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["value"], data["proof"], data["bounded"]) == (want, "exact", 0)
    assert main(["solve", pos.to_string(), "--proof", "exact"]) == 2
    assert "--proof is for a checkpointed job" in capsys.readouterr().err
    # each item on two threads sharing its table
    assert main(["solve", pos.to_string(), "--job", str(tmp_path / "threads"), "--threads", "2", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["value"], data["complete"]) == (want, True)
    assert main(["solve", pos.to_string(), "--threads", "2"]) == 2
    assert "--threads is for a checkpointed job" in capsys.readouterr().err


def test_folders_and_checkpoints_that_are_not_the_jobs_are_refused(tmp_path, capsys):
    pos = late(SCIENTIFICO, 5, 12)
    other = late(SCIENTIFICO, 6, 12)
    folder = tmp_path / "job"
    job(pos, tmp_path, run=RunOptions(items=2))
    for kw, match in ((dict(), "holds a solve job"),
                      (dict(run=RunOptions(resume=True), deal=DealOptions(split=3)), "split=2")):
        with pytest.raises(DealJobError, match=match):
            job(pos, tmp_path, **kw)
    with pytest.raises(BatchOptionError, match="contradict"):
        RunOptions(resume=True, overwrite=True)
    with pytest.raises(DealJobError, match="another position"):
        job(other, tmp_path, run=RunOptions(resume=True))
    (folder / "notes.txt").write_text("mine")
    with pytest.raises(DealJobError, match="not a solve job's"):
        job(pos, tmp_path, run=RunOptions(overwrite=True))
    assert (folder / "notes.txt").read_text() == "mine"     # never removed
    (folder / "notes.txt").unlink()
    (folder / ".result.json.ab_3xyz9.tmp.json").write_text("{")       # a save cut by a kill
    (folder / ".result.json.mine.tmp.json").write_text("{")           # not one: refused
    with pytest.raises(DealJobError, match="mine.tmp"):
        job(pos, tmp_path, run=RunOptions(resume=True))
    assert (folder / ".result.json.ab_3xyz9.tmp.json").exists()       # a folder refused is left as it was
    (folder / ".result.json.mine.tmp.json").unlink()
    job(pos, tmp_path,
        run=RunOptions(resume=True))                                   # a job's folder: the leftover goes
    assert not (folder / ".result.json.ab_3xyz9.tmp.json").exists()
    items = folder / "items.jsonl"
    good = items.read_text()
    key = json.loads(good.splitlines()[0])["key"]
    said: list = []
    for text, why in (('{"key": "7d/3c 4s -/- - 0/0 0 1 -", "index": 0, "ok": true, "result": {"value": 1}}\n',
                       "checksum"),
                      (json.dumps({"key": key, "index": 0, "ok": True, "result": {"value": 99}}) + "\n", "checksum"),
                      ("some notes\n", "not a record")):
        items.write_text(good + text)
        said.clear()
        r = job(pos, tmp_path, run=RunOptions(resume=True, items=0),
                say=said.append)      # set aside, named, nothing solved
        assert r.rejected == 1 and f"line {len(good.splitlines()) + 1}" in said[0] and why in said[0], said
        assert items.read_text() == good and text.strip() in (folder / "rejected.jsonl").read_text().replace('\\"', '"')
    items.write_text(good + good.splitlines()[0][:20])       # the cut last line of a killed run is fine
    assert job(pos, tmp_path, run=RunOptions(resume=True)).value == solve(pos).value
    items.rename(tmp_path / "elsewhere.jsonl")
    items.symlink_to(tmp_path / "elsewhere.jsonl")
    with pytest.raises(DealJobError, match="symbolic link"):
        job(pos, tmp_path, run=RunOptions(resume=True))
    assert job(pos, tmp_path, run=RunOptions(resume=True, force=True)).value == solve(pos).value
    description = folder / "job.json"
    saved = description.read_text()
    for text in ("[" * 100000, '{"format": "scopa-solver solve job", "version": 1}', "\x00\xff", "{}",
                 saved.replace('"version": 2', '"version": 9'), saved.replace('"split": 2', '"split": 1'),
                 saved.replace(pos.to_string()[:10], "not a pos.")):
        description.write_text(text, errors="surrogateescape")
        with pytest.raises(DealJobError):
            job(pos, tmp_path, run=RunOptions(resume=True))
        assert main(["solve", "--job", str(folder), "--resume"]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and err.startswith("scopa-solver: error:"), err
    description.write_text(saved)
    (folder / "result.json").unlink()
    (folder / "result.json").mkdir()
    with pytest.raises(DealJobError, match="is a folder"):
        job(pos, tmp_path, run=RunOptions(resume=True))
    with pytest.raises(DealJobError, match="no job to resume"):
        job(pos, tmp_path, "empty", run=RunOptions(resume=True))
    (tmp_path / "a-file").write_text("x")
    with pytest.raises(DealJobError, match="is a file"):
        job(pos, tmp_path, "a-file")
    for argv in (["solve", pos.to_string(), "--workers", "2"], ["solve", pos.to_string(), "--resume"],
                 ["solve", pos.to_string(), "--job", str(tmp_path / "x"), "--objective", "maxn"],
                 ["solve", pos.to_string(), "--job", str(tmp_path / "x"), "--split", "9"],
                 ["solve", pos.to_string(), "--job", str(tmp_path / "x"), "--scheduler", "tcp://127.0.0.1:1"]):
        assert main(argv) == 2, argv
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and err.startswith("scopa-solver: error:"), (argv, err)


def test_the_benchmark_runs_small_and_projects():
    import importlib.util
    spec = importlib.util.spec_from_file_location("bench_job_test", ROOT / "benchmarks" / "bench_job.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    rows = bench.run(rows=("scientifico-3",), count=1, splits=(1, 2), workers=1)
    by_run = bench.runs(rows=("scientifico-3",), count=1, run_seconds=60, workers=1)
    assert by_run[0]["complete"] and by_run[0]["runs"] == 1 and by_run[0]["value"] == by_run[0]["direct"]
    assert [j["split"] for j in rows[0]["jobs"]] == [1, 2] and rows[0]["jobs"][0]["nodes"] > 0
    family = [{"row": f"scientifico-{k}", "median_nodes": n, "cpu_median_ms": ms}
              for k, n, ms in ((5, 1e5, 10.0), (6, 2e6, 300.0), (7, 6e7, 12_000.0))]
    projection = bench.project(family, overhead=2.0, workers=(1, 10))
    assert projection["fits"]["nodes-last"]["factor"] == pytest.approx(30.0)
    assert projection["fits"]["nodes-last"]["k"][10] == pytest.approx(6e7 * 30 ** 3)
    assert projection["workers"][10]["last"] == pytest.approx(12.0 * 40 ** 3 * 2 / 10)
    assert "k=10" in bench.report(rows, projection)


# -- integrity, locking, limits (the hardening of the checkpoints) ---------------------------------

def _rewrite(items: Path, change) -> list:
    """items.jsonl with `change(row)` applied to each record, their checksums left as they were."""
    rows = [json.loads(line) for line in items.read_text().splitlines()]
    items.write_text("".join(json.dumps(change(dict(r))) + "\n" for r in rows))
    return rows


def _nudge(row: dict, pos_of_key) -> dict:
    """A record's value moved by one, still inside the item's bounds (a silent corruption)."""
    from scopa_solver.batch.deal import _side_range
    lo, hi = _side_range(pos_of_key(row["key"]))
    value = row["result"]["value"]
    row["result"] = dict(row["result"], value=value + 1 if value + 1 <= hi else value - 1)
    assert lo <= row["result"]["value"] <= hi
    return row


def test_a_damaged_duplicated_or_foreign_record_is_named_and_its_item_solved_again(tmp_path):
    # items solved exactly (records of values, each nudged or copied); bounds records have the same checks
    from scopa_solver import Position
    pos, other = late(SCIENTIFICO, 1, 16), late(SCIENTIFICO, 6, 16)
    want = solve(pos).value
    job(other, tmp_path, "other", run=RunOptions(items=1), deal=EXACT)
    foreign = (tmp_path / "other" / "items.jsonl").read_text()
    for case in ("nudged", "second row", "foreign", "job of the same position elsewhere"):
        folder = tmp_path / case
        job(pos, tmp_path, case, run=RunOptions(items=3), deal=EXACT)
        items = folder / "items.jsonl"
        if case == "nudged":        # every value moved by one inside its bounds: gave +-1 before
            _rewrite(items, lambda row: _nudge(row, Position.from_string))
            bad = 3
        elif case == "second row":  # a second row for an item with another value: the last won before
            first = json.loads(items.read_text().splitlines()[0])
            items.write_text(items.read_text() + json.dumps(_nudge(first, Position.from_string)) + "\n")
            bad = 1
        elif case == "foreign":
            items.write_text(items.read_text() + foreign)
            bad = 1
        else:                       # the same job in another folder: its records are this job's too
            job(pos, tmp_path, "twin", run=RunOptions(items=1), deal=EXACT)
            items.write_text(items.read_text() + (tmp_path / "twin" / "items.jsonl").read_text())
            bad = 1     # the twin solved the first item again: a second record of it, set aside
        said: list = []
        r = job(None, tmp_path, case, run=RunOptions(resume=True), say=said.append, deal=EXACT)
        assert (r.value, r.complete) == (want, True), case      # was wrong with the damaged records
        assert r.rejected == bad, (case, said)
        then = "the first record stands" if case.startswith("job of") else "its item is solved again"
        assert len(said) == bad and all("line" in s and "item" in s and then in s for s in said), said
        assert len((folder / "rejected.jsonl").read_text().splitlines()) == bad
        assert len(read_rows(items)) == r.solved        # only trusted records stay, one an item


def test_verify_solves_a_sample_again_and_replaces_a_wrong_value(tmp_path):
    from scopa_solver import Position
    from scopa_solver.batch.deal import _checksum
    pos = late(SCIENTIFICO, 1, 16)
    want = solve(pos).value
    job(pos, tmp_path, run=RunOptions(items=3), deal=EXACT)
    folder = tmp_path / "job"
    salt = json.loads((folder / "job.json").read_text())["check"]

    def wrong(row):         # a wrong value whose checksum was taken after it went wrong
        row = _nudge(row, Position.from_string)
        row["check"] = _checksum(row, salt)
        return row
    _rewrite(folder / "items.jsonl", wrong)
    said: list = []
    r = job(None, tmp_path, deal=DealOptions(verify=100, proof="exact"), run=RunOptions(resume=True), say=said.append)
    assert (r.value, r.verified, r.rejected) == (want, 0, 3) and len(said) == 3 and "--verify" in said[0]
    r = job(None, tmp_path, deal=DealOptions(verify=2, proof="exact"), run=RunOptions(resume=True))
    assert (r.value, r.verified, r.rejected, r.solved_now) == (want, 2, 0, 0)
    with pytest.raises(DealJobError, match="verify"):
        job(None, tmp_path, deal=DealOptions(verify=-1), run=RunOptions(resume=True))


def test_verify_solves_proved_bounds_again_and_sets_aside_those_that_exclude_the_value(tmp_path):
    # the "bounds" proof's records are bounds proved against windows: --verify solves their
    # items again exactly, keeps the value of those that hold and sets aside those that do not
    from scopa_solver import Position
    from scopa_solver.batch.deal import _checksum, _side_range
    pos = late(SCIENTIFICO, 1, 16)
    want = solve(pos).value
    job(pos, tmp_path, run=RunOptions(items=4))
    folder = tmp_path / "job"
    salt = json.loads((folder / "job.json").read_text())["check"]
    rows = [json.loads(line) for line in (folder / "items.jsonl").read_text().splitlines()]
    bounds = [r for r in rows if r["result"]["value"] is None]
    assert bounds, "the bounds proof wrote no bounds"
    r = job(None, tmp_path, deal=DealOptions(verify=100), run=RunOptions(resume=True))
    assert (r.value, r.verified, r.rejected) == (want, len({x["key"] for x in rows}), 0)

    def wrong(row):         # bounds that exclude the item's value, checksummed after they went wrong
        if row["result"]["value"] is not None:
            return row
        item = Position.from_string(row["key"])
        value, (lo, hi) = solve(item).value, _side_range(item)
        wrong = (value + 1, hi) if value < hi else (lo, value - 1)
        row["result"] = dict(row["result"], lower=wrong[0], upper=wrong[1])
        row["check"] = _checksum(row, salt)
        return row
    job(pos, tmp_path, "again", run=RunOptions(items=4))
    _rewrite(tmp_path / "again" / "items.jsonl", wrong)
    said: list = []
    r = job(None, tmp_path, "again", deal=DealOptions(verify=100), run=RunOptions(resume=True), say=said.append)
    assert (r.value, r.complete) == (want, True)
    assert r.rejected == len(bounds) and sum("exclude" in s and "--verify" in s for s in said) == min(5, len(bounds))
    rejected = [json.loads(line) for line in (tmp_path / "again" / "rejected.jsonl").read_text().splitlines()]
    assert len(rejected) == len(bounds) and all("exclude" in x["why"] for x in rejected)


def test_the_description_is_checked_and_an_old_job_is_refused_by_name(tmp_path, capsys):
    pos = late(SCIENTIFICO, 5, 12)
    job(pos, tmp_path, run=RunOptions(items=1))
    description = tmp_path / "job" / "job.json"
    data = json.loads(description.read_text())
    for change, match in ((dict(every_root_move=True), "damaged"), (dict(items=data["items"] + 1), "damaged"),
                          (dict(version=1), "earlier scopa-solver")):
        description.write_text(json.dumps(dict(data, **change)))
        with pytest.raises(DealJobError, match=match) as err:
            job(None, tmp_path, run=RunOptions(resume=True))
        assert "job.json" in str(err.value)
        assert main(["solve", "--job", str(tmp_path / "job"), "--resume"]) == 2
        assert "job.json" in capsys.readouterr().err


def test_one_run_at_a_time_uses_a_folder(tmp_path, capsys):
    pos = late(SCIENTIFICO, 4, 16)
    folder = tmp_path / "job"
    seen: list = []

    def second_run(now):
        if not seen:
            for run in (RunOptions(resume=True), RunOptions(overwrite=True)):
                with pytest.raises(DealJobError, match="in use by another run") as err:
                    job(pos, tmp_path, run=run)
                seen.append(str(err.value))
            assert main(["solve", "--job", str(folder), "--resume"]) == 2
            seen.append(capsys.readouterr().err)
    r = job(pos, tmp_path, on_item=second_run)
    assert r.value == solve(pos).value and len(seen) == 3 and str(os.getpid()) in seen[0]
    assert len(read_rows(folder / "items.jsonl")) == r.solved_now      # no record of the refused runs
    assert seen[2].count("\n") == 1 and "in use" in seen[2]
    # a new job in a folder that another new job is starting in
    with pytest.raises(DealJobError, match="in use"):
        job(pos, tmp_path, "fresh", on_item=lambda now: job(pos, tmp_path, "fresh"))
    # the lock is the process's: a killed run leaves none (test_the_command_killed_... resumes after SIGKILL)
    assert job(None, tmp_path, run=RunOptions(resume=True)).value == r.value


def test_a_users_file_named_like_a_leftover_is_not_deleted(tmp_path):
    pos = late(SCIENTIFICO, 5, 12)
    folder = tmp_path / "job"
    folder.mkdir()
    (folder / ".result.json.abcd1234.tmp.json").write_text("mine")
    with pytest.raises(DealJobError, match="not a solve job's"):
        job(pos, tmp_path)
    with pytest.raises(DealJobError, match="not a solve job's"):
        job(pos, tmp_path, run=RunOptions(overwrite=True))
    assert (folder / ".result.json.abcd1234.tmp.json").read_text() == "mine"


def test_workers_are_capped_and_a_client_that_is_not_one_is_refused(tmp_path):
    from scopa_solver.batch.engines import BatchEngineError
    pos = late(SCIENTIFICO, 5, 12)
    said: list = []
    r = job(pos, tmp_path, engine=EngineOptions(workers=9), say=said.append)
    cap = min(9, r.items, 2 * (os.cpu_count() or 1))
    assert r.value == solve(pos).value and r.workers <= cap and said and "9 workers asked" in said[0]
    with pytest.raises(BatchEngineError, match="distributed.Client"):
        job(pos, tmp_path, "dask", engine=EngineOptions(name="dask", client=object()))
    assert not (tmp_path / "dask").exists()


@pytest.mark.parametrize("proof", ["exact", "bounds"])
def test_an_item_longer_than_the_time_limit_is_split_and_the_job_finishes(tmp_path, monkeypatch, proof):
    """Every item's search is cut (a node budget from a cold table stands in for a short time
    limit, so that the test does not hang on the machine's speed): before, the job redid the same items until
    its time ran out, run after run. Now a cut item keeps its proven bounds and is split one
    turn deeper, and the job finishes, resumed after every item: items solved exactly
    (run_batch) or proved against windows (a searcher's search_many)."""
    import contextlib
    from scopa_solver import Position
    from scopa_solver.batch import jobs
    pos = late(SCIENTIFICO, 1, 24)
    want = solve(pos).value
    real, borrow = jobs.kernel.run_batch, jobs.kernel.borrow_searcher

    def cut_at_50k_nodes(states, **kw):     # and from a cold table, as a new run's process starts
        jobs.kernel.clear_tables()
        return real(states, **dict(kw, limit=kw["limit"].replace(nodes=50_000)))

    class Cut:                              # a borrowed searcher whose searches stop at 50k nodes
        def __init__(self, searcher):
            self.searcher = searcher

        def search_many(self, states, want, nodes, *rest, **kw):
            self.searcher.clear()
            return self.searcher.search_many(states, want, 50_000, *rest, **kw)

    @contextlib.contextmanager
    def cut_searcher(*args, **kw):
        with borrow(*args, **kw) as searcher:
            yield Cut(searcher)
    monkeypatch.setattr(jobs.kernel, "run_batch", cut_at_50k_nodes)
    monkeypatch.setattr(jobs.kernel, "borrow_searcher", cut_searcher)
    deal = DealOptions(proof=proof)
    said: list = []
    first = r = job(pos, tmp_path, limit=Limit(time=10, tt_mb=4), run=RunOptions(items=10), say=said.append,
                    deal=deal)
    runs = 1
    while not r.complete and runs < 100:
        r = job(None, tmp_path, limit=Limit(time=10, tt_mb=4), run=RunOptions(resume=True, items=10), say=said.append,
                deal=deal)
        assert r.lower <= want <= r.upper and r.stopped != "time"
        runs += 1
    assert r.complete and r.value == want and r.stopped is None    # before: stopped by the time each run
    assert r.items > first.items and any("split" in text for text in said)
    monkeypatch.undo()
    rows = read_rows(tmp_path / "job" / "items.jsonl")
    cut = [row for row in rows if row["result"]["value"] is None]
    # "exact": every bounds record is a cut item's, split; "bounds": the window proofs' too
    assert cut and any(row["result"]["split"] for row in cut)
    assert proof == "bounds" or all(row["result"]["split"] for row in cut)
    for row in cut[::max(1, len(cut) // 10)]:      # a cut item's bounds hold its value (ten of them)
        value = solve(Position.from_string(row["key"])).value
        assert row["result"]["lower"] <= value <= row["result"]["upper"]


@pytest.mark.parametrize("name", ["items.jsonl", "job.json"])
def test_a_job_folder_file_that_is_a_named_pipe_is_refused_at_once(tmp_path, name):
    """Resuming read items.jsonl, a named pipe there waited for a writer."""
    pos = late(Rules(), 1, 9)
    job(pos, tmp_path)
    os.unlink(tmp_path / "job" / name)
    named_pipe(tmp_path / "job" / name)
    with pytest.raises(DealJobError, match=f"{name} is a named pipe, not a solve job's file"):
        job(None, tmp_path, run=RunOptions(resume=True))


def test_a_job_takes_a_limits_time_deadline_table_and_threads_and_refuses_the_rest(tmp_path):
    pos = late(SCIENTIFICO, 5, 12)
    r = job(pos, tmp_path, "late", Limit(deadline=time.monotonic() - 1))     # a deadline already past
    assert r.stopped == "time" and r.value is None and r.solved_now == 0
    assert job(None, tmp_path, "late", Limit(tt_mb=4), run=RunOptions(resume=True)).value == solve(pos).value
    for bad in (Limit(nodes=1000), Limit(horizon=8)):
        with pytest.raises(DealJobError, match="no (nodes|horizon) limit"):
            job(pos, tmp_path, "refused", bad)
    with pytest.raises(DealJobError, match="chunk"):
        job(pos, tmp_path, "refused", run=RunOptions(chunk=2))
    assert not (tmp_path / "refused").exists()


@pytest.mark.parametrize("proof", ["bounds", "exact"])
def test_items_searched_on_two_threads_give_solves_value_and_moves(proof, tmp_path):
    # Limit(threads=2): each item searched by two threads sharing its table (a windowed proof or
    # an exact solve); the local engine's default then a worker for every two cores
    for seed, (rules, left) in enumerate([(SCIENTIFICO, 16), (Rules(players=3), 9), (Rules(), 12)]):
        pos = late(rules, 40 + seed, left)
        want = solve(pos)
        r = job(pos, tmp_path, f"{seed}", Limit(threads=2), deal=DealOptions(proof=proof))
        assert (r.value, r.complete, r.threads, r.to_dict()["threads"]) == (want.value, True, 2, 2)
        assert "(local, 1 worker of 2 threads)" in str(r)
        if proof == "bounds":
            assert sorted(r.best_moves) == sorted(str(m) for m in want.best_moves)
        r = solve_job(pos, tmp_path / f"{seed}-default", Limit(threads=2), deal=DealOptions(proof=proof),
                      run=RunOptions(progress=False))
        assert r.value == want.value and r.workers <= max(1, (os.cpu_count() or 1) // 2)
