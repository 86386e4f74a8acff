"""The command line through a new user's eyes (the player's-lens findings): --version, a position
on standard input, what a seed repeats, an anytime suggest, the progress bar's ETA under a time
limit, help for every option, English trees, the unit of a value, a missing extra in one line,
and what Ctrl-C prints."""
from __future__ import annotations

import argparse
import io
import json
import os
import re
import signal
import subprocess
import sys
import time
from dataclasses import fields
from pathlib import Path

import pytest

from scopa_solver import Position, Rules, View, analyze, suggest, Limit
from scopa_solver.cli.parser import build_parser
from scopa_solver.play.game import random_position
from scopa_solver.play.record import GameRecord

from helpers import run_cli as run

ROOT = Path(__file__).resolve().parent.parent
LAST = "5c5bFd/4d6sRb 3c5dRs2b -/- - 0/0 0 1 -"
VIEW = "7cRs4b/?3 3d4c7sRb Fd3c2sAbFb/Ad2d6dCdAc2c5c6cFcCcRc3s5sFsCs2b3b6bCb ?6 0/0 0 1 0"
LAST_VIEW = "4d5d5b/?3 7b Fd3c7c2s4s7sRsAb4bFbRb/Ad2d3d6d7dCdAc2c4c5c6cFcCcRc3s5sFsCs2b3b6bCb - 2/0 0 1 0"
FIRST_PLAY = Position.new_round(seed=11).view(0)     # 1,000 sampled worlds: 1 to 4 s on 2 cores


def _scientifico_view() -> View:
    pos = random_position(5, None, Rules(players=4, game="scientifico"))
    return pos.view(pos.to_move)


def _subprocess(*argv: str, stdin: str = "", prelude: str = "", cwd=None, **env: str) -> subprocess.CompletedProcess:
    """The command line run for real in a new Python, `prelude` (Python) run first in it."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
               **env)
    code = f"{prelude}\nimport sys\nfrom scopa_solver.cli import main\nsys.exit(main(sys.argv[1:]))"
    return subprocess.run([sys.executable, "-c", code, *argv], input=stdin, capture_output=True, text=True,
                          env=env, cwd=cwd or ROOT, timeout=120)


# -- --version, standard input, help ---------------------------------------------------------------

def test_version(capsys):
    from scopa_solver import __version__
    code, out, err = run(capsys, "--version")
    assert code == 0 and out.strip() == f"scopa-solver {__version__}"


def test_a_position_from_standard_input_in_a_subprocess():
    done = _subprocess("analyze", "-", "--json", stdin=LAST + "\n")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert Position.from_string(data["position"]) == Position.from_string(LAST) and [r["value"] for r in data["moves"]] == \
        [r.value for r in analyze(Position.from_string(LAST))]
    for stdin, why in (("", "it was empty"), (LAST + "\n" + LAST + "\n", "more than one line")):
        bad = _subprocess("show", "-", stdin=stdin)
        assert bad.returncode == 2 and bad.stdout == "" and why in bad.stderr and bad.stderr.count("\n") == 1


@pytest.mark.parametrize("argv,text", [
    (("show",), LAST), (("solve",), LAST), (("analyze",), LAST), (("tree", "--depth", "1"), LAST),
    (("suggest", "--worlds", "20", "--seed", "1"), VIEW),
    (("equilibrium", "--threads", "1"), LAST_VIEW)])
def test_every_command_with_a_position_reads_it_from_standard_input(capsys, argv, text):
    code, out, err = run(capsys, argv[0], "-", *argv[1:], "--json", stdin=text + "\n")
    code2, out2, err2 = run(capsys, argv[0], text, *argv[1:], "--json")
    assert code == code2 == 0, err + err2
    strip = re.compile(r'"\w*(seconds|second|tt_\w+|nodes|iterations|exploitability)": [^,}]+')
    assert strip.sub("", out) == strip.sub("", out2)


def _options():
    parser = build_parser()
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from ((name, a) for a in sub._actions if not isinstance(a, argparse._HelpAction))


def test_every_option_has_help():
    missing = [f"{name} {a.dest}" for name, a in _options() if not a.help]
    assert not missing


def test_the_rule_options_are_listed_in_help(capsys):
    for command in ("solve", "suggest", "deal", "play", "batch"):
        code, out, err = run(capsys, command, "--help")
        text = " ".join(out.split())
        assert code == 0 and all(f.name in text for f in fields(Rules)), command
        assert "game=scopa|scopone|scientifico" in text


# -- English, the unit of a value -----------------------------------------------------------------

def test_the_tree_outline_is_in_english(capsys):
    code, out, err = run(capsys, "tree", "7d/3c 3s4s -/- - 0/0 0 1 -")
    assert code == 0 and "end 4-0 (cards P0, coins P0, settebello P0, primiera -, scopas 1-0)" in out
    assert "carte" not in out and "denari" not in out


@pytest.mark.parametrize("command", ["solve", "analyze"])
@pytest.mark.parametrize("options,unit", [
    ((), "values in round points: player 0's minus player 1's"),
    (("--rules", "players=3"), "values in round points: side 0's minus the best other side's (paranoid)"),
    (("--rules", "players=4"), "values in round points: side 0's minus side 1's"),
    (("--rules", "players=3", "--objective", "maxn"), "values in round points of side 0")])
def test_the_unit_of_a_value_is_said(capsys, command, options, unit):
    code, out, err = run(capsys, command, "example", *options)
    assert code == 0 and unit in out, out


def test_the_help_says_what_a_value_is(capsys):
    code, out, err = run(capsys, "solve", "--help")
    assert "round's point margin" in " ".join(out.split())


# -- a missing extra ------------------------------------------------------------------------------

BLOCK = "import sys\nfor name in sys.argv[1].split(','):\n    sys.modules[name] = None\ndel sys.argv[1]"


def test_a_missing_web_extra_is_one_line_naming_it(tmp_path):
    for blocked in ("fastapi", "uvicorn"):
        done = _subprocess(blocked, "serve", "--port", "1", prelude=BLOCK, cwd=tmp_path)
        assert done.returncode == 2 and done.stdout == ""
        assert done.stderr == "scopa-solver: error: the board needs the web extra: pip install 'scopa-solver[web]'\n"


def test_a_missing_tree_extra_is_one_line_naming_it(tmp_path):
    """No Graphviz program, no graphviz or matplotlib module: a picture names the tree extra."""
    done = _subprocess("matplotlib,graphviz,pydot", "tree", LAST, "-o", "t.svg", prelude=BLOCK, cwd=tmp_path,
                       PATH=str(tmp_path))
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "pip install 'scopa-solver[tree]'" in done.stderr
    assert not (tmp_path / "t.svg").exists()


@pytest.mark.parametrize("module,extra", [("pyarrow", "batch"), ("dask.distributed", "batch"), ("pydot", "tree")])
def test_any_missing_optional_module_names_its_extra(capsys, monkeypatch, module, extra):
    import scopa_solver.cli.commands as commands

    def show(args):
        raise ModuleNotFoundError(f"No module named {module!r}", name=module)
    monkeypatch.setitem(commands.COMMANDS, "show", show)
    code, out, err = run(capsys, "show")
    assert code == 2 and err.count("\n") == 1 and "internal error" not in err
    assert f"pip install 'scopa-solver[{extra}]'" in err and module.split(".")[0] in err


# -- suggest: what the seed repeats, anytime, the ETA ----------------------------------------------

def test_the_same_seed_gives_the_same_worlds_cut_by_a_time_limit():
    """A run cut by its time limit answers from the first N worlds of the seed's order, so the
    same seed and N worlds with no time limit give the same figures."""
    cut = suggest(FIRST_PLAY, Limit(time=0.3, threads=2), seed=2, progress=False)
    assert cut.stopped == "time" and 1 <= cut.worlds < 1000 and cut.sampled and not cut.horizon_cut
    again = suggest(FIRST_PLAY, Limit(time=None, threads=2), seed=2, worlds=cut.worlds, progress=False)
    assert again.worlds == cut.worlds and again.stopped is None
    assert (again.values == cut.values).all()
    assert [(str(m.move), m.mean) for m in again.moves] == [(str(m.move), m.mean) for m in cut.moves]


def test_the_seed_message_says_what_repeats_and_it_does(capsys):
    view = FIRST_PLAY.to_string()
    code, out, err = run(capsys, "suggest", view, "--seed", "2", "--time-limit", "0.3")
    assert code == 0, err
    said = re.search(r"the first (\d+) worlds? drawn with seed 2 solved before the time limit "
                     r"\(--seed 2 --worlds (\d+) --time-limit inf repeats this answer\)", out)
    assert said and said.group(1) == said.group(2), out
    code, again, err = run(capsys, "suggest", view, "--seed", "2", "--worlds", said.group(2), "--time-limit", "inf")
    table = re.compile(r"^(move .*?)^\d", re.S | re.M)
    assert table.search(out).group(1) == table.search(again).group(1)
    assert "repeats this answer" in again        # all of them solved: the seed alone repeats it


def test_suggest_is_anytime_under_any_time_limit(capsys):
    """A scientifico view with a time limit too short for a single world: the first world at the
    horizon its deepening completed, saying that horizon; never an error."""
    view = _scientifico_view()
    s = suggest(view, Limit(time=1e-6, threads=1), seed=2, progress=False)
    assert s.worlds == 1 and s.stopped == "time" and s.horizon >= 4 and s.exact_worlds == 0
    code, out, err = run(capsys, "suggest", view.to_string(), "--seed", "2", "--time-limit", "0.000001")
    assert code == 0 and f"to a horizon of {s.horizon} plies" in out, err
    assert "repeats this answer" not in out or "--worlds 1 " in out


def test_the_progress_bar_eta_is_capped_by_the_time_left(monkeypatch):
    from scopa_solver.progress import progress_bar
    monkeypatch.setattr(sys, "stderr", io.StringIO())
    bars = []
    for deadline in (time.monotonic() + 5, None):
        bar = progress_bar(1000, "worlds", True, unit="world", deadline=deadline)
        bar.start_t -= 100          # 100 s for the first world: 999 more would take 27 hours
        bar.update(1)
        bars.append(str(bar))
        bar.close()
    capped, free = (re.search(r"<([\d:]+),", b).group(1) for b in bars)
    assert capped in ("00:05", "00:04", "00:03") and free == "27:45:00"


def test_suggest_gives_its_bar_the_time_limit(monkeypatch):
    import scopa_solver.imperfect.pimc as pimc
    seen = []
    real = pimc.progress_bar
    monkeypatch.setattr(pimc, "progress_bar", lambda *a, **k: seen.append(k.get("deadline")) or real(*a, **k))
    before = time.monotonic()
    suggest(View.from_string(VIEW), Limit(time=30), seed=1, worlds=10, progress=False)
    assert len(seen) == 1 and seen[0] is not None and before + 29 < seen[0] <= time.monotonic() + 30


# -- playing twice in one folder, Ctrl-C -----------------------------------------------------------

def test_play_twice_with_the_same_save_keeps_the_older_game(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    seeds = ("1", "2", "3")
    for seed in seeds:
        code, out, err = run(capsys, "play", "--auto", "--bot", "greedy", "--rounds", "1", "--seed", seed,
                             "--save", "game.json", stdin="")
        assert code == 0, err
    assert "the older game record there is kept as game-2.json" in out
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game-1.json", "game-2.json", "game.json"]
    assert [GameRecord.load(tmp_path / n).meta["seed"] for n in ("game-1.json", "game-2.json", "game.json")] == \
        [int(s) for s in seeds]


def test_arena_twice_with_the_same_save_keeps_the_older_record(capsys, tmp_path, monkeypatch):
    """arena --save over a game record keeps the older one beside it, as play --save does."""
    monkeypatch.chdir(tmp_path)
    for seed in ("1", "2"):
        code, out, err = run(capsys, "arena", "greedy", "random", "--rounds", "1", "--seed", seed,
                             "--save", "games.json")
        assert code == 0, err
    assert "(the older game record there is kept as games-1.json)" in out
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games-1.json", "games.json"]
    assert [GameRecord.load(tmp_path / n).meta["seed"] for n in ("games-1.json", "games.json")] == [1, 2]
    data = json.loads(run(capsys, "arena", "greedy", "random", "--rounds", "1", "--seed", "3",
                          "--save", "games.json", "--json")[1])
    assert data["kept"] == "games-2.json" and GameRecord.load(tmp_path / "games-2.json").meta["seed"] == 2


def test_ctrl_c_prints_what_the_docs_say():
    """The command line's Ctrl-C: one line and exit code 130, as README.md and docs/cli.md say."""
    pos = random_position(5, None, Rules(players=4, game="scientifico")).to_string()
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
    proc = subprocess.Popen([sys.executable, "-m", "scopa_solver", "solve", pos, "--time-limit", "60"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=ROOT)
    try:
        time.sleep(3)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130 and err == "scopa-solver: interrupted\n"
    for doc in ("README.md", "docs/cli.md"):
        assert "`scopa-solver: interrupted`" in (ROOT / doc).read_text(encoding="utf-8"), doc


def test_a_tree_picture_twice_says_it_replaces_the_older(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    said = [run(capsys, "tree", "example", "--mode", "pv", "-o", "tree.graphml")[1] for _ in range(2)]
    assert "replaces" not in said[0] and "(it replaces the older file there)" in said[1]


SCIENTIFICO = random_position(5, None, Rules(players=4, game="scientifico")).to_string()


@pytest.mark.parametrize("position,options", [
    (SCIENTIFICO, ("--horizon", "4")), (SCIENTIFICO, ("--horizon", "8")), ("example", ()),
    ("example", ("--rules", "players=3")), ("example", ("--rules", "players=4", "--horizon", "4"))])
def test_solve_and_analyze_name_the_same_best_moves(capsys, position, options):
    """At the same depth: the same best moves in the same order, in JSON and in the text (at a
    horizon, moves of the best margin the finer evaluation puts lower are not best)."""
    solved = json.loads(run(capsys, "solve", position, *options, "--json")[1])
    analyzed = json.loads(run(capsys, "analyze", position, *options, "--json")[1])
    assert solved["horizon"] == analyzed["horizon"]
    best = solved["best_moves"]
    assert analyzed["best_moves"] == best and [m["move"] for m in analyzed["moves"][:len(best)]] == best
    text = run(capsys, "analyze", position, *options)[1]
    marked = [line.split()[0] for line in text.splitlines() if re.fullmatch(r"\S+\s+[-+]?\d+\s+-", line.strip())]
    assert marked == best
    assert f"({len(best)} best move{'s' if len(best) > 1 else ''} of {len(analyzed['moves'])})" in text
    assert f"best moves: {' '.join(best)}" in run(capsys, "solve", position, *options)[1]


def test_an_older_game_that_cannot_be_kept_is_not_lost(capsys, tmp_path, monkeypatch):
    """The copy of the older record fails (a full disk): it stays, the new game goes elsewhere."""
    import scopa_solver.cli.output as output
    monkeypatch.chdir(tmp_path)
    argv = ("play", "--auto", "--bot", "greedy", "--rounds", "1", "--save", "game.json")
    assert run(capsys, *argv, "--seed", "1", stdin="")[0] == 0

    def full(*args, **kwargs):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(output.shutil, "copy2", full)
    code, out, err = run(capsys, *argv, "--seed", "2", stdin="")
    assert code == 0 and "cannot keep the older game record game.json" in out
    assert GameRecord.load(tmp_path / "game.json").meta["seed"] == 1
    saved = [p for p in tmp_path.iterdir() if p.name.startswith("scopa-game-")]
    assert len(saved) == 1 and GameRecord.load(saved[0]).meta["seed"] == 2 and not (tmp_path / "game-1.json").exists()


# -- the heartbeat of a long search ------------------------------------------------------------------

def _on_a_terminal(*argv: str) -> str:
    """What the command line writes to a terminal (a pseudo-terminal for stdout and stderr)."""
    import pty
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
    master, slave = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "scopa_solver", *argv], stdin=slave, stdout=slave, stderr=slave,
                            env=env, cwd=ROOT, close_fds=True)
    os.close(slave)
    out = b""
    try:
        while True:
            try:
                chunk = os.read(master, 65536)
            except OSError:         # the child closed the terminal
                break
            if not chunk:
                break
            out += chunk
        assert proc.wait(timeout=120) == 0, out.decode(errors="replace")[-500:]
    finally:
        os.close(master)
        if proc.poll() is None:
            proc.kill()
    return out.decode()


BEAT = re.compile(r"\r(depth (\d+) done, searching depth (\d+)… ([\d,]+) nodes · [\d.]+(?: [kMG])? n/s · (\d+) s)\x1b\[K")


@pytest.mark.parametrize("command", ["solve", "analyze"])
def test_a_long_search_shows_a_heartbeat_on_a_terminal_and_none_in_json(command):
    """While a depth runs, stderr's status line (a terminal only) says the depth done, the depth
    being searched, the nodes so far (read live from the search: they move within a depth, past
    the depth line's), nodes/s and the time, redrawn every second and erased before the next
    depth line; --json output has none. (The search runs 3 s by its limit: the first beat is
    due at 1 s.)"""
    pos = random_position(5, None, Rules(players=4, game="scientifico")).to_string()
    out = _on_a_terminal(command, pos, "--time-limit", "3")
    beats = BEAT.findall(out)
    assert beats, out[:2000]
    printed: dict = {}      # each depth's line as it landed (the answer's repeats the deepest, with every node)
    for depth, nodes in re.findall(r"depth +(\d+)  value .*?nodes ([\d,]+)  time", out):
        printed.setdefault(int(depth), int(nodes.replace(",", "")))
    counts = [int(b[3].replace(",", "")) for b in beats]
    assert counts == sorted(counts)
    for line, done, searching, nodes, seconds in beats:
        assert int(searching) > int(done) and int(nodes.replace(",", "")) >= printed[int(done)]
    assert [int(b[4]) for b in beats] == sorted(int(b[4]) for b in beats) and int(beats[-1][4]) >= 1
    assert "\r\x1b[K" in out.split(beats[-1][0])[1]   # erased before the result is printed
    data = _on_a_terminal(command, pos, "--time-limit", "2", "--json")
    assert "n/s" not in data and "\x1b" not in data and json.loads(data)["nodes"] > 0


def test_equilibrium_shows_its_last_deals_and_iterations_on_a_terminal():
    """`equilibrium` at the first play of the last-but-one deal (485,140 last-deal solves, some
    seconds): the heartbeat counts the solves, their nodes and n/s, then CFR+'s iterations;
    --json has none."""
    view = "4d7d6s/?3 6cFs 3c4cCcRc4s7sRs4bCb/Ad2d3d6dRdAc2c5cFcAs2s3s3b5b6bFbRb ?6 0/0 0 1 0"
    out = _on_a_terminal("equilibrium", view, "--threads", "1")
    beats = [(int(a.replace(",", "")), int(b.replace(",", "")))
             for a, b in re.findall(r"\rlast deals ([\d,]+)/485,140 · ([\d,]+) nodes · ", out)]
    total = int(re.search(r"485,140 last-deal solves, ([\d,]+) nodes", out)[1].replace(",", ""))
    assert beats and beats == sorted(beats), out[:2000]          # solves and nodes only grow
    assert any(solved > 0 for solved, _ in beats) and all(n <= total and (n > 0) == (k > 0) for k, n in beats)
    data = _on_a_terminal("equilibrium", view, "--threads", "1", "--json")
    assert "n/s" not in data and "CFR+ iteration" not in data and json.loads(data)["leaf_solves"] == 485_140


@pytest.mark.parametrize("command", ["analyze", "solve", "tree", "show"])
@pytest.mark.parametrize("source", ["argument", "stdin"])
def test_an_exact_command_refuses_a_view_pointing_to_suggest(capsys, command, source):
    # an exact search of a view would need its hidden cards: one line naming `suggest`, exit 2
    code, out, err = run(capsys, command, *(["-"] if source == "stdin" else [VIEW]),
                         stdin=VIEW + "\n" if source == "stdin" else None)
    assert code == 2 and out == "", (out, err)
    assert err.count("\n") == 1 and "Traceback" not in err
    assert f"{command} needs every card known" in err and "`suggest`" in err
