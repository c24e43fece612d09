"""A referee session's report written to a file: the HTML of :func:`game.referee.report.session_report`
(tables and SVG charts in one self-contained file, for the group to keep), named after the
preset, in the screen's language."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from ...referee.report import session_report
from ...referee.session import Session
from ..writefile import check_target, replace_file


def write_report(path: str | Path, session: Session, names: tuple[str, ...], lang: str,
                 when: datetime | None = None) -> Path:
    """Write ``session``'s report to ``path`` (through a file beside it, then renamed: a report
    half written is never left under its name); returns the path. A FIFO, a device, a folder or
    a symbolic link at ``path``, or a missing folder, is refused (game/app/writefile.py's
    :class:`BadTarget`, an ``OSError``), as is any ``OSError`` of the file system."""
    preset = session.preset
    date_text = when.strftime("%Y-%m-%d %H:%M") if when is not None else ""
    html = session_report(session.results, names, lang, title=preset.name(lang), date_text=date_text,
                          preset_names={preset.id: preset.name(lang)})
    return replace_file(path, html.encode("utf-8"), "the report", REPORT_INSTEAD)


#: What to do about a refused report name (the end of the refusal's sentence).
REPORT_INSTEAD = "give --report a new file name or an HTML file to replace"


def check_report_target(path: str | Path) -> None:
    """:class:`BadTarget` (or ``OSError``) now if ``path`` could not take the report later:
    said before a session is played, not after it."""
    check_target(path, "the report", REPORT_INSTEAD)
