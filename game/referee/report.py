"""A referee session's report: one self-contained HTML file the group can keep.

Inline SVG drawn here (no script, no external file, no font download): each race's reaction
times as dots per player, each player's times as a box (quartiles, median, whiskers to the
extremes), and wins and losses as bars; then the statistics table. Every name and text is
HTML-escaped. Words come in the session's language; times are milliseconds after the start
signal with the language's decimal mark. Pure: the caller passes the date text (the core reads
no clock).

Where the screens already name a thing (the product, a statistics column, the start signal's
axis, a seat) the report takes the catalog's word (game/i18n), so the report and the screen
never disagree and a translator changes a term in one place. The report's own words (its
headings, tooltips, footer) are below, written with the catalogs' placeholders and
``{n|one|many}`` forms, and set by the same rules as the screens' sentences (plural agreement,
French spacing, Korean particles).
"""

from __future__ import annotations

import html
import re
from collections.abc import Mapping, Sequence

from ..i18n import LANGUAGES
from ..i18n.lookup import catalog, decimal, fill
from ..i18n.particles import resolve as resolve_particles
from ..i18n.plural import choose as choose_forms
from ..i18n.typography import typeset
from .race import RefereeResult
from .stats import PlayerStats, quartile_ns, session_stats

#: The screen's seat colours (game/app/ui/theme.py SEATS; the core cannot import the app), so
#: a player has the same colour on the table and in the report.
SEAT_COLOURS = ("#f5a623", "#4aa3f0", "#5cc26b", "#d45fd0", "#f0643c", "#3cc8c0", "#e8d84a", "#b096f0")

#: The report's word -> the catalog key the screens show it by.
CATALOG_WORDS: dict[str, str] = {
    "product": "ui_title", "player": "ui_col_player", "races": "ui_col_races", "wins": "ref_tally",
    "losses": "ref_race_losses", "best": "ref_best", "median": "ref_median", "spread": "ref_spread",
    "false_starts": "ref_false_starts", "ms": "ui_axis", "seat": "ui_seat", "race_n": "ref_races",
}

#: The report's own words. ``{product}``, ``{spread}``, ``{median}`` … are the catalog's words
#: above; ``{median_mid}`` is the median's word inside a sentence (lower case where the
#: language writes it so). A sentence that names the start signal uses the catalog's flashed
#: word (tests/referee/test_report_words.py).
OWN_WORDS: dict[str, dict[str, str]] = {
    "en": {
        "title": "Referee session", "per_race": "Reaction time in each race",
        "per_player": "Reaction times per player", "wins_chart": "Wins and losses", "race": "Race",
        "head_ms": "{what} (ms)", "head_spread": "{spread} (IQR, ms)",
        "no_times": "No reaction times: GO came from the table, or nobody pressed after GO.",
        "games": "{count|Game|Games}: {names}",
        "footer": "Judged by the {product} rig from hardware timestamps. "
                  "{spread}: the interquartile range (the middle half of a player's times).",
        "summary": "{races} {races|race|races}, {players} {players|player|players}",
        "tip_race": "{name}: {ms} ms ({race_n})", "tip_median": "{name}: {median_mid} {ms} ms",
        "tip_wins": "{name}: {count} {count|win|wins}", "tip_losses": "{name}: {count} {count|loss|losses}",
    },
    "de": {
        "title": "Schiedsrichter-Runde", "per_race": "Reaktionszeit in jedem Rennen",
        "per_player": "Reaktionszeiten je Person", "wins_chart": "Siege und Niederlagen", "race": "Rennen",
        "head_ms": "{what} (ms)", "head_spread": "{spread} (IQR, ms)",
        "no_times": "Keine Reaktionszeiten: Das LOS kam vom Tisch, oder niemand hat nach LOS gedrückt.",
        "games": "{count|Spiel|Spiele}: {names}",
        "footer": "Entschieden von „{product}“ nach den Zeitstempeln der Hardware. "
                  "{spread}: Interquartilsabstand (die mittlere Hälfte der Zeiten).",
        "summary": "{races} Rennen, {players} {players|Person|Personen}",
        "tip_race": "{name}: {ms} ms ({race_n})", "tip_median": "{name}: {median_mid} {ms} ms",
        "tip_wins": "{name}: {count} {count|Sieg|Siege}",
        "tip_losses": "{name}: {count} {count|Niederlage|Niederlagen}",
    },
    "fr": {
        "title": "Séance d’arbitrage", "per_race": "Temps de réaction à chaque course",
        "per_player": "Temps de réaction par joueur", "wins_chart": "Victoires et défaites", "race": "Course",
        "head_ms": "{what} (ms)", "head_spread": "{spread} (EIQ, ms)",
        "no_times": "Aucun temps de réaction : le TOP venait de la table, ou personne n’a appuyé après le TOP.",
        "games": "{count|Jeu|Jeux} : {names}",
        "footer": "Arbitrage : {product}, d’après les horodatages du matériel. "
                  "{spread} : écart interquartile (la moitié centrale des temps).",
        "summary": "{races} {races|course|courses}, {players} {players|joueur|joueurs}",
        "tip_race": "{name} : {ms} ms ({race_n})", "tip_median": "{name} : {median_mid} {ms} ms",
        "tip_wins": "{name} : {count} {count|victoire|victoires}",
        "tip_losses": "{name} : {count} {count|défaite|défaites}",
    },
    "es": {
        "title": "Sesión de arbitraje", "per_race": "Tiempo de reacción en cada carrera",
        "per_player": "Tiempos de reacción por jugador", "wins_chart": "Victorias y derrotas", "race": "Carrera",
        "head_ms": "{what} (ms)", "head_spread": "{spread}, RIC (ms)",
        "no_times": "Sin tiempos de reacción: el ¡YA! lo dio la mesa, o nadie pulsó después del ¡YA!",
        "games": "{count|Juego|Juegos}: {names}",
        "footer": "Arbitrado por {product} según las marcas de tiempo del hardware. "
                  "{spread}: rango intercuartílico (la mitad central de los tiempos).",
        "summary": "{races} {races|carrera|carreras}, {players} {players|jugador|jugadores}",
        "tip_race": "{name}: {ms} ms ({race_n})", "tip_median": "{name}: {median_mid} {ms} ms",
        "tip_wins": "{name}: {count} {count|victoria|victorias}",
        "tip_losses": "{name}: {count} {count|derrota|derrotas}",
    },
    "ko": {
        # Parentheses sit on their word (docs/i18n/ko.md); counters on their number ("3승").
        "title": "심판 세션", "per_race": "경주별 반응 시간", "per_player": "사람별 반응 시간",
        "wins_chart": "승패", "race": "경주", "head_ms": "{what}(ms)", "head_spread": "{spread}(IQR, ms)",
        "no_times": "반응 시간이 없습니다. 출발 신호를 테이블이 주었거나, 출발 후 아무도 누르지 않았습니다.",
        "games": "게임: {names}",
        "footer": "{product} 장치가 하드웨어 타임스탬프로 판정했습니다. "
                  "{spread}은(는) 사분위 범위(시간의 가운데 절반)입니다.",
        "summary": "경주 {races}회, {players}명",
        "tip_race": "{race_n}, {name}: {ms} ms", "tip_median": "{name}: {median_mid} {ms} ms",
        "tip_wins": "{name}: {count}승", "tip_losses": "{name}: {count}패",
    },
}

#: Languages that write a common noun in lower case inside a sentence ("Ali: median 210 ms");
#: German keeps a noun's capital, Korean has none.
_LOWER_IN_SENTENCE = ("en", "fr", "es")


def _mid_sentence(lang: str, word: str) -> str:
    if lang in _LOWER_IN_SENTENCE and word[:1].isupper() and not word[1:2].isupper():
        return word[0].lower() + word[1:]
    return word


def _words(lang: str) -> dict[str, str]:
    table = catalog(lang)
    words = {word: table[key] for word, key in CATALOG_WORDS.items()}
    return words | {"median_mid": _mid_sentence(lang, words["median"])} | OWN_WORDS[lang]


#: Every word of the report by language, the catalog's and its own (templates as written).
WORDS: dict[str, dict[str, str]] = {lang: _words(lang) for lang in LANGUAGES}


#: Parameters shown exactly as typed (a player's name, the games' names): the language's
#: typography sets the words around them and never inside them (a French space before the
#: ";" of "Dana;x" would change the name).
_AS_TYPED = ("name", "names")
_TYPED = re.compile("\ue000" r"(\d)" "\ue001")     # a private-use mark holding a typed value's place


def say(lang: str, key: str, **params: str | int) -> str:
    """The report's word ``key`` in ``lang`` as shown: forms agreeing with their numbers, the
    catalog's words and ``params`` filled in, Korean particles chosen, set in the language's
    typography (French spaces before : ; ! ?, figures kept with their units)."""
    words = WORDS[lang]
    typed = [str(params[name]) for name in _AS_TYPED if name in params]
    values: dict[str, str | int] = {word: words[word] for word in (*CATALOG_WORDS, "median_mid")}
    values |= params
    values |= {name: f"\ue000{index}\ue001" for index, name in enumerate(n for n in _AS_TYPED if n in params)}
    filled = fill(lang, choose_forms(lang, words[key], values), values)
    shown = typeset(lang, resolve_particles(filled) if lang == "ko" else filled)
    # One pass: a typed value is never read again (a name holding the mark stays as typed).
    return _TYPED.sub(lambda mark: typed[int(mark.group(1))], shown)


_W, _H = 720, 280          # a chart's size in SVG units (the page scales it to its width)
_LEFT, _RIGHT, _TOP, _BOTTOM = 64, 16, 16, 40


def _ms(ns: int | None, lang: str) -> str:
    """Whole ns as ms with one decimal (rounded half up), or a dash."""
    if ns is None:
        return "–"
    tenths = (ns + 50_000) // 100_000
    return decimal(lang, f"{tenths // 10}.{tenths % 10}")


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
    """Dots: each decided race's valid presses, a colour per player, ms after the signal."""
    runs = [r for r in results if r.decided]
    times = [p.reaction_ns for r in runs for p in r.places if p.reaction_ns is not None]
    if not times:
        return f'<p class="none">{_e(say(lang, "no_times"))}</p>'
    top = _nice_top(max(times))
    body = _y_axis(top, lang, say(lang, "ms"))
    span = _W - _LEFT - _RIGHT
    step = span / max(len(runs), 1)
    for index, run in enumerate(runs):
        x = _LEFT + step * (index + 0.5)
        if len(runs) <= 30 or index % (len(runs) // 30 + 1) == 0:
            body.append(f'<text x="{_f(x)}" y="{_H - _BOTTOM + 16}" text-anchor="middle">{index + 1}</text>')
        for p in run.places:
            if p.reaction_ns is None or p.seat not in seats:
                continue
            label = say(lang, "tip_race", name=names[p.seat], ms=_ms(p.reaction_ns, lang),
                        race_n=say(lang, "race_n", number=index + 1))
            body.append(f'<circle cx="{_f(x)}" cy="{_f(_y(p.reaction_ns, top))}" r="5" fill="{_colour(p.seat)}">'
                        f"<title>{_e(label)}</title></circle>")
    body.append(f'<text x="{_f(_LEFT + span / 2)}" y="{_H - 6}" text-anchor="middle">{_e(say(lang, "race"))}</text>')
    return _svg(say(lang, "per_race"), body)


def per_player_chart(stats: Sequence[PlayerStats], names: Mapping[int, str], lang: str) -> str:
    """A box per player: Q1 to Q3, the median as a bar, whiskers to the best and the slowest."""
    timed = [s for s in stats if s.reactions_ns]
    if not timed:
        return f'<p class="none">{_e(say(lang, "no_times"))}</p>'
    top = _nice_top(max(max(s.reactions_ns) for s in timed))
    body = _y_axis(top, lang, say(lang, "ms"))
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
        tip = say(lang, "tip_median", name=names[s.seat], ms=_ms(s.median_ns, lang))
        body.append(f'<rect x="{_f(x - half)}" y="{_f(_y(q3, top))}" width="{_f(2 * half)}" '
                    f'height="{_f(max(_y(q1, top) - _y(q3, top), 1))}" fill="{colour}" class="box">'
                    f"<title>{_e(tip)}</title></rect>")
        body.append(f'<line x1="{_f(x - half)}" x2="{_f(x + half)}" y1="{_f(_y(med, top))}" '
                    f'y2="{_f(_y(med, top))}" class="median"/>')
        for ns in s.reactions_ns:
            body.append(f'<circle cx="{_f(x + half + 8)}" cy="{_f(_y(ns, top))}" r="3" fill="{colour}"/>')
    return _svg(say(lang, "per_player"), body)


def wins_chart(stats: Sequence[PlayerStats], names: Mapping[int, str], lang: str) -> str:
    """Bars per player: wins in the player's colour, losses hatched grey beside them."""
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
        for offset, count, colour, tip in ((slot / 2 - width, s.wins, _colour(s.seat), "tip_wins"),
                                           (slot / 2, s.losses, "#9a9a9a", "tip_losses")):
            height = (_H - _TOP - _BOTTOM) * count / top
            body.append(f'<rect x="{_f(x + offset)}" y="{_f(_H - _BOTTOM - height)}" width="{_f(width)}" '
                        f'height="{_f(height)}" fill="{colour}">'
                        f"<title>{_e(say(lang, tip, name=names[s.seat], count=count))}</title></rect>")
        body.append(f'<text x="{_f(x + slot / 2)}" y="{_H - _BOTTOM + 16}" text-anchor="middle">'
                    f"{_e(_short(names[s.seat]))}</text>")
    return _svg(say(lang, "wins_chart"), body)


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
    return {seat: given.get(seat) or say(lang, "seat", seat=seat + 1) for seat in seats}


def session_report(results: Sequence[RefereeResult], names: Mapping[int, str] | Sequence[str], lang: str,
                   *, title: str | None = None, date_text: str = "",
                   preset_names: Mapping[str, str] | None = None) -> str:
    """The session as one HTML document (a str; write it as UTF-8). ``names`` by seat (a list
    or a mapping; a seat without one is "Seat n", counted from 1), ``lang`` one of the five,
    ``title`` defaults to the language's "Referee session", ``date_text`` is shown as given,
    ``preset_names`` (id -> name in ``lang``) lists the games played."""
    if lang not in OWN_WORDS:
        raise ValueError(f"language {lang!r} is not available: use one of {', '.join(LANGUAGES)}")
    stats = session_stats(results)
    seats = [s.seat for s in stats]
    who = _names(seats, names, lang)
    decided = [r for r in results if r.decided]
    heading = title or say(lang, "title")
    sub = [say(lang, "summary", races=len(decided), players=len(seats))]
    if date_text:
        sub.insert(0, date_text)
    played = sorted({r.preset_id for r in decided})
    if played:
        named = ", ".join((preset_names or {}).get(pid, pid) for pid in played)
        sub.append(say(lang, "games", count=len(played), names=named))
    rows = []
    for s in stats:
        cells = [str(s.races), str(s.wins), str(s.losses), _ms(s.best_ns, lang), _ms(s.median_ns, lang),
                 _ms(s.iqr_ns, lang), str(s.false_starts)]
        rows.append(f'<tr><td><span class="dot" style="background:{_colour(s.seat)}"></span>{_e(who[s.seat])}</td>'
                    + "".join(f"<td>{_e(c)}</td>" for c in cells) + "</tr>")
    heads = [say(lang, "player"), say(lang, "races"), say(lang, "wins"), say(lang, "losses"),
             say(lang, "head_ms", what=WORDS[lang]["best"]), say(lang, "head_ms", what=WORDS[lang]["median"]),
             say(lang, "head_spread"), say(lang, "false_starts")]
    return "\n".join([
        "<!DOCTYPE html>",
        f'<html lang="{lang}"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{_e(heading)}</title><style>{_STYLE}</style></head><body>",
        f"<h1>{_e(heading)}</h1><p class=\"sub\">{_e(' · '.join(sub))}</p>",
        "<table><thead><tr>" + "".join(f"<th>{_e(h)}</th>" for h in heads) + "</tr></thead>",
        "<tbody>" + "".join(rows) + "</tbody></table>",
        f"<h2>{_e(say(lang, 'per_race'))}</h2>", per_race_chart(decided, seats, who, lang),
        f"<h2>{_e(say(lang, 'per_player'))}</h2>", per_player_chart(stats, who, lang),
        f"<h2>{_e(say(lang, 'wins_chart'))}</h2>", wins_chart(stats, who, lang),
        f"<footer>{_e(say(lang, 'footer'))}</footer>",
        "</body></html>",
        "",
    ])
