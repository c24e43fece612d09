"""Every checked-in picture the program draws is what it draws now: the gallery (docs/screens,
405 screenshots), the README's photo finish, referee mode's pictures (docs/referee) and the
creatures' contact sheet (docs/art) are drawn again and compared with the files pixel for pixel;
a picture that differs is named with the command that remakes them all. Every PNG of the
repository must be one the program draws (a file nothing makes is a test failure too).

Pixels depend on the rasteriser: the pictures record the pygame-ce, SDL, SDL_ttf and FreeType
versions and the machine's architecture that drew them (docs/screens/made-with.json), and the
comparison skips, saying so, under others. The work is split by the gallery's language and
size (and the referee pictures, the hero, the art), so xdist's workers share it; each worker
plays the demo's games once. All of it takes about 20 s of CPU."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pygame
import pytest
from display_helpers import fonts

from game.app.ui import gallery

PICTURES = gallery.pictures()
SHARES = tuple(dict.fromkeys(p.share for p in PICTURES))
ROOT = gallery.ROOT
#: Folders of the repository that hold no pictures of ours (tools' and builds' own).
SKIP_DIRS = {"node_modules", "__pycache__", "build", "dist"}


def _other_versions() -> str | None:
    """Why pixels cannot be compared here (None: the versions that drew the pictures run)."""
    made = gallery.recorded(ROOT)
    if made is None:
        return f"{gallery.MANIFEST} is missing: run {gallery.COMMAND} to draw the pictures and record the versions"
    running = gallery.made_with()
    if running != made:
        return (f"the pictures were drawn with {gallery.versions_text(made)} and this run has "
                f"{gallery.versions_text(running)}: glyphs rasterise differently across versions, so pixels are "
                "compared only under the recorded ones (pin pygame-ce in pyproject to the recorded version)")
    return None


def _difference(drawn: pygame.Surface, saved: pygame.Surface) -> str | None:
    """How ``saved`` differs from ``drawn``, in a few words (None: not at all)."""
    if saved.get_size() != drawn.get_size():
        return f"is {saved.get_width()}×{saved.get_height()}, the program draws {drawn.get_width()}×{drawn.get_height()}"
    a, b = pygame.image.tobytes(drawn, "RGB"), pygame.image.tobytes(saved, "RGB")
    if a == b:
        return None
    first = next(i for i in range(0, len(a), 3) if a[i:i + 3] != b[i:i + 3]) // 3
    x, y = first % drawn.get_width(), first // drawn.get_width()
    return f"differs from what the program draws (first at x={x}, y={y})"


@pytest.mark.parametrize("share", SHARES)
def test_every_checked_in_picture_is_what_the_program_draws(share: str) -> None:
    why = _other_versions()
    if why is not None:
        pytest.skip(why)
    stale: list[str] = []
    for picture in (p for p in PICTURES if p.share == share):
        path = ROOT / picture.path
        if not path.is_file():
            stale.append(f"{picture.path} is missing")
            continue
        problem = _difference(picture.draw(fonts), pygame.image.load(str(path)))
        if problem is not None:
            stale.append(f"{picture.path} {problem}")
    assert not stale, (f"{len(stale)} checked-in picture(s) of {share} no longer match what the program draws:\n  "
                       + "\n  ".join(stale) + f"\nRemake every picture with `{gallery.COMMAND}` and commit docs/.")


def _pngs_in_repository() -> set[str]:
    found: set[str] = set()
    for folder, dirs, files in os.walk(ROOT):
        dirs[:] = [d for d in dirs if not d.startswith(".") and d not in SKIP_DIRS and not d.endswith(".egg-info")]
        found |= {str((Path(folder) / f).relative_to(ROOT)) for f in files if f.lower().endswith(".png")}
    return found


def _pictures_readme_shows() -> set[str]:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    return {ref for ref in re.findall(r'(?:src="|\]\()([^")\s]+\.png)', readme) if "://" not in ref}


def test_every_png_of_the_repository_is_one_the_program_draws() -> None:
    made = {p.path for p in PICTURES}
    nobody = sorted((_pngs_in_repository() | _pictures_readme_shows()) - made)
    assert not nobody, ("nothing in the program draws " + ", ".join(nobody) + ": add it to gallery.pictures() "
                        f"(with the scene that shows it) and run `{gallery.COMMAND}`, or delete it")


def test_the_pictures_have_one_path_each_and_the_referee_stems_are_the_moments() -> None:
    from game.app.referee import doc_pictures

    paths = [p.path for p in PICTURES]
    assert len(paths) == len(set(paths))
    assert len([p for p in paths if p.startswith("docs/screens/")]) == 405 + 1      # the gallery and the hero
    assert set(doc_pictures.STEMS) == set(doc_pictures.moments())


def test_a_changed_pixel_is_named_with_the_command(tmp_path: Path) -> None:
    """The check can fail: one pixel changed in a copy of a picture is found and located."""
    picture = next(p for p in PICTURES if p.share == "referee")
    drawn = picture.draw(fonts)
    changed = drawn.copy()
    changed.set_at((7, 3), tuple(255 - c for c in drawn.get_at((7, 3))[:3]))
    pygame.image.save(changed, str(tmp_path / "changed.png"))
    assert _difference(drawn, pygame.image.load(str(tmp_path / "changed.png"))) == \
        "differs from what the program draws (first at x=7, y=3)"
    assert _difference(drawn, pygame.Surface((10, 10))) == "is 10×10, the program draws 800×480"
    pygame.image.save(drawn, str(tmp_path / "same.png"))
    assert _difference(drawn, pygame.image.load(str(tmp_path / "same.png"))) is None


def test_the_gallery_index_lists_the_checked_in_screens() -> None:
    folder = ROOT / "docs" / "screens"
    assert (folder / "README.md").read_text(encoding="utf-8") == gallery.index(folder), \
        f"docs/screens/README.md is not the index of the folder: run `{gallery.COMMAND}`"


@pytest.mark.parametrize("argv", [["--all", "docs/screens"], ["--all", "--langs", "en"], []])
def test_all_remakes_in_place_and_takes_no_folder(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        gallery.main(argv)
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "--all" in err and ("give no folder" in err or "give the folder" in err)
