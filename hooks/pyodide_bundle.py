"""MkDocs hook: ship the engine in the tree to the browser, inside a self-hosted Pyodide.

After every build (``make build``, and every rebuild of ``make serve``) the site gets:

* ``pyodide/`` - the Pyodide runtime files the browser needs, from ``node_modules/pyodide``
  (pinned in package.json; never a CDN), the engine's pure-Python wheel built from ``engine/``,
  and ``pyodide-lock.json``: Pyodide's own lockfile with its package list pruned to the one
  package the site ships, ``rollbook`` (with the wheel's sha256). Pruning keeps the lockfile
  small (1 KB instead of 120 KB) and makes a stray ``loadPackage("numpy")`` fail loudly with
  "no known package" instead of trying to fetch a wheel the site does not have.
  The wheel lives in a folder named after its own sha256 (``pyodide/<digest>/rollbook-….whl``):
  its file name never changes, so without that a browser holding a cached older wheel would fail
  the lockfile's integrity check for as long as its cache lasts (GitHub Pages: 10 minutes).
  (The lockfile's own URL is fixed: a browser still using a cached lockfile in those minutes
  gets the previous engine if it cached that wheel too, else a load error that the next ask
  retries, see widgets/engine.js.)
* ``widgets/`` - a copy of the repository's ``widgets/`` (the worker and its client).

So a page loads the engine with::

    loadPyodide({indexURL: "<site>/pyodide/", lockFileURL: "<site>/pyodide/pyodide-lock.json",
                 packages: ["rollbook"]})

The wheel and lockfile are prepared once in ``build/pyodide-bundle/`` and reused while the
content of the engine (and of what builds it) is unchanged, so a rebuild under ``mkdocs serve``
only links files; any edit, or a switch of git branch, rebuilds them.
Run ``python hooks/pyodide_bundle.py DIR`` to bundle into DIR without MkDocs.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
ENGINE = ROOT / "engine" / "rollbook"
WIDGETS = ROOT / "widgets"
PYODIDE_NPM = ROOT / "node_modules" / "pyodide"
NODE_MODULES = ROOT / "node_modules"
CACHE = ROOT / "build" / "pyodide-bundle"

PACKAGE = "rollbook"
SITE_RUNTIME_DIR = "pyodide"  # site/pyodide/: runtime, lockfile and engine wheel side by side
SITE_WIDGETS_DIR = "widgets"
LOCKFILE = "pyodide-lock.json"
# What loadPyodide fetches in a browser (module worker): the ES module loader, the Emscripten
# module, the WebAssembly binary and the standard library. Not the classic-script pyodide.js,
# the type declarations, the consoles or the source maps.
RUNTIME_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip")
# The widgets' libraries (pinned in package.json): only the modules they import, served from
# site/widgets/vendor/<package>/ so relative imports resolve as in npm. lit-html renders (its
# templates escape every value); workbox-window registers the service worker and tells of updates.
VENDORED = {
    "lit-html": ("lit-html.js", "LICENSE"),
    "workbox-window": ("build/workbox-window.prod.mjs", "LICENSE"),
}
# A fixed timestamp makes the wheel, hence its sha256 in the lockfile, reproducible.
SOURCE_DATE_EPOCH = "315532800"  # 1980-01-01, the earliest date a zip file can hold
DIGEST_CHARS = 16  # of the wheel's sha256, naming its folder: plenty to never collide


class BundleError(Exception):
    """The engine could not be bundled; the message says what to do."""


# --- the hook --------------------------------------------------------------------------------


def on_post_build(config: Any) -> None:
    try:
        bundle_into(Path(config["site_dir"]))
    except BundleError as error:
        from mkdocs.exceptions import PluginError

        raise PluginError(f"pyodide_bundle: {error}") from error


def on_serve(server: Any, config: Any, builder: Any) -> Any:
    # `mkdocs serve` watches docs/ and mkdocs.yml; the engine and widgets live outside them.
    for path in (ENGINE, WIDGETS):
        if path.is_dir():
            server.watch(str(path))
    return server


# --- the bundle ------------------------------------------------------------------------------


def bundle_into(site_dir: Path, cache: Path = CACHE) -> None:
    """Prepare the bundle and install it; builds running at once (tests, serve) take turns."""
    cache.parent.mkdir(parents=True, exist_ok=True)
    with open(cache.parent / f"{cache.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        install(prepare_bundle(cache), site_dir)


def prepare_bundle(cache: Path = CACHE) -> Path:
    """Bring ``cache`` (the wheel in its digest folder, the lockfile) up to date; return it."""
    missing = [name for name in (LOCKFILE, *RUNTIME_FILES) if not (PYODIDE_NPM / name).is_file()]
    if missing:
        raise BundleError(f"{_shown(PYODIDE_NPM)}/ lacks {', '.join(missing)}: run `npm ci` "
                          "(or `make build`, which runs it) to install the Pyodide pinned in package.json")
    fingerprint = _engine_fingerprint()
    stamp = cache / "engine.sha256"
    if stamp.is_file() and stamp.read_text() == fingerprint and shipped_wheel(cache) is not None:
        return cache
    shutil.rmtree(cache, ignore_errors=True)  # earlier engines' wheels (built sites keep their own links)
    cache.mkdir(parents=True)
    with tempfile.TemporaryDirectory(dir=cache) as tmp:
        built = build_wheel(Path(tmp))
        wheel = cache / _sha256(built)[:DIGEST_CHARS] / built.name
        wheel.parent.mkdir()
        os.replace(built, wheel)
    write_lockfile(wheel, cache / LOCKFILE)
    stamp.write_text(fingerprint)
    return cache


def shipped_wheel(bundle: Path) -> Path | None:
    """The wheel that ``bundle``'s lockfile names, if it is there with the sha256 it says."""
    try:
        entry = json.loads((bundle / LOCKFILE).read_text())["packages"][PACKAGE]
        wheel = bundle / entry["file_name"]
        return wheel if _sha256(wheel) == entry["sha256"] else None
    except (OSError, ValueError, KeyError, TypeError):
        return None


def install(bundle: Path, site_dir: Path) -> None:
    """Put the runtime, the bundle's wheel and lockfile at site/pyodide/, the widgets at site/widgets/."""
    target = site_dir / SITE_RUNTIME_DIR
    target.mkdir(parents=True, exist_ok=True)
    for name in RUNTIME_FILES:
        _link_or_copy(PYODIDE_NPM / name, target / name)
    wheel = shipped_wheel(bundle)
    if wheel is None:
        raise BundleError(f"{_shown(bundle)} holds no wheel matching its lockfile: delete it and build again")
    shipped = wheel.relative_to(bundle)
    for old in target.glob(f"*/{PACKAGE}-*.whl"):  # a dirty rebuild (`mkdocs serve --dirty`) keeps them
        if old.relative_to(target) != shipped:
            shutil.rmtree(old.parent)
    (target / shipped.parent).mkdir(exist_ok=True)
    _link_or_copy(wheel, target / shipped)
    _link_or_copy(bundle / LOCKFILE, target / LOCKFILE)
    if WIDGETS.is_dir():
        shutil.copytree(WIDGETS, site_dir / SITE_WIDGETS_DIR, dirs_exist_ok=True)
        for package, names in VENDORED.items():
            for name in names:
                source, target = NODE_MODULES / package / name, site_dir / SITE_WIDGETS_DIR / "vendor" / package / name
                if not source.is_file():
                    raise BundleError(f"{_shown(source)} is missing: run 'npm ci' (make setup does)")
                target.parent.mkdir(parents=True, exist_ok=True)
                _link_or_copy(source, target)


def build_wheel(out_dir: Path) -> Path:
    """Build the engine's wheel from a clean copy of the tree (no build/ or egg-info left behind)."""
    with tempfile.TemporaryDirectory(prefix="rollbook-wheel-") as tmp:
        src = Path(tmp) / "src"
        src.mkdir()
        for name in ("pyproject.toml", "README.md"):
            if (ROOT / name).is_file():
                shutil.copy2(ROOT / name, src / name)
        shutil.copytree(ENGINE, src / "engine" / PACKAGE, ignore=shutil.ignore_patterns("__pycache__", "*.pyc", ".*"))
        dist = Path(tmp) / "dist"
        command = [sys.executable, "-m", "build", "--wheel", "--no-isolation", "--skip-dependency-check",
                   "--outdir", str(dist), str(src)]
        env = {**os.environ, "SOURCE_DATE_EPOCH": SOURCE_DATE_EPOCH}
        done = subprocess.run(command, cwd=tmp, env=env, capture_output=True, text=True)
        if done.returncode != 0:
            tail = "\n".join((done.stdout + done.stderr).strip().splitlines()[-15:])
            raise BundleError(f"building the engine wheel failed ({' '.join(command[1:4])}):\n{tail}")
        (wheel,) = dist.glob(f"{PACKAGE}-*-py3-none-any.whl")
        check_wheel(wheel)
        final = out_dir / wheel.name
        shutil.copy2(wheel, final)
        return final


def check_wheel(wheel: Path) -> None:
    """The wheel holds the engine package and its data files, all of them, and nothing else."""
    with zipfile.ZipFile(wheel) as archive:
        names = [n for n in archive.namelist() if not n.endswith("/")]
    version = wheel.name.split("-")[1]
    dist_info = f"{PACKAGE}-{version}.dist-info/"
    stray = [n for n in names if not (n.startswith(f"{PACKAGE}/") or n.startswith(dist_info))]
    if stray:
        raise BundleError(f"{wheel.name} holds files outside the engine: {', '.join(stray[:5])}")
    shipped = {n for n in names if n.startswith(f"{PACKAGE}/")}
    expected = {f"{PACKAGE}/{p.relative_to(ENGINE).as_posix()}" for p in _engine_files()}
    missing = sorted(expected - shipped)
    if missing:
        raise BundleError(
            f"{wheel.name} lacks {', '.join(missing[:5])}: add the file pattern to "
            "[tool.setuptools.package-data] in pyproject.toml"
        )
    extra = sorted(shipped - expected)
    if extra:
        raise BundleError(f"{wheel.name} holds files not in engine/{PACKAGE}: {', '.join(extra[:5])}")


def write_lockfile(wheel: Path, path: Path) -> None:
    """Pyodide's lockfile, pruned to the engine (the pyodide-build lockfile step, as a library).
    The wheel's ``file_name`` is relative to the lockfile's folder, which the site serves as
    Pyodide's indexURL (Pyodide's installer only looks at the part after the last ``/``)."""
    from pyodide_lock import PyodideLockSpec
    from pyodide_lock.utils import add_wheels_to_spec

    spec = PyodideLockSpec.from_json(PYODIDE_NPM / LOCKFILE)
    spec.packages.clear()  # the site ships no other package; see the module docstring
    spec = add_wheels_to_spec(spec, [wheel], base_path=path.parent)
    entry = spec.packages[PACKAGE]
    if entry.depends:  # the engine is standard library only; a dependency would need shipping too
        raise BundleError(f"the engine wheel declares dependencies {entry.depends}; it must have none")
    tmp = path.with_suffix(".tmp")
    spec.to_json(tmp)
    os.replace(tmp, path)


# --- helpers ---------------------------------------------------------------------------------


def _engine_files() -> list[Path]:
    return sorted(
        p for p in ENGINE.rglob("*")
        if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc" and not p.name.startswith(".")
    )


def _engine_fingerprint() -> str:
    """Hash of the content of everything the wheel is built from (never mtimes, which a branch
    switch or an archive can leave equal), so an unchanged engine is not rebuilt."""
    digest = hashlib.sha256()
    for label, path in _wheel_inputs():
        digest.update(label.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def _wheel_inputs() -> Iterator[tuple[str, Path]]:
    yield "hook", Path(__file__).resolve()
    yield "lockfile", PYODIDE_NPM / LOCKFILE  # its info block (Python, ABI) goes into ours
    for name in ("pyproject.toml", "README.md"):
        if (ROOT / name).is_file():
            yield name, ROOT / name
    for path in _engine_files():
        yield f"{PACKAGE}/{path.relative_to(ENGINE).as_posix()}", path


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _shown(path: Path) -> str:
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


def _link_or_copy(source: Path, target: Path) -> None:
    """A hard link costs nothing (13 MB of runtime per rebuild); copy across file systems.
    Every writer here replaces files rather than rewriting them, so linked copies never change."""
    target.unlink(missing_ok=True)
    try:
        os.link(source, target)
    except OSError:
        shutil.copy2(source, target)


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python hooks/pyodide_bundle.py SITE_DIR", file=sys.stderr)
        return 2
    try:
        bundle_into(Path(argv[0]))
    except BundleError as error:
        print(f"pyodide_bundle: {error}", file=sys.stderr)
        return 1
    lock = json.loads((Path(argv[0]) / SITE_RUNTIME_DIR / LOCKFILE).read_text())
    print(f"bundled {', '.join(lock['packages'])} into {argv[0]}/{SITE_RUNTIME_DIR}/")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
