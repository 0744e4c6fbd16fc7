"""MkDocs hook: ship the engine in the tree to the browser, inside a self-hosted Pyodide.

Every build (``make build``, and every rebuild of ``make serve``) gets one versioned folder,
``site/pyodide/<hash>/``, holding everything the engine's worker loads, side by side:

* the Pyodide runtime files the browser needs, from ``node_modules/pyodide`` (pinned in
  package.json; never a CDN);
* the engine's pure-Python wheel built from ``engine/`` and ``pyodide-lock.json``: Pyodide's own
  lockfile with its package list pruned to the one package the site ships, ``rollbook`` (with the
  wheel's sha256). Pruning keeps the lockfile small (1 KB instead of 120 KB) and makes a stray
  ``loadPackage("numpy")`` fail loudly with "no known package" instead of fetching a wheel the
  site does not have;
* ``engine.snapshot.gz``: a Pyodide memory snapshot with the engine imported, made on Node by
  hooks/pyodide_snapshot.mjs and proved there by restoring it (``engine.snapshot.json`` records
  the Pyodide version and build id, the lockfile's and wheel's sha256 it belongs to; a cached
  snapshot whose record does not match the folder is made again);
* ``engine-worker.js``, the worker itself (from ``widgets/``).

``<hash>`` is the sha256 of all of it but the snapshot (which is a function of the rest), so a
new engine, runtime or worker is a new URL for every file the worker loads, and every page names
its folder in ``<meta name="rollbook-engine" content="pyodide/<hash>/">`` (read by
widgets/engine.js): a page of one deploy never talks to an engine or lockfile of another, whatever
a browser or a service worker has cached. Earlier folders are removed from ``site/pyodide/``.
So the wheel changes only with the engine: its metadata comes from pyproject.toml's engine fields
alone, not the README (the package's long description) nor the development extra. Either, edited,
used to give the folder a new URL, and every returning player downloaded the whole runtime again
(about 19 MB) for a deploy that had not touched the engine.

``widgets/`` (the page side) is bundled into ``site/widgets/`` by hooks/widgets_bundle.py.

The folder is prepared once in ``build/pyodide-bundle/<hash>/`` and reused while its inputs are
unchanged, so a rebuild under ``mkdocs serve`` only links files; any edit of the engine, or a
switch of git branch, rebuilds it. Run ``python hooks/pyodide_bundle.py DIR`` to bundle into DIR
without MkDocs.
"""

from __future__ import annotations

import argparse
import fcntl
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import tomllib
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

# hooks/ is no package: MkDocs has a hook's folder on sys.path while it imports the hook, the tests
# that load a hook by its path do not, so the folder is put there for this one import.
sys.path.insert(0, str(Path(__file__).parent))
try:
    from widget_tags import WidgetTagsError, widget_tags
finally:
    sys.path.remove(str(Path(__file__).parent))

ROOT = Path(__file__).resolve().parents[1]
ENGINE = ROOT / "engine" / "rollbook"
WIDGETS = ROOT / "widgets"
PYODIDE_NPM = ROOT / "node_modules" / "pyodide"
CACHE = ROOT / "build" / "pyodide-bundle"
SNAPSHOT_SCRIPT = ROOT / "hooks" / "pyodide_snapshot.mjs"

PACKAGE = "rollbook"
SITE_RUNTIME_DIR = "pyodide"  # site/pyodide/<hash>/: runtime, lockfile, wheel, snapshot, worker
LOCKFILE = "pyodide-lock.json"
WORKER = "engine-worker.js"
SNAPSHOT = "engine.snapshot.gz"
SNAPSHOT_INFO = "engine.snapshot.json"
# What loadPyodide fetches in a browser (module worker): the ES module loader, the Emscripten
# module, the WebAssembly binary and the standard library. Not the classic-script pyodide.js,
# the type declarations, the consoles or the source maps.
RUNTIME_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip")
# A fixed timestamp makes the wheel, hence its sha256 in the lockfile, reproducible.
SOURCE_DATE_EPOCH = "315532800"  # 1980-01-01, the earliest date a zip file can hold
DIGEST_CHARS = 16  # of the folder's sha256, naming it: plenty to never collide
FOLDER_NAME = re.compile(r"[0-9a-f]{%d}" % DIGEST_CHARS)
META = '<meta name="rollbook-engine" content="{folder}">'
# Tool pages (a custom element <rollbook-…> that asks the engine) start it from their head. Not the
# rules pages, whose only such elements are the dice in the text (<rollbook-roll>): there the
# engine starts when the reader reaches for a die (widgets/element.js), since starting it at once
# competes with the reading for the CPU (Lighthouse's total blocking time on opencore/combat/:
# 75-110 ms without, 210-266 ms with, medians of 3) and costs a reader who taps nothing about
# 10 MB. Nor the table-mode toggle in every header (not a widget of widgets/rollbook.js's map), the
# kept-data panel, the offline copy or the log: the widgets below. The tags come from widgets/rollbook.js
# (hooks/widget_tags.py); a name below that is not one of them stops the build.
EARLY_START = '<script async src="{root}widgets/start.js"></script>'
HEAD_OPENING = re.compile(r"<head(\s[^>]*)?>\s*(<meta charset=[^>]*>)?", re.IGNORECASE)
NO_EARLY_START = ("rollbook-roll", "rollbook-kept", "rollbook-offline-copy", "rollbook-log")

_prepared: Path | None = None  # this build's folder in the cache (on_pre_build)


class BundleError(Exception):
    """The engine could not be bundled; the message says what to do."""


# --- the hook --------------------------------------------------------------------------------


def _plugin_error(error: BundleError) -> Exception:
    from mkdocs.exceptions import PluginError

    return PluginError(f"pyodide_bundle: {error}")


def on_pre_build(config: Any) -> None:
    """Prepare the folder first: the pages name it (on_post_page)."""
    global _prepared
    try:
        _prepared = locked_prepare(CACHE)
    except BundleError as error:
        raise _plugin_error(error) from error


def on_post_page(output: str, page: Any, config: Any) -> str:
    if _prepared is None:
        return output
    root = "../" * page.url.count("/")  # directory URLs: "tools/roller/" -> "../../"
    try:
        return add_engine_meta(output, site_folder(_prepared), root)
    except BundleError as error:
        raise _plugin_error(BundleError(f"{page.file.src_uri}: {error}")) from error


def on_post_template(output_content: str, template_name: str, config: Any) -> str:
    # 404.html, rendered from the theme: instant navigation may lead from it to a page with widgets.
    if _prepared is None or template_name != "404.html":
        return output_content
    try:
        return add_engine_meta(output_content, site_folder(_prepared), "")
    except BundleError as error:
        raise _plugin_error(BundleError(f"{template_name}: {error}")) from error


def on_post_build(config: Any) -> None:
    try:
        if _prepared is None:
            bundle_into(Path(config["site_dir"]))
        else:
            install(_prepared, Path(config["site_dir"]))
    except BundleError as error:
        raise _plugin_error(error) from error


def on_serve(server: Any, config: Any, builder: Any) -> Any:
    # `mkdocs serve` watches docs/ and mkdocs.yml; the engine and widgets live outside them.
    for path in (ENGINE, WIDGETS):
        if path.is_dir():
            server.watch(str(path))
    return server


def site_folder(folder: Path) -> str:
    """The folder as pages name it, relative to the site's root: ``pyodide/<hash>/``."""
    return f"{SITE_RUNTIME_DIR}/{folder.name}/"


def engine_widget_pattern() -> re.Pattern[str]:
    """An opening tag of a widget that starts the engine from the page's head."""
    try:
        tags = widget_tags()
    except WidgetTagsError as error:
        raise BundleError(str(error)) from error
    unknown = sorted(set(NO_EARLY_START) - set(tags))
    if unknown:
        raise BundleError(f"NO_EARLY_START names {', '.join(unknown)}: not a widget of widgets/rollbook.js")
    starting = [tag for tag in tags if tag not in NO_EARLY_START]
    return re.compile(r"<(?:%s)[\s>]" % "|".join(map(re.escape, starting)))


def add_engine_meta(html: str, folder: str, root: str) -> str:
    """The page naming its engine folder first thing in its head and, if it is a tool page (a
    widget that asks the engine, not only dice in the text), starting it from there
    (widgets/start.js, fetched before the stylesheets; ``root`` is the site's root from the page)."""
    opening = HEAD_OPENING.search(html)
    if opening is None:
        raise BundleError("a page without <head>: cannot name its engine")
    head = META.format(folder=folder)
    if engine_widget_pattern().search(html):
        head += EARLY_START.format(root=root)
    return html[:opening.end()] + head + html[opening.end():]


# --- the bundle ------------------------------------------------------------------------------


def bundle_into(site_dir: Path, cache: Path = CACHE, snapshot: bool = True) -> Path:
    """Prepare the folder and install it; return its place in the site."""
    folder = locked_prepare(cache, snapshot)
    install(folder, site_dir)
    return site_dir / SITE_RUNTIME_DIR / folder.name


def locked_prepare(cache: Path = CACHE, snapshot: bool = True) -> Path:
    """prepare_bundle, with builds running at once (tests, serve) taking turns."""
    cache.parent.mkdir(parents=True, exist_ok=True)
    with open(cache.parent / f"{cache.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        return prepare_bundle(cache, snapshot)


def prepare_bundle(cache: Path = CACHE, snapshot: bool = True) -> Path:
    """Bring ``cache/<hash>/`` (see the module docstring) up to date; return it."""
    missing = [name for name in (LOCKFILE, *RUNTIME_FILES) if not (PYODIDE_NPM / name).is_file()]
    if missing:
        raise BundleError(f"{_shown(PYODIDE_NPM)}/ lacks {', '.join(missing)}: run `npm ci` "
                          "(or `make build`, which runs it) to install the Pyodide pinned in package.json")
    fingerprint = _engine_fingerprint()
    stamp = cache / "engine.sha256"
    current = cache / "current"  # names the folder the stamp's inputs made
    if stamp.is_file() and stamp.read_text() == fingerprint and current.is_file():
        folder = cache / current.read_text().strip()
        if FOLDER_NAME.fullmatch(folder.name) and complete(folder, snapshot):
            return folder
    cache.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=cache, prefix="tmp-") as tmp:
        work = Path(tmp) / "folder"
        work.mkdir()
        built = build_wheel(Path(tmp))
        os.replace(built, work / built.name)
        write_lockfile(work / built.name, work / LOCKFILE)
        for name in RUNTIME_FILES:
            _link_or_copy(PYODIDE_NPM / name, work / name)
        shutil.copy2(WIDGETS / WORKER, work / WORKER)
        folder = cache / folder_digest(work)
        if not complete(folder, snapshot):
            if snapshot:
                make_snapshot(work)
            shutil.rmtree(folder, ignore_errors=True)
            os.replace(work, folder)
    for old in cache.iterdir():  # earlier folders (built sites keep their own links)
        if old.is_dir() and old != folder and FOLDER_NAME.fullmatch(old.name):
            shutil.rmtree(old)
    current.write_text(folder.name)
    stamp.write_text(fingerprint)
    return folder


def folder_digest(folder: Path) -> str:
    """The folder's name: the sha256 of every file the worker loads but the snapshot, which is
    made from them (and of the script that makes it)."""
    digest = hashlib.sha256()
    for path in sorted(folder.iterdir()):
        if path.name not in (SNAPSHOT, SNAPSHOT_INFO):
            digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    digest.update(SNAPSHOT_SCRIPT.read_bytes())
    return digest.hexdigest()[:DIGEST_CHARS]


def complete(folder: Path, snapshot: bool = True) -> bool:
    """The folder holds the wheel its lockfile names, the runtime, the worker, and (if asked for)
    a snapshot whose record matches this Pyodide, this lockfile and this wheel."""
    wheel = shipped_wheel(folder)
    if wheel is None or not all((folder / name).is_file() for name in (*RUNTIME_FILES, WORKER)):
        return False
    return not snapshot or snapshot_matches(folder, wheel)


def snapshot_matches(folder: Path, wheel: Path) -> bool:
    """The snapshot is tied to the exact Pyodide build, lockfile and wheel it was made with."""
    try:
        info = json.loads((folder / SNAPSHOT_INFO).read_text())
        pyodide_version = json.loads((PYODIDE_NPM / "package.json").read_text())["version"]
        return ((folder / SNAPSHOT).is_file()
                and info["pyodide"] == pyodide_version
                and info["lockfile_sha256"] == _sha256(folder / LOCKFILE)
                and info["wheel_sha256"] == _sha256(wheel)
                and info["packed_bytes"] == (folder / SNAPSHOT).stat().st_size)
    except (OSError, ValueError, KeyError, TypeError):
        return False


def make_snapshot(folder: Path) -> None:
    """Make and prove the folder's memory snapshot on Node (hooks/pyodide_snapshot.mjs)."""
    done = subprocess.run(["node", str(SNAPSHOT_SCRIPT), str(folder)], cwd=ROOT, capture_output=True, text=True)
    if done.returncode != 0:
        tail = "\n".join((done.stdout + done.stderr).strip().splitlines()[-15:])
        raise BundleError(f"the engine's memory snapshot could not be made or did not restore:\n{tail}")
    wheel = shipped_wheel(folder)
    if wheel is None or not snapshot_matches(folder, wheel):
        raise BundleError(f"{SNAPSHOT_INFO} does not match the folder it was made in")


def shipped_wheel(bundle: Path) -> Path | None:
    """The wheel that ``bundle``'s lockfile names, if it is there with the sha256 it says."""
    try:
        entry = json.loads((bundle / LOCKFILE).read_text())["packages"][PACKAGE]
        wheel = bundle / entry["file_name"]
        return wheel if _sha256(wheel) == entry["sha256"] else None
    except (OSError, ValueError, KeyError, TypeError):
        return None


def install(folder: Path, site_dir: Path) -> None:
    """Put the folder at site/pyodide/<hash>/ (and nothing else there)."""
    runtime = site_dir / SITE_RUNTIME_DIR
    target = runtime / folder.name
    if runtime.is_dir():  # a dirty rebuild (`mkdocs serve --dirty`) keeps earlier ones
        for old in runtime.iterdir():
            if old != target:
                shutil.rmtree(old) if old.is_dir() else old.unlink()
    target.mkdir(parents=True, exist_ok=True)
    for path in folder.iterdir():
        _link_or_copy(path, target / path.name)


def build_wheel(out_dir: Path) -> Path:
    """Build the engine's wheel from a clean copy of the tree (no build/ or egg-info left behind)."""
    with tempfile.TemporaryDirectory(prefix="rollbook-wheel-") as tmp:
        src = Path(tmp) / "src"
        src.mkdir()
        (src / "pyproject.toml").write_text(engine_pyproject(), encoding="utf-8")
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


# What the wheel's metadata is made from (see the module docstring): the project's name, version,
# summary, Python, licence, dependencies (none) and command, and setuptools' package settings.
ENGINE_PROJECT_FIELDS = ("name", "version", "description", "requires-python", "license", "dependencies", "scripts")


def engine_pyproject() -> str:
    """pyproject.toml as the engine's wheel is built from it: the engine's fields only."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    project = {key: value for key, value in config["project"].items() if key in ENGINE_PROJECT_FIELDS}
    return _toml({"build-system": config["build-system"], "project": project,
                  "tool": {"setuptools": config["tool"]["setuptools"]}})


def _toml(table: dict[str, Any], header: str = "") -> str:
    """TOML for strings, numbers, booleans, lists of them and tables (JSON's quoting is TOML's)."""
    keys = [f"{json.dumps(key)} = {json.dumps(value)}" for key, value in table.items() if not isinstance(value, dict)]
    text = (f"[{header}]\n" if header and keys else "") + "".join(line + "\n" for line in keys)
    for key, value in table.items():
        if isinstance(value, dict):
            text += _toml(value, f"{header}.{json.dumps(key)}" if header else json.dumps(key))
    return text


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
    The wheel's ``file_name`` is relative to the lockfile's folder (the wheel lies beside it),
    which the site serves as Pyodide's indexURL."""
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
    yield "snapshot", SNAPSHOT_SCRIPT
    yield "worker", WIDGETS / WORKER
    yield "lockfile", PYODIDE_NPM / LOCKFILE  # its info block (Python, ABI) goes into ours
    yield "pyproject.toml", ROOT / "pyproject.toml"
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
    # argparse: "--help" is help, not a site folder to bundle into (it made a folder named --help)
    parser = argparse.ArgumentParser(prog="python hooks/pyodide_bundle.py",
                                     description="Bundle the engine and its Pyodide into SITE_DIR/pyodide/<hash>/, without MkDocs.")
    parser.add_argument("site_dir", metavar="SITE_DIR", type=Path, help="the built site's folder (site/)")
    args = parser.parse_args(argv)
    try:
        folder = bundle_into(args.site_dir)
    except BundleError as error:
        print(f"pyodide_bundle: {error}", file=sys.stderr)
        return 1
    lock = json.loads((folder / LOCKFILE).read_text())
    print(f"bundled {', '.join(lock['packages'])} into {folder}/")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
