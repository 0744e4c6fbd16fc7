"""The encounter as data: its fields per rule set, the check on the way in, and the bounded log.

Every field is listed here once, as data; a problem is reported with its path
(``combatants[1].hp``) and what to write instead. Nothing is filled in silently: ``start`` and
``add`` write every field, and a hand-written file must give them all.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any, Literal

from rollbook.errors import RollbookError, quoted

VERSION = 1
RuleSet = Literal["opencore", "cyno"]
RULE_SETS: tuple[RuleSet, ...] = ("opencore", "cyno")

Encounter = dict[str, Any]
Combatant = dict[str, Any]
Effect = dict[str, Any]
Event = dict[str, Any]
Step = tuple[Encounter, list[Event]]

# The log keeps the last entries only, so an encounter stays well under the API's request limit
# (test_encounter_shape measures 12 combatants with a full log); a step's events are all returned.
LOG_KEPT = 60
MOST_COMBATANTS = 40  # more than any table runs by hand; the initiative die and the page stay sane
LONGEST_TEXT = 80  # names, ids, sides, weapons, notes
BIG = 10**6  # a score, HP or damage beyond this is a typo


@dataclass(frozen=True)
class Field:
    kind: Literal["int", "str", "bool"]
    low: int = -BIG
    high: int = BIG
    nullable: bool = False
    choices: tuple[str, ...] | None = None


# The rulings an encounter carries (rulings.toml has each id; the values are their options).
RULINGS: dict[RuleSet, dict[str, tuple[str, ...]]] = {
    "opencore": {
        "death_at": ("negative-con", "zero"),  # opencore-death-threshold
        "bloodloss_at": ("end-of-round", "own-turn"),  # opencore-bloodloss-timing
        "rounds_count": ("after-dealt", "dealt-round"),  # opencore-effect-rounds
        "str_damage": ("modifier", "score"),  # opencore-str-damage
        "dex_modifier": ("centred", "none"),  # opencore-dex-modifier
    },
    "cyno": {
        "impossible_dodge": ("costs-action", "free"),  # cyno-impossible-dodge
        "failed_skilled_parry": ("free", "action"),  # cyno-parry-with-skill
        "aim_lines": ("natural", "aimed"),  # cyno-aim-and-natural-lines
        "target_size": ("one", "both"),  # cyno-large-and-small-target
        "ranged_parry": ("blow-only", "allowed"),  # cyno-parry-blows-only
    },
}
# Rulings an encounter carries since after its first files were written: one kept or exported
# before has none, and was played by the ruling's reading (the first option), so it reads as that.
LATER_RULINGS = ("target_size", "ranged_parry")
INITIATIVE: dict[RuleSet, tuple[str, ...]] = {"opencore": ("individual", "group"), "cyno": ("die",)}

COMMON_FIELDS: dict[str, Field] = {
    "id": Field("str"),
    "name": Field("str"),
    "side": Field("str"),
    "initiative": Field("int", nullable=True),  # this round's result; null before it is rolled
}
FIELDS: dict[RuleSet, dict[str, Field]] = {
    "opencore": {
        "con": Field("int", 0, 100), "dex": Field("int", 0, 100), "str": Field("int", 0, 100, nullable=True),
        "hp": Field("int"), "hp_max": Field("int", 1),
        "armor": Field("int", 0), "armor_name": Field("str", nullable=True),
        "toughness": Field("int", 0), "fortitude": Field("int", 0),
        "attack_skill": Field("int", 0), "defense_skill": Field("int", 0), "weapon": Field("str", nullable=True),
        "stabilized": Field("bool"),
        "acted": Field("bool"),  # took its single action this round
    },
    "cyno": {
        "reflex": Field("int", 0), "coordination": Field("int", 0), "stress": Field("int", 0),
        "actions": Field("int", 1, 20), "actions_left": Field("int", 0, 20),
        "weaponry_skill": Field("int", 0, 100, nullable=True), "hand_to_hand_skill": Field("int", 0, 100, nullable=True),
        "weapon_damage": Field("str"), "weapon_level": Field("str"), "static": Field("bool"),
        "level": Field("str"), "dp": Field("int"), "dp_max": Field("int", 1),
    },
}

# Effects: what each kind carries besides kind, rounds (left, or null: until something ends it),
# dealt (the round it began) and ends (when it ends by itself).
Ends = Literal["rounds", "round-end", "own-turn", "initiative", "stabilized", "by-hand"]
EFFECT_FIELDS: dict[str, dict[str, Field]] = {
    "stun": {},  # unable to attack, -50 to defense rolls
    "unconscious": {},  # unable to attack, defend, move or use Powers
    "bloodloss": {"hp_per_round": Field("int", -BIG, -1)},
    "location": {"location": Field("str"), "skill_penalty": Field("int", -100, 0)},
    "stumble": {"defense_penalty": Field("int", -100, 0)},  # fumble chart 61-80
    "defending": {},  # the Defense action: defensive skills doubled until the next action
    "bide": {},  # +20 to next round's initiative
    "dropped-weapon": {},  # fumble chart 91-100
    "extra-attack": {"against": Field("str")},  # fumble chart 81-90: an immediate extra attack
    "surprised": {"misses_turn": Field("bool")},  # Cyno's surprise chart
    "holding": {"after": Field("str")},  # Cyno: holding back until another has moved
    "note": {"text": Field("str")},  # anything the rules do not cover, by hand
}
EFFECT_ENDS: dict[str, tuple[Ends, ...]] = {
    "stun": ("rounds",), "unconscious": ("rounds",), "bloodloss": ("stabilized",), "location": ("by-hand",),
    "stumble": ("own-turn",), "defending": ("own-turn",), "bide": ("initiative",), "dropped-weapon": ("by-hand",),
    "extra-attack": ("round-end",), "surprised": ("round-end",), "holding": ("own-turn",), "note": ("rounds", "by-hand"),
}


def effect(kind: str, dealt: int, *, rounds: int | None = None, **fields: Any) -> Effect:
    """A new effect; ``rounds`` only for those that count down."""
    ends: Ends = "rounds" if rounds is not None else EFFECT_ENDS[kind][-1]
    return {"kind": kind, "rounds": rounds, "dealt": dealt, "ends": ends, **fields}


NEW = "the combatant"  # the path of a combatant being added: its problems are the arguments' own


def fail(path: str, message: str, hint: str | None = None) -> RollbookError:
    """A problem at ``path``: in a new combatant, about its field (``score`` names the
    command's argument), else in the encounter given, named by its path."""
    if path.startswith(NEW + "."):
        return RollbookError(message, hint=hint, fields=(path[len(NEW) + 1:].split(".")[0].split("[")[0],))
    return RollbookError(f"{path}: {message}", hint=hint, fields=("encounter",))


def _value(path: str, value: Any, field: Field) -> None:
    if value is None:
        if not field.nullable:
            raise fail(path, "is missing", "every field needs a value")
        return
    ok = {"int": type(value) is int, "str": type(value) is str, "bool": type(value) is bool}[field.kind]
    if not ok:
        wanted = {"int": "a whole number", "str": "text", "bool": "yes or no"}[field.kind]
        raise fail(path, f"must be {wanted}, not {quoted(value)}")
    if field.kind == "int" and not field.low <= value <= field.high:
        raise fail(path, f"must be between {field.low} and {field.high}, not {value}")
    if field.kind == "str" and len(value) > LONGEST_TEXT:
        raise fail(path, f"is longer than {LONGEST_TEXT} characters")
    if field.choices is not None and value not in field.choices:
        raise fail(path, f"cannot be {quoted(value)}", "one of: " + ", ".join(field.choices))


def _object(path: str, value: Any, fields: dict[str, Field], *, extra: tuple[str, ...] = ()) -> None:
    if not isinstance(value, dict):
        raise fail(path, f"must be a set of named values, not {quoted(value)}")
    for name, field in fields.items():
        if name not in value:
            raise fail(path, f"needs {quoted(name)}", f"fields: {', '.join(fields)}")
        _value(f"{path}.{name}", value[name], field)
    unknown = sorted(set(value) - set(fields) - set(extra))
    if unknown:
        raise fail(path, f"has an unknown field {quoted(unknown[0])}", f"fields: {', '.join(list(fields) + list(extra))}")


def check_effect(path: str, value: Any) -> None:
    if not isinstance(value, dict) or value.get("kind") not in EFFECT_FIELDS:
        kind = value.get("kind") if isinstance(value, dict) else value
        raise fail(path, f"unknown effect {quoted(kind)}", "kinds: " + ", ".join(EFFECT_FIELDS))
    kind = value["kind"]
    fields = {"kind": Field("str"), "rounds": Field("int", 1, BIG, nullable=True), "dealt": Field("int", 0),
              "ends": Field("str", choices=EFFECT_ENDS[kind]), **EFFECT_FIELDS[kind]}
    _object(path, value, fields)
    if (value["rounds"] is None) == (value["ends"] == "rounds"):
        raise fail(path, "a counted effect needs its rounds left, and only a counted one has them",
                   'give "rounds" with "ends": "rounds", else "rounds": null')


def check_combatant(path: str, value: Any, rules: RuleSet) -> None:
    _object(path, value, {**COMMON_FIELDS, **FIELDS[rules]}, extra=("effects",))
    effects = value.get("effects")
    if not isinstance(effects, list):
        raise fail(f"{path}.effects", "must be a series of effects", "empty for none")
    for n, item in enumerate(effects):
        check_effect(f"{path}.effects[{n}]", item)
    if value.get("hp", 0) > value.get("hp_max", BIG) or value.get("dp", 0) > value.get("dp_max", BIG):
        raise fail(path, "has more than its most hit (or damage) points")


TOP_FIELDS = ("encounter", "rules", "initiative", "rulings", "round", "turn", "order", "combatants", "log", "logged")


def checked(value: Any) -> Encounter:
    """A deep copy of ``value`` after checking it is a version-1 encounter; a RollbookError naming
    the path of the first problem otherwise."""
    value = copy.deepcopy(value)
    if isinstance(value, dict) and isinstance(value.get("rulings"), dict) and value.get("rules") in RULE_SETS:
        known = RULINGS[value["rules"]]
        for name in LATER_RULINGS:
            if name in known:
                value["rulings"].setdefault(name, known[name][0])
    check(value)
    return value  # type: ignore[no-any-return]


def check(value: Any) -> None:
    """That ``value`` is a version-1 encounter; a RollbookError naming the path of the first
    problem otherwise."""
    if not isinstance(value, dict):
        raise fail("encounter", "is not an encounter", "start a new one")
    if value.get("encounter") != VERSION:
        raise fail("encounter.encounter", f"this engine reads encounter version {VERSION}, not {quoted(value.get('encounter'))}")
    rules = value.get("rules")
    if rules not in RULE_SETS:
        raise fail("encounter.rules", f"cannot be {quoted(rules)}", "opencore or cyno")
    for name in TOP_FIELDS:
        if name not in value:
            raise fail("encounter", f"needs {quoted(name)}", "start a new one")
    _object("encounter", value, _top_fields(rules), extra=("rulings", "order", "combatants", "log"))
    _object("encounter.rulings", value["rulings"],
            {name: Field("str", choices=options) for name, options in RULINGS[rules].items()})
    combatants = value["combatants"]
    if not isinstance(combatants, list) or len(combatants) > MOST_COMBATANTS:
        raise fail("encounter.combatants", f"must be a series of at most {MOST_COMBATANTS} combatants")
    for n, item in enumerate(combatants):
        check_combatant(f"encounter.combatants[{n}]", item, rules)
    ids = [c["id"] for c in combatants]
    twice = next((i for i in ids if ids.count(i) > 1), None)
    if twice is not None:
        raise fail("encounter.combatants", f"two combatants have the id {quoted(twice)}", "give each its own id")
    order = value["order"]
    if not isinstance(order, list) or any(i not in ids for i in order) or len(set(order)) != len(order):
        raise fail("encounter.order", "must list combatant ids, each once", f"ids: {', '.join(ids) or 'none yet'}")
    turn = value["turn"]
    if turn is not None and not 0 <= turn < len(order):
        raise fail("encounter.turn", f"must point into the order (0 to {len(order) - 1}) or be empty")
    log = value["log"]
    if not isinstance(log, list) or len(log) > LOG_KEPT or not all(isinstance(e, dict) and isinstance(e.get("text"), str)
                                                                  for e in log):
        raise fail("encounter.log", f"must be a series of at most {LOG_KEPT} entries, each with its text")


def _top_fields(rules: RuleSet) -> dict[str, Field]:
    """The top level's scalar fields; lists and objects are checked on their own."""
    return {
        "encounter": Field("int"), "rules": Field("str"),
        "initiative": Field("str", choices=INITIATIVE[rules]),
        "round": Field("int", 0), "turn": Field("int", 0, nullable=True), "logged": Field("int", 0),
    }


def new(rules: RuleSet, initiative: str, rulings: dict[str, str]) -> Encounter:
    """An empty encounter, every ruling written out (the defaults unless chosen)."""
    known = RULINGS[rules]
    for name, value in rulings.items():
        if name not in known:
            raise RollbookError("this ruling belongs to the other rule set", hint="leave it out",
                                fields=(name,))
        if value not in known[name]:
            raise RollbookError(f"choose one of: {', '.join(known[name])}, not {quoted(value)}", fields=(name,))
    if initiative not in INITIATIVE[rules]:
        raise RollbookError(f"this rule set's initiative cannot be {quoted(initiative)}",
                            hint="one of: " + ", ".join(INITIATIVE[rules]), fields=("initiative",))
    return {"encounter": VERSION, "rules": rules, "initiative": initiative,
            "rulings": {name: rulings.get(name, options[0]) for name, options in known.items()},
            "round": 0, "turn": None, "order": [], "combatants": [], "log": [], "logged": 0}
