"""``benchmarks/dice.py --write-readme`` rewrites only its own section of benchmarks/README.md."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[3] / "benchmarks" / "dice.py"
RESULT = {
    "python": "3.11.7", "icepool": "2.1.3", "d20": "1.1.2", "number": 20_000,
    "rolls": {"3d6": {"rollbook_us": 1.25, "d20_us": 6.5, "ratio": 5.2, "rollbook_text_us": 2.0,
                      "d20_text_us": 11.5, "ratio_text": 5.75}},
    "distributions": {e: {"rollbook_cold_ms": 1.0, "icepool_cold_ms": 45.0, "ratio_cold": 45.0}
                      for e in ("3d6", "10d100kh3", "50d100")},
    "targets_met": {"d20": True, "icepool": True},
}


def load_bench():
    spec = importlib.util.spec_from_file_location("dice_bench", BENCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.cpython_only
def test_write_readme_replaces_only_the_dice_section(tmp_path):
    bench = load_bench()
    readme = tmp_path / "README.md"
    readme.write_text(f"# Benchmarks\n\nbefore\n\n{bench.START}\nold table\n{bench.END}\n\nafter\n", encoding="utf-8")
    section = bench.readme_section(RESULT, bench._command(["--write-readme"]))
    bench.write_readme(section, readme)
    text = readme.read_text(encoding="utf-8")
    assert "old table" not in text and text.startswith("# Benchmarks\n\nbefore\n\n") and text.endswith("\n\nafter\n")
    assert text.count(bench.START) == text.count(bench.END) == 1
    assert "benchmarks/dice.py --write-readme` on " in text  # the exact command that made it
    assert "| 3d6 | 1.25 | 6.50 | 5.2× | 2.00 | 11.50 | 5.8× |" in text
    assert "| 10d100kh3 | 1.00 | 45.00 | 45.0× |" in text
    bench.write_readme(section, readme)  # again: the same file, not a second section
    assert readme.read_text(encoding="utf-8") == text


@pytest.mark.cpython_only
def test_write_readme_appends_a_missing_section(tmp_path):
    bench = load_bench()
    readme = tmp_path / "README.md"
    readme.write_text("# Benchmarks\n\nother\n", encoding="utf-8")
    bench.write_readme(bench.readme_section(RESULT, "python benchmarks/dice.py --write-readme"), readme)
    text = readme.read_text(encoding="utf-8")
    assert text.startswith("# Benchmarks\n\nother\n\n" + bench.START) and text.endswith(bench.END + "\n")
