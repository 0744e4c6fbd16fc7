"""``rollbook table NAME``: a rule table as a reader sees it, for widgets that show the real table."""

from __future__ import annotations

from typing import Annotated

from rollbook import tables
from rollbook.commands import Arg, Result, command


@command("table")
def table_command(
    name: Annotated[str, Arg("the table, e.g. opencore.critical.slash (an unknown name lists them all)", metavar="NAME")],
) -> Result:
    """Show a rule table: title, caption, columns and rows, exactly as the rules pages print it."""
    display = tables.display(name)
    widths = [max(len(cell) for cell in column) for column in zip(display.columns, *display.rows)]
    lines = [display.title] + ([display.caption] if display.caption else [])
    lines += ["  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip()
              for row in (display.columns, *display.rows)]
    return {"name": display.name, "title": display.title, "caption": display.caption,
            "columns": list(display.columns), "rows": [list(row) for row in display.rows], "text": "\n".join(lines)}
