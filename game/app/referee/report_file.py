"""A referee session's report written to a file: the HTML of :func:`game.referee.report.session_report`
(tables and SVG charts in one self-contained file, for the group to keep), named after the
preset, in the screen's language."""

from __future__ import annotations

import os
from datetime import datetime
from pathlib import Path

from ...referee.report import session_report
from ...referee.session import Session


def write_report(path: str | Path, session: Session, names: tuple[str, ...], lang: str,
                 when: datetime | None = None) -> Path:
    """Write ``session``'s report to ``path`` (through a file beside it, then renamed: a report
    half written is never left under its name); returns the path. Raises ``OSError`` as the
    file system does."""
    preset = session.preset
    date_text = when.strftime("%Y-%m-%d %H:%M") if when is not None else ""
    html = session_report(session.results, names, lang, title=preset.name(lang), date_text=date_text,
                          preset_names={preset.id: preset.name(lang)})
    target = Path(path)
    part = target.with_name(target.name + ".part")
    part.write_text(html, encoding="utf-8")
    os.replace(part, target)
    return target
