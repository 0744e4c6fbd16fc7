"""hooks/pyodide_bundle.py: the built site carries Pyodide, a lockfile naming only the engine, the
engine's wheel (all of the engine, nothing else) and the widgets' worker runtime."""

from __future__ import annotations

import hashlib
import importlib.util
import json
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


def test_the_site_ships_the_pyodide_runtime_from_node_modules(site: BuiltSite) -> None:
    runtime = site.directory / hook.SITE_RUNTIME_DIR
    for name in hook.RUNTIME_FILES:
        assert (runtime / name).read_bytes() == (hook.PYODIDE_NPM / name).read_bytes(), name


def test_the_lockfile_names_only_the_engine_with_its_wheels_sha256(site: BuiltSite) -> None:
    runtime = site.directory / hook.SITE_RUNTIME_DIR
    lock = json.loads((runtime / hook.LOCKFILE).read_text())
    pyodide_lock = json.loads((hook.PYODIDE_NPM / hook.LOCKFILE).read_text())
    assert lock["info"] == pyodide_lock["info"]  # same Python, ABI and platform as the runtime
    assert list(lock["packages"]) == ["rollbook"]
    entry = lock["packages"]["rollbook"]
    wheel = runtime / entry["file_name"]
    assert entry["sha256"] == hashlib.sha256(wheel.read_bytes()).hexdigest()
    assert entry["imports"] == ["rollbook"] and entry["depends"] == []
    assert [p.name for p in runtime.glob("*.whl")] == [wheel.name]


def test_the_wheel_holds_every_engine_file_as_in_the_tree(site: BuiltSite) -> None:
    (wheel,) = (site.directory / hook.SITE_RUNTIME_DIR).glob("rollbook-*.whl")
    hook.check_wheel(wheel)  # only the package and its dist-info, no engine file missing
    with zipfile.ZipFile(wheel) as archive:
        for path in hook._engine_files():
            name = f"rollbook/{path.relative_to(hook.ENGINE).as_posix()}"
            assert archive.read(name) == path.read_bytes(), f"{name} is not the tree's"


def test_the_site_ships_the_widgets_runtime(site: BuiltSite) -> None:
    for name in ("engine.js", "engine-worker.js"):
        assert (site.directory / hook.SITE_WIDGETS_DIR / name).read_bytes() == (hook.WIDGETS / name).read_bytes()


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
