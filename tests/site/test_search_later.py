"""Material's search index is built on the first search, not as a page starts (hooks/search_later.py,
widgets/search-later.js): every page's search names the wrapper, the wrapper names Material's
worker, which is in the site, and the hook refuses a Material that keeps its worker elsewhere."""

from __future__ import annotations

import json
import re

import pytest
from mkdocs.exceptions import PluginError

from sitebuild import BuiltSite, load_hook

search_later = load_hook("search_later")

pytestmark = [pytest.mark.site, pytest.mark.cpython_only]

CONFIG = re.compile(r'<script id="__config" type="application/json">(.*?)</script>', re.S)


def page(search: str) -> str:
    settings = {"base": "..", "features": [], "search": search, "version": None}
    return f'<head></head><body><script id="__config" type="application/json">{json.dumps(settings)}</script></body>'


def test_the_hook_points_the_search_at_the_wrapper_and_keeps_the_rest() -> None:
    html, material = search_later.pointed_at_wrapper(page("../assets/javascripts/workers/search.a7633da7.min.js"))
    assert material == "search.a7633da7.min.js"
    settings = json.loads(CONFIG.search(html)[1])
    assert settings == {"base": "..", "features": [], "search": "../assets/javascripts/workers/rollbook-search.js",
                        "version": None}
    assert search_later.pointed_at_wrapper("<p>no search here</p>") == ("<p>no search here</p>", None)


@pytest.mark.parametrize("search", ["../assets/javascripts/search.a7633da7.min.js",
                                    "../assets/javascripts/workers/lunr-search.js", ""])
def test_the_hook_refuses_a_search_worker_it_does_not_know(search: str) -> None:
    with pytest.raises(PluginError, match="search worker is not where this hook expects it"):
        search_later.pointed_at_wrapper(page(search))


def test_every_page_searches_through_the_wrapper_which_loads_materials_worker(site: BuiltSite) -> None:
    workers = site.directory / "assets" / "javascripts" / "workers"
    named = set()
    for path in site.pages():  # 404.html among them
        found = CONFIG.search(path.read_text(encoding="utf-8"))
        assert found, path
        named.add(json.loads(found[1])["search"].rpartition("/")[2])
    assert named == {"rollbook-search.js"}
    first_line = (workers / "rollbook-search.js").read_text(encoding="utf-8").splitlines()[0]
    material = re.fullmatch(r'const MATERIAL_SEARCH_WORKER = "(search\.[0-9a-f]+\.min\.js)";', first_line)
    assert material and (workers / material[1]).is_file(), first_line
    assert not (site.directory / "widgets" / "search-later.js").exists()  # only the copy beside Material's
