"""The Node harness (run.mjs) fails loudly and specifically, against a site bundled for the test."""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "site"))
from sitebuild import deployed_site  # noqa: E402

pytestmark = pytest.mark.cpython_only  # runs Node and the bundle hook in subprocesses

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("pyodide_bundle", ROOT / "hooks" / "pyodide_bundle.py")
hook = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(hook)

# CPython answering the corpus with one answer respaced: the same JSON value, other bytes.
RESPACING_PYTHON = """#!{python}
import json, subprocess, sys
report = json.loads(subprocess.run([{python!r}, *sys.argv[1:]], check=True, capture_output=True, text=True).stdout)
report["answers"][0] = report["answers"][0].replace(",", ", ", 1)
print(json.dumps(report))
"""


@pytest.fixture(scope="module")
def bundled_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site's engine as the run builds it (make test's site/, or one build for the session),
    read, never written: bundling a second copy here took 17 s of a loaded CI run."""
    return deployed_site(tmp_path_factory).directory


def run_harness(site: Path, **env: str) -> subprocess.CompletedProcess[str]:
    # --collect-only: the engine suite is collected, not run; the corpus check is what is tested.
    return subprocess.run(["node", "tests/pyodide/run.mjs", "--collect-only"], cwd=ROOT, capture_output=True,
                          text=True, timeout=300, env={**os.environ, "ROLLBOOK_SITE": str(site), **env})


def test_an_answer_differing_only_in_bytes_fails_naming_the_request(bundled_site: Path, tmp_path: Path) -> None:
    python = tmp_path / "python"
    python.write_text(RESPACING_PYTHON.format(python=sys.executable))
    python.chmod(0o755)

    done = run_harness(bundled_site, PYTHON=str(python))

    assert done.returncode == 1, done.stdout + done.stderr
    assert "pyodide harness: corpus request 1 of " in done.stderr
    assert "answers differently (first difference at character" in done.stderr


def test_a_wheel_not_matching_the_lockfile_fails_before_loading(bundled_site: Path, tmp_path: Path) -> None:
    site = tmp_path / "site"
    (site / "pyodide").mkdir(parents=True)
    for source in (bundled_site / "pyodide").rglob("*"):
        if source.is_file():  # copies, not the hook's hard links into its cache
            target = site / source.relative_to(bundled_site)
            target.parent.mkdir(exist_ok=True)
            target.write_bytes(source.read_bytes() + (b"\0" if source.suffix == ".whl" else b""))

    done = run_harness(site)

    assert done.returncode == 1
    assert "the lockfile says" in done.stderr and "a browser would refuse it" in done.stderr
    assert "Pyodide" not in done.stdout  # refused before loading


def test_a_site_built_from_another_engine_is_named_as_such(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    engine = tmp_path / "engine" / "rollbook"
    shutil.copytree(hook.ENGINE, engine, ignore=shutil.ignore_patterns("__pycache__"))
    (engine / "api.py").write_text((hook.ENGINE / "api.py").read_text(encoding="utf-8") + "# older\n", encoding="utf-8")
    monkeypatch.setattr(hook, "ENGINE", engine)
    hook.bundle_into(tmp_path / "site", tmp_path / "bundle")

    done = run_harness(tmp_path / "site")

    assert done.returncode == 1
    assert "was built from another engine than the tree's (api.py differ): run `make build`" in done.stderr
