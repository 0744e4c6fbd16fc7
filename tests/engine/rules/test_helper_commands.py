"""Commands the check and combat pages ask: a check's odds before rolling, its d20 chain die by die,
and a rule table as data (for pickers and the strike chart's checkboxes)."""

from __future__ import annotations

from fractions import Fraction

from rollbook import api, tables
from rollbook.systems import codex


def ok(command: str, **args: object) -> dict:
    answer = api.call({"command": command, "args": args})
    assert answer["ok"], answer
    return answer["result"]


def test_codex_odds_are_the_checks_own_chances_without_a_roll():
    for take in (None, "10", "10+", "20"):
        before = ok("codex odds", modifier=4, dc=17, take=take)
        after = ok("codex check", modifier=4, dc=17, take=take, safe=True, seed=9)
        assert before["chances"] == after["chances"] and before["chance"] == after["chance"]
    odds = ok("codex odds", modifier=5, dc=15)
    assert Fraction(odds["chance"]) == Fraction(11, 20) and odds["text"].endswith("11/20 = 55%")
    assert ok("codex odds", modifier=15, dc=15)["can_succeed_automatically"] is True
    assert ok("codex odds", modifier=0, dc=25)["impossible_on_20"] is True


def test_the_chain_adds_up_to_the_checks_die():
    cases = [((20, 20, 7), None, [20, 20, 7]), ((1, 20, 3), None, [1, -20, -3]), ((4,), "10+", [10]),
             ((1,), "10+", [10]), ((13,), None, [13])]
    for dice, take, adds in cases:
        result = ok("codex check", modifier=0, dc=10, rolls=list(dice), take=take, safe=True)
        assert [link["adds"] for link in result["chain"]] == adds
        assert sum(adds) == codex.die_value(dice, take) == result["total"]
    assert ok("codex check", modifier=0, dc=10, take="20", safe=True)["chain"] == []
    chain = ok("codex check", modifier=0, dc=10, rolls=[1, 20, 4])["chain"]
    assert "subtract" in chain[0]["note"] and [link["open_ended"] for link in chain] == [True, True, False]


def test_a_table_comes_as_its_rows_and_as_the_page_shows_it():
    result = ok("table", name="cyno.strike.penalties")
    shown = tables.display("cyno.strike.penalties")
    assert result["columns"] == list(shown.columns) and result["cells"] == [list(row) for row in shown.rows]
    assert [row.get("id") for row in result["rows"]] == [row.get("id") for row in tables.get("cyno.strike.penalties").rows]
    weapons = ok("table", name="opencore.weapons")["rows"]
    assert [m["mode"] for m in next(w for w in weapons if "modes" in w)["modes"]] == ["single", "burst", "full auto"]
    missing = api.call({"command": "table", "args": {"name": "opencore.spells"}})
    assert not missing["ok"] and "opencore.weapons" in missing["error"]["message"]
