"""The save and Perception rulings a table may switch (issue 19, item 2): on ``opencore character``
and ``opencore check``, by the option's name or by the ruling's id, the CLI and the API alike."""

from __future__ import annotations

import json

import pytest

from rollbook import api, cli
from rule_answers import call as answer

BUCK = "STR=76,DEX=80,AGL=21,CON=32,INT=86,PER=96,WIS=32,CHA=17,COM=92"  # the seed's worked example


def refused(command: str, **args: object) -> dict:
    """The whole error (its fields too; rule_answers.refused gives the message alone)."""
    out = api.call({"command": command, "args": args})
    assert not out["ok"], out
    return out["error"]


def sheet(**args: object) -> dict:
    return answer("opencore character", scores=BUCK, hp_roll=96, **args)


def readings(result: dict) -> dict[str, str]:
    return {r["id"]: r["reading"] for r in result["rulings"]}


def test_the_sheet_follows_each_reading_and_says_which_it_used():
    plain = sheet()
    assert plain["saves"]["physical-toughness"]["rule"] == "1d100 - CON at or below SDAC"
    assert plain["saves"]["physical-toughness"]["chance"] == "21/25"  # 84 of 100: at most 84 - 32 = 52
    assert plain["saves"]["willpower"]["target"] == 52
    assert plain["perception"]["rule"] == "1d100 above PER" and plain["perception"]["chance"] == "1/25"
    assert readings(plain) == {"opencore-save-direction": "A saving throw succeeds at or below the composite",
                               "opencore-willpower-composite": "Willpower uses SDAC, as written",
                               "opencore-perception-direction": "Perception succeeds on a roll higher than PER"}
    assert not any(r["alternative"] for r in plain["rulings"])

    over = sheet(save_direction="over")
    assert over["saves"]["physical-toughness"]["rule"] == "1d100 - CON at or above SDAC"
    assert over["saves"]["physical-toughness"]["chance"] == "17/100"
    assert over["perception"] == plain["perception"]  # one ruling switches one reading
    ipw = sheet(willpower_composite="IPW")
    assert ipw["saves"]["willpower"]["target"] == 71 and ipw["saves"]["reflex"]["target"] == 52
    below = sheet(perception="at-or-below")
    assert below["perception"]["rule"] == "1d100 at or below PER" and below["perception"]["chance"] == "24/25"
    assert readings(below)["opencore-perception-direction"] == "Succeed when the roll is at or below PER, like Awareness"
    assert [r["alternative"] for r in below["rulings"]] == [False, False, True]
    # the readings change the checks only: the character is the same
    assert {k: below[k] for k in ("abilities", "composites", "hp", "working")} == \
        {k: plain[k] for k in ("abilities", "composites", "hp", "working")}


@pytest.mark.parametrize(("ruling", "option"), [
    ("opencore-save-direction", {"save_direction": "over"}),
    ("opencore-willpower-composite", {"willpower_composite": "IPW"}),
    ("opencore-perception-direction", {"perception": "at-or-below"}),
])
def test_a_ruling_by_its_id_is_its_alternative(ruling: str, option: dict[str, str]) -> None:
    assert sheet(ruling=[ruling]) == sheet(**option)
    kind = {"save_direction": "reflex", "willpower_composite": "willpower", "perception": "perception"}[next(iter(option))]
    by_id = answer("opencore check", kind=kind, scores=BUCK, roll=60, ruling=[ruling])
    assert by_id == answer("opencore check", kind=kind, scores=BUCK, roll=60, **option)
    assert by_id != answer("opencore check", kind=kind, scores=BUCK, roll=60)
    # naming the same choice both ways is no conflict
    assert sheet(ruling=[ruling], **option) == sheet(**option)


def test_all_three_by_id_together():
    assert sheet(ruling=["opencore-save-direction", "opencore-willpower-composite", "opencore-perception-direction"]) == \
        sheet(save_direction="over", willpower_composite="IPW", perception="at-or-below")


def test_a_ruling_that_does_not_apply_or_does_not_exist_is_refused():
    other = refused("opencore character", scores=BUCK, hp_roll=96, ruling=["opencore-dex-modifier"])
    assert other["fields"] == ["ruling"]
    assert other["message"] == (
        "“The Dexterity modifier is (DEX - 50) / 10, rounded down” is not a ruling a character's sheet can switch "
        "(those it can: “A saving throw succeeds at or below the composite”; “Willpower uses SDAC, as written”; "
        "“Perception succeeds on a roll higher than PER”)")
    unknown = refused("opencore check", kind="reflex", scores=BUCK, ruling=["opencore-save-directoin"])
    assert unknown["fields"] == ["ruling"]
    assert unknown["message"].startswith("there is no ruling “opencore-save-directoin” to switch (those it can: “A saving")
    twice = refused("opencore check", kind="perception", scores=BUCK, perception="above",
                    ruling=["opencore-perception-direction"])
    assert twice["fields"] == ["perception", "ruling"] and twice["message"].startswith("this ruling is chosen twice")


def test_the_cli_takes_the_ruling_by_its_id(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["opencore", "character", "--scores", BUCK, "--hp-roll", "96",
                     "--ruling", "opencore-perception-direction", "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["perception"]["rule"] == "1d100 at or below PER"
    assert cli.main(["opencore", "check", "reflex", "--scores", BUCK, "--roll", "90", "--ruling",
                     "opencore-save-direction"]) == 0
    assert "at or above SDAC (52): rolled 90 - DEX 80 = 10: failure" in capsys.readouterr().out
    assert cli.main(["opencore", "check", "reflex", "--scores", BUCK, "--save-direction", "over", "--roll", "90"]) == 0
    assert "at or above SDAC" in capsys.readouterr().out  # the named option still works
    assert cli.main(["opencore", "character", "--ruling", "cyno-parry-blows-only"]) == cli.EXIT_BAD_INPUT
    assert capsys.readouterr().err.startswith("rollbook opencore character: --ruling: “Only a hand-to-hand blow can be parried” is not a ruling a character's sheet")


# --- the Codex check's two GM rulings, by id as by name -------------------------------------------


@pytest.mark.parametrize("by_name, ruling_id, args", [
    ({"impossible_fails": True}, "codex-automatic-failure", {"modifier": 0, "dc": 25, "seed": 4}),
    ({"take_conditions": "trusted"}, "codex-take-conditions", {"modifier": 2, "dc": 12, "take": "20"}),
])
def test_a_codex_check_takes_each_gm_ruling_by_id_as_by_name(by_name: dict, ruling_id: str, args: dict) -> None:
    call = lambda **more: api.call({"command": "codex check", "args": {**args, **more}})  # noqa: E731
    plain, switched = call(), call(**by_name)
    assert switched["ok"] and call(ruling=[ruling_id]) == switched
    assert switched != plain  # the alternative reading changes the answer


def test_each_codex_reading_has_its_effect() -> None:
    # automatic failure: a check no 20 could pass fails without a roll only under the GM's option
    assert answer("codex check", modifier=0, dc=25, rolls=[20, 3])["outcome"] != "automatic failure"
    assert answer("codex check", modifier=0, dc=25, ruling=["codex-automatic-failure"])["automatic"] == "failure"
    # take 20: asked says the character must be safe; trusted leaves the conditions to the table
    assert refused("codex check", modifier=2, dc=12, take="20")["fields"][0] in ("safe", "take")
    assert answer("codex check", modifier=2, dc=12, take="20", ruling=["codex-take-conditions"])["total"] == 22


def test_a_codex_check_refuses_a_ruling_it_cannot_switch_by_title_and_a_ruling_chosen_twice() -> None:
    wrong = refused("codex check", modifier=2, dc=12, ruling=["opencore-save-direction"])
    assert wrong["fields"] == ["ruling"] and "opencore-" not in wrong["message"]
    assert "A saving throw succeeds at or below the composite" in wrong["message"]
    twice = refused("codex check", modifier=2, dc=12, take_conditions="asked", ruling=["codex-take-conditions"])
    assert twice["fields"] == ["take_conditions", "ruling"]
