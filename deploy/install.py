#!/usr/bin/env python3
"""Install the rig as a kiosk on Raspberry Pi OS Lite (Bookworm or Trixie), or uninstall it.

    sudo python3 deploy/install.py              # install or upgrade (safe to re-run)
    sudo python3 deploy/install.py --uninstall  # remove the service and the app, keep config and data
    sudo python3 deploy/install.py --uninstall --purge   # ... and config, data and the user

What it does, each step only if needed: installs the system packages the display needs,
creates the non-root user ``cheating-moth`` (groups video, render, input, audio, gpio, dialout
where they exist), creates the app's venv in /opt/cheating-moth and installs this checkout
into it, writes a default /etc/cheating-moth/config.toml (never overwrites one), creates
/var/lib/cheating-moth for the game logs and the leaderboard, and installs a systemd unit that
boots straight into the app on tty1 (KMS/DRM, no desktop), restarts it on a crash, reboots
after a crash loop and is fed a watchdog from the render loop. The unit is sandboxed (no
network, no capabilities, a read-only system but for the data folder, only the rig's devices):
``systemd-analyze security cheating-moth`` rates it about 1, against 9.2 without the sandbox.
The staff PIN is set afterwards with ``cheating-moth staff-pin`` (it is not in the config).

``--root DIR`` writes every file below DIR and runs no system command (it lists them instead):
how the tests check the installer without a Pi. DIR must be absolute and not / itself. Standard library only: it runs before the
venv exists.
"""

from __future__ import annotations

import argparse
import grp
import os
import pwd
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

USER = "cheating-moth"
GROUPS = ("video", "render", "input", "audio", "gpio", "dialout")
APT_PACKAGES = ("python3-venv", "python3-pip", "libdrm2", "libgbm1", "libegl1", "libgles2",
                "fonts-nanum", "alsa-utils", "polkitd")
SUPPORTED = ("bookworm", "trixie")
REPO = Path(__file__).resolve().parents[1]

DEFAULT_CONFIG = """\
# Cheating Moth rig: the café's settings. The installer writes this once and never overwrites it.
# Every key is optional; a wrong value is refused at start with a message naming it.

[rules]                     # house rules (README: Variants)
# guard-next-round = "rotate-left"   # or "keep"
# cockroach-racers = "everyone"      # or "others"
# cockroach-card = "number-only"     # or "chain"
# draw-when-playable = "only-if-stuck"   # or "allowed"
# top-tie = "shared-win"             # or "fewest-moths"

# [deck.spread]             # only if your printed deck spreads the numbers differently

[input]
backend = "auto"            # auto: the buzzer board, else the GPIO buttons, else keyboard seats
pins = "/etc/cheating-moth/pins.toml"   # your wiring: check it with 'cheating-moth doctor'

[staff]                     # the staff menu; set its PIN with 'sudo cheating-moth staff-pin'
# Holding the red Caught! button and seat 1's button together for combo-hold-ms opens the PIN
# keypad, typed with the seat buttons (the screen says how), or the menu itself if no PIN is set.
# combo-hold-ms = 5000
# combo = true              # false: the combination does nothing; the menu then opens only from
#                           # the PIN keypad (the touchscreen's Settings button, or F1/Tab on a
#                           # keyboard plugged into the Pi); with neither, stop the kiosk
#                           # (sudo systemctl stop cheating-moth) to change this file
"""


@dataclass(frozen=True)
class Layout:
    """Where everything goes, below ``root`` ("/" on a real install)."""

    root: Path

    def at(self, path: str) -> Path:
        return self.root / path.lstrip("/")

    @property
    def app(self) -> Path:
        return self.at("/opt/cheating-moth")

    @property
    def venv(self) -> Path:
        return self.app / "venv"

    @property
    def config(self) -> Path:
        return self.at("/etc/cheating-moth/config.toml")

    @property
    def data(self) -> Path:
        return self.at("/var/lib/cheating-moth")

    @property
    def unit(self) -> Path:
        return self.at("/etc/systemd/system/cheating-moth.service")

    @property
    def polkit(self) -> Path:
        return self.at("/etc/polkit-1/rules.d/50-cheating-moth.rules")

    @property
    def pins(self) -> Path:
        return self.at("/etc/cheating-moth/pins.toml")

    @property
    def pin_file(self) -> Path:
        """The staff PIN's hash (root and the kiosk's group only): ``cheating-moth staff-pin``."""
        return self.at("/etc/cheating-moth/staff-pin.toml")


POLKIT_RULE = """\
// Cheating Moth rig: the kiosk user may power the Pi off from the staff menu, nothing else.
polkit.addRule(function(action, subject) {
    if ((action.id == "org.freedesktop.login1.power-off" ||
         action.id == "org.freedesktop.login1.power-off-multiple-sessions") &&
        subject.user == "cheating-moth") {
        return polkit.Result.YES;
    }
});
"""


#: Device classes the rig opens, as the kernel names them in /proc/devices (systemd's
#: ``char-NAME``): the display (KMS/DRM), touch and keyboards, the GPIO chips (the buttons'
#: build), the buzzer board's USB serial port and ALSA sound. The console tty1 is allowed by path.
DEVICES = ("char-drm rw", "char-input r", "char-gpiochip rw", "char-ttyACM rw", "char-alsa rw",
           "/dev/tty1 rw")


def unit_text(groups: tuple[str, ...] = GROUPS) -> str:
    """The systemd unit (paths as on the Pi, whatever ``--root`` is). ``groups``: the device
    groups the service keeps (only groups that exist: systemd refuses to start a unit that names
    a missing one)."""
    devices = "\n".join(f"DeviceAllow={d}" for d in DEVICES)
    supplementary = f"SupplementaryGroups={' '.join(groups)}\n" if groups else ""
    return f"""\
[Unit]
Description=Cheating Moth buzzer rig (kiosk)
Documentation=file:///opt/cheating-moth/README.md
After=sound.target systemd-user-sessions.service
Wants=sound.target
Conflicts=getty@tty1.service
# Five crashes within five minutes: reboot the Pi rather than show a dead screen.
StartLimitIntervalSec=300
StartLimitBurst=5
StartLimitAction=reboot

[Service]
Type=notify
NotifyAccess=main
User={USER}
Group={USER}
{supplementary}WorkingDirectory=/var/lib/cheating-moth
Environment=SDL_VIDEODRIVER=kmsdrm SDL_AUDIODRIVER=alsa PYTHONUNBUFFERED=1
ExecStart=/opt/cheating-moth/venv/bin/cheating-moth kiosk --config /etc/cheating-moth/config.toml --data /var/lib/cheating-moth
Restart=always
RestartSec=2
# The kiosk ends with 143 on SIGTERM (systemctl stop, shutdown): a clean stop, not a failure.
SuccessExitStatus=143
# The render loop sends WATCHDOG=1 every few seconds; a frozen app is killed and restarted.
WatchdogSec=10
TTYPath=/dev/tty1
TTYReset=yes
TTYVHangup=yes
StandardInput=tty-force
StandardOutput=journal
StandardError=journal

# Sandbox (systemd-analyze security: 9.2 without it). The kiosk reads its code, config and
# PIN file, writes only the data folder (its home: also Mesa's and fontconfig's caches), talks
# to systemd (sd_notify, poweroff over D-Bus) on Unix sockets and to udev over netlink, and
# opens only the devices below. No network, no capabilities, no privilege gain.
NoNewPrivileges=yes
CapabilityBoundingSet=
AmbientCapabilities=
ProtectSystem=strict
ReadWritePaths=/var/lib/cheating-moth
# The count of wrong staff PINs when the SD card cannot take it (game/app/pinwait.py): in RAM,
# private to the kiosk, kept when it restarts (else a restart would clear the PIN back-off).
RuntimeDirectory=cheating-moth
RuntimeDirectoryMode=0700
RuntimeDirectoryPreserve=restart
ProtectHome=yes
PrivateTmp=yes
PrivateMounts=yes
UMask=0077
DevicePolicy=closed
{devices}
RestrictAddressFamilies=AF_UNIX AF_NETLINK
IPAddressDeny=any
ProtectKernelTunables=yes
ProtectKernelModules=yes
ProtectKernelLogs=yes
ProtectControlGroups=yes
ProtectClock=yes
ProtectHostname=yes
ProtectProc=invisible
LockPersonality=yes
# ALSA playback through SDL needs no realtime scheduling (the user never had the right to it).
RestrictRealtime=yes
RestrictNamespaces=yes
RestrictSUIDSGID=yes
RemoveIPC=yes
KeyringMode=private
SystemCallArchitectures=native
# Refused calls fail with EPERM rather than killing the kiosk mid-game.
SystemCallFilter=@system-service
SystemCallFilter=~@privileged @resources @mount @swap @reboot @raw-io @module @obsolete @cpu-emulation @debug
SystemCallErrorNumber=EPERM

[Install]
WantedBy=multi-user.target
"""


@dataclass
class Installer:
    layout: Layout
    dry: bool                                   # --root: plan system commands, do not run them
    planned: list[str] = field(default_factory=list)

    def say(self, text: str) -> None:
        print(text, flush=True)

    def run(self, *command: str) -> None:
        line = shlex.join(command)
        if self.dry:
            self.planned.append(line)
            return
        self.say(f"$ {line}")
        subprocess.run(command, check=True)

    # --- install ---------------------------------------------------------------------------
    def install(self) -> None:
        L = self.layout
        self.check_os()
        self.run("apt-get", "install", "-y", "--no-install-recommends", *APT_PACKAGES)
        self.ensure_user()
        L.data.mkdir(parents=True, exist_ok=True)
        L.config.parent.mkdir(parents=True, exist_ok=True)
        if L.config.exists():
            self.say(f"kept {L.config} (your settings)")
        else:
            L.config.write_text(DEFAULT_CONFIG)
            self.say(f"wrote {L.config}")
        if not L.pins.exists() and (REPO / "hardware" / "pins.toml").exists():
            shutil.copy2(REPO / "hardware" / "pins.toml", L.pins)
            self.say(f"wrote {L.pins} (the default pin map: edit it to match your wiring)")
        self.install_app()
        L.unit.parent.mkdir(parents=True, exist_ok=True)
        L.unit.write_text(unit_text(tuple(g for g in GROUPS if self.dry or _group_exists(g))))
        self.say(f"wrote {L.unit}")
        L.polkit.parent.mkdir(parents=True, exist_ok=True)
        L.polkit.write_text(POLKIT_RULE)
        self.say(f"wrote {L.polkit} (the staff menu may power off)")
        self.run("chown", "-R", f"{USER}:{USER}", "/var/lib/cheating-moth")
        # Game logs and the count of wrong staff PINs are the kiosk's alone.
        L.data.chmod(0o750)
        self.run("systemctl", "daemon-reload")
        self.run("systemctl", "enable", "cheating-moth.service")
        self.say("installed: the rig starts on the next boot (or now: sudo systemctl start cheating-moth)")
        if not L.pin_file.exists():
            self.say("set the staff menu's PIN (6 digits recommended): "
                     "sudo /opt/cheating-moth/venv/bin/cheating-moth staff-pin")

    def check_os(self) -> None:
        release = self.layout.at("/etc/os-release")
        codename = ""
        if release.exists():
            for line in release.read_text().splitlines():
                if line.startswith("VERSION_CODENAME="):
                    codename = line.split("=", 1)[1].strip('"')
        if codename not in SUPPORTED:
            self.say(f"warning: this is {codename or 'an unknown system'!s}; the installer is made for "
                     f"Raspberry Pi OS Lite {' or '.join(SUPPORTED)}")

    def ensure_user(self) -> None:
        if self.dry or not _user_exists(USER):
            self.run("useradd", "--system", "--home-dir", "/var/lib/cheating-moth", "--create-home",
                     "--shell", "/usr/sbin/nologin", "--user-group", USER)
        for group in GROUPS:
            if self.dry or _group_exists(group):
                self.run("usermod", "--append", "--groups", group, USER)

    def install_app(self) -> None:
        L = self.layout
        L.app.mkdir(parents=True, exist_ok=True)
        shutil.copy2(REPO / "README.md", L.app / "README.md")
        python = L.venv / "bin" / "python"
        if not self.dry and not python.exists():
            self.run(sys.executable, "-m", "venv", str(L.venv))
        self.run(str(L.venv / "bin" / "pip"), "install", "--quiet", "--upgrade", str(REPO))

    # --- uninstall -------------------------------------------------------------------------
    def uninstall(self, purge: bool) -> None:
        L = self.layout
        self.run("systemctl", "disable", "--now", "cheating-moth.service")
        for path in (L.unit, L.polkit):
            if path.exists():
                path.unlink()
                self.say(f"removed {path}")
        if L.app.exists():
            shutil.rmtree(L.app)
            self.say(f"removed {L.app}")
        self.run("systemctl", "daemon-reload")
        if purge:
            for path in (L.config.parent, L.data):
                if path.exists():
                    shutil.rmtree(path)
                    self.say(f"removed {path}")
            if self.dry or _user_exists(USER):
                self.run("userdel", USER)
        else:
            self.say(f"kept {L.config} and {L.data} (add --purge to remove them)")


def _user_exists(name: str) -> bool:
    try:
        pwd.getpwnam(name)
    except KeyError:
        return False
    return True


def _group_exists(name: str) -> bool:
    try:
        grp.getgrnam(name)
    except KeyError:
        return False
    return True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Install the Cheating Moth rig as a kiosk service.")
    parser.add_argument("--root", metavar="DIR", help="write below DIR and run no system command")
    parser.add_argument("--uninstall", action="store_true", help="remove the service and the app")
    parser.add_argument("--purge", action="store_true", help="with --uninstall: also config, data, user")
    args = parser.parse_args(argv)
    if args.purge and not args.uninstall:
        parser.error("--purge goes with --uninstall")
    if args.root is None and os.geteuid() != 0:
        print("install.py: run it as root (sudo python3 deploy/install.py), or with --root DIR to "
              "try it in a folder", file=sys.stderr)
        return 2
    if args.root is not None and (not Path(args.root).is_absolute() or Path(args.root).resolve() == Path("/")):
        # An empty root once meant the real / with no command run: a half install over the system.
        print(f"install.py: --root {args.root!r} is not a folder to try the installer in: give an "
              "absolute path other than / (for example --root /tmp/rig), or leave --root out and run "
              "it with sudo to install for real", file=sys.stderr)
        return 2
    installer = Installer(Layout(Path(args.root or "/")), dry=args.root is not None)
    if args.uninstall:
        installer.uninstall(args.purge)
    else:
        installer.install()
    if installer.planned:
        print("would run:\n  " + "\n  ".join(installer.planned))
    return 0


if __name__ == "__main__":
    sys.exit(main())
