"""`mkdocs build --strict` passes and says nothing worth a warning."""

from __future__ import annotations

import re

import pytest

from sitebuild import ROOT, BuiltSite

pytestmark = [pytest.mark.site, pytest.mark.cpython_only]


def test_strict_build_succeeds_without_warnings(built_site: BuiltSite) -> None:
    assert built_site.returncode == 0, built_site.log
    warnings = [line for line in built_site.log.splitlines() if re.match(r"(WARNING|ERROR)\b", line)]
    assert warnings == [], "\n".join(warnings)


def test_every_nav_page_is_built(site: BuiltSite) -> None:
    missing = [src for src in sorted(p.relative_to(ROOT / "docs").as_posix()
                                     for p in (ROOT / "docs").rglob("*.md"))
               if not src.startswith("includes/") and not site.page(src).is_file()]
    assert missing == []
