"""MkDocs hook: the offline app. After the build (and after pyodide_bundle.py has put the engine and
the widgets in place) Workbox generates ``site/sw.js`` precaching the whole site; see
hooks/service-worker.mjs. Under ``mkdocs serve`` no service worker is made: a cache in front of
a site being edited would only show stale pages (widgets/offline.js registers only what exists).
"""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

from mkdocs.exceptions import PluginError

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "hooks" / "service-worker.mjs"
_serving = False


def on_startup(command: str, dirty: bool) -> None:
    global _serving
    _serving = command == "serve"


def on_post_build(config: Any) -> None:
    site = Path(config["site_dir"])
    if _serving:
        (site / "sw.js").unlink(missing_ok=True)
        return
    done = subprocess.run(["node", str(SCRIPT), str(site)], cwd=ROOT, capture_output=True, text=True)
    if done.returncode != 0:
        raise PluginError(f"offline: the service worker could not be generated: {done.stderr.strip() or done.stdout.strip()}"
                          " (run 'npm ci'; make setup does)")
