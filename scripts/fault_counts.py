"""Count the fault cases the suite tries, by probe group, from the tests themselves (issue 20).

    .venv/bin/python scripts/fault_counts.py           print the tables
    .venv/bin/python scripts/fault_counts.py --write   and write them into tests/FAULTS.md: the summary, then each group's tests
    .venv/bin/python scripts/fault_counts.py --check   fail when what is written is out of date (tests/site/test_fault_counts.py)

A case is one collected pytest item (each parametrized id its own: `pytest --collect-only -q`),
one Node test (tests/widgets/, by its name), except where a Node test tries many inside it: a
seeded loop (`run < N`: N cases), a table named `cases` (one per row), or fast-check properties
(their generated values, counted by running tests/widgets/properties.test.mjs, about 5 s).
"Hold" is what passes when the suite is green: every case but the xfail ones, which are named.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
FAULTS = ROOT / "tests" / "FAULTS.md"
BEGIN, END = "<!-- fault_counts: begin -->", "<!-- fault_counts: end -->"
PROPERTIES = "tests/widgets/properties.test.mjs"

B = "tests/browser/"
# Each probe group: what it proves, and its tests: pytest ids ("file::test", every parametrized id
# of it) and Node tests ("file", a regular expression its name matches).
GROUPS: list[dict[str, Any]] = [
    {"group": "Hostile share links", "proves": "a link's value that does not fit its field is left out and said by its label, the rest still answered; a kept path never becomes a link off the site",
     "pytest": [f"{B}test_encounter.py::test_a_link_seed_out_of_range_is_left_out_and_said_and_the_fight_still_runs",
                f"{B}test_checks.py::test_a_link_without_a_seed_is_answered_but_not_logged",
                f"{B}test_checks.py::test_a_d100_out_of_range_is_the_engines_message_next_to_the_field",
                f"{B}test_widgets.py::test_a_kept_entrys_page_and_link_become_links_only_to_pages_of_this_site",
                f"{B}test_encounter.py::test_hostile_rules_in_a_start_link_are_ignored_and_the_fight_starts_as_usual"],
     "node": [("tests/widgets/links.test.mjs", r"")]},
    {"group": "Hostile imports", "proves": "a bad file is refused with the place of its first problem in a player's words, and changes nothing; a good one round-trips",
     "pytest": [f"{B}test_widgets.py::test_export_clear_import_round_trips_and_a_bad_file_changes_nothing",
                f"{B}test_encounter.py::test_edits_by_hand_and_an_export_import_round_trip"],
     "node": [("tests/widgets/kept.test.mjs", r"^(?!full storage)(.*(file|import|format 1|html in a name|merging|bad one is refused))")]},
    {"group": "Storage damaged, full or blocked", "proves": "nothing is said to be kept that is not; a damaged value is set aside or left as it was, never written over; a blocked browser still has the visit",
     "pytest": [f"{B}test_storage_faults.py::test_blocked_storage_is_said_once_on_every_page_and_nothing_is_called_kept",
                f"{B}test_encounter_faults.py::test_storage_failing_during_a_step_says_not_kept_at_the_step_and_nothing_is_lost",
                f"{B}test_encounter_faults.py::test_the_encounter_runs_and_keeps_its_steps_without_indexeddb_or_web_locks",
                f"{B}test_storage_faults.py::test_blocked_storage_an_import_is_on_the_page_for_the_visit_and_said_not_kept",
                f"{B}test_storage_faults.py::test_full_storage_over_a_damaged_value_never_writes_over_it_nor_claims_a_backup",
                f"{B}test_widgets.py::test_a_damaged_stored_value_is_set_aside_not_lost",
                f"{B}test_widgets.py::test_a_damaged_value_forgotten_in_another_tab_is_no_longer_said_here",
                f"{B}test_encounter.py::test_a_kept_encounter_the_page_cannot_draw_is_set_aside_and_said_plainly",
                f"{B}test_storage_faults.py::test_the_sites_data_cleared_while_a_page_is_open_leaves_its_next_roll_settled_across_tabs"],
     "node": [("tests/widgets/kept.test.mjs", r"^(blocked|full) storage|damaged|a full storage"),
              ("tests/widgets/kept-encounter.test.mjs", r"")]},
    {"group": "Two tabs", "proves": "two tabs acting at the same moment lose nothing; a later encounter step over a changed fight is refused and the stored one shown; back and forward mid-step keep it once or not at all",
     "pytest": [f"{B}test_storage_faults.py::test_two_tabs_advance_one_encounter_at_the_same_moment_both_kept_or_the_later_refused",
                f"{B}test_encounter_properties.py",
                f"{B}test_encounter_bring_back.py",
                f"{B}test_encounter_end.py",
                f"{B}test_encounter_history.py",
                f"{B}test_storage_faults.py::test_two_tabs_keep_characters_at_the_same_moment_and_a_bad_encounter_file_changes_nothing",
                f"{B}test_storage_faults.py::test_two_tabs_keep_a_character_each_at_the_same_millisecond_and_both_are_kept",
                f"{B}test_storage_faults.py::test_a_character_left_out_of_storage_for_a_moment_by_another_tabs_write_is_said_kept",
                f"{B}test_storage_faults.py::test_an_encounter_put_in_storage_by_other_means_just_after_a_step_is_the_one_the_next_step_goes_on_from"],
     "node": [("tests/widgets/kept.test.mjs", r"two tabs|two processes|by other means|cutting a change's settling short|a holder gone between|a write at once from nothing settled")]},
    {"group": "Engine faults", "proves": "a worker that dies, never starts, never answers, or loads a wrong wheel or a damaged snapshot is said plainly, and Retry or a normal start recovers; a deploy while an encounter is open loses no step, and an engine it replaced says Reload",
     "pytest": [f"{B}test_engine_faults.py",
                f"{B}test_encounter_faults.py::test_an_engine_killed_or_silent_in_the_middle_of_a_step_applies_it_once_or_not_at_all_and_retry_works", f"{B}test_engine_worker.py::test_an_engine_that_cannot_load_answers_with_a_json_error_and_retries_on_the_next_ask",
                f"{B}test_engine_worker.py::test_a_wheel_not_matching_the_lockfile_is_refused", f"{B}test_widgets.py::test_a_failed_start_says_so_and_retry_recovers",
                f"{B}test_fast_start.py::test_a_snapshot_that_cannot_be_restored_falls_back_to_a_normal_start",
                f"{B}test_encounter_deploy.py"],
     "node": [("tests/widgets/deploy.test.mjs", r"")]},
    {"group": "A bad value in a field", "proves": "every typed field of every tool says a bad value at the field, by its label, in view, with no engine words",
     "pytest": [f"{B}test_field_errors.py", f"{B}test_widgets.py::test_a_bad_expression_points_at_its_column_and_logs_nothing",
                f"{B}test_criticals.py::test_a_bad_number_is_refused_with_what_to_type",
                "tests/engine/encounter/test_encounter_words.py"],
     "node": []},
    {"group": "Inputs at the engine's limits", "proves": "exact odds with chances of hundreds of digits are drawn, odds past exact reach are a labelled estimate, the longest inputs are answered or refused at their field; no link is offered that would not read back whole; never a page error",
     "pytest": [f"{B}test_widgets.py::test_exact_odds_with_chances_of_hundreds_of_digits_draw_every_bar_and_never_a_page_error",
                f"{B}test_log_limits.py",
                f"{B}test_encounter_faults.py::test_hostile_kept_foes_and_long_names_added_in_one_tap_are_refused_in_a_players_words",
                f"{B}test_widgets.py::test_odds_past_exact_reach_are_a_labelled_estimate_in_a_players_words",
                f"{B}test_widgets.py::test_the_longest_expressions_are_rolled_or_refused_by_the_field_and_no_link_is_offered_that_cannot_be_read",
                f"{B}test_combat.py::test_long_inputs_are_answered_and_kept_without_a_link_or_refused_at_their_field"],
     "node": []},
    {"group": "Offline after one visit", "proves": "after one visit pages, search and dice work with no connection, the cache holds only the site's own files, and an update's Reload takes the new version in every tab",
     "pytest": [f"{B}test_offline.py"], "node": []},
    {"group": "CSP and foreign requests", "proves": "every page carries the policy, an injected script is refused, and no page, style or script asks another host",
     "pytest": [f"{B}test_csp.py", f"{B}test_site.py::test_no_request_leaves_localhost", "tests/site/test_no_external_hosts.py"], "node": []},
    {"group": "Property tests", "proves": "generated JSON, files, stored text and queries: refused in a player's words or read within range, never an exception; valid states round-trip; imports all or nothing",
     "pytest": [], "node": [(PROPERTIES, r"")]},
]


@dataclass
class Row:
    test: str
    cases: int
    xfail: str | None = None  # why, when it is expected to fail


@dataclass
class Group:
    group: str
    proves: str
    rows: list[Row] = field(default_factory=list)


def collected(files: list[str]) -> list[str]:
    """The collected ids of `files`, one pytest run per folder (each folder has its own conftest)."""
    ids = []
    for folder in sorted({str(Path(f).parent) for f in files}):
        run = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
                              *[f for f in files if str(Path(f).parent) == folder]], cwd=ROOT, capture_output=True, text=True)
        if run.returncode:
            raise SystemExit(f"pytest could not collect {folder}:\n{run.stdout[-2000:]}")
        ids += [line for line in run.stdout.splitlines() if "::" in line]
    return ids


def xfails(file: str) -> dict[str, str]:
    """Test functions in `file` marked xfail (pytest.mark.xfail(reason=...)): name -> the reason's first clause."""
    names = {}
    for node in ast.walk(ast.parse((ROOT / file).read_text(encoding="utf-8"))):
        if isinstance(node, ast.FunctionDef):
            for mark in node.decorator_list:
                if isinstance(mark, ast.Call) and ast.unparse(mark.func).endswith("xfail"):
                    reason = next((ast.literal_eval(k.value) for k in mark.keywords if k.arg == "reason"), "")
                    names[node.name] = reason.split(":")[0]
    return names


TEST = re.compile(r'^test\("((?:[^"\\]|\\.)*)",', re.M)


def node_tests(file: str) -> list[tuple[str, str]]:
    """(name, body) of each top-level test in `file`."""
    text = (ROOT / file).read_text(encoding="utf-8")
    starts = [(m.start(), m.group(1)) for m in TEST.finditer(text)] + [(len(text), "")]
    return [(name, text[at:starts[i + 1][0]]) for i, (at, name) in enumerate(starts[:-1])]


def node_cases(body: str) -> int:
    loops = [int(n) for n in re.findall(r"\brun < (\d+)", body)]
    if loops:
        return sum(loops)
    table = re.search(r"const cases = \[\n(.*?)\n  \];", body, re.S)
    if table:
        return len(re.findall(r"^    \[", table.group(1), re.M))
    return 1


def property_runs() -> dict[str, int]:
    """Values each property test generated, from a run of the property tests."""
    with tempfile.TemporaryDirectory() as tmp:
        record = Path(tmp) / "runs.jsonl"
        subprocess.run(["node", "--test", PROPERTIES], cwd=ROOT, check=True, capture_output=True,
                       env={**os.environ, "ROLLBOOK_CASES": str(record)})
        runs: dict[str, int] = {}
        for line in record.read_text(encoding="utf-8").splitlines():
            entry = json.loads(line)
            runs[entry["test"]] = runs.get(entry["test"], 0) + entry["runs"]
    return runs


def count() -> list[Group]:
    files = sorted({sel.split("::")[0] for g in GROUPS for sel in g["pytest"]})
    ids = collected(files)
    marked = {f: xfails(f) for f in files}
    runs = property_runs()
    groups = []
    used: set[str] = set()  # a test counts in the first group that names it, once
    for spec in GROUPS:
        group = Group(spec["group"], spec["proves"])
        for sel in spec["pytest"]:
            file, _, name = sel.partition("::")
            items = [i for i in ids if i.startswith(f"{file}::") and (not name or re.match(rf"{re.escape(file)}::{name}(\[|$)", i))]
            if not items:
                raise SystemExit(f"no test collected for {sel}: renamed? (scripts/fault_counts.py GROUPS)")
            for test in sorted({i.split("::")[1].split("[")[0] for i in items}, key=lambda t: [i.split("::")[1].split("[")[0] for i in items].index(t)):
                n = sum(1 for i in items if i.split("::")[1].split("[")[0] == test)
                group.rows.append(Row(f"{Path(file).name}::{test}", n, marked[file].get(test)))
        for file, pattern in spec["node"]:
            found = [(name, body) for name, body in node_tests(file) if re.search(pattern, name) and f"{file}: {name}" not in used]
            used.update(f"{file}: {name}" for name, _ in found)
            if not found:
                raise SystemExit(f"no Node test in {file} matches {pattern!r} (scripts/fault_counts.py GROUPS)")
            for name, body in found:
                cases = runs[name] if file == PROPERTIES else node_cases(body)
                group.rows.append(Row(f"{Path(file).name}: {name}", cases))
        groups.append(group)
    return groups


def summary(groups: list[Group]) -> str:
    lines = ["| Probe group | Cases tried | Hold | What they prove |", "|---|--:|--:|---|"]
    for g in groups:
        tried = sum(r.cases for r in g.rows)
        xf = [r for r in g.rows if r.xfail]
        held = tried - sum(r.cases for r in xf)
        note = "".join(f" (xfail, `{r.test.split('::')[-1]}`: {r.xfail})" for r in xf)
        lines.append(f"| {g.group} | {tried} | {held}{' + ' + str(tried - held) + ' xfail' if xf else ''} | {g.proves}{note} |")
    total = sum(r.cases for g in groups for r in g.rows)
    held = total - sum(r.cases for g in groups for r in g.rows if r.xfail)
    lines.append(f"| **All** | **{total}** | **{held}**{' + ' + str(total - held) + ' xfail' if total > held else ''} | |")
    return "\n".join(lines)


def details(groups: list[Group]) -> str:
    lines = [summary(groups)]
    for g in groups:
        lines += ["", f"### {g.group}", "", "| Test | Cases |", "|---|--:|"]
        lines += [f"| `{r.test}`{' (xfail)' if r.xfail else ''} | {r.cases} |" for r in g.rows]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help=f"write the tables into {FAULTS.relative_to(ROOT)}")
    parser.add_argument("--check", action="store_true", help="exit 1 when tests/FAULTS.md differs from the count")
    args = parser.parse_args()
    groups = count()
    if not (args.write or args.check):
        print(details(groups))
        return
    now = FAULTS.read_text(encoding="utf-8")
    head, rest = now.split(BEGIN)
    written = f"{head}{BEGIN}\n{details(groups)}\n{END}{rest.split(END, 1)[1]}"
    if args.write:
        FAULTS.write_text(written, encoding="utf-8")
    elif written != now:
        raise SystemExit("fault counts out of date in tests/FAULTS.md: run .venv/bin/python scripts/fault_counts.py --write")


if __name__ == "__main__":
    main()
