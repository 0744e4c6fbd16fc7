"""MkDocs hook: the site's own stylesheets reach the browser as one file.

``extra_css`` in mkdocs.yml names the sources, one concern each (``rollbook.css``, ``widgets.css``,
…), and every page used to link each of them: four more render-blocking requests in front of every
first paint, beside Material's two, and on a returning visit four more trips through the browser's
cache or the service worker on the core the engine's start needs (benchmarks/README.md, "Fast
start"). This hook joins them, in their order (so the cascade is unchanged), into one file,
``stylesheets/site.css``, that every page links instead; the sources are not copied into the site.
"""

from __future__ import annotations

from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, Files

JOINED = "stylesheets/site.css"

_sources: list[str] = []  # extra_css as mkdocs.yml names it, in order


def joined(sources: list[tuple[str, str]]) -> str:
    """The stylesheets' texts, in order, each under a comment naming its source. A source may not
    start with @import or @charset: in the middle of one file the browser would drop it."""
    parts = []
    for name, text in sources:
        first = text.lstrip().split(None, 1)[0] if text.strip() else ""
        if first.lower() in ("@import", "@charset"):
            raise PluginError(f"stylesheets: {name} starts with {first}, which cannot follow another stylesheet; "
                              "write its rules out instead (see hooks/stylesheets.py)")
        parts.append(f"/* --- {name} --- */\n{text.rstrip()}\n")
    return "\n".join(parts)


def on_config(config: MkDocsConfig, **_: Any) -> MkDocsConfig:
    global _sources
    if [str(entry) for entry in config.extra_css] == [JOINED]:
        return config  # the same configuration built again (mkdocs serve): already joined
    _sources = [str(entry) for entry in config.extra_css]
    if not _sources:
        return config
    remote = [name for name in _sources if "://" in name or name.startswith("/")]
    if remote:
        raise PluginError(f"stylesheets: extra_css names files that are not in docs/: {remote}")
    config.extra_css = [JOINED]
    return config


def on_files(files: Files, config: MkDocsConfig, **_: Any) -> Files:
    if not _sources:
        return files
    texts = []
    for name in _sources:
        source = files.get_file_from_path(name)
        if source is None:
            raise PluginError(f"stylesheets: extra_css names {name}, which is not in {config.docs_dir}")
        texts.append((name, source.content_string))
        files.remove(source)
    files.append(File.generated(config, JOINED, content=joined(texts)))
    return files
