"""Every file the rig reads before its first frame is read bounded and without waiting (issue 21
point 4, Build 3): a FIFO with no writer, a device (``/dev/zero``, a tty), a folder, a symbolic
link loop or an oversize file in a file's place is refused in one sentence naming it, and the
kiosk still reaches its first frame with that sentence on screen.

A read that blocked would hang the test rather than fail it: opening a FIFO with no writer
blocks a plain ``open`` forever, and ``/dev/zero`` read whole fills the memory. The code under
test opens with ``O_NONBLOCK`` after looking at the file's type, so these tests return at once;
on the old code they hang (or raise MemoryError), which is how they fail."""

from __future__ import annotations

import argparse
import logging
import grp
import os
from collections.abc import Callable, Iterator
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from firmware_host.errors import BadPinMap
from firmware_host.pinmap import DEFAULT_PINMAP_PATH, MAX_PINMAP_BYTES, load_pinmap
from game.app import cmd_kiosk
from game.app.cli import build_parser, main
from game.app.kiosk import load_staff_overrides
from game.app.pinfile import read_pin_file, write_pin_file
from game.app.pinwait import UNREADABLE, load_count
from game.app.rigconfig import MAX_CONFIG_BYTES, load_rig_config
from game.bounded import MESSAGE_CHARS, BadInput, MissingFile, read_file
from game.errors import BadConfig
from game.i18n.lookup import text
from game.referee.presets import MAX_PRESET_BYTES, load_presets

# --- what to put where a file should be ------------------------------------------------------


def fifo(path: Path) -> None:
    os.mkfifo(path)                      # nobody ever writes to it


def zero(path: Path) -> None:
    path.symlink_to("/dev/zero")         # endless: read whole it fills the memory


def folder(path: Path) -> None:
    path.mkdir()


def loop(path: Path) -> None:
    other = path.with_name(path.name + ".other")
    other.symlink_to(path)
    path.symlink_to(other)


def tty(path: Path) -> Iterator[None]:
    """The far end of a pseudo-terminal: reading it waits for a line nobody types."""
    main_fd, tty_fd = os.openpty()
    path.symlink_to(os.ttyname(tty_fd))
    try:
        yield
    finally:
        os.close(main_fd)
        os.close(tty_fd)


def oversize(limit: int) -> Callable[[Path], None]:
    def make(path: Path) -> None:
        path.write_bytes(b"#" * (limit + 1))
    return make


KINDS: dict[str, tuple[Callable[[Path], object], str]] = {
    "fifo": (fifo, "is a FIFO (named pipe), not a file"),
    "dev-zero": (zero, "is a device, not a file"),
    "folder": (folder, "is a folder, not a file"),
    "loop": (loop, "is a symbolic link loop"),
}


@pytest.fixture(params=[*KINDS, "tty"])
def bad_kind(request: pytest.FixtureRequest) -> Iterator[tuple[Callable[[Path], None], str]]:
    """Each non-file in turn: a maker that puts it at a path, and the words its refusal says."""
    if request.param == "tty":
        made: list[Iterator[None]] = []

        def make_tty(path: Path) -> None:
            made.append(tty(path))
            next(made[-1])

        yield make_tty, "is a device, not a file"
        for gen in made:
            next(gen, None)
        return
    make, words = KINDS[request.param]
    yield make, words  # type: ignore[misc]


def one_sentence(message: str, *words: str) -> None:
    assert "\n" not in message and len(message) <= MESSAGE_CHARS, message
    assert "Traceback" not in message
    for word in words:
        assert word in message, message


# --- the reader itself -------------------------------------------------------------------------


def test_a_regular_file_and_a_link_to_one_are_read(tmp_path: Path) -> None:
    (tmp_path / "a.toml").write_bytes(b"x = 1\n")
    (tmp_path / "link.toml").symlink_to(tmp_path / "a.toml")
    assert read_file(tmp_path / "a.toml", 6, "file") == b"x = 1\n"
    assert read_file(tmp_path / "link.toml", 6, "file") == b"x = 1\n"   # a link is followed


def test_what_is_not_a_regular_file_is_refused_without_waiting(
        tmp_path: Path, bad_kind: tuple[Callable[[Path], None], str]) -> None:
    make, words = bad_kind
    make(tmp_path / "x.toml")
    with pytest.raises(BadInput) as refused:
        read_file(tmp_path / "x.toml", 1024, "pin map 'x.toml'", "point pins at a pins.toml file")
    one_sentence(str(refused.value), "pin map 'x.toml' ", words)
    if "link loop" not in words:
        assert str(refused.value).endswith(": point pins at a pins.toml file")


def test_a_file_over_the_limit_is_refused_before_it_is_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "big").write_bytes(b"#" * 1025)
    opened: list[int] = []                    # the descriptor is wrapped for reading only if it fits
    real_fdopen = os.fdopen

    def fdopen(fd: int, *args: object, **kwargs: object) -> object:
        opened.append(fd)
        return real_fdopen(fd, *args, **kwargs)  # type: ignore[call-overload]

    monkeypatch.setattr(os, "fdopen", fdopen)
    with pytest.raises(BadInput, match=r"^file is larger than 1 KiB, the most it may hold: check that it is "
                                       r"the right file$"):
        read_file(tmp_path / "big", 1024, "file")
    assert opened == []
    assert read_file(tmp_path / "big", 1025, "file") == b"#" * 1025


def test_a_missing_file_is_told_from_the_other_refusals(tmp_path: Path) -> None:
    with pytest.raises(MissingFile, match="No such file or directory"):
        read_file(tmp_path / "none", 10, "file")
    (tmp_path / "dangling").symlink_to(tmp_path / "none")
    with pytest.raises(MissingFile):
        read_file(tmp_path / "dangling", 10, "file")


# --- each file the rig reads -------------------------------------------------------------------


def test_the_config_file(tmp_path: Path, bad_kind: tuple[Callable[[Path], None], str]) -> None:
    make, words = bad_kind
    make(tmp_path / "config.toml")
    with pytest.raises(BadConfig) as refused:
        load_rig_config(tmp_path / "config.toml")
    one_sentence(str(refused.value), "config file", "config.toml", words)


def test_the_config_file_oversize(tmp_path: Path) -> None:
    oversize(MAX_CONFIG_BYTES)(tmp_path / "config.toml")
    with pytest.raises(BadConfig, match="is larger than 256 KiB"):
        load_rig_config(tmp_path / "config.toml")


def test_the_pin_map(tmp_path: Path, bad_kind: tuple[Callable[[Path], None], str]) -> None:
    make, words = bad_kind
    make(tmp_path / "pins.toml")
    with pytest.raises(BadPinMap) as refused:
        load_pinmap(tmp_path / "pins.toml")
    one_sentence(str(refused.value), "pin map", "pins.toml", words)
    if "link loop" not in words:
        assert f"pass a TOML pin map such as {str(DEFAULT_PINMAP_PATH)!r}" in str(refused.value)


def test_the_pin_map_oversize_and_unreadable(tmp_path: Path) -> None:
    oversize(MAX_PINMAP_BYTES)(tmp_path / "pins.toml")
    with pytest.raises(BadPinMap, match="is larger than 64 KiB, the most it may hold: pass a TOML pin map"):
        load_pinmap(tmp_path / "pins.toml")
    with pytest.raises(BadPinMap, match=r"pin map '.*none\.toml' cannot be read \(No such file or directory\)"):
        load_pinmap(tmp_path / "none.toml")


def test_the_staff_pin_file(tmp_path: Path, bad_kind: tuple[Callable[[Path], None], str]) -> None:
    make, words = bad_kind
    make(tmp_path / "staff-pin.toml")
    with pytest.raises(BadConfig) as refused:
        read_pin_file(tmp_path / "staff-pin.toml")
    one_sentence(str(refused.value), "staff PIN file", words)


def test_the_staff_pin_file_not_utf8(tmp_path: Path) -> None:
    (tmp_path / "staff-pin.toml").write_bytes(b'algorithm = "\xff"\n')
    with pytest.raises(BadConfig, match=r"is not UTF-8 text \(byte 0xff at offset 13\)"):
        read_pin_file(tmp_path / "staff-pin.toml")


def test_the_count_of_wrong_pins(tmp_path: Path, bad_kind: tuple[Callable[[Path], None], str]) -> None:
    make, words = bad_kind
    make(tmp_path / "pin-wrong")
    notes: list[str] = []
    assert load_count(tmp_path / "pin-wrong", notes) == UNREADABLE     # the back-off is kept
    assert len(notes) == 1
    one_sentence(notes[0], "pin-wrong", words)


def test_the_staff_settings(tmp_path: Path, bad_kind: tuple[Callable[[Path], None], str]) -> None:
    make, words = bad_kind
    make(tmp_path / "staff.toml")
    notes: list[str] = []
    assert load_staff_overrides(tmp_path / "staff.toml", notes=notes) == {}
    assert len(notes) == 1                          # a symbolic link loop used to be "no file"
    one_sentence(notes[0], "staff.toml", words)


def test_a_missing_staff_settings_file_is_no_note(tmp_path: Path) -> None:
    notes: list[str] = []
    assert load_staff_overrides(tmp_path / "staff.toml", notes=notes) == {} and notes == []


def test_a_race_preset_file(tmp_path: Path, bad_kind: tuple[Callable[[Path], None], str]) -> None:
    make, words = bad_kind
    make(tmp_path / "cups.toml")
    oversize(MAX_PRESET_BYTES)(tmp_path / "big.toml")
    found = load_presets([tmp_path])
    assert "duel" in found.ids and "cups" not in found.ids and "big" not in found.ids
    assert len(found.notices) == 2
    for notice in found.notices:
        one_sentence(notice)
    assert any(words in n and "cups.toml" in n for n in found.notices)
    assert any("is larger than 16 KiB" in n and "big.toml" in n for n in found.notices)


def test_a_replayed_log(tmp_path: Path, bad_kind: tuple[Callable[[Path], None], str],
                        capsys: pytest.CaptureFixture[str]) -> None:
    make, words = bad_kind
    make(tmp_path / "game.jsonl")
    with pytest.raises(SystemExit) as exited:
        main(["replay", str(tmp_path / "game.jsonl")])
    assert exited.value.code == 2
    err = capsys.readouterr().err.strip()
    one_sentence(err, "game.jsonl", words)


def test_a_judged_document(tmp_path: Path, bad_kind: tuple[Callable[[Path], None], str],
                           capsys: pytest.CaptureFixture[str]) -> None:
    make, words = bad_kind
    make(tmp_path / "race.json")
    assert main(["judge", str(tmp_path / "race.json")]) == 2
    one_sentence(capsys.readouterr().err.strip(), "race.json", words)


# --- the kiosk reaches its first frame, the refusal on screen ----------------------------------

WALL = datetime(2026, 12, 1, 20, 0, tzinfo=timezone(timedelta(hours=1)))


@pytest.fixture()
def kiosk_env(monkeypatch: pytest.MonkeyPatch) -> Iterator[argparse.ArgumentParser]:
    import pygame

    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    monkeypatch.setattr(cmd_kiosk, "_wall", lambda: WALL)
    logging.disable(logging.CRITICAL)
    try:
        yield build_parser()
    finally:
        logging.disable(logging.NOTSET)
        pygame.quit()


def first_frame(parser: argparse.ArgumentParser, folder: Path) -> list[str]:
    """``cheating-moth kiosk --headless`` up to its first frame; the notices on screen."""
    args = parser.parse_args(["kiosk", "--headless", "--input", "keyboard", "--data", str(folder / "data"),
                              "--config", str(folder / "config.toml"), "--seed", "5"])
    notes: list[str] = []
    config = cmd_kiosk.load_config(args.config, notes)
    session = cmd_kiosk.start(args, config, notes)
    try:
        assert session.app.run(max_frames=1) == 1
        assert session.app.frame is not None
        return [text("en", m.key, **dict(m.params)) for m, _ in session.app.ui.notices]
    finally:
        session.close()


@pytest.mark.parametrize("where", ["config.toml", "staff-pin.toml", "data/pin-wrong", "data/staff.toml",
                                   "data/referee/cups.toml"])
@pytest.mark.parametrize("kind", ["fifo", "dev-zero", "loop"])
def test_the_kiosk_reaches_its_first_frame_and_says_which_file(
        tmp_path: Path, kiosk_env: argparse.ArgumentParser, where: str, kind: str) -> None:
    (tmp_path / "data" / "referee").mkdir(parents=True)
    if where == "data/pin-wrong":         # the count is read only when there is a PIN
        write_pin_file(tmp_path / "staff-pin.toml", "246813", iterations=1_000,
                       group=grp.getgrgid(os.getgid()).gr_name)
    make, words = KINDS[kind]
    make(tmp_path / where)
    notices = first_frame(kiosk_env, tmp_path)
    name = Path(where).name
    assert any(words in n and name in n for n in notices), notices


@pytest.mark.parametrize("kind", ["tty", "dev-zero", "fifo"])
def test_a_pin_map_on_a_tty_or_dev_zero_is_refused_and_the_kiosk_starts(
        tmp_path: Path, kiosk_env: argparse.ArgumentParser, kind: str) -> None:
    if kind == "tty":
        gen = tty(tmp_path / "pins.toml")
        next(gen)
    else:
        gen = iter(())
        KINDS[kind][0](tmp_path / "pins.toml")
    words = "is a FIFO (named pipe), not a file" if kind == "fifo" else "is a device, not a file"
    try:
        (tmp_path / "config.toml").write_text(f'[input]\nbackend = "gpio"\npins = "{tmp_path / "pins.toml"}"\n')
        args = kiosk_env.parse_args(["kiosk", "--headless", "--data", str(tmp_path / "data"),
                                     "--config", str(tmp_path / "config.toml"), "--seed", "5"])
        notes: list[str] = []
        config = cmd_kiosk.load_config(args.config, notes)
        assert config.pins == str(tmp_path / "pins.toml") and notes == []
        session = cmd_kiosk.start(args, config, notes)
        try:
            assert session.app.run(max_frames=1) == 1
            said = " ".join(session.detected.notes)
        finally:
            session.close()
        assert f"pins.toml' {words}" in said, said
    finally:
        next(gen, None)


def test_the_count_of_wrong_pins_is_saved_past_a_fifo_left_at_its_temporary_name(tmp_path: Path) -> None:
    from game.app.pinwait import save_count

    os.mkfifo(tmp_path / "pin-wrong.new")         # a plain open for writing waits for a reader
    assert save_count(tmp_path / "pin-wrong", 4)
    assert load_count(tmp_path / "pin-wrong", []) == 4


def test_the_house_rules_file(tmp_path: Path, bad_kind: tuple[Callable[[Path], None], str]) -> None:
    from game.config import load_rules

    make, words = bad_kind
    make(tmp_path / "rules.toml")
    with pytest.raises(BadConfig) as refused:
        load_rules(tmp_path / "rules.toml")
    one_sentence(str(refused.value), "config file", "rules.toml", words)


def test_oversize_staff_settings_and_replayed_log(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    from game.app import cmd_replay

    oversize(MAX_CONFIG_BYTES)(tmp_path / "staff.toml")
    notes: list[str] = []
    assert load_staff_overrides(tmp_path / "staff.toml", notes=notes) == {}
    assert len(notes) == 1 and "is larger than 256 KiB, the most it may hold: delete it" in notes[0]
    monkeypatch.setattr(cmd_replay, "MAX_LOG_BYTES", 1024)       # 64 MiB on the rig; the same check
    oversize(1024)(tmp_path / "game.jsonl")
    with pytest.raises(SystemExit):
        main(["replay", str(tmp_path / "game.jsonl")])
    one_sentence(capsys.readouterr().err.strip(), "game.jsonl", "is larger than 1 KiB")


@pytest.mark.parametrize("kind", ["loop", "fifo"])
def test_status_names_a_config_that_is_a_loop_or_a_fifo_not_missing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str) -> None:
    import json

    KINDS[kind][0](tmp_path / "config.toml")
    code = main(["status", "--data", str(tmp_path / "data"), "--config", str(tmp_path / "config.toml"), "--json"])
    report = json.loads(capsys.readouterr().out)
    assert code == 1 and "INVALID" in report["config"] and KINDS[kind][1] in report["config"], report
