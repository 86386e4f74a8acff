"""The command line against hostile input and a hostile environment: every --json output is
valid JSON, bad limits are one line and exit 2, no saved game or unrelated file is lost or
overwritten, closed or undecodable input and closed output end a game cleanly."""
from __future__ import annotations

import builtins
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from scopa_solver import Position, files
from scopa_solver.cli import main, output
from scopa_solver.play.record import GameRecord

ROOT = Path(__file__).resolve().parent.parent
LAST = "5c5bFd/4d6sRb 3c5dRs2b -/- - 0/0 0 1 -"
VIEW = "7cRs4b/?3 3d4c7sRb Fd3c2sAbFb/Ad2d6dCdAc2c5c6cFcCcRc3s5sFsCs2b3b6bCb ?6 0/0 0 1 0"


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def strict_json(text: str):
    """json.loads that refuses NaN and Infinity (Python's accepts them; JSON does not)."""
    def refuse(name):
        raise ValueError(f"{name} is not JSON")
    return json.loads(text, parse_constant=refuse)


def no_input(prompt=""):
    raise AssertionError("the game should not have started")


@pytest.fixture
def record_path(tmp_path):
    path = tmp_path / "old-game.json"
    assert main(["arena", "greedy", "random", "--rounds", "1", "--seed", "1", "--save", str(path), "--json"]) == 0
    return path


# -- every --json output is JSON ------------------------------------------------------------------

def test_every_command_prints_valid_json(capsys, tmp_path, monkeypatch, record_path):
    from scopa_solver.play import terminal
    monkeypatch.setattr(terminal, "ask_move", lambda pos, ask, say: pos.legal_moves()[0])
    capsys.readouterr()     # the fixture's output
    commands = [
        ["deal", "--seed", "3"], ["show", LAST], ["solve", LAST], ["analyze", LAST],
        ["solve", LAST, "--max-nodes", "3"],                     # stopped: bounds, no value
        ["tree", LAST], ["tree", LAST, "-o", str(tmp_path / "t.json")],
        ["suggest", VIEW, "--worlds", "1", "--seed", "1", "--threads", "1"],   # one world: no stderr
        ["arena", "greedy", "random", "--rounds", "1", "--seed", "2"],        # one deal: no spread
        ["play", "--bot", "greedy", "--seed", "1", "--rounds", "1", "--save", str(tmp_path / "p.json")],
        ["review", str(record_path), "--no-fair", "--round", "1"],
    ]
    seen = set()
    for argv in commands:
        code, out, err = run(capsys, *argv, "--json")
        assert code == 0, (argv, err)
        assert out.count("\n") == 1, (argv, out[:200])
        data = strict_json(out)
        assert isinstance(data, dict) and data, argv
        seen.add(argv[0])
    assert seen == {"deal", "show", "solve", "analyze", "tree", "suggest", "arena", "play", "review"}
    data = strict_json(run(capsys, "suggest", VIEW, "--worlds", "1", "--seed", "1", "--threads", "1", "--json")[1])
    assert data["moves"][0]["stderr"] is None and data["player"] == 0
    data = strict_json(run(capsys, "arena", "greedy", "random", "--rounds", "1", "--seed", "2", "--json")[1])
    assert data["stderr"] is None and data["ci95"] == [None, None] and data["seed"] == 2


# -- limits ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("argv, message", [
    (["solve", LAST, "--tt-mb", "inf"], "tt_mb"),
    (["analyze", LAST, "--tt-mb", "1e400"], "tt_mb"),
    (["solve", LAST, "--tt-mb", "-1"], "tt_mb"),
    (["solve", LAST, "--tt-mb", "big"], "expected a number"),
    (["tree", LAST, "--tt-mb", "nan"], "tt_mb"),
    (["solve", LAST, "--time-limit", "nan"], "time_limit"),
    (["analyze", LAST, "--time-limit", "0"], "time_limit"),
    (["suggest", VIEW, "--time-limit=-inf"], "time_limit"),
    (["solve", LAST, "--max-nodes", "0"], "max_nodes"),
    (["solve", LAST, "--max-nodes", "1e6"], "expected a whole number"),
    (["solve", LAST, "--max-nodes", "9" * 5000], "expected a whole number"),
    (["suggest", VIEW, "--threads", "-1"], "threads"),
    (["arena", "greedy", "pimc", "--threads", "two"], "expected a whole number"),
    (["play", "--threads", "-3"], "threads"),
    (["review", "game.json", "--threads", "-1"], "threads"),
    (["arena", "greedy", "pimc", "--worlds", "0"], "expected 1 or more"),
    (["play", "--worlds", "1e400"], "expected a whole number"),
    (["suggest", VIEW, "--worlds", "inf"], "expected a whole number"),
    (["tree", LAST, "--depth", "-2"], "expected 0 or more"),
])
def test_bad_limits_are_one_line_and_exit_2(capsys, monkeypatch, argv, message):
    monkeypatch.setattr(builtins, "input", no_input)
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "", (argv, err)
    assert err.startswith("scopa-solver: error: ") and message in err and err.count("\n") == 1, err
    assert len(err) < 400


def test_large_limits_are_clamped_not_refused(capsys):
    code, out, err = run(capsys, "solve", LAST, "--max-nodes", str(10 ** 12), "--tt-mb", "1", "--json")
    assert code == 0 and strict_json(out)["complete"]
    code, out, err = run(capsys, "suggest", VIEW, "--threads", "64", "--worlds", "20", "--seed", "1", "--json")
    assert code == 0 and strict_json(out)["worlds"] == 20


# -- saving: never lost, never over an unrelated file ---------------------------------------------

def test_play_checks_the_save_path_before_the_game(capsys, monkeypatch, tmp_path):
    monkeypatch.setattr(builtins, "input", no_input)
    code, out, err = run(capsys, "play", "--bot", "greedy", "--save", str(tmp_path / "no" / "dir" / "g.json"))
    assert code == 2 and out == "" and err.count("\n") == 1 and "there is no folder" in err
    code, out, err = run(capsys, "play", "--bot", "greedy", "--save", str(tmp_path))
    assert code == 2 and "it is a folder" in err


def test_a_failed_save_falls_back_to_a_new_file(capsys, monkeypatch, tmp_path):
    from scopa_solver.play import terminal
    folder = tmp_path / "gone"
    folder.mkdir()
    monkeypatch.chdir(tmp_path)

    def ask_move(pos, ask, say):      # the folder disappears during the game
        if folder.exists():
            folder.rmdir()
            return pos.legal_moves()[0]
        raise terminal.Quit
    monkeypatch.setattr(terminal, "ask_move", ask_move)
    code, out, err = run(capsys, "play", "--bot", "greedy", "--seed", "1", "--save", str(folder / "g.json"))
    assert code == 0, err
    saved = list(tmp_path.glob("scopa-game-*.json"))
    assert len(saved) == 1 and "could not save the game where asked" in out and f"saved it to {saved[0].name}" in out
    assert len(GameRecord.load(saved[0]).rounds[0].moves) == 2      # the human's move and the bot's


def test_arena_does_not_overwrite_an_unrelated_file(capsys, tmp_path, record_path):
    precious = tmp_path / "precious.txt"
    precious.write_text("my notes\n")
    code, out, err = run(capsys, "arena", "greedy", "random", "--rounds", "1", "--save", str(precious))
    assert code == 2 and "is not a game record" in err and "--force" in err and err.count("\n") == 1
    assert precious.read_text() == "my notes\n"
    # an older game record is kept beside the new one; --force replaces anything else
    older = GameRecord.load(record_path).to_json()
    assert run(capsys, "arena", "greedy", "greedy", "--rounds", "1", "--save", str(record_path))[0] == 0
    assert GameRecord.load(record_path).players == ("Greedy A", "Greedy B")
    assert GameRecord.load(tmp_path / "old-game-1.json").to_json() == older
    assert run(capsys, "arena", "greedy", "random", "--rounds", "1", "--save", str(precious), "--force")[0] == 0
    assert GameRecord.load(precious).players == ("Greedy", "Random")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["old-game-1.json", "old-game.json", "precious.txt"]


def test_play_does_not_overwrite_an_unrelated_file(capsys, monkeypatch, tmp_path):
    monkeypatch.setattr(builtins, "input", no_input)
    precious = tmp_path / "precious.json"
    precious.write_text('{"not": "a record"}')
    code, out, err = run(capsys, "play", "--bot", "greedy", "--save", str(precious))
    assert code == 2 and "not a game record" in err and precious.read_text() == '{"not": "a record"}'


def test_a_failed_write_leaves_the_old_file_whole(tmp_path):
    target = tmp_path / "out.json"
    target.write_text("old")

    def half(tmp):
        Path(tmp).write_text("ne")
        raise OSError(28, "No space left on device")
    with pytest.raises(OSError):
        files.write_atomic(str(target), half)
    assert target.read_text() == "old" and [p.name for p in tmp_path.iterdir()] == ["out.json"]
    output.write_text_atomic(str(target), "new")
    assert target.read_text() == "new" and [p.name for p in tmp_path.iterdir()] == ["out.json"]


def test_default_names_are_unique(tmp_path, monkeypatch):
    names = {output.new_file(str(tmp_path), "scopa-game-20260101-120000") for _ in range(3)}
    assert sorted(Path(n).name for n in names) == ["scopa-game-20260101-120000-2.json",
                                                   "scopa-game-20260101-120000-3.json",
                                                   "scopa-game-20260101-120000.json"]
    record = GameRecord()
    record.new_round(1, Position.shuffled_deck(1))
    said: list = []
    monkeypatch.chdir(tmp_path)     # two games saved in the same second (or not): two files
    first, second = output.save_game(record, None, said.append), output.save_game(record, None, said.append)
    assert first != second and not said
    assert GameRecord.load(tmp_path / first).rounds and GameRecord.load(tmp_path / second).rounds


def test_an_error_during_the_game_saves_the_record(capsys, monkeypatch, tmp_path):
    from scopa_solver.errors import ScopaError
    from scopa_solver.play import bot_names, terminal
    monkeypatch.setattr(terminal, "ask_move", lambda pos, ask, say: pos.legal_moves()[0])

    class Failing:
        name = "Failing"
        calls = 0

        def __call__(self, pos):
            self.calls += 1
            if self.calls > 2:
                raise ScopaError("the bot gave up")
            return pos.legal_moves()[0]
    monkeypatch.setattr(bot_names, "make_bot", lambda *a, **k: Failing())
    path = tmp_path / "g.json"
    code, out, err = run(capsys, "play", "--seed", "1", "--save", str(path))
    assert code == 2 and err == "scopa-solver: error: the bot gave up\n"
    assert len(GameRecord.load(path).rounds[0].moves) >= 4


def test_an_internal_error_is_one_line(capsys, monkeypatch):
    from scopa_solver.cli import commands

    def broken(*args, **kwargs):
        raise KeyError("oops")
    monkeypatch.setattr(commands, "analysis", broken)
    code, out, err = run(capsys, "analyze", LAST)
    assert code == 2 and err.startswith("scopa-solver: internal error: KeyError") and err.count("\n") == 1


# -- closed and undecodable input, closed output (real processes) --------------------------------

def _play(shell_redirect: str, stdin: bytes = b"", *args: str, cwd: Path):
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""),
               PYTHONIOENCODING="utf-8")
    command = " ".join([f"'{sys.executable}'", "-m", "scopa_solver", "play", "--bot", "greedy", "--seed", "1",
                        *args, shell_redirect])
    return subprocess.run(["bash", "-c", command], input=stdin, capture_output=True, cwd=cwd, env=env, timeout=120)


def test_play_with_stdin_closed_stops_cleanly(tmp_path):
    done = _play("<&-", b"", cwd=tmp_path)
    err = done.stderr.decode()
    assert done.returncode == 0 and err == "", err
    assert b"game stopped" in done.stdout and b"nothing to save" in done.stdout


def test_play_with_stdout_closed_is_one_line(tmp_path):
    done = _play(">&-", b"", cwd=tmp_path)
    err = done.stderr.decode()
    assert done.returncode == 2 and err == "scopa-solver: error: cannot play: standard output is closed\n"
    assert not list(tmp_path.iterdir())


COMMANDS = {"deal": ["deal", "--seed", "3"], "show": ["show", LAST], "solve": ["solve", LAST],
            "solve --json": ["solve", LAST, "--json"], "analyze": ["analyze", LAST], "tree": ["tree", LAST],
            "suggest": ["suggest", VIEW, "--worlds", "8"], "arena": ["arena", "random", "greedy", "--rounds", "1"],
            "review": ["review", "old-game.json", "--no-fair"], "batch": ["batch", "solve", "random:2", "-o", "out.jsonl"],
            "solve --job": ["solve", LAST, "--job", "job"]}


@pytest.mark.parametrize("closed", [">&-", "2>&-", ">&- 2>&-"])
@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_runs_with_its_output_streams_closed(command, closed, tmp_path, record_path):
    """A closed standard output (or error) is no error: the command does its work and exits 0;
    solve and analyze asked the closed stdout whether it is a terminal ("internal error:
    AttributeError: 'NoneType' object has no attribute 'isatty'")."""
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    words = " ".join("'" + w + "'" for w in [sys.executable, "-m", "scopa_solver", *COMMANDS[command]])
    done = subprocess.run(["bash", "-c", f"{words} {closed}"], capture_output=True, cwd=tmp_path, env=env,
                          timeout=300)
    assert done.returncode == 0 and done.stderr == b"", done.stderr.decode()[-500:]
    if command in ("batch", "solve --job"):      # the work was done, into its files
        assert (tmp_path / ("out.jsonl" if command == "batch" else "job/result.json")).exists()


def test_serve_runs_with_its_output_closed(tmp_path):
    """uvicorn asked the closed stdout whether it is a terminal: "error: Unable to configure
    formatter 'default'" and exit 2. The board now serves; Ctrl-C stops it."""
    pytest.importorskip("uvicorn")
    import signal
    import socket
    import time
    import urllib.request
    from scopa_solver.web.app import free_port
    port = free_port()
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    server = subprocess.Popen(["bash", "-c", f"exec '{sys.executable}' -m scopa_solver serve --port {port} >&-"],
                              stderr=subprocess.PIPE, cwd=tmp_path, env=env)
    try:
        for _ in range(300):        # at most a minute to start (or fail)
            if server.poll() is not None:
                break
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.2)
        assert server.poll() is None, server.stderr.read().decode()[-500:]
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=30) as answer:
            assert answer.status == 200
    finally:
        server.send_signal(signal.SIGINT)
        server.wait(timeout=60)


def test_play_tolerates_undecodable_input(tmp_path):
    done = _play("", b"\xff\xfe\nzz\n3c\n", cwd=tmp_path)     # seed 1: the hand is 3c Cs Rb
    out, err = done.stdout.decode(), done.stderr.decode()
    assert done.returncode == 0 and "Traceback" not in err, err
    assert "is not a card" in out and "'zz' is not a card" in out and "game stopped" in out
    saved = list(tmp_path.glob("scopa-game-*.json"))
    assert len(saved) == 1 and [str(m) for m in GameRecord.load(saved[0]).rounds[0].moves][:1] == ["3cx3s"]
