"""The built site, once per test session, shared by tests/site and tests/browser.

`mkdocs build --strict` runs once into a temporary directory; with pytest-xdist the workers share
that one build (a file lock lets the first worker build while the others wait), so a
`pytest -n 2` run still builds the site only once. The browser tests make one more build, with
site_url set to the localhost address they serve it from (see tests/browser/conftest.py).
"""

from __future__ import annotations

import fcntl
import importlib.util
import json
import os
import re
import subprocess
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from urllib.parse import urlsplit

import pytest

ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class BuiltSite:
    directory: Path
    returncode: int
    log: str
    url: str = ""  # the site_url it was built with

    def pages(self) -> list[Path]:
        """Every HTML page of the built site, sorted by path."""
        return sorted(self.directory.rglob("*.html"))

    def page(self, src_uri: str) -> Path:
        """The built HTML of a docs/ source page ("opencore/combat.md" -> opencore/combat/index.html)."""
        stem = src_uri.removesuffix(".md")
        if stem == "index" or stem.endswith("/index"):
            return self.directory / (stem + ".html")
        return self.directory / stem / "index.html"


def site_url() -> str:
    """The deployed site_url: the default of `site_url: !ENV [ROLLBOOK_SITE_URL, "..."]` in mkdocs.yml."""
    for line in (ROOT / "mkdocs.yml").read_text(encoding="utf-8").splitlines():
        if line.startswith("site_url:"):
            return re.findall(r"https?://[^\s'\"\]]+", line)[-1]
    raise AssertionError("mkdocs.yml has no site_url")


def site_host() -> str:
    return urlsplit(site_url()).netloc


def _shared_directory(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.getbasetemp()
    # Under xdist each worker has its own basetemp inside the session's one: share the parent.
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


def build_site(tmp_path_factory: pytest.TempPathFactory, name: str = "rollbook-site",
               url: str | None = None) -> BuiltSite:
    """`mkdocs build --strict` into <session tmp>/<name>, once per session (per name).

    `url` overrides site_url (through ROLLBOOK_SITE_URL): the browser tests need the address they
    serve from, because Material's instant navigation matches sitemap links on host and port.
    """
    shared = _shared_directory(tmp_path_factory)
    directory, record = shared / name, shared / f"{name}.json"
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}  # Material's end-of-life banner is not a build warning
    env.pop("ROLLBOOK_SITE_URL", None)
    if url:
        env["ROLLBOOK_SITE_URL"] = url
    with open(shared / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not record.exists():
            result = subprocess.run(
                [sys.executable, "-m", "mkdocs", "build", "--strict", "--clean", "-d", str(directory)],
                cwd=ROOT, capture_output=True, text=True, timeout=900, env=env,
            )
            record.write_text(json.dumps({"returncode": result.returncode,
                                          "log": result.stdout + result.stderr}))
        built = json.loads(record.read_text())
    return BuiltSite(directory, built["returncode"], built["log"], url or site_url())


@pytest.fixture(scope="session")
def built_site(tmp_path_factory: pytest.TempPathFactory) -> BuiltSite:
    """The result of `mkdocs build --strict`, whether it passed or not."""
    return build_site(tmp_path_factory)


def require_success(built: BuiltSite) -> BuiltSite:
    """The built site; every test that needs it fails (not skips) if the build failed."""
    if built.returncode != 0:
        pytest.fail(f"mkdocs build --strict failed:\n{built.log}", pytrace=False)
    return built


@pytest.fixture(scope="session")
def site(built_site: BuiltSite) -> BuiltSite:
    """The built site (as deployed: site_url is the GitHub Pages address)."""
    return require_success(built_site)


def load_hook(name: str = "rollbook_tables") -> ModuleType:
    """hooks/<name>.py, imported the way MkDocs imports it (by path)."""
    spec = importlib.util.spec_from_file_location(name, ROOT / "hooks" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def placeholders(kind: str) -> list[tuple[str, int, str]]:
    """(page, line, name) of every [[kind NAME]] placeholder in docs/, found the hook's way."""
    hook = load_hook()
    found = []
    for path in sorted((ROOT / "docs").rglob("*.md")):
        lines = path.read_text(encoding="utf-8").split("\n")
        for index in hook._outside_code(lines):
            match = hook.PLACEHOLDER.match(lines[index])
            if match and match["kind"] == kind:
                found.append((path.relative_to(ROOT / "docs").as_posix(), index + 1, match["name"]))
    return found


def load_toml(path: Path) -> dict:
    with open(path, "rb") as handle:
        return tomllib.load(handle)
