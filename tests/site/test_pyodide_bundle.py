"""hooks/pyodide_bundle.py: the built site carries one versioned engine folder, pyodide/<hash>/,
named by every page: Pyodide, a lockfile naming only the engine, the engine's wheel (all of the
engine, nothing else), the worker and a memory snapshot tied to them."""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import shutil
import zipfile
from pathlib import Path
from types import ModuleType

import pytest

from sitebuild import ROOT, BuiltSite

pytestmark = [pytest.mark.site, pytest.mark.cpython_only]


def load_bundle_hook() -> ModuleType:
    spec = importlib.util.spec_from_file_location("pyodide_bundle", ROOT / "hooks" / "pyodide_bundle.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


hook = load_bundle_hook()


def engine_folder(site_dir: Path) -> Path:
    (folder,) = (site_dir / hook.SITE_RUNTIME_DIR).iterdir()  # the one folder, nothing beside it
    assert hook.FOLDER_NAME.fullmatch(folder.name), folder
    return folder


def test_the_site_ships_the_pyodide_runtime_from_node_modules(site: BuiltSite) -> None:
    runtime = engine_folder(site.directory)
    for name in hook.RUNTIME_FILES:
        assert (runtime / name).read_bytes() == (hook.PYODIDE_NPM / name).read_bytes(), name


def test_the_lockfile_names_only_the_engine_with_its_wheels_sha256(site: BuiltSite) -> None:
    runtime = engine_folder(site.directory)
    lock = json.loads((runtime / hook.LOCKFILE).read_text())
    pyodide_lock = json.loads((hook.PYODIDE_NPM / hook.LOCKFILE).read_text())
    assert lock["info"] == pyodide_lock["info"]  # same Python, ABI and platform as the runtime
    assert list(lock["packages"]) == ["rollbook"]
    entry = lock["packages"]["rollbook"]
    wheel = runtime / entry["file_name"]
    sha256 = hashlib.sha256(wheel.read_bytes()).hexdigest()
    assert entry["sha256"] == sha256
    # Beside the lockfile, in the folder named after the digest of all it holds (see the hook).
    assert entry["file_name"] == "rollbook-0.1.0-py3-none-any.whl"
    assert entry["imports"] == ["rollbook"] and entry["depends"] == []
    assert entry["package_type"] == "package" and entry["install_dir"] == "site"
    assert list(runtime.rglob("*.whl")) == [wheel]


def test_the_wheel_holds_every_engine_file_as_in_the_tree(site: BuiltSite) -> None:
    (wheel,) = engine_folder(site.directory).glob("rollbook-*.whl")
    hook.check_wheel(wheel)  # only the package and its dist-info, no engine file missing
    with zipfile.ZipFile(wheel) as archive:
        for path in hook._engine_files():
            name = f"rollbook/{path.relative_to(hook.ENGINE).as_posix()}"
            assert archive.read(name) == path.read_bytes(), f"{name} is not the tree's"


def test_the_engine_worker_is_in_the_versioned_folder_only(site: BuiltSite) -> None:
    worker = (hook.WIDGETS / hook.WORKER).read_bytes()
    assert (engine_folder(site.directory) / hook.WORKER).read_bytes() == worker
    assert [path for path in site.directory.rglob(hook.WORKER) if path.parent != engine_folder(site.directory)] == []


def test_every_page_names_the_engine_folder_named_after_its_content(site: BuiltSite) -> None:
    folder = engine_folder(site.directory)
    assert folder.name == hook.folder_digest(folder)
    meta = f'<meta name="rollbook-engine" content="pyodide/{folder.name}/">'
    unnamed = [str(page.relative_to(site.directory)) for page in site.pages()
               if meta not in page.read_text(encoding="utf-8")]
    assert unnamed == []


def test_the_snapshot_is_tied_to_this_pyodide_lockfile_and_wheel(site: BuiltSite, tmp_path: Path) -> None:
    folder = engine_folder(site.directory)
    info = json.loads((folder / hook.SNAPSHOT_INFO).read_text())
    npm = json.loads((hook.PYODIDE_NPM / "package.json").read_text())
    assert info["pyodide"] == npm["version"] and info["python"].startswith("3.")
    assert info["lockfile_sha256"] == hashlib.sha256((folder / hook.LOCKFILE).read_bytes()).hexdigest()
    assert info["wheel_sha256"] == hashlib.sha256((folder / info["wheel"]).read_bytes()).hexdigest()
    assert info["packed_bytes"] == (folder / hook.SNAPSHOT).stat().st_size
    wheel = folder / info["wheel"]
    assert hook.snapshot_matches(folder, wheel)
    # A record from another Pyodide, lockfile or wheel: the cached snapshot is not used (made again).
    copy = tmp_path / folder.name
    shutil.copytree(folder, copy)
    for key, other in (("pyodide", "0.0.1"), ("lockfile_sha256", "0" * 64), ("wheel_sha256", "0" * 64)):
        (copy / hook.SNAPSHOT_INFO).write_text(json.dumps({**info, key: other}))
        assert not hook.snapshot_matches(copy, copy / info["wheel"]), key
        assert not hook.complete(copy) and hook.complete(copy, snapshot=False)


def _fake_wheel(tmp_path: Path, extra: dict[str, str]) -> Path:
    wheel = tmp_path / "rollbook-0.1.0-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        for path in hook._engine_files():
            archive.writestr(f"rollbook/{path.relative_to(hook.ENGINE).as_posix()}", path.read_bytes())
        archive.writestr("rollbook-0.1.0.dist-info/METADATA", "Name: rollbook\n")
        for name, text in extra.items():
            archive.writestr(name, text)
    return wheel


def test_a_wheel_with_a_stray_file_is_refused(tmp_path: Path) -> None:
    hook.check_wheel(_fake_wheel(tmp_path, {}))
    with pytest.raises(hook.BundleError, match="outside the engine: tests/test_x.py"):
        hook.check_wheel(_fake_wheel(tmp_path, {"tests/test_x.py": ""}))
    with pytest.raises(hook.BundleError, match="not in engine/rollbook: rollbook/notes.txt"):
        hook.check_wheel(_fake_wheel(tmp_path, {"rollbook/notes.txt": ""}))


def test_a_wheel_missing_an_engine_file_is_refused(tmp_path: Path) -> None:
    wheel = tmp_path / "rollbook-0.1.0-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        archive.writestr("rollbook/__init__.py", "")
    with pytest.raises(hook.BundleError, match="lacks rollbook/"):
        hook.check_wheel(wheel)


def test_the_wheel_is_reproducible(tmp_path: Path) -> None:
    """Same tree, same bytes: the sha256 in the lockfile only changes when the engine does."""
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    first, second = hook.build_wheel(tmp_path / "a"), hook.build_wheel(tmp_path / "b")
    assert first.read_bytes() == second.read_bytes()


def test_a_readme_or_tooling_edit_leaves_the_wheel_as_it_was(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The wheel's bytes name the engine folder's URL: were the README (the package's long
    description) or the development extra in its metadata, editing either would send every
    returning player the whole runtime again. Only the engine's own fields are in it."""
    (tmp_path / "a").mkdir()
    as_built = hook.build_wheel(tmp_path / "a")
    root = tmp_path / "root"
    root.mkdir()
    pyproject = (hook.ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert "dev = [\n" in pyproject and 'readme = "README.md"' in pyproject
    (root / "pyproject.toml").write_text(pyproject.replace("dev = [\n", 'dev = [\n  "another-tool>=1",\n'), encoding="utf-8")
    (root / "README.md").write_text("# Another README\n", encoding="utf-8")
    monkeypatch.setattr(hook, "ROOT", root)
    (tmp_path / "b").mkdir()
    assert hook.build_wheel(tmp_path / "b").read_bytes() == as_built.read_bytes()
    with zipfile.ZipFile(as_built) as archive:
        metadata = archive.read("rollbook-0.1.0.dist-info/METADATA").decode()
    assert "Provides-Extra" not in metadata and "Description-Content-Type" not in metadata
    assert "Name: rollbook" in metadata and "Version: 0.1.0" in metadata and "Requires-Python: >=3.11" in metadata


def test_a_missing_pyodide_says_to_run_npm_ci(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(hook, "PYODIDE_NPM", hook.ROOT / "node_modules" / "no-such-pyodide")
    with pytest.raises(hook.BundleError, match=r"no-such-pyodide/ lacks pyodide-lock.json, .*run `npm ci` \(or `make build`"):
        hook.bundle_into(tmp_path / "site", tmp_path / "cache")


def _edit_keeping_mtime(path: Path, text: str) -> None:
    """Change a file but not its mtime, as a branch switch or an unpacked archive can."""
    before = path.stat()
    path.write_text(text, encoding="utf-8")
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))


def test_any_engine_change_ships_a_new_folder_at_a_new_url(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The cache rebuilds on content, not mtimes; the folder's URL changes with the engine's bytes
    (so no browser can pair a cached older wheel or lockfile with a newer page), and a dirty
    rebuild ships one folder. (Without the snapshot, which is tested above, to keep this quick.)"""
    engine = tmp_path / "engine" / "rollbook"
    shutil.copytree(hook.ENGINE, engine, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(hook, "ENGINE", engine)
    site, cache = tmp_path / "site", tmp_path / "cache"

    def bundle() -> str:
        folder = hook.bundle_into(site, cache, snapshot=False)
        assert engine_folder(site) == folder
        entry = json.loads((folder / hook.LOCKFILE).read_text())["packages"]["rollbook"]
        assert [p.relative_to(folder).as_posix() for p in site.rglob("*.whl")] == [entry["file_name"]]
        return folder.name

    original = bundle()
    inode = (cache / original / hook.LOCKFILE).stat().st_ino
    assert bundle() == original and (cache / original / hook.LOCKFILE).stat().st_ino == inode  # not rebuilt

    module, table = engine / "api.py", sorted((engine / "data").glob("*.toml"))[0]
    module_text, table_text = module.read_text(encoding="utf-8"), table.read_text(encoding="utf-8")
    _edit_keeping_mtime(module, module_text + "# edited\n")
    edited_module = bundle()
    _edit_keeping_mtime(table, table_text + "# edited\n")
    edited_table = bundle()
    assert len({original, edited_module, edited_table}) == 3
    (wheel,) = (site / "pyodide" / edited_table).glob("*.whl")
    with zipfile.ZipFile(wheel) as archive:
        assert archive.read("rollbook/api.py").endswith(b"# edited\n")

    _edit_keeping_mtime(module, module_text)  # back to the first branch
    _edit_keeping_mtime(table, table_text)
    assert bundle() == original  # reproducible: the browser's cached copy is valid again


def test_only_tool_pages_start_the_engine_from_their_head(site: BuiltSite) -> None:
    start = '<script async src="'
    for page, starts in (("index.html", False),  # the table-mode toggle in every header asks nothing
                         ("tools/offline/index.html", False),  # nor do the kept-data panel and the offline copy
                         ("tools/roller/index.html", True),
                         ("opencore/combat/index.html", False),  # only dice in the text: when one is reached for
                         ("tools/combat/index.html", True)):
        html = (site.directory / page).read_text(encoding="utf-8")
        assert ("widgets/start.js" in html) is starts, page
        if starts:  # first in the head (after the charset and the policy): fetched before the stylesheets
            head = html[html.index("<head>"):html.index("</head>")]
            assert head.index("widgets/start.js") < head.index('rel="stylesheet"'), page
            assert head.index('name="rollbook-engine"') < head.index("widgets/start.js"), page
            assert f'{start}{"../" * page.count("/")}widgets/start.js"></script>' in head, page


def test_the_engine_meta_goes_after_the_charset(tmp_path: Path) -> None:
    html = '<html><head>\n  <meta charset="utf-8"><title>t</title></head><body><rollbook-roller></rollbook-roller></body></html>'
    out = hook.add_engine_meta(html, "pyodide/0123456789abcdef/", "../")
    assert out.startswith('<html><head>\n  <meta charset="utf-8"><meta name="rollbook-engine" content="pyodide/0123456789abcdef/">'
                          '<script async src="../widgets/start.js"></script><title>')
    with pytest.raises(hook.BundleError, match="without <head>"):
        hook.add_engine_meta("<html><body></body></html>", "pyodide/0123456789abcdef/", "")


@pytest.mark.parametrize("argv", [["--help"], ["-h"]])
def test_the_command_line_asks_for_help_without_bundling_into_a_folder_named_after_it(
        argv: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as exit_:
        hook.main(argv)
    assert exit_.value.code == 0
    assert "SITE_DIR" in capsys.readouterr().out
    assert list(tmp_path.iterdir()) == []  # before, it bundled into ./--help/


def test_the_command_line_without_a_site_folder_says_what_to_give(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as exit_:
        hook.main([])
    assert exit_.value.code == 2 and "SITE_DIR" in capsys.readouterr().err
