"""Race documents for the judge's file format, shared by the parser and the CLI tests."""

from __future__ import annotations

from typing import Any

MS = 1_000_000
GO = 3_000 * MS


def race_doc(edges: list[dict[str, Any]], /, **changes: Any) -> dict[str, Any]:
    """A 4-player slap (seat 0 active) armed at 1 s, GO at 3 s, judged at GO + 500 ms;
    ``changes`` override any field, ``edges`` included."""
    doc: dict[str, Any] = {
        "kind": "slap",
        "players": 4,
        "active": 0,
        "clock": "monotonic",
        "resolution_ns": 1000,
        "armed_t_ns": 1_000 * MS,
        "go_t_ns": GO,
        "timeout_ms": 3000,
        "now_t_ns": GO + 500 * MS,
        "edges": edges,
    }
    doc.update(changes)
    return doc
