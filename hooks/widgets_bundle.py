"""MkDocs hook: the widgets (``widgets/``) bundled into ``site/widgets/``.

Rollup (``hooks/widgets_bundle.mjs``, pinned in package.json) bundles the page's modules from
``widgets/rollbook.js``: ``rollbook.js`` (what every page with a widget needs), ``engine.js`` (the
page's side of the engine, still at that path) and one chunk per element module in
``widgets/elements/``, fetched by the pages that show it. ``start.js`` is a classic script in
the head of tool pages and is copied as it is; the two workers live elsewhere
(``hooks/pyodide_bundle.py``, ``hooks/search_later.py``). The bundled libraries' licences are
copied to ``site/widgets/vendor/<package>/``.

The bundle is made as the build starts, in a temporary folder of its own (the tests run two builds
at once), and ``site/widgets/`` is replaced by it whole at the end, so a chunk of an earlier build
never lingers. The pages do not name the chunks they will import (``<link rel="modulepreload">``):
tried, it cost Lighthouse's first visit to ``tools/character/`` 100 → 95 (benchmarks/README.md).
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
WIDGETS = ROOT / "widgets"
NODE_MODULES = ROOT / "node_modules"
SCRIPT = ROOT / "hooks" / "widgets_bundle.mjs"
SITE_WIDGETS_DIR = "widgets"
COPIED = ("start.js",)  # classic scripts, not modules: as they are
LICENCES = {"lit-html": "LICENSE", "workbox-window": "LICENSE"}  # the libraries bundled in

_staging: Path | None = None  # where it was written: a folder of its own per build (builds may run at once)


class WidgetsBundleError(Exception):
    """The widgets could not be bundled; the message says what to do."""


def _plugin_error(error: WidgetsBundleError) -> Exception:
    from mkdocs.exceptions import PluginError

    return PluginError(f"widgets_bundle: {error}")


def on_pre_build(config: Any) -> None:
    global _staging
    _staging = Path(tempfile.mkdtemp(prefix="rollbook-widgets-"))
    try:
        bundle_into(_staging / SITE_WIDGETS_DIR)
    except WidgetsBundleError as error:
        raise _plugin_error(error) from error


def on_post_build(config: Any) -> None:
    global _staging
    if _staging is None:
        return
    target = Path(config["site_dir"]) / SITE_WIDGETS_DIR
    if target.exists():
        shutil.rmtree(target)
    shutil.copytree(_staging / SITE_WIDGETS_DIR, target)
    shutil.rmtree(_staging, ignore_errors=True)
    _staging = None


def on_build_error(error: Exception) -> None:
    global _staging
    if _staging is not None:
        shutil.rmtree(_staging, ignore_errors=True)
        _staging = None


def bundle_into(target: Path, source: Path = WIDGETS) -> None:
    """Bundle ``source`` (widgets/) into ``target`` (emptied first)."""
    for package in ("rollup", "@rollup/plugin-terser", *LICENCES):
        if not (NODE_MODULES / package).is_dir():
            raise WidgetsBundleError(f"node_modules/{package} is missing: run 'npm ci' (make setup does)")
    if target.exists():
        shutil.rmtree(target)
    target.mkdir(parents=True)
    try:
        done = subprocess.run(["node", str(SCRIPT), str(source), str(target)], capture_output=True, text=True,
                              timeout=300)
    except FileNotFoundError as error:
        raise WidgetsBundleError("node is not installed: install Node 20 or later") from error
    if done.returncode != 0:
        tail = "\n".join((done.stdout + done.stderr).strip().splitlines()[-15:])
        raise WidgetsBundleError(f"bundling the widgets failed (node {SCRIPT.relative_to(ROOT)}):\n{tail}")
    for name in COPIED:
        shutil.copy2(source / name, target / name)
    for package, licence in LICENCES.items():
        (target / "vendor" / package).mkdir(parents=True, exist_ok=True)
        shutil.copy2(NODE_MODULES / package / licence, target / "vendor" / package / licence)
