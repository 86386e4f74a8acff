"""The board's server under load: a cheap request's latency while idle sockets are held open
and while expensive requests run, the memory that large bodies take, and how long Ctrl-C takes
to stop it mid-search.

    python benchmarks/bench_web.py [--seconds S] [--heavy N] [--attack-seconds S] [--sockets N]
                                   [--only-attack] [--json]

First the idle-socket attack: `sockets` connections to the server held open for
`attack_seconds`, half sending nothing and half half a request's headers, those the server
closes reopened every half second; meanwhile one client asks ``GET /api/info`` every 20 ms: its
latencies (p50, p99, max; failures count at the time they took) and answers by status.

Starts ``python -m scopa_solver.web`` on a free port of 127.0.0.1, keeps `heavy` clients each
sending expensive requests one after another (a Scopone pv tree, a six-player review, a Scopone
analysis at the 30 s limit), and one client sending cheap ones (`/api/board`, `/api/info`) for
`seconds`; their latencies (p50, p99, max) and the answers of the expensive ones by status.
Then `bodies` clients at once each send a body just under the cap (2 MB of JSON objects, which
parse into much more) and one over it, and the server's peak memory is read before and after
(VmHWM). Last, with the expensive requests running, Ctrl-C (SIGINT): the seconds until the
process has exited.
"""
from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Optional

ROOT = Path(__file__).resolve().parent.parent
try:
    import scopa_solver  # noqa: F401
except ImportError:  # run from a checkout that is not installed: use the checkout
    sys.path.insert(0, str(ROOT))

from scopa_solver import GameRecord, Position, RoundRecord, Rules  # noqa: E402
from scopa_solver.play.bots import GreedyBot  # noqa: E402
from scopa_solver.web.app import free_port  # noqa: E402
from scopa_solver.web.service import LIMITS  # noqa: E402

SCOPONE = ("4d6d4c5cCc7sFs2b6b/2d3dRdAc2c7cRc2s3b/3cAs3s5s6sCsRs4bRb/Ad5d7dFdFc4sAb7bCb Cd6c5bFb "
           "-/-/-/- - 0/0/0/0 0 3 - players=4 game=scopone")
SMALL = "7d2c/3b4c 3s4s -/- - 0/0 0 1 -"


def _six_player_record() -> str:
    rules = Rules(players=6)
    start = pos = Position.new_round(seed=4, rules=rules)
    moves = []
    while not pos.is_round_over():
        moves.append(GreedyBot()(pos))
        pos = pos.play(moves[-1])
    rec = GameRecord(rules=rules, players=tuple(f"p{i}" for i in range(6)), kind="rounds")
    rec.add_round(RoundRecord.from_play(start, moves))
    return rec.to_json()


def _post(port: int, path: str, body: Optional[bytes], timeout: float = 120) -> int:
    """The status of the answer to a POST of `body` to /api/`path` (a GET when None; 0: no answer)."""
    req = urllib.request.Request(f"http://127.0.0.1:{port}/api/{path}", data=body,
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            r.read()
            return r.status
    except urllib.error.HTTPError as exc:
        exc.read()
        return exc.code
    except OSError:
        return 0             # the connection was closed (the server stopping)


def _peak_mb(pid: int) -> tuple[float, float]:
    fields = dict(line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines()
                  if ":" in line)
    return tuple(int(fields[k].split()[0]) / 1024 for k in ("VmRSS", "VmHWM"))   # type: ignore[return-value]


def _quantile(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] if xs else float("nan")


def _start() -> tuple[subprocess.Popen, int]:
    port = free_port()
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    proc = subprocess.Popen([sys.executable, "-m", "scopa_solver.web", "--port", str(port)], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    end = time.monotonic() + 60
    while time.monotonic() < end:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/info", timeout=2).read()
            return proc, port
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError("the server did not start")


def _closed(s: socket.socket) -> bool:
    try:
        return s.recv(1 << 16) == b""
    except BlockingIOError:
        return False
    except OSError:
        return True


def _files(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


def attack(pid: int, port: int, seconds: float = 15.0, sockets: int = 200, reopen: float = 0.5) -> dict:
    """/api/info's latency while `sockets` idle connections are held open (see the module's doc),
    and the most files (sockets) the server (process `pid`) held open meanwhile."""
    files = [_files(pid)]
    half = b"POST /api/board HTTP/1.1\r\nHost: x\r\nContent-Type: appl"
    held: list = [None] * sockets
    stop = threading.Event()
    opened = [0]

    def hold() -> None:
        while not stop.is_set():
            for k, s in enumerate(held):
                if s is not None and not _closed(s):
                    continue
                if s is not None:
                    s.close()
                try:
                    s = socket.create_connection(("127.0.0.1", port), timeout=5)
                    s.setblocking(False)
                    if k % 2:
                        s.send(half)
                    held[k] = s
                    opened[0] += 1
                except OSError:
                    held[k] = None
            stop.wait(reopen)
    holder = threading.Thread(target=hold, daemon=True)
    holder.start()
    time.sleep(1.0)                     # the sockets are open
    latencies, answers = [], {}
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        t = time.perf_counter()
        status = str(_post(port, "info", None, 60))
        latencies.append((time.perf_counter() - t) * 1000)
        answers[status] = answers.get(status, 0) + 1
        files.append(_files(pid))
        time.sleep(0.02)
    stop.set()
    holder.join(60)
    for s in held:
        if s is not None:
            s.close()
    return {"seconds": seconds, "sockets": sockets, "opened": opened[0], "requests": len(latencies),
            "server_files": {"before": files[0], "most": max(files)},
            "answers": answers, "ms": {"p50": _quantile(latencies, 0.5), "p99": _quantile(latencies, 0.99),
                                       "max": max(latencies)}}


def run(seconds: float = 20.0, heavy: int = 6, bodies: int = 20, attack_seconds: float = 15.0,
        sockets: int = 200, only_attack: bool = False) -> dict:
    expensive = [("tree", json.dumps({"position": SCOPONE}).encode()),
                 ("review", json.dumps({"record": _six_player_record()}).encode()),
                 ("analyze", json.dumps({"position": SCOPONE, "time_limit": 30}).encode())]
    cheap = [("board", json.dumps({"position": SMALL}).encode()), ("info", None)]
    proc, port = _start()
    try:
        idle = attack(proc.pid, port, attack_seconds, sockets)
        if only_attack:
            return {"attack": idle, "cores": os.cpu_count()}
        stop = threading.Event()
        answers: dict = {}

        def hammer(k: int) -> None:
            i = k
            while not stop.is_set():
                path, body = expensive[i % len(expensive)]
                status = _post(port, path, body)
                answers.setdefault(path, {}).setdefault(str(status), 0)
                answers[path][str(status)] += 1
                i += 1
        clients = [threading.Thread(target=hammer, args=(k,), daemon=True) for k in range(heavy)]
        for c in clients:
            c.start()
        time.sleep(1.0)                      # the searches are under way
        latencies: list[float] = []
        end = time.monotonic() + seconds
        i = 0
        while time.monotonic() < end:
            path, body = cheap[i % 2]
            t = time.perf_counter()
            if body is None:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/api/info", timeout=60).read()
            else:
                assert _post(port, path, body) == 200
            latencies.append(time.perf_counter() - t)
            i += 1
            time.sleep(0.02)
        rss_before, peak_before = _peak_mb(proc.pid)
        under = b'{"moves": [' + b"{}," * ((LIMITS["body"] - 100) // 3) + b"{}]}"
        over = b'{"position": "' + b"x" * (3 * LIMITS["body"]) + b'"}'
        big = [threading.Thread(target=_post, args=(port, "board", under if k % 2 else over))
               for k in range(bodies)]
        for t in big:
            t.start()
        for t in big:
            t.join()
        rss_after, peak_after = _peak_mb(proc.pid)
        time.sleep(1.0)                     # expensive requests in flight again
        stop.set()                          # (those in flight go on)
        t = time.perf_counter()
        proc.send_signal(signal.SIGINT)
        code = proc.wait(120)
        ctrl_c = time.perf_counter() - t
        for c in clients:
            c.join(120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    ms = [x * 1000 for x in latencies]
    return {"attack": idle, "seconds": seconds, "heavy_clients": heavy, "cheap_requests": len(ms),
            "cheap_ms": {"p50": _quantile(ms, 0.5), "p99": _quantile(ms, 0.99), "max": max(ms)},
            "expensive_answers": answers, "bodies": bodies, "body_bytes": len(under),
            "memory_mb": {"rss_before": rss_before, "peak_before": peak_before,
                          "rss_after": rss_after, "peak_after": peak_after},
            "ctrl_c_seconds": ctrl_c, "exit_code": code, "cores": os.cpu_count()}


def report(out: dict) -> str:
    a = out["attack"]
    lines = [f"{a['requests']} GET /api/info over {a['seconds']:g} s while {a['sockets']} idle sockets were held "
             f"open ({a['opened']} opened in all): p50 {a['ms']['p50']:.1f} ms, p99 {a['ms']['p99']:.1f} ms, "
             f"max {a['ms']['max']:.1f} ms; answers by status {json.dumps(a['answers'], sort_keys=True)}; "
             f"the server's open files: {a['server_files']['before']} before, at most {a['server_files']['most']}"]
    if "cheap_ms" not in out:
        return lines[0]
    c, m = out["cheap_ms"], out["memory_mb"]
    return "\n".join(lines + [
        f"{out['cheap_requests']} cheap requests (/api/board, /api/info) over {out['seconds']:g} s while "
        f"{out['heavy_clients']} clients sent expensive ones: p50 {c['p50']:.1f} ms, p99 {c['p99']:.1f} ms, "
        f"max {c['max']:.1f} ms",
        f"expensive answers by status: {json.dumps(out['expensive_answers'], sort_keys=True)}",
        f"{out['bodies']} bodies at once (half {out['body_bytes']:,} bytes of JSON objects, half over the "
        f"cap): peak memory {m['peak_before']:.0f} -> {m['peak_after']:.0f} MB "
        f"(resident after: {m['rss_after']:.0f} MB)",
        f"Ctrl-C mid-search: exited in {out['ctrl_c_seconds']:.2f} s (exit code {out['exit_code']}); "
        f"{out['cores']} cores"])


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--heavy", type=int, default=6)
    parser.add_argument("--bodies", type=int, default=20)
    parser.add_argument("--attack-seconds", type=float, default=15.0)
    parser.add_argument("--sockets", type=int, default=200)
    parser.add_argument("--only-attack", action="store_true", help="measure the idle-socket attack only")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    out = run(args.seconds, args.heavy, args.bodies, args.attack_seconds, args.sockets, args.only_attack)
    print(json.dumps(out, indent=2) if args.json else report(out))


if __name__ == "__main__":
    main()
