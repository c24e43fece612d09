"""``cheating-moth race``: simulated races end to end, and GPIO races on mock pins with scripted,
exactly stamped button edges (no sleeping: the scripted input moves the factory clock)."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest

from firmware_host.errors import StuckButton
from firmware_host.gpio import GpioRig
from firmware_host.mockpins import ClockedMockFactory
from firmware_host.pinmap import PinMap, load_pinmap, loads_pinmap
from firmware_host.records import SeatLight
from game.app import cmd_race
from game.app.cli import main
from game.app.cmd_race import GpioInput, RaceSettings, run_race
from game.inputs import Go
from game.judge import Status
from game.judge_file import judge_document, result_to_json
from game.race import RaceKind

MS = 1_000_000
START_NS = 7_000_000 * MS  # the factory clock: about two hours of uptime


# -- a scripted GPIO table --------------------------------------------------------------------


@dataclass(frozen=True)
class Edge:
    """A button edge: stamped by the "kernel" at ``stamp_ms`` and reaching Python at ``arrive_ms``,
    both counted from GO, from the first arming (``origin="arm"``), or from when the input opens
    (``origin="open"``: a button already down before the race; MockPin's pull-up setup would undo
    an earlier press)."""

    seat: int | str  # a seat number, or "guard"
    down: bool
    stamp_ms: float
    arrive_ms: float
    origin: str = "go"


class ScriptedGpioInput(GpioInput):
    """The real GpioInput over a real GpioRig; waiting moves the mock clock instead of sleeping,
    and drives each scripted edge through the mock pin when its arrival time comes."""

    def __init__(self, rig: GpioRig, players: int, factory: ClockedMockFactory, script: list[Edge]) -> None:
        super().__init__(rig, players, show_s=0.0)
        self.factory = factory
        self.pinmap = rig.pinmap
        self.script = list(script)
        self.origins: dict[str, int] = {"open": factory_now_ns(factory)}
        for edge in [e for e in self.script if e.origin == "open"]:
            self.script.remove(edge)
            self._drive(edge)

    def arm(self, seats: Sequence[int]) -> int:
        t = super().arm(seats)
        self.origins.setdefault("arm", t)
        return t

    def go(self, seats: Sequence[int]) -> Go:
        go = super().go(seats)
        self.origins["go"] = go.t_ns
        return go

    def _abs(self, origin: str, ms: float) -> int:
        return self.origins[origin] + round(ms * MS)

    def wait(self, until_t_ns: int) -> list[cmd_race.Edge]:
        ready = [e for e in self.script if e.origin in self.origins]
        nxt = min(ready, key=lambda e: self._abs(e.origin, e.arrive_ms), default=None)
        if nxt is not None and self._abs(nxt.origin, nxt.arrive_ms) <= until_t_ns:
            self.script.remove(nxt)
            self.factory.set_now_ns(self._abs(nxt.origin, nxt.arrive_ms))
            self._drive(nxt)
        else:
            self.factory.set_now_ns(until_t_ns)
        return super().wait(until_t_ns)  # the queue is filled already or the time is up: no blocking


    def _drive(self, edge: Edge) -> None:
        gpio = self.pinmap.guard_button if edge.seat == "guard" else self.pinmap.seats[int(edge.seat)].button
        pin = self.factory.stamped_pin(gpio)
        (pin.press if edge.down else pin.release)(self._abs(edge.origin, edge.stamp_ms))


def factory_now_ns(factory: ClockedMockFactory) -> int:
    return round(float(factory.now_s) * 1e9)  # type: ignore[arg-type]


@pytest.fixture
def factory() -> Iterator[ClockedMockFactory]:
    f = ClockedMockFactory()
    f.set_now_ns(START_NS)
    yield f
    f.reset()


@pytest.fixture
def pinmap() -> PinMap:
    return load_pinmap()


def race(kind: RaceKind, players: int = 4, active: int = 0, timeout_ms: int = 3000) -> RaceSettings:
    return RaceSettings(kind=kind, players=players, active=active, seed=5,
                        fore_period_ns=1_000 * MS, timeout_ns=timeout_ms * MS)


def run_scripted(
    factory: ClockedMockFactory, pinmap: PinMap, settings: RaceSettings, script: list[Edge]
) -> tuple[cmd_race.RaceRun, list[str]]:
    said: list[str] = []
    with GpioRig(pinmap, pin_factory=factory) as rig:
        done = run_race(ScriptedGpioInput(rig, settings.players, factory, script), settings, said.append)
    return done, said


# -- GPIO races on mock pins ------------------------------------------------------------------


def test_a_late_delivered_earlier_press_still_wins_the_cockroach(factory: ClockedMockFactory, pinmap: PinMap) -> None:
    script = [
        Edge(2, True, stamp_ms=180, arrive_ms=180),
        Edge(1, True, stamp_ms=150.000_001, arrive_ms=215),  # earlier, but reaches Python later
        Edge(3, True, stamp_ms=190, arrive_ms=191),
    ]
    done, said = run_scripted(factory, pinmap, race(RaceKind.COCKROACH), script)
    assert said == []
    r = done.result
    assert r.status is Status.DECIDED and r.winner == 1
    assert done.spec.go_t_ns == START_NS + 1_000 * MS  # GO stamped from the factory clock
    assert done.spec.clock == "monotonic" and done.spec.resolution_ns == 100_000
    assert [(p.player, p.reaction_ns) for p in r.ranking] == [(1, 150_000_001), (2, 180 * MS), (3, 190 * MS)]


def test_slap_waits_for_everyone_and_names_the_slowest(factory: ClockedMockFactory, pinmap: PinMap) -> None:
    script = [
        Edge(3, True, stamp_ms=250, arrive_ms=251),
        Edge(1, True, stamp_ms=300.5, arrive_ms=300.6),
        Edge(1, False, stamp_ms=301.5, arrive_ms=301.6),  # bounce, ignored by the judge
        Edge(1, True, stamp_ms=302.5, arrive_ms=302.6),
        Edge(2, True, stamp_ms=199, arrive_ms=400),
    ]
    done, _ = run_scripted(factory, pinmap, race(RaceKind.SLAP), script)
    r = done.result
    assert r.status is Status.DECIDED and r.loser == 1
    assert [p.player for p in r.ranking] == [2, 3, 1]
    assert [i.why for i in r.ignored] == ["bounce", "bounce"]


def test_seats_beyond_the_race_and_the_caught_button_are_not_judged(
    factory: ClockedMockFactory, pinmap: PinMap
) -> None:
    script = [
        Edge(4, True, stamp_ms=100, arrive_ms=101),  # a fifth seat is wired, but this is a 4-player race
        Edge("guard", True, stamp_ms=110, arrive_ms=111),
        Edge(0, True, stamp_ms=200, arrive_ms=201),
    ]
    done, _ = run_scripted(factory, pinmap, race(RaceKind.COCKROACH), script)
    assert done.result.winner == 0
    assert {e.player for e in done.edges} == {0}


def test_a_false_start_during_the_fore_period_is_judged(factory: ClockedMockFactory, pinmap: PinMap) -> None:
    script = [
        Edge(2, True, stamp_ms=500, arrive_ms=500, origin="arm"),  # GO comes at 1000 ms after arming
        Edge(2, False, stamp_ms=600, arrive_ms=600, origin="arm"),
        Edge(1, True, stamp_ms=210, arrive_ms=210),
        Edge(2, True, stamp_ms=200, arrive_ms=200),
    ]
    done, _ = run_scripted(factory, pinmap, race(RaceKind.COCKROACH), script)
    r = done.result
    assert [(f.player, f.held_at_go) for f in r.false_starts] == [(2, False)]
    assert r.winner == 1


def test_a_button_held_at_arming_is_reported_then_the_race_runs(factory: ClockedMockFactory, pinmap: PinMap) -> None:
    script = [
        Edge(2, True, stamp_ms=-5_000, arrive_ms=-5_000, origin="open"),
        Edge(2, False, stamp_ms=1500, arrive_ms=1500, origin="arm"),
        Edge(1, True, stamp_ms=170, arrive_ms=170),
    ]
    done, said = run_scripted(factory, pinmap, race(RaceKind.COCKROACH), script)
    assert said == ["seat 2's button is held down (stuck or pressed early): release it"]
    assert done.spec.armed_t_ns == START_NS + 1500 * MS  # armed again once it was let go
    assert done.result.winner == 1


def test_a_button_that_stays_down_stops_the_race(factory: ClockedMockFactory, pinmap: PinMap) -> None:
    held = [Edge(s, True, stamp_ms=-1, arrive_ms=-1, origin="open") for s in (3, 1)]
    with pytest.raises(StuckButton, match=r"seats 1 and 3 still held down 10 s after arming: check those buttons"):
        run_scripted(factory, pinmap, race(RaceKind.SLAP), held)


def test_nobody_presses_the_cockroach_times_out(factory: ClockedMockFactory, pinmap: PinMap) -> None:
    done, _ = run_scripted(factory, pinmap, race(RaceKind.COCKROACH, timeout_ms=500), [])
    assert done.result.status is Status.DECIDED and done.result.winner is None
    assert done.now_t_ns == START_NS + 1_500 * MS


def test_leds_show_the_verdict(factory: ClockedMockFactory, pinmap: PinMap) -> None:
    script = [Edge(s, True, stamp_ms=150 + 10 * s, arrive_ms=150 + 10 * s) for s in (1, 2, 3)]
    with GpioRig(pinmap, pin_factory=factory) as rig:
        run_race(ScriptedGpioInput(rig, 4, factory, script), race(RaceKind.SLAP), print)
        assert rig.lights()[3] is SeatLight.LOSER
        assert rig.lights()[1] is SeatLight.OFF
        assert pinmap.go_pin is not None and not factory.stamped_pin(pinmap.go_pin).state


# -- the command line -----------------------------------------------------------------------


def cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        code = main(["race", *argv])
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("kind", ["slap", "cockroach"])
def test_sim_race_prints_a_verdict_and_a_table(capsys: pytest.CaptureFixture[str], kind: str) -> None:
    code, out, err = cli(capsys, "--input", "sim", "--kind", kind, "--players", "4", "--seed", "3")
    assert (code, err) == (0, "")
    assert out.startswith(f"{kind.capitalize()} race, 4 players, seat 0 active")
    assert re.search(r"Seat \d was (slowest|fastest): \d+\.\d{3} ms after GO", out)
    assert re.search(r"^place  seat  reaction ms          gap$", out, re.M)
    assert re.search(r"^\s+1\s+\d\s+\d{3}\.\d{3}$", out, re.M)


def test_sim_race_is_the_same_for_the_same_seed(capsys: pytest.CaptureFixture[str]) -> None:
    first = cli(capsys, "--input", "sim", "--players", "5", "--seed", "11")
    assert cli(capsys, "--input", "sim", "--players", "5", "--seed", "11") == first
    assert cli(capsys, "--input", "sim", "--players", "5", "--seed", "12") != first


def test_sim_races_always_decide(capsys: pytest.CaptureFixture[str]) -> None:
    seen = set()
    for seed in range(60):
        for kind in ("slap", "cockroach"):
            code, out, _ = cli(capsys, "--input", "sim", "--kind", kind, "--players", "5", "--seed", str(seed), "--json")
            doc = json.loads(out)
            assert code == 0 and doc["status"] == "decided"
            seen.add("false start" if doc["false_starts"] else "clean")
            seen.update(i["why"] for i in doc["ignored"])
    assert {"false start", "clean", "bounce"} <= seen


def test_json_is_the_judges_document(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli(capsys, "--input", "sim", "--kind", "cockroach", "--players", "3", "--active", "2",
                       "--seed", "4", "--json")
    doc = json.loads(out)
    assert code == 0
    assert set(doc) >= {"status", "winner", "loser", "tied", "rerace", "ranking", "no_press", "false_starts",
                        "ignored", "reason"}
    assert all(type(p["reaction_ns"]) is int for p in doc["ranking"])


def test_record_can_be_judged_again(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    record = tmp_path / "race.json"
    code, out, _ = cli(capsys, "--input", "sim", "--players", "4", "--seed", "8", "--json", "--record", str(record))
    assert code == 0
    doc = json.loads(record.read_text(encoding="utf-8"))
    assert {**result_to_json(judge_document(doc)), "seed": doc["seed"]} == json.loads(out)


def test_json_names_the_seed_it_chose(capsys: pytest.CaptureFixture[str]) -> None:
    """Without --seed the race draws one: --json carries it, and it runs the same race again."""
    code, out, _ = cli(capsys, "--input", "sim", "--players", "4", "--json")
    first = json.loads(out)
    assert code == 0 and 0 <= first["seed"] < 2**32
    code, out, _ = cli(capsys, "--input", "sim", "--players", "4", "--json", "--seed", str(first["seed"]))
    assert code == 0 and json.loads(out) == first


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        # The race judge takes 2 to 8 seats (referee mode); a Cheating Moth table's 3 to 5 is the engine's.
        (["--players", "1"], "--players 1 is not valid: a race needs 2 to 8 players"),
        (["--players", "9"], "--players 9 is not valid: a race needs 2 to 8 players"),
        (["--players", "4", "--active", "4"], "--active 4 is not a seat at a 4-player table: use 0 to 3"),
        (["--players", "3", "--active", "-1"], "--active -1 is not a seat at a 3-player table: use 0 to 2"),
        (["--players", "3", "--timeout-ms", "0"], "--timeout-ms 0 is not valid: use 1 to 60000"),
        (["--players", "3", "--input", "gpio", "--show-ms", "-1"], "--show-ms -1 is not valid: use 0 to 60000"),
        (["--players", "3", "--show-ms", "500"],
         "--show-ms is for the LEDs of --input gpio or board (simulated players have none): drop it"),
        (["--players", "3", "--pins", "x.toml"], "--pins is only for --input gpio: drop it or use --input gpio"),
    ],
)
def test_bad_arguments_exit_2_with_one_line(capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    code, out, err = cli(capsys, "--input", "sim", *argv)
    assert (code, out, err) == (2, "", f"cheating-moth: {message}\n")


def test_a_record_onto_a_folder_is_refused_before_the_race(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    (tmp_path / "r.json").mkdir()
    code, out, err = cli(capsys, "--input", "sim", "--players", "3", "--record", str(tmp_path / "r.json"))
    assert (code, out) == (2, "")
    assert re.fullmatch(r"cheating-moth: --record: the --record file '.*r\.json' is a folder, not a file, and is "
                        r"left as it is: give --record a new file name or a record to replace\n", err)


def test_a_record_in_a_folder_that_does_not_exist_is_refused_before_the_race(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, err = cli(capsys, "--input", "sim", "--players", "3", "--record", str(tmp_path / "no" / "r.json"))
    assert (code, out) == (2, "")
    assert "cannot be written in" in err and "a folder that does not exist" in err and err.count("\n") == 1
    assert not (tmp_path / "no").exists()


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write into any folder")
def test_unwritable_record_exits_1(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    (tmp_path / "ro").mkdir(mode=0o555)   # found out only when written, after the race
    try:
        code, _, err = cli(capsys, "--input", "sim", "--players", "3", "--record", str(tmp_path / "ro" / "r.json"))
    finally:
        (tmp_path / "ro").chmod(0o755)
    assert code == 1 and re.fullmatch(r"cheating-moth: --record '.*r\.json' cannot be written .*\n", err)


# -- the command line on mock GPIO --------------------------------------------------------------


@pytest.fixture
def scripted_cli(
    monkeypatch: pytest.MonkeyPatch, factory: ClockedMockFactory
) -> Iterator[list[Edge]]:
    """Make ``--input gpio`` use the clocked mock factory and a scripted input; yields the script."""
    import firmware_host.gpio

    script: list[Edge] = []
    monkeypatch.setattr(firmware_host.gpio, "open_pin_factory", lambda name=None: factory)

    def scripted(rig: GpioRig, players: int, show_s: float) -> ScriptedGpioInput:
        return ScriptedGpioInput(rig, players, factory, script)

    monkeypatch.setattr(cmd_race, "GpioInput", scripted)
    yield script


def test_gpio_race_from_the_command_line(capsys: pytest.CaptureFixture[str], scripted_cli: list[Edge]) -> None:
    scripted_cli += [Edge(2, True, 201.25, 202), Edge(1, True, 188.5, 189), Edge(3, True, 240, 241)]
    code, out, err = cli(capsys, "--input", "gpio", "--kind", "slap", "--players", "4", "--seed", "1", "--show-ms", "0")
    assert (code, err) == (0, "")
    assert "Seat 3 was slowest: 240.000 ms after GO, 38.750 ms behind seat 2." in out
    assert "(gpio, seed 1)" in out


def test_gpio_stuck_button_exits_1(capsys: pytest.CaptureFixture[str], scripted_cli: list[Edge]) -> None:
    scripted_cli.append(Edge(1, True, stamp_ms=-1, arrive_ms=-1, origin="open"))
    code, out, err = cli(capsys, "--input", "gpio", "--players", "3", "--active", "2")
    assert (code, out) == (1, "")
    assert err == (
        "seat 1's button is held down (stuck or pressed early): release it\n"
        "cheating-moth: seat 1 still held down 10 s after arming: check that button and the wiring\n"
    )


def test_gpio_more_players_than_wired_seats_exits_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    small = tmp_path / "three.toml"
    small.write_text("[seats.0]\nbutton = 17\n[seats.1]\nbutton = 22\n[seats.2]\nbutton = 24\n[guard]\nbutton = 26\n")
    code, _, err = cli(capsys, "--input", "gpio", "--players", "4", "--pins", str(small))
    assert code == 2 and re.fullmatch(r"cheating-moth: --players 4 is more than the 3 seats wired in .*three\.toml\n", err)


def test_gpio_bad_pin_map_exits_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("[seats.0]\nbutton = 99\n[seats.1]\nbutton = 22\n[seats.2]\nbutton = 24\n[guard]\nbutton = 26\n")
    code, _, err = cli(capsys, "--input", "gpio", "--players", "3", "--pins", str(bad))
    assert code == 2 and re.fullmatch(r"cheating-moth: seats\.0\.button = 99 in .*bad\.toml is not a header GPIO.*\n", err)


def test_gpio_refuses_a_factory_that_cannot_referee(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "rpigpio")
    code, _, err = cli(capsys, "--input", "gpio", "--players", "3")
    assert code == 2 and err.startswith("cheating-moth: pin factory 'rpigpio' cannot referee races")


def test_pinmap_fixture_matches_the_default_file(pinmap: PinMap) -> None:
    assert pinmap == loads_pinmap(Path(pinmap.source).read_text(encoding="utf-8"), source=pinmap.source)


def test_a_sim_race_never_loads_gpiozero() -> None:
    import subprocess
    import sys

    code = (
        "import sys; from game.app.cli import main; "
        "main(['race', '--input', 'sim', '--players', '3', '--seed', '1']); "
        "sys.exit(3 if 'gpiozero' in sys.modules else 0)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                          cwd=Path(__file__).resolve().parents[2])
    assert done.returncode == 0, done.stderr
    assert "Slap race, 3 players" in done.stdout
