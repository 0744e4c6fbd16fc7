"""A/B of two built sites: the roller's first roll against the worker-alone floor, in alternation.

    .venv/bin/python benchmarks/ab.py BEFORE_SITE AFTER_SITE [--rounds N] [--cpu one|all]

Made for one change at a time (issue 21's "within 1.25x of the floor"): build the site as it is,
copy ``site/`` aside, make the change, build again, then compare the copy (A) with the new build
(B). Each round visits both sites, A and B in turns (the order swapped every round, so a burst of
load elsewhere hits both alike): for each, the floor page and ``tools/roller/``, cold (a fresh
profile on disk) then warm (the second visit, HTTP cache only), exactly as ``benchmarks/phone.py``
measures them. ``--cpu one`` (the default) pins the whole browser to one core. Prints each round
and the medians; the ratio that matters is each site's roller over its own floor. With them, the
CPU time the whole browser spent (``benchmarks/cpu.py``): its own work, whatever else the machine
ran (on one core it is close to the wall time, so it is no steadier there). A round takes
about 2.5 minutes on this 2-core machine, and single visits spread by +-0.3 s on one core: a change
worth less than about 50 ms does not show through 6 rounds (measure its CPU instead).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

from chromium import CHROMIUM, present
from phone import cold_and_warm, one_core_chromium, ready, roller
from served import serve
from start import META, pages

KINDS = ("floor cold", "floor warm", "roller cold", "roller warm")


def engine_folder(site: Path) -> str:
    found = META.search((site / "tools" / "roller" / "index.html").read_text(encoding="utf-8"))
    if found is None:
        raise SystemExit(f"ab.py: {site} holds no built site (no tools/roller/ with an engine): run `make build`")
    return found[1]


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("sites", nargs=2, type=Path, metavar="SITE", help="two built sites: before, after")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--cpu", choices=("one", "all"), default="one")
    options = parser.parse_args(argv)
    if not present("ab.py"):
        return 1
    servers = [serve(site, pages(engine_folder(site))) for site in options.sites]
    samples: dict[str, dict[str, list[float]]] = {"A": {}, "B": {}}
    cpu: dict[str, dict[str, list[float]]] = {"A": {}, "B": {}}  # the whole browser's CPU seconds
    try:
        with sync_playwright() as playwright, tempfile.TemporaryDirectory(prefix="rollbook-ab-") as folder:
            executable = one_core_chromium(Path(folder)) if options.cpu == "one" else CHROMIUM
            for n in range(options.rounds):
                order = [("A", servers[0][1]), ("B", servers[1][1])]
                for name, url in order if n % 2 == 0 else order[::-1]:
                    visits = {"floor": lambda page, u=url: ready(page, u + "bench-ask.html"),
                              "roller": lambda page, u=url: roller(page, u, 0)[0]}
                    for kind, visit in visits.items():
                        for start, (seconds, cpu_seconds) in zip(("cold", "warm"), cold_and_warm(
                                playwright, executable, folder, visit)):
                            samples[name].setdefault(f"{kind} {start}", []).append(seconds)
                            if cpu_seconds is not None:
                                cpu[name].setdefault(f"{kind} {start}", []).append(cpu_seconds)
                print(f"round {n + 1}: " + "; ".join(
                    f"{name} " + ", ".join(f"{kind} {samples[name][kind][-1]:.2f}" for kind in KINDS)
                    for name in ("A", "B")), file=sys.stderr, flush=True)
    finally:
        for server, _ in servers:
            server.shutdown()
    print(f"medians of {options.rounds} rounds, {options.cpu} core(s); seconds from navigation start")
    print("| site | floor cold | floor warm | roller cold | roller warm | warm / floor | cold / floor |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name, site in zip(("A", "B"), options.sites):
        m = {kind: statistics.median(values) for kind, values in samples[name].items()}
        print(f"| {name} `{site}` | {m['floor cold']:.2f} | {m['floor warm']:.2f} | {m['roller cold']:.2f} | "
              f"{m['roller warm']:.2f} | {m['roller warm'] / m['floor warm']:.2f} | "
              f"{m['roller cold'] / m['floor cold']:.2f} |")
        ratios = [r / f for r, f in zip(samples[name]["roller warm"], samples[name]["floor warm"])]
        print(f"    {name}: warm / floor by round: {', '.join(f'{r:.2f}' for r in ratios)}")
        if cpu[name]:
            c = {kind: statistics.median(values) for kind, values in cpu[name].items()}
            print(f"    {name}: CPU seconds (the whole browser): floor warm {c['floor warm']:.2f}, roller warm "
                  f"{c['roller warm']:.2f} ({c['roller warm'] / c['floor warm']:.2f}); floor cold "
                  f"{c['floor cold']:.2f}, roller cold {c['roller cold']:.2f} ({c['roller cold'] / c['floor cold']:.2f})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
