"""``cheating-moth judge FILE``: in-process through the dispatcher, plus one real subprocess."""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from judge_docs import GO, MS, race_doc

from game.app import cmd_judge
from game.app.cli import main
from game.bounded import MESSAGE_CHARS, label

REPO = Path(__file__).resolve().parents[2]


def race(**changes: Any) -> dict[str, Any]:
    return race_doc([
        {"player": 3, "edge": "press", "t_ns": GO + 412_345_678},
        {"player": 1, "edge": "press", "t_ns": GO + 200 * MS},
        {"player": 2, "edge": "press", "t_ns": GO + 300 * MS},
    ], **changes)


def cockroach() -> dict[str, Any]:
    return race(
        kind="cockroach",
        voided=[2],
        edges=[
            {"player": 0, "edge": "press", "t_ns": GO + 230 * MS},
            {"player": 2, "edge": "press", "t_ns": GO + 180 * MS},
            {"player": 1, "edge": "press", "t_ns": GO - 20 * MS},
            {"player": 1, "edge": "release", "t_ns": GO + 5 * MS},
            {"player": 1, "edge": "press", "t_ns": GO + 150 * MS},
        ],
    )


def write(tmp_path: Path, content: str | bytes) -> str:
    path = tmp_path / "race.json"
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return str(path)


def run_ok(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    assert main(argv) == 0
    out, err = capsys.readouterr()
    assert err == ""
    return out


def test_slap_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = json.loads(run_ok(["judge", write(tmp_path, json.dumps(race()))], capsys))
    assert out["status"] == "decided" and out["loser"] == 3 and out["winner"] is None
    assert [p["player"] for p in out["ranking"]] == [1, 2, 3]
    assert out["ranking"][2] == {
        "player": 3, "reaction_ns": 412_345_678, "t_ns": GO + 412_345_678, "gap_ns": 112_345_678
    }
    assert out["reason"] == "Seat 3 was slowest: 412.346 ms after GO, 112.346 ms behind seat 2."
    assert set(out) >= {
        "status", "winner", "loser", "tied", "rerace", "ranking", "no_press", "false_starts", "ignored", "reason"
    }


def test_cockroach_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = json.loads(run_ok(["judge", write(tmp_path, json.dumps(cockroach()))], capsys))
    assert out["winner"] == 0 and out["loser"] is None and out["rerace"] is False
    assert out["false_starts"] == [{"player": 1, "t_ns": GO - 20 * MS, "held_at_go": True}]
    assert {"player": 2, "edge": "press", "t_ns": GO + 180 * MS, "why": "voided"} in out["ignored"]
    assert {"player": 1, "edge": "press", "t_ns": GO + 150 * MS, "why": "after false start"} in out["ignored"]
    assert out["no_press"] == [1, 3]


def test_tie_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    edges = [{"player": seat, "edge": "press", "t_ns": GO + 300 * MS} for seat in (3, 1, 2)]
    out = json.loads(run_ok(["judge", write(tmp_path, json.dumps(race(edges=edges)))], capsys))
    assert (out["loser"], out["tied"], out["rerace"]) == (None, [1, 2, 3], True)
    assert "tie" in out["reason"].lower()


def test_stdin(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(cockroach())))
    out = json.loads(run_ok(["judge", "-"], capsys))
    assert out["winner"] == 0


def test_text_output(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = run_ok(["judge", "--text", write(tmp_path, json.dumps(cockroach()))], capsys)
    lines = out.splitlines()
    assert lines[0] == "Seat 0 was fastest once seat 2 was voided: 230.000 ms after GO, the only valid press."
    assert lines[2].split() == ["place", "seat", "reaction", "gap"]
    assert lines[3].split() == ["1", "0", "230.000", "ms"]
    assert lines[4] == f"false start: seat 1 at t_ns {GO - 20 * MS} (held at GO)"
    assert lines[5] == "no press: seats 1 and 3"


def test_text_shows_a_board_tick_gap_in_ns(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Two presses one 16 ns board tick apart: the table says 16 ns, never 0.000 ms."""
    doc = race(clock="board", resolution_ns=16, edges=[
        {"player": 1, "edge": "press", "t_ns": GO + 200 * MS},
        {"player": 2, "edge": "press", "t_ns": GO + 200 * MS + 32},
        {"player": 3, "edge": "press", "t_ns": GO + 200 * MS + 48},
    ])
    out = run_ok(["judge", "--text", write(tmp_path, json.dumps(doc))], capsys)
    lines = out.splitlines()
    assert lines[0] == "Seat 3 was slowest: 200.000 ms after GO, 16 ns behind seat 2."
    assert lines[4].split() == ["2", "2", "200.000", "ms", "32", "ns"]
    assert lines[5].split() == ["3", "3", "200.000", "ms", "16", "ns"]


def bad(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("cheating-moth judge: ")
    assert len(err) <= MESSAGE_CHARS + 1, err  # one line of at most 200 characters, and its newline
    return err


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", r"is not valid JSON \(Expecting property name enclosed in double quotes at line 1 column 2\): "
                      r"fix the syntax$"),
        ("", r"is not valid JSON \(Expecting value at line 1 column 1\)"),
        (b"\xff\xfe{}", r"is not UTF-8 text \(byte 0xff at offset 0\): save it as UTF-8$"),
        ("[" * 100_000 + "]" * 100_000, r"nests lists or objects too deeply \(over 16 levels\): the rig's files need 5 at most$"),
        ("[" * 17 + "]" * 17, r"nests lists or objects too deeply \(over 16 levels at …0\](\[0\]){9}\)"),
        ('{"players": 1' + "0" * 5000 + "}", r"has a 5001-digit number at players: use at most 20 digits$"),
        ('{"timeout_ms": ' + "9" * 4300 + "}", r"has a 4300-digit number at timeout_ms: use at most 20 digits$"),
        ('{"kind": "slap", "kind": "cockroach"}', r"has the key 'kind' twice in one object: give each key once$"),
        ('{"timeout_ms": NaN}', r"has NaN, which is not JSON: use a finite number$"),
        ('{"timeout_ms": 1e999}', r"has a number that is not finite \(inf\) at timeout_ms: use a finite number$"),
        (json.dumps(race(clock="banana")), r"field 'clock' is 'banana': use the clock the edges were stamped on"),
        ("[]", r"the race document is a JSON list, not an object"),
        (json.dumps({k: v for k, v in race().items() if k != "go_t_ns"}), r"missing field 'go_t_ns'"),
        (json.dumps(race(players=True)), r"field 'players' is True: use a whole number from 2 to 8"),
        (json.dumps(race(go_t_ns=3.0e9)), r"field 'go_t_ns' is 3000000000.0: use a whole number of nanoseconds"),
        (json.dumps(race(timeout_ms="3000")), r"field 'timeout_ms' is '3000'"),
        (json.dumps(race(kind="ant")), r"field 'kind' is 'ant': use 'slap' or 'cockroach'"),
        (json.dumps(race(active=5)), r"active seat 5 is not a seat at a 4-player table: use 0 to 3"),
        (
            json.dumps(race(edges=[{"player": 7, "edge": "press", "t_ns": GO}])),
            r"edges\[0\].player is 7: use a seat number from 0 to 3",
        ),
        (
            json.dumps(race(edges=[{"player": 1, "edge": "press", "t_ns": GO + 0.5}])),
            r"edges\[0\].t_ns is 3000000000.5: use a whole number of nanoseconds",
        ),
        (
            json.dumps(race(edges=[{"player": 1, "edge": "press", "t_ns": GO + 900 * MS}])),
            r"edge Press\(player=1, t_ns=3900000000, clock='monotonic'\) is after now_t_ns 3500000000",
        ),
    ],
)
def test_bad_files_exit_2_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str | bytes, message: str
) -> None:
    err = bad(["judge", write(tmp_path, content)], capsys)
    assert re.search(message, err), err


def test_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    err = bad(["judge", str(tmp_path / "nope.json")], capsys)
    assert "nope.json" in err and "No such file or directory" in err


def test_directory_instead_of_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    err = bad(["judge", str(tmp_path)], capsys)
    assert err == f"cheating-moth judge: {label(tmp_path)} is a folder, not a file: name a regular file\n"


def test_bad_stdin(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("nope"))
    err = bad(["judge", "-"], capsys)
    assert err.startswith("cheating-moth judge: stdin is not valid JSON")


def test_subprocess_reads_stdin() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "game.app.cli", "judge", "-"],
        input=json.dumps(race()),
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    assert json.loads(proc.stdout)["loser"] == 3


def test_subprocess_bad_input_exits_2() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "game.app.cli", "judge", "-"],
        input=json.dumps(race(players=9)),
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr == "cheating-moth judge: field 'players' is 9: use a whole number from 2 to 8\n"


# -- bounded input (issue 12 point 5) ----------------------------------------------------------

def test_a_document_of_exactly_the_limit_is_judged_and_one_byte_more_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from game.judge_file import MAX_DOCUMENT_BYTES

    text = json.dumps(race())
    padded = text + " " * (MAX_DOCUMENT_BYTES - len(text))  # JSON allows trailing white space
    assert json.loads(run_ok(["judge", write(tmp_path, padded)], capsys))["loser"] == 3
    err = bad(["judge", write(tmp_path, padded + " ")], capsys)
    assert err.endswith("race.json' is larger than 1 MiB, the most it may hold: check that it is the right file\n")


def test_an_endless_stdin_is_not_read_whole(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    class Endless(io.RawIOBase):
        """A stream that never ends (``judge - < /dev/zero``); counts what was taken from it."""

        taken = 0

        def readable(self) -> bool:
            return True

        def readinto(self, buffer: Any) -> int:
            buffer[:] = b"0" * len(buffer)
            self.taken += len(buffer)
            return len(buffer)

    endless = Endless()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BufferedReader(endless)))
    err = bad(["judge", "-"], capsys)
    assert err == "cheating-moth judge: stdin is larger than 1 MiB, the most it may hold: check that it is the right file\n"
    assert endless.taken <= 2 * (1 << 20)


def test_a_long_path_is_shortened_from_its_start(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    deep = tmp_path / ("d" * 200) / ("e" * 200)
    err = bad(["judge", str(deep / "race.json")], capsys)
    assert re.fullmatch(r"cheating-moth judge: cannot read '…e+/race\.json': No such file or directory\n", err), err


garbage_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=300),
    lambda inner: st.lists(inner, max_size=6) | st.dictionaries(st.text(max_size=40), inner, max_size=6),
    max_leaves=40,
)


def _judge_stdin(data: bytes) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    stdin = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8")
    saved = sys.stdin
    sys.stdin = stdin
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = cmd_judge.run(argparse.Namespace(file="-", text=False))
    finally:
        sys.stdin = saved
    return code, out.getvalue(), err.getvalue()


def _assert_contract(code: int, out: str, err: str) -> None:
    if code == 0:
        assert err == "" and json.loads(out)["status"] in ("pending", "decided")
    else:
        assert code == 2 and out == ""
        assert err.count("\n") == 1 and err.endswith("\n") and len(err) <= MESSAGE_CHARS + 1, err


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=400))
def test_any_bytes_get_a_decision_or_one_short_line(data: bytes) -> None:
    _assert_contract(*_judge_stdin(data))


@settings(max_examples=300, deadline=None)
@given(garbage_json)
def test_any_json_value_gets_a_decision_or_one_short_line(value: object) -> None:
    _assert_contract(*_judge_stdin(json.dumps(value).encode()))


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.sampled_from(list(race())), garbage_json, max_size=4))
def test_any_field_replaced_by_garbage_gets_a_decision_or_one_short_line(changes: dict[str, Any]) -> None:
    # Garbage where the fields are, so the parser gets past the shape checks to each field.
    _assert_contract(*_judge_stdin(json.dumps(race(**changes)).encode()))
