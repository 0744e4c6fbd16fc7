"""Hostile values walked through the encounter's commands (issue 39): every refusal the page can
show is in a player's words, the field named as the page labels it, never a Python value, a JSON
word or a dotted path, and it still names the field it is about (``fields``)."""

from __future__ import annotations

import copy
import json
import re
from typing import Any, Iterator

import pytest
from encounter_helpers import BUCK, call, cyno_fight, opencore_fight, step

from rollbook import api, commands
from rollbook.encounter import shape

# test_error_fields's ENGINE_WORDS, and what a Python repr or a path looks like
ENGINE_WORDS = re.compile(r"\b(JSON|object|list|dict|None|null|true|false|True|False|str|int|bool)\b"
                          r"|\{'|'\}|\[\d*\]|\b[a-z_]{2,}\.[a-z_]{2,}|_|internal error|Error\b|\bnan\b|\binf\b")
HOSTILE: list[Any] = [None, -5, 10**7, -(10**30), 1.5, "", "x" * 81, "12", {"a": 1}, [1, 2], [], True,
                      {"__proto__": {"a": 1}}, "<img src=x onerror=alert(1)>"]


def places(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every place inside an encounter that holds a value."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield path + (key,)
            yield from places(item, path + (key,))
    elif isinstance(value, list):
        for n, item in enumerate(value[:3]):
            yield path + (n,)
            yield from places(item, path + (n,))


def put(enc: dict, path: tuple[Any, ...], value: Any) -> dict:
    enc = copy.deepcopy(enc)
    holder = enc
    for key in path[:-1]:
        holder = holder[key]
    holder[path[-1]] = value
    return enc


def said(command: str, args: dict[str, Any]) -> dict[str, Any] | None:
    """The refusal of one step, or None when it was done."""
    answer = api.call({"command": f"encounter {command}", "args": args})
    return None if answer["ok"] else answer["error"]


def assert_player_words(error: dict[str, Any], what: Any) -> None:
    message = error["message"] + " " + error.get("hint", "")
    assert error["kind"] in ("input", "limit"), (what, error)
    assert not ENGINE_WORDS.search(message), (what, message)
    assert error.get("fields"), (what, error)


def fights() -> list[dict]:
    opencore = step(step(opencore_fight(), "next", seed=4), "effect", who="p1", kind="stun", rounds=2)
    return [opencore, step(cyno_fight(), "next", seed=4)]


@pytest.mark.parametrize("fight", fights(), ids=["opencore", "cyno"])
def test_a_hostile_value_anywhere_in_a_kept_encounter_is_refused_in_a_players_words(fight: dict) -> None:
    refusals = 0
    for path in places(fight):
        if path[0] == "log" and len(path) > 2:
            continue  # a log entry's words other than its text are the engine's own record
        for value in HOSTILE:
            enc = put(fight, path, value)
            for command, args in (("show", {}), ("next", {"seed": 1})):
                error = said(command, {"encounter": enc, **args})
                if error is not None:
                    refusals += 1
                    assert_player_words(error, (path, value, command))
    assert refusals > 300


@pytest.mark.parametrize("rules", ["opencore", "cyno"])
def test_a_hostile_value_in_a_new_combatant_is_refused_by_its_field(rules: str) -> None:
    enc = opencore_fight() if rules == "opencore" else cyno_fight()
    score = dict(BUCK) if rules == "opencore" else {"reflex": 10, "coordination": 10, "stress": 10, "actions": 2, "dp": 30}
    base = {"encounter": enc, "name": "Scout", "side": "foes", "score": score,
            **({"weapon": "2d6"} if rules == "cyno" else {})}
    refusals = 0
    for name in [*score, "name", "side", "weapon"]:
        for value in HOSTILE:
            args = copy.deepcopy(base)
            if name in score:
                args["score"][name] = value
            else:
                args[name] = value
            error = said("add", args)
            if error is not None:
                refusals += 1
                assert_player_words(error, (name, value))
    assert refusals > 40


def test_a_number_out_of_range_says_what_to_enter_with_an_example() -> None:
    error = said("show", {"encounter": put(opencore_fight(), ("combatants", 0, "initiative"), -(10**7))})
    assert error is not None and error["message"] == (
        "Buck's initiative: -10,000,000 is out of range; enter a whole number from -1,000,000 to 1,000,000, such as 12")
    assert error["fields"] == ["encounter"]
    error = said("show", {"encounter": put(opencore_fight(), ("combatants", 0, "name"), {"a": 1})})
    assert error is not None and error["message"].startswith("Combatant 1's name: enter text of at most 80 characters")
    assert shape.place("encounter.combatants[0].effects[1].rounds", opencore_fight()) == "Buck's effect 2's rounds left"


def test_a_second_copy_of_the_longest_name_is_numbered_within_the_limit() -> None:
    """A kept foe of an 80-character name tapped twice: its copy was named 82 characters and refused."""
    name = "A" * (shape.LONGEST_TEXT - 1) + "b"
    enc = step(opencore_fight(), "add", name=name, side="foes", score=BUCK)
    for n in (2, 3):
        enc = step(enc, "add", name=name, side="foes", score=BUCK)
        copy_name = enc["combatants"][-1]["name"]
        assert len(copy_name) == shape.LONGEST_TEXT and copy_name.endswith(f" {n}"), copy_name
        assert copy_name.startswith("A" * (shape.LONGEST_TEXT - 3))
    for n in range(4, 11):  # the number grows a digit: the base gives way again
        enc = step(enc, "add", name=name, side="foes", score=BUCK)
    assert enc["combatants"][-1]["name"] == "A" * (shape.LONGEST_TEXT - 3) + " 10"
    assert len({c["name"] for c in enc["combatants"]}) == len(enc["combatants"])


NOT_NUMBERS = [float("nan"), float("inf"), float("-inf")]


@pytest.mark.parametrize("value", NOT_NUMBERS, ids=["NaN", "Infinity", "-Infinity"])
def test_a_value_that_is_not_a_number_is_refused_saying_what_was_wrong_and_what_to_enter(value: float) -> None:
    """NaN and Infinity, which JSON text from a hostile link or file may hold (Python reads them):
    every argument of every encounter command, a score of a new combatant and every place of a kept
    encounter. The refusal said "enter a whole number, such as 40, not nan"."""
    fight, cyno = fights()
    refusals = 0
    for name, cmd in commands.load_all().items():
        if not name.startswith("encounter "):
            continue
        for param in cmd.params:
            if param.name == "encounter":
                continue
            given = {"x": value} if param.keyed else [value] if param.many else value
            for enc in (fight, cyno):
                answer = json.loads(api.call_json(json.dumps({"command": name, "args": {"encounter": enc, param.name: given}})))
                if answer["ok"]:
                    continue
                refusals += 1
                assert_player_words(answer["error"], (name, param.name, value))
        answer = json.loads(api.call_json(json.dumps({"command": name, "args": {"encounter": value}})))
        if "encounter" in {p.name for p in cmd.params}:
            assert not answer["ok"]
            assert_player_words(answer["error"], (name, "encounter", value))
            assert answer["error"]["message"].startswith("enter an encounter"), answer
    for score in BUCK:
        error = said("add", {"encounter": fight, "name": "Scout", "side": "foes", "score": {**BUCK, score: value}})
        assert error is not None and error["fields"] == [f"score.{score}"], error
        assert_player_words(error, (score, value))
        assert error["message"].startswith("enter a whole number, such as 40; "), error["message"]
        assert ("is not a number" if value != value else "is infinite") in error["message"], error["message"]
        refusals += 1
    for path in places(fight):
        error = said("show", {"encounter": put(fight, path, value)})
        if error is not None:
            refusals += 1
            assert_player_words(error, (path, value))
    assert refusals > 100, refusals


# What a refusal of a step the page makes must not say: a combatant's id (p1, o1, g1), an effect's
# kind as the engine spells it, counting from 0, "(s)" for a plural, or brackets in brackets.
NOT_A_PLAYERS = re.compile(r"\b[pog]\d\b|\bids?\b|\b(dropped|extra|round|own|by)-(weapon|attack|end|turn|hand)\b"
                           r"|count from 0|0 for the first|\(s\)|\([^()]*\(|leave out it")


def refusals() -> list[tuple[str, str, dict[str, Any], tuple[str, ...]]]:
    """(what, command, args, names the refusal must say) for the refusals of turns.py, opencore.py
    and cyno.py a page can meet (another tab's step, a hostile link or file, a tap the page let through)."""
    oc = opencore_fight()
    started = step(oc, "next", seed=4)
    now = started["order"][started["turn"]]
    other = next(i for i in started["order"] if i != now)
    name = {c["id"]: c["name"] for c in started["combatants"]}
    dropped = step(started, "effect", who=now, kind="dropped-weapon")
    sides = call("start", rules="opencore", initiative="group")["encounter"]
    for who, side in (("A", "a"), ("B", "b"), ("C", "c")):
        sides = step(sides, "add", name=who, side=side, score=BUCK)
    cy = cyno_fight()
    cys = step(cy, "next", seed=4)
    cnow = cys["order"][cys["turn"]]
    cother = next(i for i in cys["order"] if i != cnow)
    cname = {c["id"]: c["name"] for c in cys["combatants"]}
    return [
        ("a target gone", "attack", {"encounter": started, "attacker": now, "target": "o9", "seed": 1}, ("Buck", "Orc")),
        ("an attacker gone", "attack", {"encounter": started, "attacker": "p9", "target": other, "seed": 1}, ("Buck", "Orc")),
        ("one removed twice", "remove", {"encounter": started, "who": "o9"}, ("Buck", "Orc")),
        ("an attack before the first round", "attack", {"encounter": oc, "attacker": "p1", "target": "o1", "seed": 1}, ("initiative",)),
        ("out of turn", "attack", {"encounter": started, "attacker": other, "target": now, "seed": 1}, (name[now], name[other])),
        ("removed on its own turn", "remove", {"encounter": started, "who": now}, (name[now],)),
        ("an effect ended twice", "end-effect", {"encounter": started, "who": "p1", "index": 0}, ("Buck",)),
        ("an effect it has not", "end-effect", {"encounter": started, "who": "p1", "kind": "dropped-weapon"}, ("Buck", "dropped weapon")),
        ("rounds for an effect that ends by hand", "effect", {"encounter": started, "who": "p1", "kind": "dropped-weapon", "rounds": 2},
         ("dropped weapon",)),
        ("a weapon dropped", "attack", {"encounter": dropped, "attacker": now, "target": other, "seed": 1}, (name[now], "Hand to Hand")),
        ("group initiative of three sides", "next", {"encounter": sides, "seed": 1}, ("a, b", "c")),
        ("Bide before the first round", "action", {"encounter": oc, "who": "p1", "action": "bide"}, ("initiative",)),
        ("a strike out of turn", "strike", {"encounter": cys, "attacker": cother, "target": cnow, "seed": 1}, (cname[cnow], cname[cother])),
        ("aiming less than nothing", "strike", {"encounter": cys, "attacker": cnow, "target": cother, "aim": -1, "seed": 1}, ()),
        ("aiming past the actions left", "strike", {"encounter": cys, "attacker": cnow, "target": cother, "aim": 3, "seed": 1},
         (cname[cnow], "2 actions")),
        ("holding back out of turn", "hold", {"encounter": cys, "who": cother, "after": cnow, "seed": 1}, (cname[cother], cname[cnow])),
        ("holding back before the first round", "hold", {"encounter": cy, "who": "p1", "after": "g1", "seed": 1}, ("Kristine", "initiative")),
    ]


REFUSALS = refusals()


@pytest.mark.parametrize("what,command,args,names", REFUSALS, ids=[r[0] for r in REFUSALS])
def test_a_refused_step_names_the_combatant_and_says_what_to_do(what: str, command: str, args: dict[str, Any],
                                                                names: tuple[str, ...]) -> None:
    error = said(command, args)
    assert error is not None, what
    message = error["message"]
    assert error["kind"] == "input" and not ENGINE_WORDS.search(message), message
    assert not NOT_A_PLAYERS.search(message), message
    for name in names:
        assert name in message, (name, message)
