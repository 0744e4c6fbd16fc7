"""MkDocs hook: each table of a page's text goes into Material's scroll wrapper at build time.

Material wraps every ``table:not([class])`` of the content in ``.md-typeset__scrollwrap >
.md-typeset__table`` (so a wide table scrolls on a phone) when its bundle runs, after the page is
drawn. Moving a table makes the browser build every cell's box again: on ``dice-notation/`` (11
tables, 1,954 elements) that was one 115 ms task at full CPU, four times that on a phone, the
largest of the page. Written into the HTML, the wrapper costs nothing. The table carries the
class ``rollbook-text-table`` so that Material leaves it where it is; ``rollbook.css`` gives that
class Material's table styles (``tests/site/test_text_tables.py`` keeps the two in step).
"""

from __future__ import annotations

import re
from typing import Any

CLASS = "rollbook-text-table"
# Markdown writes a table as a bare <table>; one with attributes is someone's own HTML: left alone.
TABLE = re.compile(r"<table>(?P<body>.*?)</table>", re.S)


def wrapped(html: str) -> str:
    """The page's HTML with every bare table in Material's scroll wrapper."""
    return TABLE.sub(lambda match: (
        '<div class="md-typeset__scrollwrap"><div class="md-typeset__table">'
        f'<table class="{CLASS}">{match["body"]}</table></div></div>'), html)


def on_page_content(html: str, **_: Any) -> str:
    return wrapped(html)
