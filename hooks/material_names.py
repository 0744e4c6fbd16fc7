"""MkDocs hook: accessible names for two of Material's own elements.

Material's search panel is a ``role="dialog"`` and its page-load bar (navigation.instant.progress)
a ``role="progressbar"``, both without a name, which axe-core reports as serious (aria-dialog-name,
aria-progressbar-name) on every page. The templates are Material's; copying them into an
override to add one attribute would freeze the rest of them, so the attribute is added here.
"""

from __future__ import annotations

from typing import Any

NAMES = {
    '<div class="md-search" data-md-component="search" role="dialog">':
        '<div class="md-search" data-md-component="search" role="dialog" aria-label="Search">',
    '<div class="md-progress" data-md-component="progress" role="progressbar">':
        '<div class="md-progress" data-md-component="progress" role="progressbar" aria-label="Loading the page">',
}


def on_post_page(output: str, page: Any, config: Any) -> str:
    for element, named in NAMES.items():
        output = output.replace(element, named, 1)
    return output
