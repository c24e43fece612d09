"""Build the display font: a subset of NanumGothic Bold (SIL OFL 1.1) with Latin, Latin-1,
Latin Extended-A, punctuation, the 2,350 Hangul syllables of KS X 1001, the Hangul jamo and
every character in the five catalogs. The OFL reserves the name "NanumGothic" for the original,
so the subset is renamed "Moth Gothic". Needs fonttools and Debian's fonts-nanum (dev only):

    pip install fonttools && apt install fonts-nanum && python game/app/ui/fonts/make_font.py
"""

from __future__ import annotations

import sys
from pathlib import Path

from fontTools import subset  # type: ignore[import-untyped]
from fontTools.ttLib import TTFont  # type: ignore[import-untyped]

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[3]))

from game.i18n.lookup import catalog  # noqa: E402
from game.i18n import LANGUAGES, LANGUAGE_NAMES  # noqa: E402

SOURCE = Path("/usr/share/fonts/truetype/nanum/NanumGothicBold.ttf")
TARGET = HERE / "MothGothic-Bold.ttf"
FAMILY = "Moth Gothic"


def characters() -> set[str]:
    chars = {chr(c) for c in range(0x20, 0x7F)}
    chars |= {chr(c) for c in range(0xA0, 0x180)}          # Latin-1 and Latin Extended-A
    chars |= {chr(c) for c in range(0x2010, 0x2028)}        # dashes, quotes, ellipsis
    chars |= set("‰€→←↑↓×÷±·•№")
    chars |= {chr(c) for c in range(0x3131, 0x318F)}        # Hangul compatibility jamo
    for c in range(0xAC00, 0xD7A4):                         # KS X 1001 syllables only
        try:
            chr(c).encode("euc-kr")
        except UnicodeEncodeError:
            continue
        chars.add(chr(c))
    for lang in LANGUAGES:
        for template in catalog(lang).values():
            chars |= set(template)
    chars |= set("".join(LANGUAGE_NAMES.values()))
    return chars


def main() -> int:
    font = TTFont(SOURCE)
    cmap = font.getBestCmap()
    wanted = characters()
    missing = sorted(c for c in wanted if ord(c) not in cmap and c.isprintable() and not c.isspace())
    options = subset.Options()
    options.layout_features = ["kern", "liga"]
    options.name_IDs = [0, 1, 2, 3, 4, 5, 6, 13, 14]
    options.notdef_outline = True
    sub = subset.Subsetter(options)
    sub.populate(unicodes=[ord(c) for c in wanted if ord(c) in cmap])
    sub.subset(font)
    names = font["name"]
    for record in list(names.names):
        if record.nameID in (1, 4, 16):
            names.setName(f"{FAMILY}" if record.nameID in (1, 16) else f"{FAMILY} Bold",
                          record.nameID, record.platformID, record.platEncID, record.langID)
        elif record.nameID == 3:
            names.setName(f"{FAMILY} Bold; subset of NanumGothic Bold", 3,
                          record.platformID, record.platEncID, record.langID)
        elif record.nameID == 6:
            names.setName("MothGothic-Bold", 6, record.platformID, record.platEncID, record.langID)
    font.save(TARGET)
    print(f"wrote {TARGET} ({TARGET.stat().st_size // 1024} KiB, {len(wanted)} characters wanted)")
    if missing:
        print(f"not in the source font (drawn as boxes): {''.join(missing)!r}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
