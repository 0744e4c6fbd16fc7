"""hooks/widgets_bundle.py: the widgets reach the site bundled: rollbook.js (what every page with a
widget needs), engine.js (still at its path: pages and tests import the page's engine by it), a
chunk per element module, start.js as it is; every import of every chunk resolves in the site."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from sitebuild import BuiltSite, load_hook

pytestmark = [pytest.mark.site, pytest.mark.cpython_only]

IMPORT = re.compile(r'(?:import|export)[^"\']*?from\s*"(\.[^"]+)"|import\("(\.[^"]+)"\)|import\s*"(\.[^"]+)"')


hook = load_hook("widgets_bundle")


def widgets(site: BuiltSite) -> Path:
    return site.directory / hook.SITE_WIDGETS_DIR


def test_the_site_holds_the_bundle_and_no_unbundled_module(site: BuiltSite) -> None:
    folder = widgets(site)
    scripts = sorted(path.relative_to(folder).as_posix() for path in folder.rglob("*.js"))
    assert {"rollbook.js", "engine.js", "start.js"} <= set(scripts)
    assert (folder / "start.js").read_bytes() == (hook.WIDGETS / "start.js").read_bytes()  # a classic script
    chunks = [name for name in scripts if name.startswith("elements/")]
    assert chunks and all(re.fullmatch(r"elements/[a-z-]+-[\w-]{8}\.js", name) for name in chunks), chunks
    # the sources' own modules are inside the bundle, not beside it
    assert not (folder / "element.js").exists() and not (folder / "elements" / "roller.js").exists()
    assert not list(folder.rglob("*.mjs"))  # the libraries too (their licences stay)
    assert sorted(path.relative_to(folder).as_posix() for path in (folder / "vendor").rglob("*")
                  if path.is_file()) == ["vendor/lit-html/LICENSE", "vendor/workbox-window/LICENSE"]


def test_every_import_of_every_chunk_resolves_in_the_site(site: BuiltSite) -> None:
    folder = widgets(site)
    missing = []
    for script in folder.rglob("*.js"):
        for match in IMPORT.finditer(script.read_text(encoding="utf-8")):
            target = (script.parent / next(group for group in match.groups() if group)).resolve()
            if not target.is_file():
                missing.append(f"{script.relative_to(folder)} -> {target.relative_to(site.directory)}")
    assert missing == []


def test_only_engine_js_finds_the_site_root_from_its_own_address() -> None:
    # Each chunk sits where the bundler puts it: a module that read its own URL for the site's
    # root would find the wrong folder. engine.js keeps its path (the hook's entry).
    readers = sorted(path.relative_to(hook.WIDGETS).as_posix() for path in hook.WIDGETS.rglob("*.js")
                     if "import.meta.url" in path.read_text(encoding="utf-8"))
    assert readers == ["engine-worker.js", "engine.js"]  # the worker is no module of the page's


def test_a_broken_import_fails_the_build_with_the_bundlers_words(tmp_path: Path) -> None:
    source = tmp_path / "widgets"
    source.mkdir()
    (source / "engine.js").write_text("export const ready = true;\n")
    (source / "start.js").write_text('"use strict";\n')
    (source / "rollbook.js").write_text('import { missing } from "./no-such-module.js";\nmissing();\n')
    with pytest.raises(hook.WidgetsBundleError, match="no-such-module.js"):
        hook.bundle_into(tmp_path / "out", source)
