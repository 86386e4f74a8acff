"""A solve job on a real Dask cluster, as a user runs one: `dask scheduler` and two `dask worker`
processes started on loopback (their own processes, not a LocalCluster), the job pointed at the
scheduler's address; a worker killed mid-run changes nothing, and a job whose command was killed
resumes on the cluster to the direct search's value (docs/batch.md#a-whole-deal-as-a-job)."""
from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from scopa_solver import Rules, solve
from scopa_solver.batch import EngineOptions, RunOptions, read_rows, solve_job

from helpers import late

distributed = pytest.importorskip("distributed")
DASK = shutil.which("dask")
pytestmark = pytest.mark.skipif(DASK is None, reason="the dask command is not installed")

ROOT = Path(__file__).resolve().parent.parent
SCIENTIFICO = Rules(players=4, game="scientifico")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def cluster(tmp_path):
    """(address, worker processes): a scheduler and two single-threaded workers without a
    nanny (a killed worker stays dead), this checkout's package on their path."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    address = f"tcp://127.0.0.1:{_free_port()}"
    logs = open(tmp_path / "dask.log", "w")
    common = dict(env=env, stdout=logs, stderr=subprocess.STDOUT, cwd=tmp_path)
    procs = [subprocess.Popen([DASK, "scheduler", "--host", "127.0.0.1", "--port", address.rsplit(":", 1)[1],
                               "--no-dashboard"], **common)]
    try:
        workers = [subprocess.Popen([DASK, "worker", address, "--nthreads", "1", "--no-nanny", "--no-dashboard",
                                     "--host", "127.0.0.1", "--name", f"w{i}"], **common) for i in range(2)]
        procs += workers
        # until both workers have joined, or a process has ended (its log says why): a slow
        # start on a busy machine is waited for, not failed
        while True:
            try:
                with distributed.Client(address, timeout="2s") as client:
                    if len(client.scheduler_info()["workers"]) == 2:
                        break
            except (OSError, TimeoutError):
                pass
            assert all(p.poll() is None for p in procs), (tmp_path / "dask.log").read_text()[-2000:]
            time.sleep(0.3)
        yield address, workers
    finally:
        for p in reversed(procs):
            if p.poll() is None:
                p.terminate()
        for p in procs:
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                p.kill()
        logs.close()


def test_a_job_at_a_clusters_address_survives_a_killed_worker_and_resumes(cluster, tmp_path):
    address, workers = cluster
    engine = EngineOptions(name="dask", scheduler=address)
    pos = late(SCIENTIFICO, 3, 20)
    want = solve(pos)
    killed: list = []

    def kill_one(now):
        if not killed:
            workers[0].send_signal(signal.SIGKILL)
            workers[0].wait(timeout=10)
            killed.append(now.solved_now)
    r = solve_job(pos, tmp_path / "job", engine=engine, run=RunOptions(progress=False), on_item=kill_one)
    assert killed and (r.value, r.complete, r.engine, r.workers) == (want.value, True, "dask", 2)
    assert sorted(r.best_moves) == sorted(str(m) for m in want.best_moves)

    # the command pointed at the cluster, killed after its first record, then resumed there
    pos = late(SCIENTIFICO, 5, 20)
    folder = tmp_path / "cli"
    proc = subprocess.Popen([sys.executable, "-m", "scopa_solver", "solve", pos.to_string(), "--job", str(folder),
                             "--engine", "dask", "--scheduler", address], env=dict(os.environ, PYTHONPATH=str(ROOT)),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    while not read_rows(folder / "items.jsonl") and proc.poll() is None:
        time.sleep(0.02)
    assert proc.poll() is None, "the job ended before it could be killed"
    proc.send_signal(signal.SIGKILL)
    proc.communicate(timeout=30)
    before = len(read_rows(folder / "items.jsonl"))
    r = solve_job(None, folder, engine=engine, run=RunOptions(resume=True, progress=False))
    assert (r.value, r.complete, r.workers) == (solve(pos).value, True, 1)
    assert len(read_rows(folder / "items.jsonl")) == before + r.solved_now and before >= 1
