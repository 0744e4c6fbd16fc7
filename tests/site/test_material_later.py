"""Material's bundle waits for the reader on every page (hooks/material_later.py; widgets/material-later.js
runs it): no page of the site runs it as it loads, and the hook refuses a page where it cannot find it."""

from __future__ import annotations

import re
from types import SimpleNamespace

import pytest
from mkdocs.exceptions import PluginError

from sitebuild import ROOT, BuiltSite, load_hook

material_later = load_hook("material_later")

pytestmark = [pytest.mark.site, pytest.mark.cpython_only]

BUNDLE_SCRIPT = re.compile(r'<script (?:type="([^"]*)" )?src="[^"]*assets/javascripts/bundle\.[0-9a-f]+\.min\.js">')
SCRIPT = '<script src="../assets/javascripts/bundle.a5f9d56c.min.js"></script>'


def test_every_page_holds_materials_bundle_for_the_reader(site: BuiltSite) -> None:
    pages = site.pages()
    assert site.directory / "404.html" in pages and site.page("tools/roller.md") in pages
    for path in pages:
        html = path.read_text(encoding="utf-8")
        assert BUNDLE_SCRIPT.findall(html) == [material_later.HELD_TYPE], path.relative_to(site.directory)


def test_the_hook_holds_the_one_script_and_keeps_the_rest() -> None:
    html = f"<head><title>t</title></head><body><p>text</p>{SCRIPT}<script src='../widgets/rollbook.js'></script></body>"
    assert material_later.held(html) == html.replace(
        SCRIPT, '<script type="rollbook/material-later" src="../assets/javascripts/bundle.a5f9d56c.min.js"></script>')


@pytest.mark.parametrize("scripts", ["", SCRIPT * 2])
def test_the_hook_refuses_a_page_it_cannot_read(scripts: str) -> None:
    """A Material that loads its bundle some other way: the build says so, not a page that waits for nothing."""
    count = scripts.count("<script")
    with pytest.raises(PluginError, match=f"material_later: tools/roller.md: {count} scripts of Material's bundle, not 1"):
        material_later.on_post_page(f"<body>{scripts}</body>", page=SimpleNamespace(file=SimpleNamespace(src_uri="tools/roller.md")))


def test_the_widgets_look_for_the_type_the_hook_writes() -> None:
    source = (ROOT / "widgets" / "material-later.js").read_text(encoding="utf-8")
    assert re.search(r'^const HELD_TYPE = "([^"]+)";', source, re.M)[1] == material_later.HELD_TYPE
