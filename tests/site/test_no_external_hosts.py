"""No page of the built site makes the browser load anything from another host.

What counts as a reference: a resource the page would LOAD, or a link a reader would follow off
the site. The rule differs by file type, and each rule says why:

- HTML: every URL-valued attribute (href, src, srcset, action, poster, data, formaction, …) and
  every url(...)/@import in style attributes and <style> blocks must be relative (or a fragment,
  or data:/blob:). The one exception: <link rel="canonical"> may point at site_url's own host,
  which is the site itself once deployed. Strict, because HTML and CSS are static: what is written
  is what loads.
- CSS: every url(...) and @import must be relative (or data:).
- sitemap.xml: every URL is on site_url's host (that is its job).
- JavaScript: third-party bundles (Material's, Pyodide's) carry URL strings in code paths that only
  run on demand, so a string is not a request. We flag what a script loads unconditionally by
  absolute URL: static `import … from "http…"`, `import("http…")`, `importScripts("http…")` and
  `sourceMappingURL=http…`. Material's own on-demand loaders are checked by their trigger instead:
  mermaid from unpkg (needs a .mermaid block), repository facts from api.github.com (needs
  repo_url, i.e. a [data-md-component=source] element). What scripts build at run time is caught by
  the browser test that records every request (tests/browser).
"""

from __future__ import annotations

import gzip
import re
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from bs4 import BeautifulSoup

from sitebuild import BuiltSite, site_host

pytestmark = [pytest.mark.site, pytest.mark.cpython_only]

URL_ATTRIBUTES = ("href", "src", "action", "poster", "data", "formaction", "background", "cite",
                  "xlink:href", "manifest", "icon", "longdesc", "ping")
CSS_URL = re.compile(r"""url\(\s*(['"]?)(?P<url>[^'")]*)\1\s*\)|@import\s+(['"])(?P<import>[^'"]+)\3""")
JS_LOAD = re.compile(r"""(?:\bimport\s*(?:[\w{}*,\s]+\bfrom\s*)?|\bimport\s*\(\s*|\bimportScripts\s*\(\s*"""
                     r"""|sourceMappingURL=)['"`]?(?P<url>(?:https?:)?//[^'"`\s)]+)""")
SAFE_SCHEMES = ("data:", "blob:")


def is_external(url: str) -> bool:
    url = url.strip()
    if not url or url.startswith("#") or url.lower().startswith(SAFE_SCHEMES):
        return False
    parts = urlsplit(url)
    return bool(parts.scheme or parts.netloc)


def srcset_urls(value: str) -> list[str]:
    return [candidate.split()[0] for candidate in value.split(",") if candidate.split()]


def css_urls(css: str) -> list[str]:
    return [match["url"] or match["import"] for match in CSS_URL.finditer(css)]


def html_offences(page: Path, html: str) -> list[str]:
    soup = BeautifulSoup(html, "html.parser")
    offences = []
    for element in soup.find_all(True):
        urls = [element.get(attribute) for attribute in URL_ATTRIBUTES if element.get(attribute)]
        urls += srcset_urls(element.get("srcset", "")) + srcset_urls(element.get("imagesrcset", ""))
        urls += css_urls(element.get("style", ""))
        if element.name == "style":
            urls += css_urls(element.get_text())
        if element.name == "meta" and element.get("http-equiv", "").lower() == "refresh":
            urls.append(element.get("content", "").partition("url=")[2])
        for url in urls:
            canonical = element.name == "link" and "canonical" in element.get("rel", [])
            if is_external(url) and not (canonical and urlsplit(url).netloc == site_host()):
                offences.append(f"<{element.name}> {url}")
    return offences


def test_html_pages_reference_no_other_host(site: BuiltSite) -> None:
    offences = [f"{page.relative_to(site.directory)}: {offence}"
                for page in site.pages() for offence in html_offences(page, page.read_text(encoding="utf-8"))]
    assert offences == [], "\n".join(offences)


def test_stylesheets_load_nothing_from_another_host(site: BuiltSite) -> None:
    offences = [f"{css.relative_to(site.directory)}: {url}"
                for css in sorted(site.directory.rglob("*.css"))
                for url in css_urls(css.read_text(encoding="utf-8", errors="replace")) if is_external(url)]
    assert offences == [], "\n".join(offences)


def test_scripts_load_nothing_from_another_host(site: BuiltSite) -> None:
    offences = []
    for script in sorted([*site.directory.rglob("*.js"), *site.directory.rglob("*.mjs")]):
        for match in JS_LOAD.finditer(script.read_text(encoding="utf-8", errors="replace")):
            offences.append(f"{script.relative_to(site.directory)}: {match['url']}")
    assert offences == [], "\n".join(offences)


def test_material_on_demand_loaders_are_never_triggered(site: BuiltSite) -> None:
    triggers = []
    for page in site.pages():
        soup = BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser")
        if soup.select(".mermaid"):
            triggers.append(f"{page.relative_to(site.directory)}: a mermaid diagram (loads unpkg.com)")
        if soup.select('[data-md-component="source"]'):
            triggers.append(f"{page.relative_to(site.directory)}: repo_url facts (loads api.github.com)")
    assert triggers == [], "\n".join(triggers)


def test_sitemap_lists_only_the_site_itself(site: BuiltSite) -> None:
    sitemap = (site.directory / "sitemap.xml").read_text(encoding="utf-8")
    compressed = gzip.decompress((site.directory / "sitemap.xml.gz").read_bytes()).decode()
    for xml in (sitemap, compressed):
        hosts = {urlsplit(url).netloc for url in re.findall(r"<loc>([^<]+)</loc>", xml)}
        assert hosts == {site_host()}


def test_the_rule_catches_what_it_should() -> None:
    # The scanner itself: a check that finds nothing proves nothing unless it can find something.
    page = Path("x.html")
    html = ('<link rel="stylesheet" href="https://fonts.googleapis.com/css"><img srcset="a.png 1x, '
            '//cdn.example/b.png 2x"><div style="background: url(\'http://e.example/i.png\')"></div>'
            '<style>@import "https://e.example/x.css";</style><a href="https://squidfunk.github.io/">x</a>'
            f'<link rel="canonical" href="https://{site_host()}/rollbook/"><a href="../ok/#a">ok</a>'
            '<img src="data:image/png;base64,AA==">')
    assert len(html_offences(page, html)) == 5
    js = 'import x from "https://cdn.example/x.mjs";importScripts("https://cdn.example/w.js");' \
         'let u="https://api.github.com/repos";//# sourceMappingURL=https://cdn.example/x.map'
    assert [m["url"] for m in JS_LOAD.finditer(js)] == ["https://cdn.example/x.mjs",
                                                        "https://cdn.example/w.js", "https://cdn.example/x.map"]
