"""The kiosk installer in a throwaway root: the files it writes, idempotence, uninstall, the
systemd unit checked by systemd itself, its sandbox scored by systemd, and roots it refuses."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
INSTALL = REPO / "deploy" / "install.py"


def install(root: Path, *args: str) -> str:
    out = subprocess.run([sys.executable, str(INSTALL), "--root", str(root), *args],
                         capture_output=True, text=True, check=True)
    return out.stdout


def files(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_install_writes_the_unit_config_and_data_dir(tmp_path: Path) -> None:
    out = install(tmp_path)
    assert set(files(tmp_path)) == {
        "etc/cheating-moth/config.toml",
        "etc/cheating-moth/pins.toml",
        "etc/systemd/system/cheating-moth.service",
        "etc/polkit-1/rules.d/50-cheating-moth.rules",
        "opt/cheating-moth/README.md",
    }
    assert 'subject.user == "cheating-moth"' in (tmp_path / "etc/polkit-1/rules.d/50-cheating-moth.rules").read_text()
    assert (tmp_path / "var/lib/cheating-moth").is_dir()
    unit = (tmp_path / "etc/systemd/system/cheating-moth.service").read_text()
    for line in ("Type=notify", "WatchdogSec=10", "Restart=always", "StartLimitAction=reboot",
                 "Conflicts=getty@tty1.service", "TTYPath=/dev/tty1", "StandardInput=tty-force",
                 "User=cheating-moth", "After=sound.target systemd-user-sessions.service",
                 "Environment=SDL_VIDEODRIVER=kmsdrm SDL_AUDIODRIVER=alsa PYTHONUNBUFFERED=1"):
        assert line in unit.splitlines()
    # System commands are listed, not run, under --root.
    for command in ("apt-get install -y --no-install-recommends python3-venv",
                    "useradd --system --home-dir /var/lib/cheating-moth",
                    "usermod --append --groups gpio cheating-moth",
                    "usermod --append --groups dialout cheating-moth",
                    "systemctl enable cheating-moth.service"):
        assert command in out


def test_running_it_again_changes_nothing_and_keeps_the_config(tmp_path: Path) -> None:
    install(tmp_path)
    config = tmp_path / "etc/cheating-moth/config.toml"
    config.write_text('[rules]\ntop-tie = "fewest-moths"\n')
    (tmp_path / "var/lib/cheating-moth/leaderboard.db").write_bytes(b"games")
    before = files(tmp_path)
    out = install(tmp_path)
    assert files(tmp_path) == before
    assert "kept" in out and str(config) in out


def test_uninstall_keeps_config_and_data_unless_purged(tmp_path: Path) -> None:
    install(tmp_path)
    (tmp_path / "var/lib/cheating-moth/leaderboard.db").write_bytes(b"games")
    out = install(tmp_path, "--uninstall")
    left = set(files(tmp_path))
    assert left == {"etc/cheating-moth/config.toml", "etc/cheating-moth/pins.toml",
                    "var/lib/cheating-moth/leaderboard.db"}
    assert "systemctl disable --now cheating-moth.service" in out
    install(tmp_path, "--uninstall", "--purge")
    assert files(tmp_path) == {}


def test_purge_alone_is_refused(tmp_path: Path) -> None:
    result = subprocess.run([sys.executable, str(INSTALL), "--root", str(tmp_path), "--purge"],
                            capture_output=True, text=True)
    assert result.returncode == 2 and "--purge goes with --uninstall" in result.stderr


def test_systemd_accepts_the_unit(tmp_path: Path) -> None:
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is missing: install Debian's systemd package to run this check")
    install(tmp_path)
    unit = (tmp_path / "etc/systemd/system/cheating-moth.service").read_text()
    # systemd checks that ExecStart is executable: point it at this checkout's own entry point.
    entry = Path(sys.executable).with_name("cheating-moth")
    assert entry.exists()
    checked = tmp_path / "cheating-moth.service"
    checked.write_text(unit.replace("/opt/cheating-moth/venv/bin/cheating-moth", str(entry)))
    result = subprocess.run([analyze, "verify", "--man=no", str(checked)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stderr.strip() == "", result.stderr   # no unknown keys, no warnings


def test_the_default_config_is_one_the_kiosk_accepts(tmp_path: Path) -> None:
    from game.app.rigconfig import load_rig_config

    install(tmp_path)
    config = load_rig_config(tmp_path / "etc/cheating-moth/config.toml")
    assert config.input == "auto" and config.pins == "/etc/cheating-moth/pins.toml"
    from firmware_host.pinmap import load_pinmap

    assert load_pinmap(tmp_path / "etc/cheating-moth/pins.toml").seats


#: The issue's target for ``systemd-analyze security`` (0 safe .. 10 unsafe; 9.2 unsandboxed).
MAX_EXPOSURE = 4.5


def exposure(analyze: str, unit: Path) -> float:
    """The overall exposure systemd itself gives the unit file (offline: no systemd running)."""
    result = subprocess.run([analyze, "security", "--offline=true", "--no-pager", str(unit)],
                            capture_output=True, text=True)
    found = re.search(r"Overall exposure level for \S+: (\d+\.\d+)", result.stdout)
    assert found, result.stdout[-2000:] + result.stderr
    return float(found.group(1))


def test_systemd_rates_the_units_sandbox_at_most_4_5(tmp_path: Path) -> None:
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is missing: install Debian's systemd package to run this check")
    install(tmp_path)
    score = exposure(analyze, tmp_path / "etc/systemd/system/cheating-moth.service")
    print(f"systemd-analyze security: {score}")
    assert score <= MAX_EXPOSURE


def test_the_sandbox_keeps_what_the_rig_needs(tmp_path: Path) -> None:
    install(tmp_path)
    lines = (tmp_path / "etc/systemd/system/cheating-moth.service").read_text().splitlines()
    for line in ("NoNewPrivileges=yes", "ProtectSystem=strict", "ProtectHome=yes", "PrivateTmp=yes",
                 "CapabilityBoundingSet=", "UMask=0077", "ProtectKernelTunables=yes",
                 "ProtectKernelModules=yes", "ProtectControlGroups=yes", "LockPersonality=yes",
                 "RestrictRealtime=yes", "DevicePolicy=closed", "SuccessExitStatus=143",
                 # the data folder is the one place it writes; sd_notify and D-Bus are Unix sockets,
                 # udev's device events netlink
                 "ReadWritePaths=/var/lib/cheating-moth", "RestrictAddressFamilies=AF_UNIX AF_NETLINK",
                 # display, touch, GPIO buttons, the board's USB serial, sound, the console
                 "DeviceAllow=char-drm rw", "DeviceAllow=char-input r", "DeviceAllow=char-gpiochip rw",
                 "DeviceAllow=char-ttyACM rw", "DeviceAllow=char-alsa rw", "DeviceAllow=/dev/tty1 rw",
                 "SupplementaryGroups=video render input audio gpio dialout"):
        assert line in lines, line
    # PrivateDevices would hide /dev/dri and the rest; PrivateUsers would drop the device groups.
    assert not [x for x in lines if x.startswith(("PrivateDevices=", "PrivateUsers=", "MemoryDenyWriteExecute="))]


def test_the_unit_names_only_groups_that_exist() -> None:
    sys.path.insert(0, str(INSTALL.parent))
    try:
        import install as installer
    finally:
        sys.path.remove(str(INSTALL.parent))
    assert "SupplementaryGroups=video input\n" in installer.unit_text(("video", "input"))
    assert "SupplementaryGroups" not in installer.unit_text(())


@pytest.mark.parametrize("root", ["", "relative/dir", ".", "/", "/tmp/.."])
def test_an_empty_relative_or_system_root_is_refused(tmp_path: Path, root: str) -> None:
    result = subprocess.run([sys.executable, str(INSTALL), "--root", root], capture_output=True, text=True,
                            cwd=tmp_path)
    assert result.returncode == 2
    assert f"--root {root!r} is not a folder to try the installer in: give an absolute path" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.stderr
    assert list(tmp_path.iterdir()) == []          # nothing written below the current folder either


def test_the_data_folder_is_the_kiosks_alone_and_the_pin_is_asked_for(tmp_path: Path) -> None:
    out = install(tmp_path)
    assert (tmp_path / "var/lib/cheating-moth").stat().st_mode & 0o777 == 0o750
    assert "cheating-moth staff-pin" in out
    assert "pin-hash" not in (tmp_path / "etc/cheating-moth/config.toml").read_text()


def test_the_unit_lets_the_kiosk_write_its_data_and_read_its_pin_file(tmp_path: Path) -> None:
    from game.app.pinfile import DEFAULT_PATH, pin_file_for

    install(tmp_path)
    lines = (tmp_path / "etc/systemd/system/cheating-moth.service").read_text().splitlines()
    [start] = [x for x in lines if x.startswith("ExecStart=")]
    words = start.split()
    data, config = words[words.index("--data") + 1], words[words.index("--config") + 1]
    assert f"ReadWritePaths={data}" in lines                 # ProtectSystem=strict: only there
    assert pin_file_for(config) == DEFAULT_PATH              # where 'staff-pin' writes by default
    assert Path(data) != DEFAULT_PATH.parent                 # the kiosk cannot rewrite its PIN


def test_the_unit_gives_the_kiosk_a_runtime_folder_kept_over_its_restarts(tmp_path: Path) -> None:
    """The wrong-PIN count that the SD card refused is kept in $RUNTIME_DIRECTORY (pinwait.py);
    without Preserve systemd removes the folder when the kiosk stops, and a restart would
    clear the back-off (issue 21, hostile retest)."""
    install(tmp_path)
    lines = (tmp_path / "etc/systemd/system/cheating-moth.service").read_text().splitlines()
    assert "RuntimeDirectory=cheating-moth" in lines
    assert "RuntimeDirectoryPreserve=restart" in lines and "RuntimeDirectoryMode=0700" in lines
