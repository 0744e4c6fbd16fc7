"""MkDocs hook: Material's bundle waits for the reader on every page, instead of running as it loads.

Material's bundle is a page's largest script, and its start (evaluation, then its work on
DOMContentLoaded) is a rules page's longest task: 150-300 ms on a phone-class CPU (Lighthouse's 4x),
nearly all of a rules page's Total Blocking Time. Nothing a reader does first needs it: the text,
the drawer, the palette's colours, the dice in the text and the widgets are the site's own, and a
link tapped before it has run is an ordinary navigation. So each page's ``<script>`` of it gets a
type no browser runs, ``HELD_TYPE``, and ``widgets/material-later.js`` runs it when the reader
reaches for Material's parts (the header, the navigation, search: a touch, a key or a focus outside
the site's widgets), when a page's engine has started and the reader pauses, or a few seconds after
the load; the reasons and the measurements are written there and in benchmarks/README.md.
"""

from __future__ import annotations

import re
from typing import Any

from mkdocs.exceptions import PluginError

HELD_TYPE = "rollbook/material-later"  # widgets/material-later.js looks for this type
BUNDLE = re.compile(r'<script src="(?P<src>[^"]*assets/javascripts/bundle\.[0-9a-f]+\.min\.js)"></script>')
HELD = '<script type="' + HELD_TYPE + '" src="{src}"></script>'


def held(html: str) -> str:
    """The page with Material's bundle held for widgets/material-later.js."""
    html, count = BUNDLE.subn(lambda found: HELD.format(src=found["src"]), html)
    if count != 1:
        raise ValueError(f"{count} scripts of Material's bundle, not 1: has Material changed how "
                         "its base.html loads it? See hooks/material_later.py")
    return html


def _held_or_say(html: str, where: str) -> str:
    try:
        return held(html)
    except ValueError as error:
        raise PluginError(f"material_later: {where}: {error}") from error


def on_post_page(output: str, page: Any, **_: Any) -> str:
    return _held_or_say(output, page.file.src_uri)


def on_post_template(output_content: str, template_name: str, **_: Any) -> str:
    # 404.html, rendered from the theme, is a page like the others (sitemap.xml is not one).
    return _held_or_say(output_content, template_name) if template_name == "404.html" else output_content
