"""One recorded run per benchmark in benchmarks/README.md, between its own two markers."""

from __future__ import annotations

import re
from pathlib import Path

README = Path(__file__).resolve().parent / "README.md"


def write_section(start: str, end: str, section: str, heading: str = "", readme: Path = README) -> None:
    """Put `section` between the markers `start` and `end`, replacing what was there; the first
    time, append it (under `heading`, when the section does not carry its own)."""
    text = readme.read_text(encoding="utf-8")
    block = f"{start}\n{section}\n{end}"
    if start in text and end in text:
        text = re.sub(re.escape(start) + ".*?" + re.escape(end), lambda _: block, text, flags=re.S)
    else:
        text = text.rstrip("\n") + "\n\n" + (f"{heading}\n\n" if heading else "") + block + "\n"
    readme.write_text(text, encoding="utf-8")
