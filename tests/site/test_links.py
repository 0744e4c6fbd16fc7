"""Every link inside the built site leads to a file that exists, and to an anchor on it."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from bs4 import BeautifulSoup

from sitebuild import BuiltSite, site_url

pytestmark = [pytest.mark.site, pytest.mark.cpython_only]


@cache
def ids(path: Path) -> frozenset[str]:
    soup = BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")
    return frozenset(element["id"] for element in soup.find_all(id=True)) | frozenset(
        element["name"] for element in soup.find_all("a", attrs={"name": True}))


def target(site: BuiltSite, page: Path, href: str) -> Path | None:
    """The file a link leads to; absolute paths (404.html uses them) must sit under site_url's path."""
    path = unquote(urlsplit(href).path)
    if path.startswith("/"):
        prefix = urlsplit(site_url()).path
        if not path.startswith(prefix):
            return None
        resolved = (site.directory / path.removeprefix(prefix)).resolve()
    else:
        resolved = (page.parent / path).resolve()
    return resolved / "index.html" if resolved.is_dir() else resolved


def broken_links(site: BuiltSite) -> list[str]:
    broken = []
    for page in site.pages():
        soup = BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser")
        for link in soup.find_all(["a", "link"], href=True):
            href = link["href"]
            parts = urlsplit(href)
            if parts.scheme or parts.netloc:
                continue  # other hosts are test_no_external_hosts' business
            path = target(site, page, href) if parts.path else page
            where = f"{page.relative_to(site.directory)}: {href}"
            if path is None or not path.is_file():
                broken.append(f"{where} (no such file)")
            elif parts.fragment and path.suffix == ".html" and unquote(parts.fragment) not in ids(path):
                broken.append(f"{where} (no such anchor)")
    return broken


def test_internal_links_and_anchors_resolve(site: BuiltSite) -> None:
    broken = broken_links(site)
    assert broken == [], "\n".join(broken)


def test_the_checker_finds_broken_links(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "index.html").write_text('<h2 id="here">x</h2><a href="#here">ok</a><a href="#gone">bad</a>'
                                               '<a href="../b/">bad</a><a href="../a/#here">ok</a>')
    (tmp_path / "404.html").write_text(f'<a href="{urlsplit(site_url()).path}a/">ok</a><a href="/elsewhere/">bad</a>')
    assert broken_links(BuiltSite(tmp_path, 0, "")) == [
        "404.html: /elsewhere/ (no such file)",
        "a/index.html: #gone (no such anchor)",
        "a/index.html: ../b/ (no such file)",
    ]
