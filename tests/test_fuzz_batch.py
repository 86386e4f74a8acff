"""Hostile batch inputs, fuzzed (Hypothesis, derandomized, bounded) and as named regressions: a
file mixing good lines with deep nesting, huge numbers, wrong types, bad cards and binary junk
still gives every good line its row, and every bad line its own row with a short error that is
never an "internal error"; the run itself never fails. Hostile lines in a solve job's
checkpoint are set aside, never trusted."""
from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scopa_solver import Position
from scopa_solver.batch import EngineOptions, JobOptions, RunOptions, inputs, read_items, read_rows, run_job

SETTINGS = dict(deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck))


def _played(seed: int, plies: int) -> str:
    pos = Position.new_round(seed=seed)
    for i in range(plies):
        pos = pos.play(pos.legal_moves()[i % len(pos.legal_moves())])
    return pos.to_string()


# whole positions late in a round: quick to solve, suggest and label
GOOD = [_played(seed, plies) for seed, plies in ((1, 24), (2, 26), (3, 28))]

_json = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
                     lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
                     max_leaves=12)
_fields = st.sampled_from(["position", "view", "record", "format", "version", "rounds", "players", "rules"])


def _deep(opening: str, depth: int) -> str:
    if opening == "{":
        return '{"position":' * depth + "1" + "}" * depth
    if opening == "[":
        return "[" * depth + "]" * depth
    return '{"record":[' * depth + "]}" * depth


def _bad_card(args: tuple) -> str:
    text, at, char = args
    at %= len(text)
    return text[:at] + char + text[at + 1:]


HOSTILE = st.one_of(
    st.tuples(st.sampled_from("{[r"), st.integers(101, 6000)).map(lambda a: _deep(*a)),            # deep nesting
    st.sampled_from(["1e99999", "-1e99999", "9" * 5000, "NaN", '{"position": 1e400}', '{"position": -0}',
                     '{"view": ' + "9" * 4400 + "}", '{"record": {"format": "scopa-solver-game", "version": '
                     + "9" * 40 + "}}", '"' + "\\u0000" * 50 + '"']),                               # huge numbers
    st.integers(min_value=10 ** 30).map(str),
    st.dictionaries(_fields, _json, min_size=1, max_size=3).map(json.dumps),                      # wrong types
    st.fixed_dictionaries({"format": st.just("scopa-solver-game"), "version": st.sampled_from([1, 2]),
                           "rounds": _json, "players": _json, "rules": _json}).map(
        lambda d: json.dumps({"record": d})),
    st.tuples(st.sampled_from(GOOD), st.integers(0, 200), st.sampled_from("XZ?/0123456789 dcsbARFC\x00é")).map(
        _bad_card),                                                                                # bad cards
    st.binary(max_size=120).map(lambda b: b.decode("latin-1")),                                    # binary junk
    st.text(max_size=120),
)


def _line(text: str) -> bytes:
    """One line of the file: no line breaks inside (so the line numbers are known)."""
    return text.replace("\r", " ").replace("\n", " ").encode("utf-8", "surrogatepass") + b"\n"


def _check(job: str, path, out, good_keys: list[str], worlds=None) -> None:
    summary = run_job(job, path, out, options=JobOptions(worlds=worlds), engine=EngineOptions(workers=1),
                      run=RunOptions(progress=False, overwrite=True))
    rows = {r["key"]: r for r in read_rows(out)}
    assert summary.complete and summary.done == len(rows)
    for key in good_keys:
        assert rows[key]["ok"], rows[key]["error"]
    for row in rows.values():
        if not row["ok"]:
            assert "internal error" not in row["error"] and len(row["error"]) < 600, row["error"]


@settings(max_examples=40, **SETTINGS)
@given(st.lists(st.tuples(HOSTILE, st.booleans()), min_size=1, max_size=5), st.sampled_from(["solve", "suggest"]))
def test_hostile_json_lines_leave_the_good_ones_their_rows(tmp_path_factory, lines, job):
    tmp = tmp_path_factory.mktemp("fuzz")
    path, out = tmp / "in.jsonl", tmp / "out.jsonl"
    data, good = b"", []
    for i, (text, then_good) in enumerate(lines):
        data += _line(text)
        if then_good:
            good.append(f"good-{i}")
            data += _line(json.dumps({"key": good[-1], "position": GOOD[i % len(GOOD)]}))
    path.write_bytes(data)
    _check(job, path, out, good, worlds=2)


@settings(max_examples=25, **SETTINGS)
@given(st.lists(st.tuples(HOSTILE, st.booleans()), min_size=1, max_size=5))
def test_hostile_text_lines_leave_the_good_ones_their_rows(tmp_path_factory, lines):
    tmp = tmp_path_factory.mktemp("fuzz")
    path, out = tmp / "in.txt", tmp / "out.jsonl"
    data, good = b"", []
    for text, then_good in lines:
        data += _line(text)
        if then_good:
            data += _line(GOOD[len(good) % len(GOOD)])
            good.append(str(data.count(b"\n")))     # the key of a text line: its number
    path.write_bytes(data)
    _check("solve", path, out, good)


@settings(max_examples=15, **SETTINGS)
@given(st.lists(HOSTILE, min_size=1, max_size=4), st.sampled_from(["review", "label"]))
def test_hostile_lines_for_review_and_label(tmp_path_factory, lines, job):
    tmp = tmp_path_factory.mktemp("fuzz")
    path, out = tmp / "in.jsonl", tmp / "out.jsonl"
    good = ["good"] if job == "label" else []
    path.write_bytes(b"".join(map(_line, lines))
                     + (_line(json.dumps({"key": "good", "position": GOOD[0]})) if good else b""))
    _check(job, path, out, good, worlds=2)


# -- named regressions ----------------------------------------------------------------------------

def test_a_line_too_long_to_read_is_its_items_error(tmp_path, monkeypatch):
    monkeypatch.setattr(inputs, "MAX_LINE_CHARS", 1000)
    path = tmp_path / "long.jsonl"
    path.write_text(json.dumps(GOOD[0]) + "\n" + '{"key": "x", "position": "' + "7" * 5000 + '"}\n'
                    + json.dumps(GOOD[1]) + "\n" + "[" * 999 + "\n")
    assert [(i.key, i.kind) for i in read_items(path)] == [("1", "json"), ("2", "unread"), ("3", "json"),
                                                           ("4", "json")]
    out = tmp_path / "long-out.jsonl"
    run_job("solve", path, out, engine=EngineOptions(workers=1), run=RunOptions(progress=False))
    rows = read_rows(out)
    assert [r["ok"] for r in rows] == [True, False, True, False]
    assert rows[1]["error"] == "BatchItemError: not read: line 2 has over 1,000 characters"


@pytest.mark.parametrize("fmt", ["jsonl", "parquet"])
def test_keys_and_errors_that_are_not_valid_unicode_are_written(tmp_path, fmt):
    if fmt == "parquet":
        pytest.importorskip("pyarrow")
    path = tmp_path / "odd-in.jsonl"
    path.write_text('{"key": "\\ud800", "position": "\\udfff"}\n' + json.dumps({"key": "ok", "position": GOOD[0]})
                    + "\n" + '{"key": 123456789012345678901234567890123, "position": 5}\n')
    out = tmp_path / f"odd.{fmt}"
    summary = run_job("solve", path, out, engine=EngineOptions(workers=1), run=RunOptions(progress=False))
    assert (summary.done, summary.errors, summary.complete) == (3, 2, True)


# -- a solve job's checkpoint ---------------------------------------------------------------------

@pytest.fixture(scope="module")
def started_job(tmp_path_factory):
    """A scientifico job stopped after three items: its folder and its position's value."""
    from helpers import late
    from scopa_solver import Rules, solve
    from scopa_solver.batch import EngineOptions, RunOptions, solve_job
    pos = late(Rules(players=4, game="scientifico"), 1, 16)
    folder = tmp_path_factory.mktemp("job") / "job"
    solve_job(pos, folder, engine=EngineOptions(workers=1), run=RunOptions(progress=False, items=3))
    return folder, solve(pos).value


def _flip(args: tuple) -> str:
    text, at, char = args
    at %= len(text)
    return text[:at] + (char if char != text[at] else "#") + text[at + 1:]


@settings(max_examples=15, **SETTINGS)
@given(st.lists(HOSTILE | st.tuples(st.just(None), st.integers(0, 400), st.sampled_from('0123456789{}":,ab ')),
                min_size=1, max_size=4))
def test_hostile_lines_in_a_jobs_checkpoint_are_set_aside(started_job, tmp_path_factory, lines):
    """Junk lines and records with one character changed, appended to items.jsonl: each is set
    aside (never trusted, never an error) and the job resumes to the direct search's value."""
    import shutil
    from scopa_solver.batch import EngineOptions, RunOptions, solve_job
    template, want = started_job
    folder = tmp_path_factory.mktemp("hostile") / "job"
    shutil.copytree(template, folder)
    good = (folder / "items.jsonl").read_text().splitlines()
    texts = [_flip((good[i % len(good)], *rest)) if isinstance(text, tuple) else text
             for i, text in enumerate(lines) for rest in [text[1:] if isinstance(text, tuple) else ()]]
    with open(folder / "items.jsonl", "ab") as f:
        f.write(b"".join(map(_line, texts)))
    said: list = []
    r = solve_job(None, folder, engine=EngineOptions(workers=1), run=RunOptions(resume=True, progress=False),
                  say=said.append)
    assert (r.value, r.complete, r.rejected) == (want, True, len(texts)), said
