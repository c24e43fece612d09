"""A referee session's report: one self-contained HTML file the group can keep.

Inline SVG drawn here (no script, no external file, no font download): each race's reaction
times as dots per player, each player's times as a box (quartiles, median, whiskers to the
extremes), and wins and losses as bars; then the statistics table. Every name and text is
HTML-escaped. Words come in the session's language; times are milliseconds after GO with the
language's decimal mark. Pure: the caller passes the date text (the core reads no clock).

The report's words live here rather than in the screen catalogs: it is a document of its own
(headings, axis labels), and a template with placeholders would only add a layer.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence

from ..i18n import LANGUAGES
from .race import RefereeResult
from .stats import PlayerStats, quartile_ns, session_stats

#: The screen's seat colours (game/app/ui/theme.py SEATS; the core cannot import the app), so
#: a player has the same colour on the table and in the report.
SEAT_COLOURS = ("#f5a623", "#4aa3f0", "#5cc26b", "#d45fd0", "#f0643c", "#3cc8c0", "#e8d84a", "#b096f0")

WORDS: dict[str, dict[str, str]] = {
    "en": {
        "title": "Referee session", "player": "Player", "races": "Races", "wins": "Wins", "losses": "Losses",
        "best": "Best", "median": "Median", "spread": "Spread (IQR)", "false_starts": "False starts",
        "per_race": "Reaction time in each race", "per_player": "Reaction times per player",
        "wins_chart": "Wins and losses", "race": "Race", "ms": "ms after GO", "seat": "Seat {n}",
        "no_times": "No reaction times: GO came from the table, or nobody pressed after GO.",
        "games": "Games", "footer": "Judged by the Cheating Moth rig from hardware timestamps. "
        "Spread: interquartile range (the middle half of a player's times).",
        "summary": "{races} races, {players} players",
    },
    "de": {
        "title": "Schiedsrichter-Runde", "player": "Spieler", "races": "Rennen", "wins": "Siege",
        "losses": "Niederlagen", "best": "Bestzeit", "median": "Median", "spread": "Streuung (IQR)",
        "false_starts": "Fehlstarts", "per_race": "Reaktionszeit in jedem Rennen",
        "per_player": "Reaktionszeiten je Spieler", "wins_chart": "Siege und Niederlagen", "race": "Rennen",
        "ms": "ms nach GO", "seat": "Sitz {n}",
        "no_times": "Keine Reaktionszeiten: GO kam vom Tisch, oder niemand drückte nach GO.",
        "games": "Spiele", "footer": "Entschieden von der Cheating-Moth-Anlage nach Hardware-Zeitstempeln. "
        "Streuung: Interquartilsabstand (die mittlere Hälfte der Zeiten).",
        "summary": "{races} Rennen, {players} Spieler",
    },
    "fr": {
        "title": "Séance d’arbitrage", "player": "Joueur", "races": "Courses", "wins": "Victoires",
        "losses": "Défaites", "best": "Meilleur", "median": "Médiane", "spread": "Dispersion (EIQ)",
        "false_starts": "Faux départs", "per_race": "Temps de réaction à chaque course",
        "per_player": "Temps de réaction par joueur", "wins_chart": "Victoires et défaites", "race": "Course",
        "ms": "ms après GO", "seat": "Siège {n}",
        "no_times": "Aucun temps de réaction : le GO venait de la table, ou personne n’a appuyé après GO.",
        "games": "Jeux", "footer": "Arbitré par le boîtier Cheating Moth d’après les horodatages matériels. "
        "Dispersion : écart interquartile (la moitié centrale des temps).",
        "summary": "{races} courses, {players} joueurs",
    },
    "es": {
        "title": "Sesión de arbitraje", "player": "Jugador", "races": "Carreras", "wins": "Victorias",
        "losses": "Derrotas", "best": "Mejor", "median": "Mediana", "spread": "Dispersión (RIC)",
        "false_starts": "Salidas en falso", "per_race": "Tiempo de reacción en cada carrera",
        "per_player": "Tiempos de reacción por jugador", "wins_chart": "Victorias y derrotas", "race": "Carrera",
        "ms": "ms tras GO", "seat": "Asiento {n}",
        "no_times": "Sin tiempos de reacción: el GO vino de la mesa, o nadie pulsó tras GO.",
        "games": "Juegos", "footer": "Arbitrado por el equipo Cheating Moth con marcas de tiempo del hardware. "
        "Dispersión: rango intercuartílico (la mitad central de los tiempos).",
        "summary": "{races} carreras, {players} jugadores",
    },
    "ko": {
        "title": "심판 세션", "player": "플레이어", "races": "경주", "wins": "승", "losses": "패",
        "best": "최고", "median": "중앙값", "spread": "산포 (IQR)", "false_starts": "부정 출발",
        "per_race": "경주별 반응 시간", "per_player": "플레이어별 반응 시간", "wins_chart": "승패",
        "race": "경주", "ms": "GO 후 ms", "seat": "{n}번 자리",
        "no_times": "반응 시간이 없습니다: GO가 테이블에서 왔거나 GO 후 아무도 누르지 않았습니다.",
        "games": "게임", "footer": "Cheating Moth 장치가 하드웨어 타임스탬프로 판정했습니다. "
        "산포: 사분위 범위 (시간의 가운데 절반).",
        "summary": "경주 {races}회, 플레이어 {players}명",
    },
}

_W, _H = 720, 280          # a chart's size in SVG units (the page scales it to its width)
_LEFT, _RIGHT, _TOP, _BOTTOM = 64, 16, 16, 40


def _decimal(lang: str, figure: str) -> str:
    return figure.replace(".", ",") if lang in ("de", "fr", "es") else figure


def _ms(ns: int | None, lang: str) -> str:
    """Whole ns as ms with one decimal (rounded half up), or a dash."""
    if ns is None:
        return "–"
    tenths = (ns + 50_000) // 100_000
    return _decimal(lang, f"{tenths // 10}.{tenths % 10}")


def _e(text: str) -> str:
    return html.escape(text, quote=True)


def _f(value: float) -> str:
    """An SVG coordinate: one decimal is finer than any screen."""
    return f"{value:.1f}".rstrip("0").rstrip(".")


def _colour(seat: int) -> str:
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def _nice_top(ns: int) -> int:
    """The y axis' top: the slowest time rounded up to 100 ms (50 ms below 200 ms)."""
    step = 50_000_000 if ns < 200_000_000 else 100_000_000
    return max(step, -(-ns // step) * step)


def _y_axis(top_ns: int, lang: str, label: str) -> list[str]:
    parts = []
    ticks = 5
    for i in range(ticks + 1):
        ns = top_ns * i // ticks
        y = _y(ns, top_ns)
        parts.append(f'<line x1="{_LEFT}" x2="{_W - _RIGHT}" y1="{_f(y)}" y2="{_f(y)}" class="grid"/>')
        parts.append(f'<text x="{_LEFT - 6}" y="{_f(y + 4)}" text-anchor="end">{ns // 1_000_000}</text>')
    parts.append(f'<text x="14" y="{_f(_TOP + (_H - _TOP - _BOTTOM) / 2)}" text-anchor="middle" '
                 f'transform="rotate(-90 14 {_f(_TOP + (_H - _TOP - _BOTTOM) / 2)})">{_e(label)}</text>')
    return parts


def _y(ns: int, top_ns: int) -> float:
    return _H - _BOTTOM - (_H - _TOP - _BOTTOM) * min(ns, top_ns) / top_ns


def _svg(title: str, body: Sequence[str]) -> str:
    return (f'<svg viewBox="0 0 {_W} {_H}" role="img" aria-label="{_e(title)}" xmlns="http://www.w3.org/2000/svg">'
            + "".join(body) + "</svg>")


def per_race_chart(results: Sequence[RefereeResult], seats: Sequence[int], names: Mapping[int, str],
                   lang: str) -> str:
    """Dots: each decided race's valid presses, a colour per player, ms after GO."""
    words = WORDS[lang]
    runs = [r for r in results if r.decided]
    times = [p.reaction_ns for r in runs for p in r.places if p.reaction_ns is not None]
    if not times:
        return f'<p class="none">{_e(words["no_times"])}</p>'
    top = _nice_top(max(times))
    body = _y_axis(top, lang, words["ms"])
    span = _W - _LEFT - _RIGHT
    step = span / max(len(runs), 1)
    for index, run in enumerate(runs):
        x = _LEFT + step * (index + 0.5)
        if len(runs) <= 30 or index % (len(runs) // 30 + 1) == 0:
            body.append(f'<text x="{_f(x)}" y="{_H - _BOTTOM + 16}" text-anchor="middle">{index + 1}</text>')
        for p in run.places:
            if p.reaction_ns is None or p.seat not in seats:
                continue
            label = f"{names[p.seat]}: {_ms(p.reaction_ns, lang)} ms ({words['race']} {index + 1})"
            body.append(f'<circle cx="{_f(x)}" cy="{_f(_y(p.reaction_ns, top))}" r="5" fill="{_colour(p.seat)}">'
                        f"<title>{_e(label)}</title></circle>")
    body.append(f'<text x="{_f(_LEFT + span / 2)}" y="{_H - 6}" text-anchor="middle">{_e(words["race"])}</text>')
    return _svg(words["per_race"], body)


def per_player_chart(stats: Sequence[PlayerStats], names: Mapping[int, str], lang: str) -> str:
    """A box per player: Q1 to Q3, the median as a bar, whiskers to the best and the slowest."""
    words = WORDS[lang]
    timed = [s for s in stats if s.reactions_ns]
    if not timed:
        return f'<p class="none">{_e(words["no_times"])}</p>'
    top = _nice_top(max(max(s.reactions_ns) for s in timed))
    body = _y_axis(top, lang, words["ms"])
    slot = (_W - _LEFT - _RIGHT) / len(stats)
    for index, s in enumerate(stats):
        x = _LEFT + slot * (index + 0.5)
        body.append(f'<text x="{_f(x)}" y="{_H - _BOTTOM + 16}" text-anchor="middle">'
                    f"{_e(_short(names[s.seat]))}</text>")
        if not s.reactions_ns:
            continue
        colour, half = _colour(s.seat), min(slot * 0.3, 40)
        lo, hi = min(s.reactions_ns), max(s.reactions_ns)
        q1, q3 = quartile_ns(s.reactions_ns, 1), quartile_ns(s.reactions_ns, 3)
        med = s.median_ns if s.median_ns is not None else q1
        body.append(f'<line x1="{_f(x)}" x2="{_f(x)}" y1="{_f(_y(lo, top))}" y2="{_f(_y(hi, top))}" class="whisker"/>')
        body.append(f'<rect x="{_f(x - half)}" y="{_f(_y(q3, top))}" width="{_f(2 * half)}" '
                    f'height="{_f(max(_y(q1, top) - _y(q3, top), 1))}" fill="{colour}" class="box">'
                    f"<title>{_e(names[s.seat])}: {_e(words['median'])} {_ms(s.median_ns, lang)} ms</title></rect>")
        body.append(f'<line x1="{_f(x - half)}" x2="{_f(x + half)}" y1="{_f(_y(med, top))}" '
                    f'y2="{_f(_y(med, top))}" class="median"/>')
        for ns in s.reactions_ns:
            body.append(f'<circle cx="{_f(x + half + 8)}" cy="{_f(_y(ns, top))}" r="3" fill="{colour}"/>')
    return _svg(words["per_player"], body)


def wins_chart(stats: Sequence[PlayerStats], names: Mapping[int, str], lang: str) -> str:
    """Bars per player: wins in the player's colour, losses hatched grey beside them."""
    words = WORDS[lang]
    top = max([1] + [max(s.wins, s.losses) for s in stats])
    body = []
    for i in range(top + 1):
        if top <= 10 or i % (top // 10 + 1) == 0:
            y = _H - _BOTTOM - (_H - _TOP - _BOTTOM) * i / top
            body.append(f'<line x1="{_LEFT}" x2="{_W - _RIGHT}" y1="{_f(y)}" y2="{_f(y)}" class="grid"/>')
            body.append(f'<text x="{_LEFT - 6}" y="{_f(y + 4)}" text-anchor="end">{i}</text>')
    slot = (_W - _LEFT - _RIGHT) / max(len(stats), 1)
    for index, s in enumerate(stats):
        x = _LEFT + slot * index
        width = min(slot * 0.35, 48)
        for offset, count, fill, what in ((slot / 2 - width, s.wins, _colour(s.seat), words["wins"]),
                                          (slot / 2, s.losses, "#9a9a9a", words["losses"])):
            height = (_H - _TOP - _BOTTOM) * count / top
            body.append(f'<rect x="{_f(x + offset)}" y="{_f(_H - _BOTTOM - height)}" width="{_f(width)}" '
                        f'height="{_f(height)}" fill="{fill}"><title>{_e(names[s.seat])}: {count} {_e(what)}</title>'
                        "</rect>")
        body.append(f'<text x="{_f(x + slot / 2)}" y="{_H - _BOTTOM + 16}" text-anchor="middle">'
                    f"{_e(_short(names[s.seat]))}</text>")
    return _svg(words["wins_chart"], body)


def _short(name: str, limit: int = 12) -> str:
    return name if len(name) <= limit else name[: limit - 1] + "…"


_STYLE = """
body{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;margin:2rem auto;max-width:52rem;padding:0 1rem;
color:#1d1d1f;background:#fafafa}
h1{margin-bottom:.2rem}p.sub{color:#555;margin-top:0}
svg{width:100%;height:auto;background:#fff;border:1px solid #ddd;border-radius:6px}
svg text{font-size:12px;fill:#333}.grid{stroke:#e6e6e6}.whisker{stroke:#555;stroke-width:1.5}
.median{stroke:#111;stroke-width:3}.box{stroke:#333;stroke-width:1;fill-opacity:.75}
table{border-collapse:collapse;width:100%;background:#fff}th,td{padding:.35rem .6rem;border-bottom:1px solid #e3e3e3;
text-align:right}th:first-child,td:first-child{text-align:left}
.dot{display:inline-block;width:.8em;height:.8em;border-radius:50%;margin-right:.4em;vertical-align:-.05em}
.none{color:#777;font-style:italic}footer{color:#777;font-size:.85rem;margin-top:2rem}
"""


def _names(seats: Sequence[int], names: Mapping[int, str] | Sequence[str], lang: str) -> dict[int, str]:
    given = dict(names) if isinstance(names, Mapping) else dict(enumerate(names))
    # Seats are 0-based in the core; a person counts from 1.
    return {seat: given.get(seat) or WORDS[lang]["seat"].format(n=seat + 1) for seat in seats}


def session_report(results: Sequence[RefereeResult], names: Mapping[int, str] | Sequence[str], lang: str,
                   *, title: str | None = None, date_text: str = "",
                   preset_names: Mapping[str, str] | None = None) -> str:
    """The session as one HTML document (a str; write it as UTF-8). ``names`` by seat (a list
    or a mapping; a seat without one is "Seat n", counted from 1), ``lang`` one of the five,
    ``title`` defaults to the language's "Referee session", ``date_text`` is shown as given,
    ``preset_names`` (id -> name in ``lang``) lists the games played."""
    if lang not in WORDS:
        raise ValueError(f"language {lang!r} is not available: use one of {', '.join(LANGUAGES)}")
    words = WORDS[lang]
    stats = session_stats(results)
    seats = [s.seat for s in stats]
    who = _names(seats, names, lang)
    decided = [r for r in results if r.decided]
    heading = title or words["title"]
    sub = words["summary"].format(races=len(decided), players=len(seats))
    if date_text:
        sub = f"{date_text} · {sub}"
    played = sorted({r.preset_id for r in decided})
    if played:
        named = ", ".join((preset_names or {}).get(pid, pid) for pid in played)
        sub += f" · {words['games']}: {named}"
    rows = []
    for s in stats:
        cells = [str(s.races), str(s.wins), str(s.losses), _ms(s.best_ns, lang), _ms(s.median_ns, lang),
                 _ms(s.iqr_ns, lang), str(s.false_starts)]
        rows.append(f'<tr><td><span class="dot" style="background:{_colour(s.seat)}"></span>{_e(who[s.seat])}</td>'
                    + "".join(f"<td>{_e(c)}</td>" for c in cells) + "</tr>")
    heads = [words["player"], words["races"], words["wins"], words["losses"], f"{words['best']} (ms)",
             f"{words['median']} (ms)", f"{words['spread']} (ms)", words["false_starts"]]
    return "\n".join([
        "<!DOCTYPE html>",
        f'<html lang="{lang}"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{_e(heading)}</title><style>{_STYLE}</style></head><body>",
        f"<h1>{_e(heading)}</h1><p class=\"sub\">{_e(sub)}</p>",
        "<table><thead><tr>" + "".join(f"<th>{_e(h)}</th>" for h in heads) + "</tr></thead>",
        "<tbody>" + "".join(rows) + "</tbody></table>",
        f"<h2>{_e(words['per_race'])}</h2>", per_race_chart(decided, seats, who, lang),
        f"<h2>{_e(words['per_player'])}</h2>", per_player_chart(stats, who, lang),
        f"<h2>{_e(words['wins_chart'])}</h2>", wins_chart(stats, who, lang),
        f"<footer>{_e(words['footer'])}</footer>",
        "</body></html>",
        "",
    ])
