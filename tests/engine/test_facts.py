"""rollbook.facts: the facts the widgets and hooks read (widgets/facts.js is written from them) are
the engine's own, read from where each is defined, as plain JSON values."""

from __future__ import annotations

import json
from pathlib import Path

from rollbook import api, facts, rulings, tables
from rollbook.dice import limits
from rollbook.encounter import shape
from rollbook.systems import opencore

FACTS = facts.facts()


def test_the_facts_are_plain_json_and_the_same_each_time() -> None:
    assert json.loads(json.dumps(FACTS)) == FACTS
    assert facts.facts() == FACTS
    assert list(FACTS) == ["abilities", "character", "character_rulings", "rule_set_names", "critical_types", "encounter",
                           "limits", "commands"]


def test_rule_sets_are_named_as_their_documents_name_them_and_an_encounters_are_among_them() -> None:
    assert FACTS["rule_set_names"]["cyno"] == "Cyno's Role-Play"
    assert set(FACTS["encounter"]["rule_sets"]) <= set(FACTS["rule_set_names"])


def test_an_encounters_scores_are_those_encounter_add_takes_and_its_combatants_keep() -> None:
    scores = FACTS["encounter"]["scores"]
    assert list(scores) == FACTS["encounter"]["rule_sets"]
    assert [name for name, required in scores["opencore"].items() if required] == ["con", "dex", "hp", "attack_skill", "defense_skill"]
    for rules, known in scores.items():
        assert set(known) <= set(FACTS["encounter"]["fields"][rules]), rules


def test_abilities_are_the_seeds_in_its_order_with_their_names() -> None:
    assert [a["code"] for a in FACTS["abilities"]] == list(opencore.ability_codes())
    assert FACTS["abilities"][0] == {"code": "STR", "name": "Strength"}
    assert FACTS["character"] == {"score_low": 0, "score_high": 100, "rolled_low": 1, "hp_roll_low": 1, "hp_roll_high": 100}


def test_each_ruling_option_reads_by_its_ruling_first_and_its_alternative_second() -> None:
    options = {**FACTS["character_rulings"], **FACTS["encounter"]["rulings"]["opencore"], **FACTS["encounter"]["rulings"]["cyno"]}
    assert set(FACTS["character_rulings"]) == {"save_direction", "willpower_composite", "perception"}
    for name, option in options.items():
        ruling = rulings.get(option["ruling"])
        assert ruling.option == f"{name}={option['choices'][1]}", name  # the choice that switches it
        assert option["title"] == ruling.title  # a player reads the title, never the id


def test_the_character_rulings_are_what_the_character_command_takes() -> None:
    params = {p["name"]: p for c in api.commands_schema() if c["command"] == "opencore character" for p in c["params"]}
    for name, option in FACTS["character_rulings"].items():
        assert params[name]["choices"] == option["choices"]


def test_critical_types_are_the_tables_with_their_titles() -> None:
    assert [c["type"] for c in FACTS["critical_types"]] == list(tables.CRITICAL_TYPES)
    assert FACTS["critical_types"][0]["title"] == tables.get("opencore.critical.slash").title


def test_encounter_fields_and_limits_are_the_shapes() -> None:
    encounter = FACTS["encounter"]
    assert encounter["most_combatants"] == shape.MOST_COMBATANTS and encounter["longest_text"] == shape.LONGEST_TEXT
    assert encounter["fields"]["opencore"]["con"] == {"kind": "int", "low": 0, "high": 100}
    assert encounter["fields"]["opencore"]["str"] == {"kind": "int", "low": 0, "high": 100, "nullable": True}
    assert encounter["fields"]["common"]["name"] == {"kind": "str"}
    for rules in shape.RULE_SETS:
        assert list(encounter["fields"][rules]) == list(shape.FIELDS[rules])
        assert {name: o["choices"] for name, o in encounter["rulings"][rules].items()} == \
            {name: list(choices) for name, choices in shape.RULINGS[rules].items()}
    assert list(encounter["effects"]) == list(shape.EFFECT_FIELDS)
    assert FACTS["limits"] == {"expression_chars": limits.MAX_CHARS, "request_chars": api.MAX_REQUEST_CHARS}


def test_commands_are_the_apis_without_help_text() -> None:
    schema = api.commands_schema()
    assert list(FACTS["commands"]) == [c["command"] for c in schema]
    crit = FACTS["commands"]["opencore crit"]
    assert crit["type"]["choices"] == list(tables.CRITICAL_TYPES)
    assert crit["toughness"]["default"] == 0  # a default of 0 is kept (not taken for "none")
    assert "help" not in json.dumps(FACTS["commands"])


def test_the_javascript_module_exports_each_fact_and_all_of_them() -> None:
    module = facts.js_module()
    assert module.startswith("// Generated from the engine by `python -m rollbook.facts")
    for name in FACTS:
        assert f"\nexport const {name.upper()} = " in module
    assert "export const FACTS = { abilities: ABILITIES," in module
    assert 'export const LIMITS = {"expression_chars": 1000, "request_chars": 64000};' in module


def test_check_fails_on_an_out_of_date_file_and_write_mends_it(tmp_path: Path) -> None:
    path = tmp_path / "facts.js"
    assert facts.main(["--check", str(path)]) == 1  # missing
    path.write_text(facts.js_module().replace('"Strength"', '"Brawn"'), encoding="utf-8")
    assert facts.stale(path) and facts.main(["--check", str(path)]) == 1
    assert facts.main(["--write", str(path)]) == 0
    assert not facts.stale(path) and facts.main(["--check", str(path)]) == 0


def test_a_parameter_that_switches_a_ruling_names_it_and_reads_by_it_first() -> None:
    switched = {(command, name): param for command, params in FACTS["commands"].items()
                for name, param in params.items() if "ruling" in param}
    assert switched[("codex check", "impossible_fails")]["ruling"] == "codex-automatic-failure"
    assert switched[("codex check", "take_conditions")]["ruling"] == "codex-take-conditions"
    assert {ruling.option.partition("=")[0] for ruling in rulings.all_rulings() if ruling.option} == {name for _, name in switched}
    for (command, name), param in switched.items():
        ruling = rulings.get(param["ruling"])
        value = ruling.option.partition("=")[2]
        # a widget offers the ruling's reading first, its alternative second
        assert param.get("choices", ["", "true"])[1] == value, (command, name)


def test_each_critical_type_names_its_table() -> None:
    for critical in FACTS["critical_types"]:
        assert tables.get(critical["table"]).title == critical["title"]


def test_a_parameter_read_only_with_some_values_of_another_says_which_and_is_ignored_otherwise() -> None:
    # issue 40: the Codex check's page asks for the safe tick and the failure's cost only with the
    # takes the engine reads them with (it typed "10" and "20")
    guarded = {(command, name): param["only_with"] for command, params in FACTS["commands"].items()
               for name, param in params.items() if "only_with" in param}
    assert guarded == {("codex check", "safe"): {"take": ["10", "20"]}, ("codex check", "failure_has_cost"): {"take": ["20"]}}
    for (command, name), only_with in guarded.items():
        for other, values in only_with.items():
            assert set(values) <= set(FACTS["commands"][command][other]["choices"]), (command, name, other)

    def check(**args: object) -> dict:
        return api.call({"command": "codex check", "args": {"modifier": 4, "dc": 14, "seed": 1, **args}})

    for take in [None, *FACTS["commands"]["codex check"]["take"]["choices"]]:
        unsafe, safe = check(take=take), check(take=take, safe=True)
        if take in guarded[("codex check", "safe")]["take"]:
            assert not unsafe["ok"] and "safe" in unsafe["error"]["fields"] and safe["ok"], take
        else:
            assert unsafe == safe and safe["ok"], take  # the tick is not read
        costly = check(take=take, safe=True, failure_has_cost=True)
        incurred = take in guarded[("codex check", "failure_has_cost")]["take"]
        assert costly["result"]["penalties_incurred"] is incurred, take
        if not incurred:
            assert costly == safe, take
