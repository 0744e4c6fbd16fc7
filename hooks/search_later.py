"""MkDocs hook: Material's search index is built when it is first needed, not as every page starts.

Material's bundle hands the search index to its search worker as the page starts, and the worker
builds it at once: on a phone's few cores that ran beside the dice engine's start and the page's
own (benchmarks/README.md, the row "Search index built on the first search typed"). ``widgets/search-later.js`` wraps
Material's worker, unchanged, and builds the index on the first search typed or a few seconds
after the page's start. This hook puts that file beside Material's worker as
``rollbook-search.js`` (naming Material's worker in its first line) and points each page's search
(``"search"`` in Material's ``__config``) at it.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from mkdocs.exceptions import PluginError

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT / "widgets" / "search-later.js"
NAME = "rollbook-search.js"
WORKERS = "assets/javascripts/workers/"
CONFIG = re.compile(r'(<script id="__config" type="application/json">)(?P<json>.*?)(</script>)', re.S)
MATERIAL_WORKER = re.compile(r"^search\.[0-9a-f]+\.min\.js$")

_material_worker: str | None = None  # Material's worker's file name, as the pages named it


def pointed_at_wrapper(html: str) -> tuple[str, str | None]:
    """The page with its search pointed at the wrapper, and the Material worker it named before
    (None: the page has no search configuration, as a redirect page has none)."""
    found = CONFIG.search(html)
    if found is None:
        return html, None
    settings = json.loads(found["json"])
    folder, _, name = settings.get("search", "").rpartition("/")
    if not folder.endswith(WORKERS.rstrip("/")) or not MATERIAL_WORKER.match(name):
        raise PluginError(f"search_later: Material's search worker is not where this hook expects it "
                          f"({settings.get('search')!r} in __config); see hooks/search_later.py")
    written = json.dumps(settings["search"])
    if written not in found["json"]:
        raise PluginError("search_later: Material's __config names its search worker in a form this hook cannot rewrite")
    text = found["json"].replace(written, json.dumps(f"{folder}/{NAME}"), 1)
    return html[: found.start("json")] + text + html[found.end("json"):], name


def _rewrite(html: str) -> str:
    global _material_worker
    html, name = pointed_at_wrapper(html)
    if name is not None:
        _material_worker = name
    return html


def on_post_page(output: str, **_: Any) -> str:
    return _rewrite(output)


def on_post_template(output_content: str, template_name: str, **_: Any) -> str:
    return _rewrite(output_content) if template_name == "404.html" else output_content


def wrapper_source(material_worker: str) -> str:
    """rollbook-search.js: the wrapper with Material's worker named in its first line."""
    return f"const MATERIAL_SEARCH_WORKER = {json.dumps(material_worker)};\n" + SOURCE.read_text(encoding="utf-8")


def on_post_build(config: Any) -> None:
    if _material_worker is None:
        return  # no page has Material's search
    workers = Path(config["site_dir"]) / WORKERS
    if not (workers / _material_worker).is_file():
        raise PluginError(f"search_later: the pages name {_material_worker}, which is not in {workers}")
    (workers / NAME).write_text(wrapper_source(_material_worker), encoding="utf-8")
