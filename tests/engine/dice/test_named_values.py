"""Named values in dice expressions (``2d10+STR`` with ``--var STR=3``) and error columns in the API."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from rollbook import api, cli
from rollbook.dice import DiceError, distribution, parse, roll

# OpenCore's nine abilities (engine/rollbook/data/opencore.toml): several share letters with the
# notation (D of dice, I, C, R of rerolls, P, L, K of keep), and none may be misread as it.
ABILITIES = ("STR", "DEX", "CON", "INT", "IPW", "CHA", "COM", "PER", "WIL")


def request(**args) -> dict:
    return json.loads(api.call_json(json.dumps({"command": args.pop("command", "roll"), "args": args})))


@pytest.mark.parametrize("name", ABILITIES)
@pytest.mark.parametrize("text", ["2d10+{}", "{}+2d10", "3*{}-1d4", "({})d6", "1d100<={}", "-{}+1",
                                  "{{1d6, {}}}kh1"])
def test_every_ability_is_read_as_its_value(name, text):
    expression = text.format(name, name)
    bound = parse(expression, {name: 4})
    assert bound == parse(text.format(4, 4))
    assert parse(expression.lower(), {name: 4}) == bound  # names match whatever their case


@pytest.mark.parametrize("name", ABILITIES)
def test_exact_odds_include_the_value(name):
    assert distribution(f"1d4+{name}", {name: 10}).probabilities == {v: Fraction(1, 4) for v in (11, 12, 13, 14)}
    assert distribution(f"d100<={name}", {name.lower(): 45}).p_eq(1) == Fraction(45, 100)


def test_a_negative_value_reads_back_as_one_number():
    assert roll("2*STR", values={"STR": -3}).total == -6
    assert roll("STR*STR", values={"str": -3}).total == 9
    assert parse("1d6+STR", {"STR": -2}).root == parse("1d6+(-2)").root


def test_dice_letters_stay_dice():
    assert parse("d20+DEX", {"DEX": 2}) == parse("d20+2")
    assert parse("4dF+DEX", {"DEX": 2}) == parse("4dF+2")
    assert parse("d%+dF", {}) == parse("1d%+1dF")


def test_an_unknown_name_says_where_and_what_to_pass():
    with pytest.raises(DiceError) as info:
        parse("2d10+STR")
    assert info.value.column == 6
    assert info.value.message == "at the 6th character, STR has no value"
    assert info.value.variable == "STR"
    with pytest.raises(DiceError, match="at the 1st character, DEX has no value"):
        parse("dex+1", {"STR": 1})


@pytest.mark.parametrize(("values", "message"), [
    ({"S1": 1}, "a name is 1 to 20 letters"),
    ({"": 1}, "a name is 1 to 20 letters"),
    ({"d": 1}, "would read as dice"),
    ({"DFX": 1}, "would read as dice"),
    ({"STR": 1.5}, "the value of STR must be a whole number"),
    ({"STR": True}, "the value of STR must be a whole number"),
    ({"STR": 10**9}, "at most 9 digits in a number"),
    ({"STR": 1, "str": 2}, "STR is given twice"),
])
def test_bad_values_are_explained(values, message):
    with pytest.raises(DiceError, match=message):
        roll("1d6+STR", values=values)


def test_cli_takes_repeated_vars(capsys):
    assert cli.main(["roll", "2d10+STR+DEX", "--var", "STR=3", "--var", "dex=-1", "--seed", "1"]) == 0
    assert capsys.readouterr().out == "2d10 (3, 10) + 3 + (-1) = 15\n"
    assert cli.main(["prob", "1d4+CON", "--var", "CON=10", "--at-least", "13", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["p_at_least"] == "1/2"
    assert cli.main(["roll", "1d6+STR", "--var", "STR=1", "--var", "str=2"]) == cli.EXIT_BAD_INPUT
    assert "--var STR is given twice" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        cli.main(["roll", "1d6+STR", "--var", "STR"])
    assert "invalid NAME=VALUE value: 'STR'" in capsys.readouterr().err


def test_json_takes_an_object_of_vars():
    answer = request(expression="2d10+STR", vars={"STR": 3}, seed=1)
    assert answer["ok"] and answer["result"]["total"] == 16
    odds = request(command="prob", expression="1d4+STR", vars={"STR": 3})
    assert odds["result"]["distribution"] == {"4": "1/4", "5": "1/4", "6": "1/4", "7": "1/4"}
    wrong = request(expression="1d6+STR", vars=["STR", 3])
    assert wrong["error"]["message"].startswith("enter names with their values, such as STR=3")
    assert wrong["error"]["fields"] == ["vars"]
    wrong = request(expression="1d6+STR", vars={"STR": "3"})
    assert wrong["error"]["message"] == "enter a whole number, such as 40, not “3”"
    assert wrong["error"]["fields"] == ["vars.STR"]


def test_api_errors_carry_the_column():
    error = request(expression="2d10+STR")["error"]
    assert error == {"kind": "input", "column": 6, "fields": ["expression", "vars.STR"],
                     "message": "at the 6th character, STR has no value (give STR a value, or leave it out)"}
    assert request(expression="1d")["error"]["column"] == 3
    assert "column" not in request(expression="1d6", count=0)["error"]  # not about a place in the text
