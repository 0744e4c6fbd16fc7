"""The encounter as data: its fields per rule set, the check on the way in, and the bounded log.

Every field is listed here once, as data; a problem is reported with its path
(``combatants[1].hp``) and what to write instead. Nothing is filled in silently: ``start`` and
``add`` write every field, and a hand-written file must give them all.
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass
from typing import Any, Literal

from rollbook.errors import RollbookError, quoted
from rollbook.systems.opencore.criticals import LOCATIONS

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
    "location": {"location": Field("str", choices=LOCATIONS), "skill_penalty": Field("int", -100, 0)},
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

# What the page calls each field (add.js's labels), so a problem reads as the page's words, not a path.
LABELS: dict[str, str] = {
    "id": "id", "name": "name", "side": "side", "initiative": "initiative", "hp": "HP", "hp_max": "most HP",
    "con": "CON", "dex": "DEX", "str": "STR", "armor": "armor rating", "armor_name": "armor",
    "toughness": "Toughness", "fortitude": "Fortitude", "attack_skill": "Attack skill",
    "defense_skill": "Defense skill", "weapon": "weapon", "stabilized": "stabilized", "acted": "acted this round",
    "reflex": "Reflex", "coordination": "Coordination", "stress": "Stress", "actions": "Actions",
    "actions_left": "actions left", "weaponry_skill": "Weaponry skill %", "hand_to_hand_skill": "Hand-to-hand skill %",
    "weapon_damage": "weapon damage", "weapon_level": "weapon's level", "static": "static damage", "level": "level",
    "dp": "DP", "dp_max": "most DP", "effects": "effects", "kind": "kind", "rounds": "rounds left",
    "dealt": "round dealt", "ends": "end", "hp_per_round": "HP lost each round", "location": "location",
    "skill_penalty": "skill penalty", "defense_penalty": "defense penalty", "against": "target",
    "misses_turn": "misses its turn", "after": "holding for", "text": "text",
    # the encounter's own
    "encounter": "version", "rules": "rule set", "rulings": "rulings", "round": "round", "turn": "turn",
    "order": "turn order", "combatants": "combatants", "log": "log", "logged": "log count",
}
RULING_WORDS: dict[str, str] = {  # the rulings as the start form's headings say them
    "death_at": "death", "bloodloss_at": "when bleeding is lost", "rounds_count": "how a stun's rounds count",
    "str_damage": "Strength in weapon damage", "dex_modifier": "the Dexterity modifier",
    "impossible_dodge": "a dodge ruled out", "failed_skilled_parry": "parrying with skill", "aim_lines": "aiming",
    "target_size": "large and small targets", "ranged_parry": "parrying a missile",
}
_STEP = re.compile(r"\.([a-z_]+)|\[(\d+)\]")


def place(path: str, enc: Any = None) -> str:
    """``encounter.combatants[1].hp`` as the page says it: "Goblin's HP" (the combatant's name when
    the encounter gives one, else "Combatant 2"); ``encounter`` alone: "The encounter"."""
    root = re.split(r"[.\[]", path, maxsplit=1)[0]
    said, holder = f"The {root.removeprefix('the ')}", enc
    for name, index in ((m.group(1), m.group(2)) for m in _STEP.finditer(path[len(root):])):
        if index is not None:
            item = holder[int(index)] if isinstance(holder, list) and int(index) < len(holder) else None
            own = item.get("name") if isinstance(item, dict) else None
            if said.endswith("combatants"):
                said = own if isinstance(own, str) and 0 < len(own) <= LONGEST_TEXT else f"Combatant {int(index) + 1}"
            else:
                said = f"{said.removesuffix('s')} {int(index) + 1}"
            holder = item
            continue
        if said.endswith("rulings"):
            said = f"The ruling on {RULING_WORDS.get(name, name.replace('_', ' '))}"
        elif said == "The encounter" and name in ("round", "turn"):
            said = f"The {name}"
        else:
            said = f"{said}'s {LABELS.get(name, name.replace('_', ' '))}"
        holder = holder.get(name) if isinstance(holder, dict) else None
    return said


def fail(path: str, message: str, hint: str | None = None, enc: Any = None) -> RollbookError:
    """A problem at ``path``: in a new combatant, about its field (``score`` names the
    command's argument; the page shows the message by that field's label), else in the
    encounter given, named as the page says it (``place``)."""
    if path.startswith(NEW + "."):
        return RollbookError(message, hint=hint, fields=(path[len(NEW) + 1:].split(".")[0].split("[")[0],))
    joined = " " if message.split(" ", 1)[0] in ("is", "are", "has", "was", "must") else ": "
    return RollbookError(f"{place(path, enc)}{joined}{message}", hint=hint, fields=("encounter",))


def _number(n: int) -> str:
    return f"{n:,}"


def _enter(field: Field) -> str:
    """What to enter in a field of this kind, with an example inside its range."""
    if field.kind == "int":
        example = min(max(12, field.low), field.high)
        return f"enter a whole number from {_number(field.low)} to {_number(field.high)}, such as {example}"
    if field.kind == "bool":
        return "choose yes or no"
    if field.choices is not None:
        return "choose one of: " + ", ".join(field.choices)
    return f"enter text of at most {LONGEST_TEXT} characters"


def _value(path: str, value: Any, field: Field, enc: Any = None) -> None:
    if value is None:
        if not field.nullable:
            raise fail(path, f"is missing; {_enter(field)}", enc=enc)
        return
    ok = {"int": type(value) is int, "str": type(value) is str, "bool": type(value) is bool}[field.kind]
    if not ok:  # the value itself is not shown: it may be anything a file holds
        raise fail(path, _enter(field), enc=enc)
    if field.kind == "int" and not field.low <= value <= field.high:
        raise fail(path, f"{_number(value) if abs(value) < BIG * 1000 else 'that number'} is out of range; "
                   f"{_enter(field)}", enc=enc)
    if field.kind == "str" and len(value) > LONGEST_TEXT:
        raise fail(path, f"is longer than {LONGEST_TEXT} characters; enter at most {LONGEST_TEXT}", enc=enc)
    if field.choices is not None and value not in field.choices:
        raise fail(path, _enter(field), enc=enc)


def _object(path: str, value: Any, fields: dict[str, Field], *, extra: tuple[str, ...] = (), enc: Any = None) -> None:
    if not isinstance(value, dict):
        raise fail(path, "is not in the form Rollbook keeps it", "start a new encounter", enc=enc)
    for name, field in fields.items():
        if name not in value:
            raise fail(f"{path}.{name}", f"is missing; {_enter(field)}", enc=enc)
        _value(f"{path}.{name}", value[name], field, enc)
    if set(value) - set(fields) - set(extra):  # its name is not shown: a file's key may be anything
        raise fail(path, "has a value this version of Rollbook does not know",
                   "start a new encounter, or bring back one kept by this version", enc=enc)


def check_effect(path: str, value: Any, enc: Any = None) -> None:
    if not isinstance(value, dict) or not isinstance(value.get("kind"), str) or value["kind"] not in EFFECT_FIELDS:
        kind = value.get("kind") if isinstance(value, dict) else None
        known = isinstance(kind, str) and len(kind) <= LONGEST_TEXT
        raise fail(path, f"is {quoted(kind)}, an effect Rollbook does not know" if known else "is not an effect Rollbook knows",
                   "effects: " + ", ".join(k.replace("-", " ") for k in EFFECT_FIELDS), enc=enc)
    kind = value["kind"]
    fields = {"kind": Field("str"), "rounds": Field("int", 1, BIG, nullable=True), "dealt": Field("int", 0),
              "ends": Field("str", choices=EFFECT_ENDS[kind]), **EFFECT_FIELDS[kind]}
    _object(path, value, fields, enc=enc)
    if (value["rounds"] is None) == (value["ends"] == "rounds"):
        raise fail(path, "an effect that counts down needs its rounds left, and only such an effect has them",
                   "give the rounds left for one that ends when they run out, else none", enc=enc)


def check_combatant(path: str, value: Any, rules: RuleSet, enc: Any = None) -> None:
    _object(path, value, {**COMMON_FIELDS, **FIELDS[rules]}, extra=("effects",), enc=enc)
    effects = value.get("effects")
    if not isinstance(effects, list):
        raise fail(f"{path}.effects", "are not in the form Rollbook keeps them", "none, or the effects it is under",
                   enc=enc)
    for n, item in enumerate(effects):
        check_effect(f"{path}.effects[{n}]", item, enc)
    if value.get("hp", 0) > value.get("hp_max", BIG) or value.get("dp", 0) > value.get("dp_max", BIG):
        raise fail(path, "has more than its most hit (or damage) points",
                   "enter no more than its most HP (Cyno: DP)", enc=enc)


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
    """That ``value`` is a version-1 encounter; a RollbookError naming the first problem (as the
    page says the field, ``place``) otherwise."""
    if not isinstance(value, dict):
        raise fail("encounter", "is not one Rollbook can read", "start a new one")
    enc = value
    version = value.get("encounter")
    if version != VERSION:
        newer = type(version) is int and version > VERSION
        raise fail("encounter", "was kept by a newer version of Rollbook" if newer else "is not one Rollbook can read",
                   "reload the page to get the newer version" if newer else "start a new one")
    rules = value.get("rules")
    if rules not in RULE_SETS:
        raise fail("encounter.rules", "is neither OpenCore nor Cyno's Role-Play", "start a new encounter", enc=enc)
    for name in TOP_FIELDS:
        if name not in value:
            raise fail(f"encounter.{name}", "is missing", "start a new encounter", enc=enc)
    _object("encounter", value, _top_fields(rules), extra=("rulings", "order", "combatants", "log"), enc=enc)
    _object("encounter.rulings", value["rulings"],
            {name: Field("str", choices=options) for name, options in RULINGS[rules].items()}, enc=enc)
    combatants = value["combatants"]
    if not isinstance(combatants, list) or len(combatants) > MOST_COMBATANTS:
        raise fail("encounter.combatants", f"are more than {MOST_COMBATANTS}, or not in the form Rollbook keeps them",
                   f"keep at most {MOST_COMBATANTS}", enc=enc)
    for n, item in enumerate(combatants):
        check_combatant(f"encounter.combatants[{n}]", item, rules, enc)
    ids = [c["id"] for c in combatants]
    twice = next((i for i in ids if ids.count(i) > 1), None)
    if twice is not None:
        raise fail("encounter.combatants", f"two of them have the same id {quoted(twice)}", "give each its own id",
                   enc=enc)
    order = value["order"]
    if not isinstance(order, list) or any(i not in ids for i in order) or len(set(order)) != len(order):
        raise fail("encounter.order", "must name each combatant once", "roll initiative again", enc=enc)
    turn = value["turn"]
    if turn is not None and not 0 <= turn < len(order):
        raise fail("encounter.turn", "is not one of the turn order's", "start the round again", enc=enc)
    log = value["log"]
    if not isinstance(log, list) or len(log) > LOG_KEPT or not all(isinstance(e, dict) and isinstance(e.get("text"), str)
                                                                  for e in log):
        raise fail("encounter.log", f"must be at most {LOG_KEPT} entries, each with its words",
                   "start a new encounter", enc=enc)


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
            raise RollbookError(f"choose one of: {', '.join(known[name])}", fields=(name,))
    if initiative not in INITIATIVE[rules]:
        raise RollbookError("this rule set does not have that kind of initiative",
                            hint="one of: " + ", ".join(INITIATIVE[rules]), fields=("initiative",))
    return {"encounter": VERSION, "rules": rules, "initiative": initiative,
            "rulings": {name: rulings.get(name, options[0]) for name, options in known.items()},
            "round": 0, "turn": None, "order": [], "combatants": [], "log": [], "logged": 0}
