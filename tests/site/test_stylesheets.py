"""The site's own stylesheets reach the browser as one file (hooks/stylesheets.py): every page links
it once, after Material's, and it holds every source named in mkdocs.yml, whole and in order."""

from __future__ import annotations

import re

import pytest
from mkdocs.exceptions import PluginError
from mkdocs.utils import yaml_load

from sitebuild import ROOT, BuiltSite, load_hook

stylesheets = load_hook("stylesheets")

pytestmark = [pytest.mark.site, pytest.mark.cpython_only]

LINK = re.compile(r'<link rel="stylesheet" href="([^"]+)"')


def sources() -> list[str]:
    """extra_css as mkdocs.yml names it (read as MkDocs reads it, !ENV and all)."""
    return list(yaml_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))["extra_css"])


def test_every_page_links_one_site_stylesheet_after_materials(site: BuiltSite) -> None:
    pages = site.pages()
    assert len(pages) > 20
    source_files = tuple(name.rsplit("/", 1)[-1] for name in sources())
    for page in pages:
        html = page.read_text(encoding="utf-8")
        if "<link rel=\"stylesheet\"" not in html:
            continue  # a redirect page
        links = LINK.findall(html)
        assert links[-1].endswith("/site.css"), (page, links)
        assert sum(link.endswith("/site.css") for link in links) == 1, (page, links)
        assert not any(link.endswith(source_files) for link in links), page


def test_the_joined_stylesheet_holds_every_source_whole_and_in_order(site: BuiltSite) -> None:
    names = sources()
    assert len(names) >= 2
    joined = (site.directory / "stylesheets" / "site.css").read_text(encoding="utf-8")
    at = -1
    for name in names:
        text = (ROOT / "docs" / name).read_text(encoding="utf-8").rstrip()
        found = joined.find(f"/* --- {name} --- */\n{text}\n")
        assert found > at, f"{name} is not in site.css whole, after the one before it"
        at = found
        assert not (site.directory / name).exists(), f"{name} was copied into the site beside site.css"


@pytest.mark.parametrize("first", ["@import url(other.css);", "@charset \"utf-8\";"])
def test_a_source_that_must_come_first_is_refused_with_its_name(first: str) -> None:
    with pytest.raises(PluginError, match=r"late\.css starts with @"):
        stylesheets.joined([("early.css", "a { color: red; }"), ("late.css", f"{first}\nb {{ color: blue; }}")])
