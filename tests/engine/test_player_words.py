"""The engine's words as a player reads them on a phone (issue 38, "Words"): one arrow, a chance as
a percentage, no "-0", no "column 3:" and no "needed: <argument help>"."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Iterator

import pytest

from rollbook import api, cli, commands

REGISTRY = commands.load_all()
CORPUS = json.loads((Path(__file__).parents[1] / "pyodide" / "corpus.json").read_text(encoding="utf-8"))["requests"]


def answer(name: str, /, **args: Any) -> dict[str, Any]:
    reply = api.call({"command": name, "args": args})
    assert reply["ok"], reply
    return reply["result"]


def refusal(name: str, /, **args: Any) -> dict[str, Any]:
    reply = json.loads(api.call_json(json.dumps({"command": name, "args": args})))
    assert not reply["ok"], reply
    return reply["error"]


def texts(value: Any) -> Iterator[str]:
    """Every string inside an answer."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from texts(item)
    elif isinstance(value, list):
        for item in value:
            yield from texts(item)


def corpus_answers() -> Iterator[tuple[str, dict[str, Any]]]:
    """The corpus's answers, but the encounter's: an encounter carries its log in the request
    (words of earlier engines), and its own words are another part of issue 38."""
    for request in CORPUS:
        if request["command"].startswith("encounter "):
            continue
        for seed in request.get("seeds", [None]):
            args = request.get("args", {}) if seed is None else {**request.get("args", {}), "seed": seed}
            yield request["command"], api.call({"command": request["command"], "args": args})


# --- 1. an OpenCore save ----------------------------------------------------------------------


def test_a_save_says_the_roll_the_ability_taken_off_and_its_chance_as_a_percentage() -> None:
    # CON 99 makes Physical Toughness certain: the player saw "rolled 5 -> -94: success (chance 1)"
    save = answer("opencore check", kind="physical-toughness", scores="STR=50,DEX=50,AGL=50,CON=99", roll=5)
    assert save["roll"] == 5 and save["success"] is True and save["chance"] == "1"
    assert save["text"] == ("Physical Toughness: 1d100 - CON at or below SDAC (62): "
                            "rolled 5 - CON 99 = -94: success (chance of success 100%)")
    perception = answer("opencore check", kind="perception", scores="PER=96", roll=97)
    assert perception["text"] == "Perception: 1d100 above PER (96): rolled 97: success (chance of success 4%)"


def test_the_character_sheet_and_the_success_count_give_chances_as_percentages() -> None:
    sheet = answer("opencore character", scores="STR=76,DEX=80,AGL=21,CON=32,INT=86,PER=96,WIS=32,CHA=17,COM=92",
                   hp_roll=60)
    assert "Perception: 1d100 above PER (96), chance of success 4%" in sheet["text"].splitlines()
    assert not re.search(r"chance \d+/\d+", sheet["text"]), sheet["text"]
    count = answer("opencore successes", dice="3d10", at_least=8, rolls=[7, 8, 10], needed=2)
    assert count["text"].endswith("success (chance of success 21.6%)"), count["text"]


# --- 2. one arrow ------------------------------------------------------------------------------


def test_no_answer_a_player_reads_uses_an_ascii_arrow() -> None:
    seen = [(name, text) for name, reply in corpus_answers() for text in texts(reply) if "->" in text]
    assert seen == []


def test_the_attack_and_the_com_rule_use_the_arrow() -> None:
    attack = answer("opencore attack", attack_skill=40, defense_skill=30, attack_roll=50, defense_roll=20)
    assert attack["text"].startswith("Attack 50 → 90 vs defense 20 → 50: hit")
    sheet = answer("opencore character", scores="STR=50,DEX=50,AGL=50,CON=50,INT=50,PER=50,WIS=50,CHA=17,COM=50",
                   hp_roll=60)
    assert re.search(r"^COM 50 → \d+ \(CHA 17\)$", sheet["text"], re.M), sheet["text"]


# --- 3. never "-0" -----------------------------------------------------------------------------


def test_damage_that_armor_or_toughness_did_not_take_reads_none_taken() -> None:
    wound = answer("opencore damage", amount=8, hp=12, con=30)
    assert wound["text"] == "8 damage: armor none taken (0 left), toughness none taken (0 left), HP -8 (4 left): conscious; roll a critical"
    stopped = answer("opencore damage", amount=10, hp=12, con=30, armor=22)
    assert stopped["text"] == ("10 damage: armor -10 (12 left), toughness none taken (0 left), "
                               "HP none lost (12 left): conscious")


def test_no_answer_a_player_reads_shows_minus_zero() -> None:
    seen = [(name, text) for name, reply in corpus_answers() for text in texts(reply)
            if re.search(r"(?<![\w.])[-−]0(?![\d.])", text)]
    assert seen == []


# --- 4. dice errors in words -------------------------------------------------------------------


@pytest.mark.parametrize(("expression", "column", "message"), [
    ("1d6 +* 2", 6, "at the 6th character, expected a number, dice or '(' after '+', found '*' "
                    "(e.g. 1d20+5, 4d6kh3 or 2d6+1d4)"),
    ("2d", 3, "expected a number of sides after 'd', found the end of the expression (e.g. d20, d% or dF)"),
    ("(1d6", 5, "expected ')' to close the '(' at the 1st character, found the end of the expression"),
    ("1d20 kh3 x", 10, "at the 10th character, unknown modifier 'x'"),
    ("2d6+3d0", 5, "at the 5th character, a die needs at least 1 side, not 0 (e.g. d6)"),
    ("", 1, "the expression is empty (e.g. 1d20+5, 4d6kh3 or 2d6+1d4)"),
])
def test_a_dice_error_says_its_place_in_words_and_keeps_its_column(expression: str, column: int, message: str) -> None:
    error = refusal("roll", expression=expression)
    assert error["column"] == column and error["fields"] == ["expression"]
    assert error["message"].startswith(message), error["message"]
    assert not re.search(r"\bcolumn\b", error["message"]), error["message"]


def test_places_in_words_are_ordinals() -> None:
    from rollbook.dice.errors import ordinal

    assert [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111, 112)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "23rd", "101st", "111th", "112th"]


# --- 5. a missing value says what to enter ----------------------------------------------------


def test_a_missing_dc_says_what_to_enter() -> None:
    error = refusal("codex check", modifier=3)
    assert error == {"kind": "input", "message": "enter the Difficulty Class the roll must reach, such as 15",
                     "fields": ["dc"]}


def test_no_missing_value_reads_needed_then_a_description() -> None:
    for cmd in REGISTRY.values():
        required = [p for p in cmd.params if p.required]
        for p in required:
            args = {q.name: (q.choices[0] if q.choices else {int: 1, str: "x", dict: {}}.get(q.kind, 1))
                    for q in required if q is not p}
            args = {k: ([v] if next(q for q in required if q.name == k).many else v) for k, v in args.items()}
            message = refusal(cmd.name, **args)["message"]
            assert not message.startswith("needed"), (cmd.name, p.name, message)
            assert message.startswith(("enter ", "choose ")), (cmd.name, p.name, message)


def test_the_cli_puts_the_flag_before_the_same_words(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["roll", "1d6 +* 2"]) == cli.EXIT_BAD_INPUT
    assert capsys.readouterr().err.startswith("rollbook roll: EXPR: at the 6th character, expected a number")
    assert cli.main(["opencore", "attack", "--attack-skill", "40"]) == cli.EXIT_BAD_INPUT
    assert capsys.readouterr().err == "rollbook opencore attack: --defense-skill: enter the defender's defense skill, such as 30\n"


# --- signs and full stops ------------------------------------------------------------------------


def test_a_cyno_strike_line_keeps_its_signs_and_no_full_stop_inside_its_brackets() -> None:
    strike = answer("cyno strike", roll=18, skill=55, aim=2)
    assert strike["text"].startswith("Strike 18 +0 (Weaponry skill between 51 & 60%) +2 (aimed for 2 actions) = 20:")
    unaware = answer("cyno dodge", strike=14, unaware=True)
    assert ". (" not in unaware["text"] and unaware["text"].endswith("being attacked (0 actions)")


def test_an_error_does_not_end_its_sentence_before_its_hint() -> None:
    threatened = refusal("codex check", modifier=5, dc=15, take="10")
    assert threatened["message"] == ("Distractions or threats (such as combat) make it impossible for a character to "
                                     "take 10 (if the character is not threatened or distracted, say so; otherwise roll)")
