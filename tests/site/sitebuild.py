"""The built site, once per run, shared by tests/site, tests/browser and the Pyodide harness.

`make test` builds site/ once (``python tests/site/sitebuild.py site``: `mkdocs build --strict`,
its log kept in build/site-build.json) and runs pytest with ROLLBOOK_SITE=site: no test builds
again. Run alone, pytest builds once into a temporary directory; with pytest-xdist the workers
share that one build (a file lock lets the first worker build while the others wait). The browser
tests serve the same build: their server gives the sitemap the address it answers on
(tests/browser/browserkit.py), so no build is made for their address.
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
from typing import Any
from urllib.parse import urlsplit

import pytest

ROOT = Path(__file__).resolve().parents[2]
# The log of the last build made by this module's command line, for test_build.py's strict check.
RECORD = ROOT / "build" / "site-build.json"


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


def given_site() -> Path | None:
    """The built site named by ROLLBOOK_SITE (make test: site/), if any."""
    given = os.environ.get("ROLLBOOK_SITE")
    if not given:
        return None
    directory = Path(given).resolve()
    if not (directory / "index.html").is_file():
        pytest.fail(f"ROLLBOOK_SITE={given} holds no built site (no index.html)", pytrace=False)
    return directory


def _stamp(directory: Path) -> int:
    """What tells one build of `directory` from the next: its sitemap is written anew by each."""
    return (directory / "sitemap.xml").stat().st_mtime_ns


def _mkdocs_build(directory: Path, url: str | None = None) -> dict[str, Any]:
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}  # Material's end-of-life banner is not a build warning
    env.pop("ROLLBOOK_SITE_URL", None)
    if url:
        env["ROLLBOOK_SITE_URL"] = url
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--clean", "-d", str(directory)],
        cwd=ROOT, capture_output=True, text=True, timeout=900, env=env,
    )
    return {"returncode": result.returncode, "log": result.stdout + result.stderr}


def recorded(directory: Path) -> BuiltSite | None:
    """`directory`'s build as the command line recorded it, unless it was built again since."""
    try:
        record = json.loads(RECORD.read_text())
        if record["directory"] != str(directory) or record["stamp"] != _stamp(directory):
            return None
    except (OSError, ValueError, KeyError):
        return None
    return BuiltSite(directory, record["returncode"], record["log"], site_url())


def build_site(tmp_path_factory: pytest.TempPathFactory, name: str = "rollbook-site",
               url: str | None = None) -> BuiltSite:
    """`mkdocs build --strict` into <session tmp>/<name>, once per session (per name).

    `url` overrides site_url (through ROLLBOOK_SITE_URL). A ROLLBOOK_SITE build with its log
    recorded is taken as it is.
    """
    given = given_site()
    if given and url is None and (found := recorded(given)):
        return found
    shared = _shared_directory(tmp_path_factory)
    directory, record = shared / name, shared / f"{name}.json"
    with open(shared / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not record.exists():
            record.write_text(json.dumps(_mkdocs_build(directory, url)))
        built = json.loads(record.read_text())
    return BuiltSite(directory, built["returncode"], built["log"], url or site_url())


def deployed_site(tmp_path_factory: pytest.TempPathFactory) -> BuiltSite:
    """The site as deployed (site_url the GitHub Pages address): ROLLBOOK_SITE's, or built once
    for the session; every test that needs it fails (not skips) if the build failed."""
    given = given_site()
    if given:
        return recorded(given) or BuiltSite(given, 0, "", site_url())
    return require_success(build_site(tmp_path_factory))


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
def site(tmp_path_factory: pytest.TempPathFactory) -> BuiltSite:
    """The built site (as deployed: site_url is the GitHub Pages address)."""
    return require_success(deployed_site(tmp_path_factory))


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


def main() -> None:
    """`python tests/site/sitebuild.py DIR`: build the site into DIR (make test: site/) and record
    its log, so that pytest with ROLLBOOK_SITE=DIR tests this very build without making another."""
    directory = Path(sys.argv[1] if len(sys.argv) > 1 else "site").resolve()
    built = _mkdocs_build(directory)
    print(built["log"], end="")
    if built["returncode"] == 0:
        RECORD.parent.mkdir(exist_ok=True)
        RECORD.write_text(json.dumps({"directory": str(directory), "stamp": _stamp(directory), **built}))
    raise SystemExit(built["returncode"])


if __name__ == "__main__":
    main()
