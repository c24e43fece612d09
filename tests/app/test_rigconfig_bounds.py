"""The café's config and staff settings files are read within bounds (issue 12 point 5): every
refusal is a BadConfig of one line naming the file, never a traceback or a file read whole."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from game.app.rigconfig import MAX_CONFIG_BYTES, load_rig_config, read_toml
from game.bounded import MESSAGE_CHARS, label
from game.errors import BadConfig


def write(tmp_path: Path, content: bytes) -> Path:
    path = tmp_path / "config.toml"
    path.write_bytes(content)
    return path


@pytest.mark.parametrize(
    ("content", "message"),
    [
        # Before: tomllib's ValueError for a number past Python's 4,300-digit limit was a traceback.
        (b"[display]\nvolume = " + b"9" * 5000 + b"\n", r"has a number of more than 4,300 digits: use at most 20 digits$"),
        (b"[display]\nvolume = " + b"9" * 400 + b"\n", r"has a 400-digit number at display\.volume: use at most 20 digits$"),
        (b"[display]\nvolume = inf\n", r"has a number that is not finite \(inf\) at display\.volume: use a finite number$"),
        (b"[display]\nvolume = 1\nvolume = 2\n", r"is not valid TOML \(Cannot overwrite a value .*\): fix the syntax$"),
        (b"[rules]\nx = " + b"[" * 20 + b"]" * 20 + b"\n", r"nests arrays or tables too deeply \(over 16 levels at .*\)"),
        (b"#" * (MAX_CONFIG_BYTES + 1), r"is larger than 256 KiB, the most it may hold: check that it is the right file$"),
    ],
)
def test_a_config_beyond_the_bounds_is_refused_in_one_line(tmp_path: Path, content: bytes, message: str) -> None:
    path = write(tmp_path, content)
    with pytest.raises(BadConfig, match=rf"^config file {re.escape(label(path))} {message}") as caught:
        load_rig_config(path)
    assert len(str(caught.value)) <= MESSAGE_CHARS


def test_a_config_of_exactly_the_cap_is_read(tmp_path: Path) -> None:
    head = b"[display]\nvolume = 30\n"
    path = write(tmp_path, head + b"#" * (MAX_CONFIG_BYTES - len(head) - 1) + b"\n")
    assert path.stat().st_size == MAX_CONFIG_BYTES
    assert load_rig_config(path).volume == 30


def test_the_staff_settings_file_is_named_in_its_refusals(tmp_path: Path) -> None:
    path = write(tmp_path, b"#" * (MAX_CONFIG_BYTES + 1))
    with pytest.raises(BadConfig, match=rf"^staff settings {re.escape(label(path))} is larger than 256 KiB"):
        read_toml(path, "staff settings")


def test_a_path_with_a_nul_byte_is_refused_by_name() -> None:
    with pytest.raises(BadConfig, match=r"^cannot read config file 'a\\x00b': embedded null byte$"):
        load_rig_config("a\0b")
