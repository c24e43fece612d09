"""One updating progress line on stderr for long work, shown only to a person watching.

``simulate --games 1000`` takes tens of seconds; a terminal that sits silent that long looks
hung. The line is rewritten in place (carriage return) and only when the stream is a terminal:
a pipe, a file or a test's captured stderr gets nothing, so logs and JSON consumers are clean.
"""

from __future__ import annotations

from typing import TextIO


class Progress:
    """``done`` of ``total`` items, redrawn at each whole percent (at most 101 writes)."""

    def __init__(self, stream: TextIO, total: int, label: str) -> None:
        self._stream = stream
        self._total = max(total, 1)
        self._label = label
        self._shown = -1
        self.active = _is_terminal(stream)

    def update(self, done: int) -> None:
        if not self.active:
            return
        percent = done * 100 // self._total
        if percent == self._shown:
            return
        self._shown = percent
        self._stream.write(f"\r{self._label} {done}/{self._total} ({percent}%)")
        self._stream.flush()

    def finish(self) -> None:
        """Clear the line, so the results start on a clean one."""
        if self.active and self._shown >= 0:
            self._stream.write("\r\x1b[K")
            self._stream.flush()


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # no isatty, or a closed stream
        return False
