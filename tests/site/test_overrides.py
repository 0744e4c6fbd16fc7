"""The Material partials Rollbook overrides (overrides/partials/) are Material's own plus a named
addition: when Material is upgraded and its partial changes, this fails and says which file to
merge again, instead of the site silently keeping an old header or search."""

from __future__ import annotations

import re
from pathlib import Path

import material
import pytest

OVERRIDES = Path(__file__).resolve().parents[2] / "overrides" / "partials"
MATERIAL = Path(material.__file__).parent / "templates" / "partials"


def body(template: str) -> str:
    """The template without its leading comment."""
    return re.sub(r"\A\{#-?.*?-?#\}\n", "", template, count=1, flags=re.S)


def test_the_header_is_materials_plus_the_table_mode_toggle() -> None:
    ours = body((OVERRIDES / "header.html").read_text(encoding="utf-8"))
    added = re.search(r"    \{#- Rollbook: the table-mode toggle.*?</rollbook-table-mode>\n", ours, flags=re.S)
    assert added, "the table-mode toggle is missing from overrides/partials/header.html"
    theirs = body((MATERIAL / "header.html").read_text(encoding="utf-8"))
    assert ours.replace(added.group(0), "") == theirs, (
        "Material's partials/header.html changed: copy it again into overrides/partials/header.html "
        "and put the table-mode toggle back before the palette")


@pytest.mark.parametrize("name", ["search.html", "progress.html"])
def test_the_other_overridden_partials_still_exist_in_material(name: str) -> None:
    assert (MATERIAL / name).is_file(), f"Material no longer has partials/{name}: remove or rework overrides/partials/{name}"


def test_the_palette_form_is_materials_under_its_own_mark() -> None:
    """Material's palette component is not mounted (partials/javascripts/palette.html switches the
    palette instead, without restyling the page four times), so the form carries another mark."""
    ours = body((OVERRIDES / "palette.html").read_text(encoding="utf-8"))
    theirs = body((MATERIAL / "palette.html").read_text(encoding="utf-8"))
    assert 'data-md-component="palette"' in theirs, "Material's palette form changed its mark: rework overrides/partials/palette.html"
    assert ours == theirs.replace('data-md-component="palette"', "data-rollbook-palette"), (
        "Material's partials/palette.html changed: copy it again into overrides/partials/palette.html "
        'with data-rollbook-palette in place of data-md-component="palette"')
    assert (MATERIAL / "javascripts" / "palette.html").is_file(), (
        "Material no longer has partials/javascripts/palette.html: rework the override of it")
