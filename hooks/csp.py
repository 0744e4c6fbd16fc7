"""MkDocs hook: a Content Security Policy for every page, as a ``<meta http-equiv>`` (static hosts
such as GitHub Pages send no headers of their own).

The policy allows only the site itself: scripts from the site, plus Material's few inline scripts
by their sha256 (collected from the built pages, the union over all of them, because instant
navigation keeps the first page's policy while it swaps in others), and WebAssembly
(``'wasm-unsafe-eval'``, for Pyodide on a page's main thread; the engine's worker is a script of
the site). Any other inline script - say, one smuggled in through user text - is refused by the
browser. Runs after the pages are written and before the service worker is generated (offline.py),
so the precached pages carry the policy.
"""

from __future__ import annotations

import base64
import hashlib
import re
from pathlib import Path
from typing import Any

INLINE_SCRIPT = re.compile(r"<script(?P<attributes>(?:(?!\bsrc=)[^>])*)>(?P<body>.*?)</script>", re.S)
# Data blocks (Material's __config JSON) are not run, so a policy does not need to know them.
DATA_TYPE = re.compile(r"""\btype=["']?application/(?:ld\+)?json""")
HEAD = re.compile(r"<head>\s*(<meta charset=[^>]*>)?")


def inline_script_hashes(html: str) -> set[str]:
    """The CSP sources ('sha256-…') of the inline scripts a page runs."""
    hashes = set()
    for match in INLINE_SCRIPT.finditer(html):
        if DATA_TYPE.search(match["attributes"]):
            continue
        digest = hashlib.sha256(match["body"].encode("utf-8")).digest()
        hashes.add(f"'sha256-{base64.b64encode(digest).decode()}'")
    return hashes


def policy(script_hashes: set[str]) -> str:
    return "; ".join([
        "default-src 'self'",
        "script-src 'self' 'wasm-unsafe-eval' " + " ".join(sorted(script_hashes)),
        "style-src 'self'",
        "img-src 'self' data:",
        "font-src 'self'",
        "connect-src 'self'",
        "worker-src 'self'",
        "manifest-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
    ])


def add_policy(html: str, content: str) -> str:
    """The page with the policy's meta element first in its head (after the charset)."""
    meta = f'<meta http-equiv="Content-Security-Policy" content="{content}">'
    match = HEAD.search(html)
    if match is None:
        raise ValueError("a page without <head>")
    return html[: match.end()] + meta + html[match.end():]


def on_post_build(config: Any) -> None:
    pages = sorted(Path(config["site_dir"]).rglob("*.html"))
    texts = {page: page.read_text(encoding="utf-8") for page in pages}
    content = policy(set().union(*(inline_script_hashes(text) for text in texts.values())))
    for page, text in texts.items():
        page.write_text(add_policy(text, content), encoding="utf-8")
