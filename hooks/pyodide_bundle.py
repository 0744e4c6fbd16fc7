"""MkDocs hook: ship the engine in the tree to the browser, inside a self-hosted Pyodide.

After every build (``make build``, and every rebuild of ``make serve``) the site gets:

* ``pyodide/`` - the Pyodide runtime files the browser needs, copied from ``node_modules/pyodide``
  (pinned in package.json; never a CDN), the engine's pure-Python wheel built from ``engine/``,
  and ``pyodide-lock.json``: Pyodide's own lockfile with its package list pruned to the one
  package the site ships, ``rollbook`` (with the wheel's sha256). Pruning keeps the lockfile
  small (1 KB instead of 120 KB) and makes a stray ``loadPackage("numpy")`` fail loudly with
  "no known package" instead of trying to fetch a wheel the site does not have.
* ``widgets/`` - a copy of the repository's ``widgets/`` (the worker and its client).

So a page loads the engine with::

    loadPyodide({indexURL: "<site>/pyodide/", lockFileURL: "<site>/pyodide/pyodide-lock.json",
                 packages: ["rollbook"]})

The bundle is prepared once in ``build/pyodide-bundle/`` and reused while the engine and the
runtime are unchanged (a rebuild under ``mkdocs serve`` then only links or copies files).
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
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
ENGINE = ROOT / "engine" / "rollbook"
WIDGETS = ROOT / "widgets"
PYODIDE_NPM = ROOT / "node_modules" / "pyodide"
CACHE = ROOT / "build" / "pyodide-bundle"

PACKAGE = "rollbook"
SITE_RUNTIME_DIR = "pyodide"  # site/pyodide/: runtime, lockfile and engine wheel side by side
SITE_WIDGETS_DIR = "widgets"
LOCKFILE = "pyodide-lock.json"
# What loadPyodide fetches in a browser (module worker): the ES module loader, the Emscripten
# module, the WebAssembly binary and the standard library. Not the classic-script pyodide.js,
# the type declarations, the consoles or the source maps.
RUNTIME_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip")
# A fixed timestamp makes the wheel, hence its sha256 in the lockfile, reproducible.
SOURCE_DATE_EPOCH = "315532800"  # 1980-01-01, the earliest date a zip file can hold


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
    cache.mkdir(parents=True, exist_ok=True)
    with open(cache.parent / f"{cache.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        install(prepare_bundle(cache), site_dir)


def prepare_bundle(cache: Path = CACHE) -> Path:
    """Bring ``cache`` up to date (runtime files, wheel, lockfile) and return it."""
    if not (PYODIDE_NPM / LOCKFILE).is_file():
        raise BundleError(f"{PYODIDE_NPM.relative_to(ROOT)} is missing: run `make setup` (npm ci) first")
    cache.mkdir(parents=True, exist_ok=True)
    for name in RUNTIME_FILES:
        _copy_if_changed(PYODIDE_NPM / name, cache / name)
    fingerprint = _engine_fingerprint()
    stamp = cache / "engine.sha256"
    wheels = sorted(cache.glob(f"{PACKAGE}-*.whl"))
    if not (stamp.is_file() and stamp.read_text() == fingerprint and len(wheels) == 1 and (cache / LOCKFILE).is_file()):
        stamp.unlink(missing_ok=True)
        for old in wheels:
            old.unlink()
        wheel = build_wheel(cache)
        write_lockfile(wheel, cache / LOCKFILE)
        stamp.write_text(fingerprint)
    return cache


def install(bundle: Path, site_dir: Path) -> None:
    """Put the bundle at site/pyodide/ and the widgets at site/widgets/."""
    target = site_dir / SITE_RUNTIME_DIR
    target.mkdir(parents=True, exist_ok=True)
    for source in bundle.iterdir():
        if source.name in RUNTIME_FILES or source.name == LOCKFILE or source.suffix == ".whl":
            _link_or_copy(source, target / source.name)
    if WIDGETS.is_dir():
        shutil.copytree(WIDGETS, site_dir / SITE_WIDGETS_DIR, dirs_exist_ok=True)


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
    """Pyodide's lockfile, pruned to the engine (the pyodide-build lockfile step, as a library)."""
    from pyodide_lock import PyodideLockSpec
    from pyodide_lock.utils import add_wheels_to_spec

    spec = PyodideLockSpec.from_json(PYODIDE_NPM / LOCKFILE)
    spec.packages.clear()  # the site ships no other package; see the module docstring
    spec = add_wheels_to_spec(spec, [wheel], base_path=wheel.parent)
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
    """Hash of everything the wheel is built from, so an unchanged engine is not rebuilt."""
    digest = hashlib.sha256()
    for path in [Path(__file__).resolve(), ROOT / "pyproject.toml", ROOT / "README.md", PYODIDE_NPM / LOCKFILE,
                 *_engine_files()]:
        if path.is_file():
            digest.update(path.relative_to(ROOT).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def _copy_if_changed(source: Path, target: Path) -> None:
    if not source.is_file():
        raise BundleError(f"{source.relative_to(ROOT)} is missing: run `make setup` (npm ci) again")
    if target.is_file():
        s, t = source.stat(), target.stat()
        if s.st_size == t.st_size and int(s.st_mtime) == int(t.st_mtime):
            return
    tmp = target.with_suffix(target.suffix + ".tmp")
    shutil.copy2(source, tmp)
    os.replace(tmp, target)


def _link_or_copy(source: Path, target: Path) -> None:
    """A hard link costs nothing (13 MB of runtime per rebuild); copy across file systems."""
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
