"""Errors in the page's words: every error names the arguments it is about (``fields``) and its
message is face-neutral: no flag, argument or command name, ruling id, JSON or Python wording."""

from __future__ import annotations

import json
import re
import tomllib
from importlib import resources
from typing import Any

import pytest

from rollbook import api, cli, commands

REGISTRY = commands.load_all()
RULING_IDS = [r["id"] for r in tomllib.loads(
    resources.files("rollbook").joinpath("data/rulings.toml").read_text(encoding="utf-8"))["ruling"]]
ENGINE_WORDS = re.compile(r"\b(JSON|object|list|None|null|true|false|True|False)\b")


def assert_face_neutral(message: str, name: str) -> None:
    """What a page may show next to a field of command ``name``."""
    cmd = REGISTRY[name]
    assert "--" not in message, message
    for p in cmd.params:
        if "_" in p.name:
            assert p.name not in message, (p.name, message)
        for quote in ("'{}'", '"{}"', "“{}”"):
            assert quote.format(p.name) not in message, (p.name, message)
    for other in REGISTRY:  # one-word names (roll, table) are words too: only quoted ones count
        assert (other if " " in other else f"'{other}'") not in message, (other, message)
    for ruling in RULING_IDS:
        assert ruling not in message, (ruling, message)
    assert not ENGINE_WORDS.search(message), message


def refusal(name: str, args: dict[str, Any]) -> dict[str, Any]:
    answer = json.loads(api.call_json(json.dumps({"command": name, "args": args})))
    assert not answer["ok"], answer
    return answer["error"]


def well_typed(p: commands.Param) -> Any:
    """A value of the parameter's type (its first choice): passes the registry's checks."""
    if p.keyed or p.file:
        return {}
    value = p.choices[0] if p.choices else {int: 1, float: 1.0, str: "x", bool: False}[p.kind]
    return [value] if p.many else value


def wrong_typed(p: commands.Param) -> Any:
    if p.kind is str and not (p.keyed or p.many or p.file):
        return [5] if p.dice else 5  # a plain number is a dice expression too
    return "abc" if p.kind in (int, float, bool) and not (p.keyed or p.many) else 5


def required_before(cmd: commands.Command, upto: commands.Param) -> dict[str, Any]:
    return {q.name: well_typed(q) for q in cmd.params if q.required and q is not upto}


CASES = [(cmd.name, p.name) for cmd in REGISTRY.values() for p in cmd.params]


@pytest.mark.parametrize(("name", "param"), CASES)
def test_a_wrong_typed_value_names_its_field_in_the_pages_words(name: str, param: str) -> None:
    cmd = REGISTRY[name]
    p = next(q for q in cmd.params if q.name == param)
    error = refusal(name, {**required_before(cmd, p), param: wrong_typed(p)})
    assert error["fields"][0] == param, error
    assert_face_neutral(error["message"], name)


@pytest.mark.parametrize(("name", "param"), [c for c in CASES if next(
    p for p in REGISTRY[c[0]].params if p.name == c[1]).choices])
def test_a_value_not_among_the_choices_lists_them(name: str, param: str) -> None:
    cmd = REGISTRY[name]
    p = next(q for q in cmd.params if q.name == param)
    error = refusal(name, {**required_before(cmd, p), param: "zzz"})
    assert error["fields"] == [param]
    assert error["message"].startswith("choose one of: " + ", ".join(map(str, p.choices))), error
    assert_face_neutral(error["message"], name)


@pytest.mark.parametrize(("name", "param"), [c for c in CASES if next(
    p for p in REGISTRY[c[0]].params if p.name == c[1]).required])
def test_a_missing_required_value_says_what_to_enter(name: str, param: str) -> None:
    cmd = REGISTRY[name]
    p = next(q for q in cmd.params if q.name == param)
    error = refusal(name, required_before(cmd, p))
    assert error["fields"] == [param]
    # read after the field's label: "DC: enter the Difficulty Class …", not "DC: needed: <the CLI's help>"
    assert error["message"].startswith(("enter ", "choose ")), error
    assert_face_neutral(error["message"], name)


def test_a_keyed_entry_and_the_seed_are_named_too() -> None:
    error = refusal("roll", {"expression": "2d10+STR", "vars": {"STR": "abc"}})
    assert error["fields"] == ["vars.STR"]
    assert refusal("roll", {"expression": "1d6", "seed": "x"})["fields"] == ["seed"]
    assert refusal("roll", {"expression": "1d6", "cuont": 2})["fields"] == ["cuont"]


# --- the messages players met (issue 18) --------------------------------------------------------


def test_a_name_without_a_value_blames_the_expression_and_the_names_value() -> None:
    error = refusal("roll", {"expression": "hello"})
    assert error["fields"] == ["expression", "vars.HELLO"]
    assert error["message"] == "at the 1st character, HELLO has no value (give HELLO a value, or leave it out)"


def test_checks_say_what_to_fix_without_flags() -> None:
    threatened = refusal("codex check", {"modifier": 5, "dc": 15, "take": "20"})
    assert threatened["fields"] == ["take", "safe"]
    assert "say so" in threatened["message"]
    assert_face_neutral(threatened["message"], "codex check")
    count = refusal("opencore successes", {"dice": "5d10", "at_least": 8, "rolls": [1, 2]})
    assert count["fields"] == ["rolls", "dice"]
    assert count["message"] == "5d10 is 5 dice, but 2 rolls were given (give 5 rolls)"
    modifier = refusal("codex check", {"modifier": "abc", "dc": 15})
    assert modifier == {"kind": "input", "message": "enter a whole number, such as 40, not “abc”", "fields": ["modifier"]}


def test_an_attack_without_its_skill_names_the_field() -> None:
    error = refusal("opencore attack", {"defense_skill": 30})
    assert error == {"kind": "input", "message": "enter the attacker's combat skill, such as 40",
                     "fields": ["attack_skill"]}
    touch = refusal("opencore attack", {"defense_skill": 30, "power": "touch", "power_damage": 0})
    assert touch["message"] == "enter the Hand-to-Hand skill, such as 40"


def opencore_encounter() -> dict[str, Any]:
    return commands.run("encounter start", {"rules": "opencore"})["encounter"]


def test_an_encounter_combatant_names_each_missing_score() -> None:
    error = refusal("encounter add", {"encounter": opencore_encounter(), "name": "Orc", "side": "orcs",
                                      "score": {"hp": 20, "CON": 30}})
    assert error["fields"] == ["score.dex", "score.attack_skill", "score.defense_skill"]
    assert error["message"] == "the combatant needs dex, attack skill, defense skill"
    # a score as a page labels it is the same score
    added = commands.run("encounter add", {"encounter": opencore_encounter(), "name": "Orc", "side": "orcs",
                                           "score": {"hp": 20, "con": 30, "dex": 40, "Attack skill": 40,
                                                     "defense-skill": 20, "str": 50}})
    assert added["encounter"]["combatants"][0]["attack_skill"] == 40
    bad = refusal("encounter add", {"encounter": opencore_encounter(), "name": "Orc", "side": "orcs",
                                    "score": {"hp": 20, "con": 30, "dex": 500, "attack_skill": 40, "defense_skill": 20,
                                              "str": 50}})
    assert bad["fields"] == ["score.dex"] and bad["message"].startswith("500 is out of range; enter a whole number from 0 to 100")


def test_encounter_damage_names_the_amount_and_the_critical_table() -> None:
    enc = commands.run("encounter add", {"encounter": opencore_encounter(), "name": "Orc", "side": "orcs",
                                         "score": {"hp": 5, "con": 30, "dex": 40, "attack_skill": 40, "defense_skill": 20,
                                                   "str": 50}})
    enc = enc["encounter"]
    amount = refusal("encounter damage", {"encounter": enc, "target": "o1", "amount": "abc"})
    assert amount["fields"] == ["amount"] and amount["message"] == "enter a whole number, such as 40, not “abc”"
    table = refusal("encounter damage", {"encounter": enc, "target": "o1", "amount": 30})
    assert table["fields"] == ["critical_type"]
    assert table["message"].endswith("(choose one of: slash, impact, puncture, shrapnel, burn)")
    assert_face_neutral(table["message"], "encounter damage")


def test_a_cyno_encounters_weapon_dice_error_names_the_weapon() -> None:
    enc = commands.run("encounter start", {"rules": "cyno"})["encounter"]
    error = refusal("encounter add", {"encounter": enc, "name": "Tank", "side": "gang", "weapon": "2d",
                                      "score": {"reflex": 10, "coordination": 10, "stress": 10, "actions": 1, "dp": 5}})
    assert error["fields"] == ["weapon"] and error["column"] == 3
    assert error["message"].startswith("expected a number of sides")


def test_the_strikes_damage_roll_takes_dice_or_a_number() -> None:
    dice = commands.run("cyno strike", {"roll": 15, "damage": "2d6", "seed": 3})
    assert dice["damage"] == 7 and dice["damage_dice"] == "2d6 (2, 5) = 7"
    assert dice["text"].endswith("; damage 7 (2d6 (2, 5) = 7)")
    critical = commands.run("cyno strike", {"roll": 20, "damage": "2d6", "seed": 3})
    assert critical["damage"] == 14 and critical["text"].endswith("; damage 14 (2d6 (2, 5) = 7, doubled)")
    number = commands.run("cyno strike", {"roll": 20, "damage": 7})
    assert number["damage"] == 14 and number["damage_dice"] is None and number["text"].endswith("; damage 14")
    miss = commands.run("cyno strike", {"roll": 2, "damage": "2d6"})
    assert miss["damage"] == 0
    error = refusal("cyno strike", {"roll": 15, "damage": "2d"})
    assert error["fields"] == ["damage"] and error["column"] == 3
    assert refusal("cyno strike", {"damage": "1d4-5"})["fields"] == ["damage"]


def test_the_encounters_start_names_its_rulings_by_their_titles() -> None:
    text = commands.run("encounter start", {"rules": "opencore", "death_at": "zero"})["text"]
    assert "Unconscious at 0 HP" not in text and "Death at 0 HP, as the damage section says" in text
    assert "Bleeding is lost at the end of each round" in text
    for word in ("death_at", "=", "opencore-"):
        assert word not in text


def test_rulings_in_messages_are_named_by_their_titles() -> None:
    error = refusal("cyno strike", {"missile": True, "aim": 1})
    assert error["fields"] == ["missile", "aim"]
    assert "“Missile strikes take no bonuses or penalties”" in error["message"]
    assert_face_neutral(error["message"], "cyno strike")


# --- the CLI words the same errors its own way --------------------------------------------------


@pytest.mark.parametrize(("argv", "line"), [
    (["opencore", "attack", "--defense-skill", "30"],
     "rollbook opencore attack: --attack-skill: enter the attacker's combat skill, such as 40"),
    (["roll", "hello"], "rollbook roll: EXPR, --var HELLO=N: at the 1st character, HELLO has no value (give HELLO a value, or leave it out)"),
    (["codex", "check", "--modifier", "5", "--dc", "15", "--take", "20"],
     "rollbook codex check: --take, --safe: Distractions or threats"),
    (["cyno", "strike", "--roll", "15", "--damage", "2d"], "rollbook cyno strike: --damage: expected a number of sides"),
])
def test_the_cli_puts_the_flag_before_the_message(argv: list[str], line: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(argv) == cli.EXIT_BAD_INPUT
    assert capsys.readouterr().err.startswith(line)


def test_the_cli_names_a_keyed_entry_as_its_option(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "fight.json"
    path.write_text(json.dumps(opencore_encounter()))
    argv = ["encounter", "add", str(path), "--name", "Orc", "--side", "orcs", "--score", "hp=20", "--score", "con=30",
            "--score", "dex=40", "--score", "attack_skill=40"]
    assert cli.main(argv) == cli.EXIT_BAD_INPUT
    assert capsys.readouterr().err == \
        "rollbook encounter add: --score defense_skill=N: the combatant needs defense skill\n"


# --- every answer of the cross-runtime corpus ---------------------------------------------------

CORPUS = __import__("pathlib").Path(__file__).parents[1] / "pyodide" / "corpus.json"


def corpus_answers() -> list[tuple[str, dict[str, Any], dict[str, Any]]]:
    out = []
    for entry in json.loads(CORPUS.read_text(encoding="utf-8"))["requests"]:
        for seed in entry.get("seeds", [None]):
            args = {**entry.get("args", {}), **({"seed": seed} if seed is not None else {})}
            out.append((entry["command"], args, api.call({"command": entry["command"], "args": args})))
    return out


def texts(value: Any) -> list[str]:
    """Every text an answer shows a player (its encounter's log included)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [t for key, item in value.items() if key not in ("id", "who", "rulings", "expression") for t in texts(item)]
    if isinstance(value, list):
        return [t for item in value for t in texts(item)]
    return []


@pytest.mark.cpython_only  # reads tests/pyodide/corpus.json, outside the package
def test_the_corpus_answers_speak_the_pages_words() -> None:
    """Every error the corpus meets names arguments it was given or could be, and no answer's text
    shows a flag or ruling id."""
    for name, args, answer in corpus_answers():
        if name not in REGISTRY:
            continue
        if not answer["ok"]:
            error = answer["error"]
            assert_face_neutral(error["message"], name)
            params = {p.name for p in REGISTRY[name].params} | {"seed"}
            assert all(field.split(".")[0] in params for field in error.get("fields", [])), error
            continue
        shown = answer["result"]
        if "encounter" in args:  # the log the encounter came with is not this answer's
            shown = {key: value for key, value in shown.items() if key != "encounter"}
        names = [p.name for p in REGISTRY[name].params if "_" in p.name]
        for text in texts(shown):
            assert "--" not in text and not any(ruling in text for ruling in RULING_IDS), (name, text)
            assert not any(param in text for param in names), (name, text)
