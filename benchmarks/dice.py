"""Rollbook's dice engine against its peers, on the same expressions, in one run.

* rolls per second against avrae's ``d20`` (both with the parse cached, both lazy about the
  breakdown text: timed once without it and once with it);
* exact distributions against ``icepool`` (cold: the first computation, nothing cached, each
  icepool one in a fresh interpreter because icepool keeps a global cache; warm: repeated);
* kept dice pools (highest, lowest, middle; 10-60 dice of d6, d20 and d100) against icepool, two
  ways in the same run: whole processes (``python -m rollbook prob E`` against a Python that
  imports icepool and builds the same die), each less its own start-up, and in-process cold.

    .venv/bin/python benchmarks/dice.py                  # table with ratios
    .venv/bin/python benchmarks/dice.py --json           # the numbers
    .venv/bin/python benchmarks/dice.py --write-readme   # also the dice section of benchmarks/README.md
    .venv/bin/python benchmarks/dice.py --kept           # only the kept pools' table

``--write-readme`` replaces the section between the dice-bench markers of benchmarks/README.md with
fresh tables and the command that made them (or appends the section), as benchmarks/pyodide.mjs
does for its own section; ``--quick`` makes a shorter run.

:func:`engine_timings` needs only the standard library and ``rollbook``, so the Pyodide
benchmark can import this file and call it inside the browser runtime.
"""

from __future__ import annotations

import datetime
import json
import math
import os
import platform
import random
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "benchmarks" / "README.md"
START, END = "<!-- dice-bench:start -->", "<!-- dice-bench:end -->"

ROLLS = ["1d20+5", "3d6", "4d6kh3+2", "2d20kl1+7", "8d6", "10d10"]
# Roll20 and rpg-dice-roller notation (issue 10) that d20 cannot read: timed for Rollbook alone
NEW_ROLLS = ["round(4d10/3)", "4d10dh1dl2", "5d10!k2", "4d6u", "{4d6+3d8}k4", "6d6>4f<3cs", "2d6[fire]+1d4[cold]",
             "6d6mt", "8d10mt3>5", "4d6!u"]

# expression -> the same distribution in icepool
DISTRIBUTIONS = {
    "3d6": "3 @ icepool.d6",
    "4d6kh3": "icepool.d6.pool(4).highest(3).sum()",
    "2d20kh1+5": "icepool.d20.pool(2).highest(1).sum() + 5",
    "10d10>=8": "10 @ icepool.d10.map(lambda x: int(x >= 8))",
    "20d20kl5": "icepool.d20.pool(20).lowest(5).sum()",
    "10d100kh3": "icepool.d100.pool(10).highest(3).sum()",
    "50d100": "50 @ icepool.d100",
    # issue 10's notation, where icepool can say the same
    "4d10dh1dl2": "icepool.d10.pool(4)[2:3].sum()",
    "{4d6+3d8}k4": "icepool.Pool([icepool.d6] * 4 + [icepool.d8] * 3).highest(4).sum()",
    "max(1d6, 1d8)": "icepool.highest(icepool.d6, icepool.d8)",
    "round(4d10/3)": "(4 @ icepool.d10).map(lambda x: round(x / 3))",
    "6d6>4f<3": "6 @ icepool.d6.map(lambda x: 1 if x > 4 else (-1 if x < 3 else 0))",
    # Roll20's matches and unique dice (the second part of issue 10)
    "6d6mt": "icepool.d6.pool(6).expand().map(lambda t: sum(1 for v in set(t) if t.count(v) >= 2))",
    "8d20u": "icepool.Deck(range(1, 21)).deal(8).sum()",
    "{20d6+20d8}k10": "icepool.Pool([icepool.d6] * 20 + [icepool.d8] * 20).highest(10).sum()",
}
# exact in Rollbook; icepool has no such roll
NEW_DISTRIBUTIONS = ["5d10!k2", "4d6u", "3d6!pkh2", "1d6/1d4+0.5", "4d6!u", "d20!>=3", "10d6!p>=5k2", "20d20u"]
# kept pools (issue 41): expression -> the same die in icepool; kh, kl and middle of 10-60 dice
KEPT = {
    "10d6kh3": "icepool.d6.pool(10).highest(3).sum()",
    "60d6kh30": "icepool.d6.pool(60).highest(30).sum()",
    "30d100kh10": "icepool.d100.pool(30).highest(10).sum()",
    "10d100kl3": "icepool.d100.pool(10).lowest(3).sum()",
    "30d20kl10": "icepool.d20.pool(30).lowest(10).sum()",
    "60d6kl20": "icepool.d6.pool(60).lowest(20).sum()",
    "10d20dh3dl4": "icepool.d20.pool(10)[4:7].sum()",
    "20d100dh5dl5": "icepool.d100.pool(20)[5:15].sum()",
    "60d6dh20dl20": "icepool.d6.pool(60)[20:40].sum()",
}
# below this much icepool time, a whole CLI command (argument parsing, about 1 ms) weighs more than its dice
KEPT_CLI_FROM_MS = 20.0
TARGETS = {"d20": 3.0, "icepool": 10.0}  # the targets: >= 3x d20, >= 10x icepool
TARGET_DISTRIBUTIONS = ("50d100", "10d100kh3")


def _best(fn: Callable[[], Any], number: int, repeat: int = 3) -> float:
    """Seconds per call: the best of ``repeat`` runs of ``number`` calls."""
    best = math.inf
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(number):
            fn()
        best = min(best, (time.perf_counter() - start) / number)
    return best


def engine_timings(quick: bool = False) -> dict[str, Any]:
    """Rollbook alone: microseconds per roll and milliseconds per distribution (cold and warm)."""
    from rollbook.dice import clear_caches, distribution, roll

    number = 2_000 if quick else 20_000
    rng = random.Random(1)
    rolls = {}
    for expr in ROLLS + NEW_ROLLS:
        roll(expr, rng)  # parse once, as a page or a d20 Roller would
        rolls[expr] = {
            "roll_us": _best(lambda: roll(expr, rng), number) * 1e6,
            "roll_text_us": _best(lambda: roll(expr, rng).text, number) * 1e6,
        }
    dists = {}
    for expr in [*DISTRIBUTIONS, *NEW_DISTRIBUTIONS]:

        def cold() -> None:
            clear_caches()
            distribution(expr).probabilities

        reps = 1 if expr == "50d100" and quick else 3
        dists[expr] = {
            "cold_ms": _best(cold, 1, reps) * 1e3,
            "warm_ms": _best(lambda: distribution(expr).probabilities, 1, reps) * 1e3,
        }
    return {"python": sys.version.split()[0], "platform": sys.platform, "rolls": rolls, "distributions": dists}


PEER_PROGRAM = """
import time, icepool
def build():
    return {code}
def timed():
    start = time.perf_counter()
    build()
    return time.perf_counter() - start
cold = timed()
warm = min(timed() for _ in range(3))
print(cold * 1e3, warm * 1e3)
"""


def peer_timings(quick: bool = False) -> dict[str, Any]:
    """d20 and icepool on the same expressions (CPython only: they are not shipped to the browser)."""
    import d20
    import icepool  # noqa: F401  (imported here so a missing peer fails early and clearly)

    number = 2_000 if quick else 20_000
    rolls = {}
    for expr in ROLLS:
        d20.roll(expr)
        rolls[expr] = {
            "roll_us": _best(lambda: d20.roll(expr), number) * 1e6,
            "roll_text_us": _best(lambda: d20.roll(expr).result, number) * 1e6,
        }
    dists = {}
    for expr, code in DISTRIBUTIONS.items():
        program = PEER_PROGRAM.format(code=code)
        out = subprocess.run([sys.executable, "-c", program], check=True, capture_output=True, text=True).stdout
        cold_ms, warm_ms = map(float, out.split())
        dists[expr] = {"cold_ms": cold_ms, "warm_ms": warm_ms}
    return {"icepool": icepool.__version__, "d20": _version("d20"), "number": number, "rolls": rolls,
            "distributions": dists}


KEPT_PEER = """
import time, icepool
start = time.process_time()
{code}
print((time.process_time() - start) * 1e3)
"""
# Rollbook's CLI in a fresh interpreter, its start-up done (the imports and the argument parser, built
# once per process as `python -m rollbook` does), the command timed inside
KEPT_OURS = """
import contextlib, io, sys, time
from rollbook import cli
from rollbook.cli import main
parser = cli.build_parser()
cli.build_parser = lambda: parser
start = time.process_time()
with contextlib.redirect_stdout(io.StringIO()):
    main(["prob", sys.argv[1]])
print((time.process_time() - start) * 1e3)
"""
STARTS = {"rollbook": [sys.executable, "-m", "rollbook", "--version"], "icepool": [sys.executable, "-c", "import icepool"]}


# Each child as an installed package runs: from its compiled bytecode. A shell that sets
# PYTHONDONTWRITEBYTECODE (this machine's does) made every Rollbook process compile its 56 modules
# from source, 281 ms of start-up against 140 ms, where icepool's site-packages have their bytecode.
CHILD_ENV = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}


def _cpu_ms(command: list[str]) -> tuple[float, str]:
    """CPU milliseconds (user + system) of one whole child process, and what it printed. CPU, not
    wall time: other work shares this machine's two cores."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run(command, check=True, capture_output=True, text=True, cwd=ROOT, env=CHILD_ENV).stdout
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ((after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)) * 1e3, out


def kept_timings(runs: int = 5) -> dict[str, Any]:
    """Kept pools against icepool, interleaved (for each run, every expression: both start-ups,
    Rollbook's whole CLI process, icepool's whole process, then each timed inside a fresh
    interpreter), and the median of each. A whole process less the median start-up is not
    resolved when it is within the start-ups' spread (their interquartile range)."""
    from rollbook.dice import clear_caches, distribution

    samples: dict[str, dict[str, list[float]]] = {e: {} for e in KEPT}
    starts: dict[str, list[float]] = {"rollbook": [], "icepool": []}
    for command in STARTS.values():  # once, untimed: the bytecode written where it is not yet
        _cpu_ms(command)
    for _ in range(runs):
        for expr, code in KEPT.items():
            got = samples[expr]
            for name, command in STARTS.items():
                starts[name].append(_cpu_ms(command)[0])
            got.setdefault("rollbook_process", []).append(
                _cpu_ms([sys.executable, "-m", "rollbook", "prob", expr])[0])
            total, out = _cpu_ms([sys.executable, "-c", KEPT_PEER.format(code=code)])
            got.setdefault("icepool_process", []).append(total)
            got.setdefault("icepool_inside", []).append(float(out))
            got.setdefault("rollbook_inside", []).append(
                float(_cpu_ms([sys.executable, "-c", KEPT_OURS, expr])[1]))
            # the engine alone, in this process, nothing cached: computed again for 20 ms at least
            # (one sample: their mean), so a small pool is not one reading of a busy machine
            calls, start = 0, time.process_time()
            while not calls or time.process_time() - start < 0.02:
                clear_caches()
                distribution(expr).probabilities
                calls += 1
            got.setdefault("rollbook_engine", []).append((time.process_time() - start) * 1e3 / calls)
    start_ms = {name: statistics.median(times) for name, times in starts.items()}
    spread = {name: _iqr(times) for name, times in starts.items()}
    rows: dict[str, dict[str, Any]] = {}
    for expr, got in samples.items():
        ours = statistics.median(got["rollbook_process"]) - start_ms["rollbook"]
        theirs = statistics.median(got["icepool_process"]) - start_ms["icepool"]
        inside, peer_inside = statistics.median(got["rollbook_inside"]), statistics.median(got["icepool_inside"])
        # within the spread, Rollbook's difference is noise: the ratio is at least icepool's / spread
        at_least = ours <= spread["rollbook"]
        rows[expr] = {"rollbook_process_ms": ours, "icepool_process_ms": theirs,
                      "ratio_process": theirs / max(ours, spread["rollbook"]) if theirs > spread["icepool"] else None,
                      "ratio_process_at_least": at_least,
                      "rollbook_inside_ms": inside, "icepool_inside_ms": peer_inside,
                      "ratio_inside": peer_inside / inside,
                      "rollbook_engine_ms": statistics.median(got["rollbook_engine"]),
                      "ratio_engine": peer_inside / statistics.median(got["rollbook_engine"])}
    met = all(r["ratio_engine"] >= TARGETS["icepool"] and
              (r["icepool_inside_ms"] < KEPT_CLI_FROM_MS or r["ratio_inside"] >= TARGETS["icepool"])
              for r in rows.values())
    return {"runs": runs, "start_ms": start_ms, "start_spread_ms": spread, "rows": rows, "met": met}


def _iqr(times: list[float]) -> float:
    if len(times) < 4:
        return max(times) - min(times)
    q = statistics.quantiles(times, n=4)
    return q[2] - q[0]


def _ratio(r: float | None, at_least: bool = False) -> str:
    return "—" if r is None else f"{'≥ ' * at_least}{r:.0f}×"


def _kept_table(kept: dict[str, Any]) -> str:
    lines = [f"Kept pools: CPU ms, median of {kept['runs']} interleaved runs. Whole processes less start-up "
             f"(Rollbook {kept['start_ms']['rollbook']:.0f} ms, icepool {kept['start_ms']['icepool']:.0f} ms; "
             "'>=': Rollbook within its start-up's spread, '-': icepool within its own); inside a fresh process",
             f"{'expression':<14} {'rollbook':>9} {'icepool':>9} {'ratio':>6}   {'inside':>9} {'icepool':>9} {'ratio':>6}"]
    for expr, r in kept["rows"].items():
        lines.append(f"{expr:<14} {r['rollbook_process_ms']:9.1f} {r['icepool_process_ms']:9.1f} "
                     f"{_ratio(r['ratio_process'], r['ratio_process_at_least']).replace('—', '-').replace('≥ ', '>='):>6}   {r['rollbook_inside_ms']:9.2f} "
                     f"{r['icepool_inside_ms']:9.1f} {_ratio(r['ratio_inside']):>6}   "
                     f"{r['rollbook_engine_ms']:7.2f} {_ratio(r['ratio_engine']):>6}")
    lines.append(f">= 10x icepool on every kept pool: {'yes' if kept['met'] else 'NO'}")
    return "\n".join(lines)


def _version(package: str) -> str:
    from importlib.metadata import version
    return version(package)


def compare(quick: bool = False) -> dict[str, Any]:
    ours = engine_timings(quick)
    peers = peer_timings(quick)
    rolls = {
        expr: {
            "rollbook_us": ours["rolls"][expr]["roll_us"],
            "d20_us": peers["rolls"][expr]["roll_us"],
            "ratio": peers["rolls"][expr]["roll_us"] / ours["rolls"][expr]["roll_us"],
            "rollbook_text_us": ours["rolls"][expr]["roll_text_us"],
            "d20_text_us": peers["rolls"][expr]["roll_text_us"],
            "ratio_text": peers["rolls"][expr]["roll_text_us"] / ours["rolls"][expr]["roll_text_us"],
        }
        for expr in ROLLS
    }
    dists = {
        expr: {
            "rollbook_cold_ms": ours["distributions"][expr]["cold_ms"],
            "icepool_cold_ms": peers["distributions"][expr]["cold_ms"],
            "ratio_cold": peers["distributions"][expr]["cold_ms"] / ours["distributions"][expr]["cold_ms"],
            "rollbook_warm_ms": ours["distributions"][expr]["warm_ms"],
            "icepool_warm_ms": peers["distributions"][expr]["warm_ms"],
            "ratio_warm": peers["distributions"][expr]["warm_ms"] / ours["distributions"][expr]["warm_ms"],
        }
        for expr in DISTRIBUTIONS
    }
    met = {
        "d20": all(r["ratio"] >= TARGETS["d20"] and r["ratio_text"] >= TARGETS["d20"] for r in rolls.values()),
        "icepool": all(dists[e]["ratio_cold"] >= TARGETS["icepool"] for e in TARGET_DISTRIBUTIONS),
    }
    own = {"rolls": {e: ours["rolls"][e] for e in NEW_ROLLS},
           "distributions": {e: ours["distributions"][e] for e in NEW_DISTRIBUTIONS}}
    kept = kept_timings(2 if quick else 5)
    met["kept"] = kept["met"]
    return {"python": ours["python"], "icepool": peers["icepool"], "d20": peers["d20"], "number": peers["number"],
            "rolls": rolls, "distributions": dists, "rollbook_only": own, "kept": kept, "targets_met": met}


def _table(result: dict[str, Any]) -> str:
    lines = [f"Python {result['python']}, icepool {result['icepool']}", "",
             "Rolls (microseconds per roll; ratio = d20 time / Rollbook time)",
             f"{'expression':<12} {'rollbook':>9} {'d20':>9} {'ratio':>6}   {'+text':>9} {'d20+text':>9} {'ratio':>6}"]
    for expr, r in result["rolls"].items():
        lines.append(f"{expr:<12} {r['rollbook_us']:9.2f} {r['d20_us']:9.2f} {r['ratio']:5.1f}x   "
                     f"{r['rollbook_text_us']:9.2f} {r['d20_text_us']:9.2f} {r['ratio_text']:5.1f}x")
    lines += ["", "Exact distributions, computed from nothing (milliseconds; ratio = icepool time / Rollbook time)",
              f"{'expression':<12} {'rollbook':>9} {'icepool':>9} {'ratio':>8}"]
    for expr, d in result["distributions"].items():
        lines.append(f"{expr:<12} {d['rollbook_cold_ms']:9.2f} {d['icepool_cold_ms']:9.2f} {d['ratio_cold']:7.1f}x")
    lines.append("(asked again, both engines answer from a cache: see 'warm' in --json)")
    own = result.get("rollbook_only", {"rolls": {}, "distributions": {}})
    lines += ["", "Rollbook alone (notation the peers cannot read): microseconds per roll, milliseconds cold"]
    lines += [f"{expr:<22} {r['roll_us']:9.2f} us  {r['roll_text_us']:9.2f} us with text" for expr, r in own["rolls"].items()]
    lines += [f"{expr:<22} {d['cold_ms']:9.2f} ms" for expr, d in own["distributions"].items()]
    met = result["targets_met"]
    lines += ["", f">= 3x d20 on every roll: {'yes' if met['d20'] else 'NO'}; "
                  f">= 10x icepool (cold) on {' and '.join(TARGET_DISTRIBUTIONS)}: {'yes' if met['icepool'] else 'NO'}"]
    if "kept" in result:
        lines += ["", _kept_table(result["kept"])]
    return "\n".join(lines)


def _cpu() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def _command(args: list[str]) -> str:
    """How this run was started, as one would type it from the repository root."""
    python = Path(sys.executable)
    if python.is_relative_to(ROOT):
        python = python.relative_to(ROOT)
    return " ".join([str(python), "benchmarks/dice.py", *args])


def readme_section(result: dict[str, Any], command: str) -> str:
    """The dice section of benchmarks/README.md, markers included."""
    met = result["targets_met"]
    lines = [
        START,
        "## Dice engine vs d20 and icepool",
        "",
        f"Made by `{command}` on {datetime.date.today().isoformat()} (CPython {result['python']}, icepool "
        f"{result['icepool']}, d20 {result['d20']};",
        f"{_cpu()}, {os.cpu_count()} cores, shared with other work, so expect some noise). `--json` gives every "
        "number,",
        "`--quick` a shorter run. `engine_timings()` in the same file times Rollbook alone, with the standard",
        "library only, so `benchmarks/pyodide_work.py` runs it inside Pyodide too.",
        "",
        f"**Rolls** (microseconds per roll, best of 3 × {result['number']:,}; ratio = d20 time / Rollbook time). Both",
        "libraries cache the parsed expression and build the breakdown text only when asked, so each is",
        "timed once without the text (`d20.roll(e)` vs `roll(e, rng)`) and once with it (`.result` vs `.text`).",
        "",
        "| expression | Rollbook | d20 | ratio | Rollbook + text | d20 + text | ratio |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for expr, r in result["rolls"].items():
        lines.append(f"| {expr} | {r['rollbook_us']:.2f} | {r['d20_us']:.2f} | {r['ratio']:.1f}× | "
                     f"{r['rollbook_text_us']:.2f} | {r['d20_text_us']:.2f} | {r['ratio_text']:.1f}× |")
    worst = min(min(r["ratio"], r["ratio_text"]) for r in result["rolls"].values())
    lines += [
        "",
        f"Target ≥ {TARGETS['d20']:g}× d20: {'met' if met['d20'] else 'NOT met'} on every expression, with and "
        f"without the text (at worst {worst:.1f}×)." if met["d20"] else
        f"Target ≥ {TARGETS['d20']:g}× d20: NOT met (at worst {worst:.1f}×).",
        "",
        "**Exact distributions** (milliseconds for the first computation, nothing cached: Rollbook after",
        "`rollbook.dice.clear_caches()`, icepool in a fresh interpreter because it keeps a global cache;",
        "Rollbook's time includes building every probability as a `Fraction`; ratio = icepool / Rollbook).",
        "",
        "| expression | Rollbook | icepool | ratio |",
        "|---|---:|---:|---:|",
    ]
    for expr, d in result["distributions"].items():
        lines.append(f"| {expr} | {d['rollbook_cold_ms']:.2f} | {d['icepool_cold_ms']:.2f} | {d['ratio_cold']:.1f}× |")
    own = result.get("rollbook_only", {"rolls": {}, "distributions": {}})
    if own["rolls"] or own["distributions"]:
        lines += ["", "**Rollbook alone**, on Roll20 and rpg-dice-roller notation that d20 cannot read or icepool",
                  "cannot express (microseconds per roll; milliseconds for an exact distribution, cold):", "",
                  "| expression | roll | roll + text | exact odds |", "|---|---:|---:|---:|"]
        for expr in dict.fromkeys([*own["rolls"], *own["distributions"]]):
            r, d = own["rolls"].get(expr), own["distributions"].get(expr)
            cells = [f"{r['roll_us']:.2f}" if r else "—", f"{r['roll_text_us']:.2f}" if r else "—",
                     f"{d['cold_ms']:.2f}" if d else "—"]
            lines.append(f"| {expr} | " + " | ".join(cells) + " |")
    targets = " and ".join(f"`{e}`" for e in TARGET_DISTRIBUTIONS)
    ratios = " and ".join(f"{result['distributions'][e]['ratio_cold']:.0f}×" for e in TARGET_DISTRIBUTIONS)
    lines += [
        "",
        f"Target ≥ {TARGETS['icepool']:g}× icepool on {targets}: {'met' if met['icepool'] else 'NOT met'} "
        f"({ratios}). How: sums of dice are",
        "polynomial products done by Kronecker substitution (big numbers multiplied in C, through the",
        "`decimal` module's number-theoretic transform when large), `N` identical dice are one power, and",
        "keep/drop is an order-statistics pass over the faces (never the `S**N` outcomes); pooled groups",
        "place each kind of die in turn at each face, matches (`mt`) are one pass over the faces, unique",
        "dice with equally likely faces a count of subsets, and an exploding chain one polynomial",
        "division. Asked again,",
        "both engines answer from a cache (Rollbook keeps the 64 latest distributions), so warm times",
        "compare caches, not maths; they are in `--json` only.",
    ]
    if "kept" in result:
        lines += ["", *_kept_section(result["kept"])]
    lines.append(END)
    return "\n".join(lines)


def _kept_section(kept: dict[str, Any]) -> list[str]:
    spread = kept["start_spread_ms"]
    lines = [
        "**Kept pools** (issue 41: highest, lowest and middle of 10 to 60 dice). CPU milliseconds (user +",
        "system: the machine is shared with other work, so CPU time, not wall time), median of "
        f"{kept['runs']} runs",
        "interleaved expression by expression. *Whole processes*, as issue 41 measured them:",
        "`python -m rollbook prob E` (parse, exact odds, the printed table) against a Python that imports",
        "icepool and builds the same die, each less the median of its own start-up (`python -m rollbook",
        f"--version`: {kept['start_ms']['rollbook']:.0f} ms, spread {spread['rollbook']:.0f} ms; "
        f"`python -c \"import icepool\"`: {kept['start_ms']['icepool']:.0f} ms, spread "
        f"{spread['icepool']:.0f} ms; both from compiled bytecode, as installed: a shell's PYTHONDONTWRITEBYTECODE made",
        "Rollbook's 281 ms before 2026-12-06);",
        "a difference within a start-up's spread (interquartile range) is noise: where Rollbook's is, the",
        "ratio is a lower bound, icepool's difference over the spread (`≥`); where icepool's is, `—`.",
        "*Inside a fresh process*: the same two programs, timed after their imports (Rollbook's",
        "`cli.main([\"prob\", E])`, argument parsing and printed table included; icepool's build). *Engine*:",
        "Rollbook's `distribution(E)` with every probability as a `Fraction`, in the benchmark's own process",
        "after `clear_caches()` (repeated for 20 ms, the mean one sample), against icepool inside a fresh process.",
        "",
        "| expression | Rollbook process | icepool process | ratio | Rollbook inside | icepool inside | ratio "
        "| Rollbook engine | ratio |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for expr, r in kept["rows"].items():
        lines.append(f"| {expr} | {r['rollbook_process_ms']:.1f} | {r['icepool_process_ms']:.1f} | "
                     f"{_ratio(r['ratio_process'], r['ratio_process_at_least'])} | {r['rollbook_inside_ms']:.2f} | {r['icepool_inside_ms']:.1f} | "
                     f"{_ratio(r['ratio_inside'])} | {r['rollbook_engine_ms']:.2f} | {_ratio(r['ratio_engine'])} |")
    worst = min(r["ratio_engine"] for r in kept["rows"].values())
    cli = [r["ratio_inside"] for r in kept["rows"].values() if r["icepool_inside_ms"] >= KEPT_CLI_FROM_MS]
    lines += [
        "",
        f"Target ≥ {TARGETS['icepool']:g}× icepool on every kept pool: {'met' if kept['met'] else 'NOT met'} "
        f"(the engine at worst {worst:.0f}×; the whole command inside a fresh process at worst "
        f"{min(cli, default=0):.0f}× where icepool",
        f"takes {KEPT_CLI_FROM_MS:g} ms or more: below that, the command's own argument parsing and printing, "
        "about 1 ms, outweigh its dice). How: dice whose faces",
        "are equally likely, kept from one end, have a closed form (`nearest_of_uniform` in the engine:",
        "one running sum per kept die, whole-number additions only); middle keeps and other dice take a",
        "pass over the faces whose sums are measured from the near end (`kept_pass`).",
    ]
    return lines


def write_readme(section: str, readme: Path = README) -> None:
    """Replace the section between the dice-bench markers, or append it."""
    old = readme.read_text(encoding="utf-8") if readme.exists() else "# Benchmarks\n"
    if START in old and END in old:
        new = old[:old.index(START)] + section + old[old.index(END) + len(END):]
    else:
        new = f"{old.rstrip()}\n\n{section}\n"
    readme.write_text(new, encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if "--kept" in args:
        kept = kept_timings(2 if "--quick" in args else 5)
        print(json.dumps(kept, indent=2) if "--json" in args else _kept_table(kept))
        return 0
    result = compare(quick="--quick" in args)
    print(json.dumps(result, indent=2) if "--json" in args else _table(result))
    if "--write-readme" in args:
        write_readme(readme_section(result, _command(args)))
        print(f"\nwrote the section into {README.relative_to(ROOT)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
