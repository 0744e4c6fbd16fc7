"""``rollbook encounter ...``: run a fight step by step (CLI over a JSON file, JSON API alike).

Every step takes the encounter and answers ``{"encounter": new, "events": [...], "status": [...],
"text": ...}``; the encounter given is never changed. On the CLI, FILE is read and the new
encounter written back to it (``--out`` elsewhere, ``--out -`` prints it).
"""

from __future__ import annotations

import random
from typing import Annotated, Any, Literal

from rollbook import rulings
from rollbook.commands import Arg, Result, command
from rollbook.commands import opencore as oc_commands
from rollbook.encounter import cyno, opencore, outcome, shape, turns
from rollbook.errors import RollbookError, about, quoted
from rollbook.rule_sets import RULE_SETS
from rollbook.systems import cyno as cy_system
from rollbook.systems import opencore as oc_system
from rollbook.systems.opencore import attack as chain

EncounterFile = Annotated[dict[str, Any], Arg("the encounter (on the command line its file, - for standard input)",
                                               metavar="FILE", file=True)]
Who = Annotated[str, Arg("which combatant (by its id)")]


def _answer(enc: shape.Encounter, events: list[shape.Event], before: dict[str, Any] | None = None) -> Result:
    """A step's answer; ``before``: the encounter the step was made from (each combatant the step
    changed gets its outcome, the line its card shows)."""
    try:  # every step's encounter must load again: a file no later step could read is never written
        shape.check(enc)
    except RollbookError as error:
        raise RollbookError(f"this step would leave an encounter that cannot be read back ({error}), so nothing "
                            "was changed; this is a bug in Rollbook", hint="please report it with the encounter file") \
            from error
    status = opencore.status if enc["rules"] == "opencore" else cyno.status
    return {"encounter": enc, "events": events, "status": [status(enc, c) for c in enc["combatants"]],
            "outcomes": outcome.outcomes(shape.checked(before), enc, events) if before is not None else [],
            "text": "\n".join(e["text"] for e in events) or "nothing happened"}


def _for(enc: shape.Encounter, rules: shape.RuleSet, what: str) -> None:
    if enc["rules"] != rules:
        raise RollbookError(f"{what} is a rule of {RULE_SETS[rules]}; this encounter plays {RULE_SETS[enc['rules']]}")


@command("encounter start", writes="encounter")
def start(
    *,
    rules: Annotated[Literal["opencore", "cyno"], Arg("the rule set the fight is played by")],
    initiative: Annotated[Literal["individual", "group", "die"] | None,
                          Arg("opencore: individual (default) or group; cyno: die (its only way)")] = None,
    death_at: Annotated[Literal["negative-con", "zero"] | None, Arg("opencore: ruling opencore-death-threshold")] = None,
    bloodloss_at: Annotated[Literal["end-of-round", "own-turn"] | None,
                            Arg("opencore: ruling opencore-bloodloss-timing: when in the round HP is lost to bleeding")] = None,
    rounds_count: Annotated[Literal["after-dealt", "dealt-round"] | None,
                            Arg("opencore: ruling opencore-effect-rounds: whether the round a stun is dealt counts")] = None,
    str_damage: Annotated[Literal["modifier", "score"] | None, Arg("opencore: ruling opencore-str-damage")] = None,
    dex_modifier: Annotated[Literal["centred", "none"] | None, Arg("opencore: ruling opencore-dex-modifier")] = None,
    impossible_dodge: Annotated[Literal["costs-action", "free"] | None, Arg("cyno: ruling cyno-impossible-dodge")] = None,
    failed_skilled_parry: Annotated[Literal["free", "action"] | None, Arg("cyno: ruling cyno-parry-with-skill")] = None,
    aim_lines: Annotated[Literal["natural", "aimed"] | None, Arg("cyno: ruling cyno-aim-and-natural-lines")] = None,
    target_size: Annotated[Literal["one", "both"] | None, Arg("cyno: ruling cyno-large-and-small-target")] = None,
    ranged_parry: Annotated[Literal["blow-only", "allowed"] | None, Arg("cyno: ruling cyno-parry-blows-only")] = None,
    ruling: Annotated[list[str] | None, Arg("a ruling's alternative, by the ruling's id (repeat), e.g. "
                                            "cyno-parry-blows-only", metavar="ID")] = None,
) -> Result:
    """Start an empty encounter with its rulings (add combatants next; 'encounter next' begins round 1)."""
    given: dict[str, str | None] = {
        "death_at": death_at, "bloodloss_at": bloodloss_at, "rounds_count": rounds_count, "str_damage": str_damage,
        "dex_modifier": dex_modifier, "impossible_dodge": impossible_dodge, "failed_skilled_parry": failed_skilled_parry,
        "aim_lines": aim_lines, "target_size": target_size, "ranged_parry": ranged_parry}
    chosen = rulings.chosen(given, ruling or [], shape.RULINGS[rules], f"an encounter of {RULE_SETS[rules]}")
    enc = shape.new(rules, initiative or shape.INITIATIVE[rules][0], chosen)
    shown = "; ".join(rulings.reading(name, value) for name, value in enc["rulings"].items())
    enc, events = turns.logged(enc, [turns.event(enc, "start", f"Encounter started ({RULE_SETS[rules]}, "
                                                               f"{enc['initiative']} initiative; rulings: {shown})")])
    return _answer(enc, events)


@command("encounter add", writes="encounter")
def add(
    encounter: EncounterFile,
    *,
    name: Annotated[str, Arg("the combatant's name")],
    side: Annotated[str, Arg("the side it fights for, e.g. players or orcs (its first letter starts its id)")],
    score: Annotated[dict[str, int] | None, Arg("the combatant's numbers by name (NAME=VALUE, one for each). OpenCore: con, "
                                         "dex, hp, attack skill, defense skill, and if need be str, hp max, armor, "
                                         "toughness, fortitude; Cyno: reflex, coordination, stress, actions, dp, and if "
                                         "need be dp max, weaponry skill, hand-to-hand skill", metavar="NAME=VALUE",
                                         flag="--score")] = None,
    id: Annotated[str | None, Arg("its id (default: the side's first letter and a number, e.g. o2)")] = None,
    weapon: Annotated[str | None, Arg("opencore: weapon class (default Hand to Hand); cyno: weapon damage dice, e.g. 2d6")] = None,
    armor_name: Annotated[str | None, Arg("opencore: armor worn, e.g. 'Chain Mail' (its damage rating unless --score armor=N)")] = None,
    weapon_level: Annotated[str, Arg("cyno: the weapon's damage-rating level ('' for DP, h, k, ...)")] = "",
    level: Annotated[str, Arg("cyno: the combatant's damage-rating level")] = "",
    static: Annotated[bool, Arg("cyno: the weapon does static damage points (SDP)")] = False,
    typical: Annotated[bool, Arg("the scores (Cyno: and weapon) not given are a typical combatant's "
                                 "(ruling opencore-typical-combatant, cyno-typical-combatant)")] = False,
) -> Result:
    """Add a combatant with its scores; a second of the same name is numbered (Goblin 2)."""
    enc = shape.checked(encounter)
    score = score or {}
    name = turns.numbered(enc, name)
    typical_note = ""
    if enc["rules"] == "opencore":
        _refuse({"level": level, "weapon_level": weapon_level, "static": static}, "is Cyno's damage rating")
        if typical:
            score, typical_note = opencore.typical(score)
        with about(**_score_fields(opencore.SCORES)):
            new = opencore.combatant(enc, name=name, side=side, who=id, armor_name=armor_name,
                                     weapon=weapon or opencore.HAND_TO_HAND, scores=_scores(score, opencore.SCORES))
    else:
        _refuse({"armor_name": armor_name}, "is OpenCore's armor; Cyno's damage rating is the level")
        if typical:
            score, weapon, typical_note = cyno.typical(score, weapon)
        if weapon is None:
            raise RollbookError("a Cyno combatant needs its weapon's damage dice", hint="such as 2d6", fields=("weapon",))
        with about(weapon_damage="weapon", **_score_fields(cyno.SCORES)):
            new = cyno.combatant(enc, name=name, side=side, who=id, weapon_damage=weapon, weapon_level=weapon_level,
                                 level=level, static=static, scores=_scores(score, cyno.SCORES))
    note = ""
    if enc["rules"] == "opencore":  # a score at 0 says what it does (ruling opencore-zero-ability)
        zero = oc_system.zero_scores({code.upper(): new[code] for code in ("con", "dex", "str")})
        note = "".join(f"; {code} 0: {why}" + (" (the GM says which)" if why != "dead" else "")
                       for code, why in zero.items())
    return _answer(*turns.add(enc, new, typical_note + note), before=encounter)


@command("encounter typical")
def typical_scores(
    *, rules: Annotated[Literal["opencore", "cyno"], Arg("the rule set of the encounter")] = "opencore",
) -> Result:
    """The scores (and weapon) a combatant added as typical takes where none is given (the page shows them)."""
    system = opencore if rules == "opencore" else cyno
    weapon = opencore.HAND_TO_HAND if rules == "opencore" else cyno.TYPICAL_WEAPON
    ruling = rulings.get(system.TYPICAL_RULING)
    words = ", ".join(system.score_words(system.TYPICAL)) + ("" if rules == "opencore" else f", weapon {weapon}")
    return {"rules": rules, "scores": dict(system.TYPICAL), "weapon": weapon, "words": words,
            "ruling": {"id": ruling.id, "title": ruling.title}, "text": f"{ruling.title}: {words}"}


def _score_fields(known: dict[str, bool]) -> dict[str, str]:
    """A new combatant's problem with a score is about the score argument's entry: hp -> score.hp."""
    return {name: f"score.{name}" for name in known}


def _refuse(given: dict[str, Any], why: str) -> None:
    """Arguments of the other rule set: the first one given is refused."""
    wrong = [name for name, value in given.items() if value]
    if wrong:
        raise RollbookError(f"{wrong[0].replace('_', ' ').capitalize()} {why}", hint="leave it out", fields=tuple(wrong))


def _scores(given: dict[str, int], known: dict[str, bool]) -> dict[str, int]:
    """The scores by their names (attack_skill, or Attack skill as a page labels it), every required one present."""
    named = {name: name.lower().strip().replace(" ", "_").replace("-", "_") for name in given}
    scores = {named[name]: value for name, value in given.items()}
    unknown = [name for name in given if named[name] not in known]
    if unknown:
        raise RollbookError(f"unknown score {quoted(unknown[0])}", hint="scores: " + _words(known),
                            fields=(f"score.{unknown[0]}",))
    missing = [name for name, required in known.items() if required and name not in scores]
    if missing:
        raise RollbookError(f"the combatant needs {_words(missing)}", fields=tuple(f"score.{m}" for m in missing))
    return scores


def _either(choices: tuple[str, ...]) -> str:
    """The choices as a sentence reads them: "a, b or c"."""
    return ", ".join(choices[:-1]) + " or " + choices[-1]


def _words(names: Any) -> str:
    """Scores as a player reads them: attack_skill -> attack skill."""
    return ", ".join(name.replace("hand_to_hand", "hand-to-hand").replace("_", " ") for name in names)


@command("encounter remove", writes="encounter")
def remove(encounter: EncounterFile, *, who: Who) -> Result:
    """Take a combatant out of the encounter (fled, or added by mistake)."""
    return _answer(*turns.remove(shape.checked(encounter), who), before=encounter)


def _round_rules(enc: shape.Encounter) -> turns.RoundRules:
    return opencore.round_rules(enc) if enc["rules"] == "opencore" else cyno.round_rules(enc)


@command("encounter next", writes="encounter")
def next_turn(
    encounter: EncounterFile,
    *,
    roll: Annotated[dict[str, int] | None, Arg("an initiative roll made at the table, ID=N (repeat; group initiative: "
                                              "SIDE=N); the others are rolled", metavar="ID=N", flag="--roll")] = None,
    rng: random.Random,
) -> Result:
    """Next turn; after the last, the round ends (bleeding, effects count down) and the next begins with initiative."""
    enc = shape.checked(encounter)
    return _answer(*turns.next_turn(enc, _round_rules(enc), rng, roll or {}), before=encounter)


@command("encounter show")
def show(encounter: EncounterFile) -> Result:
    """Each combatant's state, effects and what it can do, without changing anything."""
    enc = shape.checked(encounter)
    answer = _answer(enc, [])
    answer["text"] = glance(enc, {s["id"]: s for s in answer["status"]})
    return answer


def glance(enc: shape.Encounter, status: dict[str, dict[str, Any]]) -> str:
    """What a GM reads at a glance: the round and whose turn, then each combatant in turn order with
    its HP (DP), state, whether it has acted, its bleeding and its effects with the rounds left."""
    now = turns.current(enc)
    head = f"Round {enc['round']}: {now['name']}'s turn" if now else "Before the first round"
    placed = {who: n for n, who in enumerate(enc["order"])}
    ordered = sorted(enc["combatants"], key=lambda c: placed.get(c["id"], len(placed)))
    return "\n".join([head, *(_line(enc, c, status[c["id"]], placed.get(c["id"])) for c in ordered)])


def _line(enc: shape.Encounter, c: shape.Combatant, status: dict[str, Any], place: int | None) -> str:
    opencore_rules = enc["rules"] == "opencore"
    points = f"HP {c['hp']}/{c['hp_max']}" if opencore_rules else f"{c['level']}DP {c['dp']}/{c['dp_max']}"
    parts = [points, status["state"]]
    if enc["turn"] is not None and place is not None:
        parts.append(("acting now, action taken" if opencore_rules and c["acted"] else "acting now") if place == enc["turn"]
                     else "has acted" if place < enc["turn"] else "yet to act")
    elif enc["turn"] is not None:
        parts.append("joins next round")
    if opencore_rules and status["bleeding"]:
        parts.append(f"bleeding {-status['bleeding']} HP a round")
    if not opencore_rules and enc["turn"] is not None:
        parts.append(f"{c['actions_left']} of {c['actions']} actions left")
    parts += status["effects"]
    return f"{'> ' if place is not None and place == enc['turn'] else '  '}{c['name']} ({c['side']}): {', '.join(parts)}"


@command("encounter attack", writes="encounter")
def attack(
    encounter: EncounterFile,
    *,
    attacker: Who,
    target: Who,
    attack_roll: Annotated[int | None, Arg("the attacker's 1d100 (rolled when left out)")] = None,
    defense_roll: Annotated[int | None, Arg("the defender's 1d100 (rolled when left out)")] = None,
    critical_roll: Annotated[int | None, Arg("the 1d100 critical roll (rolled when called for)")] = None,
    critical_type: Annotated[Literal["slash", "impact", "puncture", "shrapnel", "burn"] | None,
                             Arg("the critical table, when not the weapon's")] = None,
    weapon: Annotated[str | None, Arg("attack with another weapon class this time, e.g. 'Hand to Hand'")] = None,
    mode: Annotated[str | None, Arg("Assault Rifle mode: single, burst or full auto")] = None,
    attack_bonus: Annotated[int, Arg("applicable attack bonuses (e.g. a location's skill penalty, when it applies)")] = 0,
    defense_bonus: Annotated[int, Arg("applicable defense bonuses")] = 0,
    power: oc_commands.Power = None,
    power_score: Annotated[int | None, Arg("a physical Power's score (its combat skill) or a Mental Power's score")] = None,
    power_damage: Annotated[int | None, Arg("the Power's own damage (a number the GM gives; 0 for none)")] = None,
    attack_skill: Annotated[int | None, Arg("a touch Power's Hand-to-Hand skill, when not the attacker's attack skill")] = None,
    resistance: Annotated[int, Arg("the target's Magic Resistance, against a Mental Power")] = 0,
    power_protection: oc_commands.PowerProtection = 0,
    substance_flaw: oc_commands.SubstanceFlaw = False,
    critical_bonus: oc_commands.CriticalBonus = 0,
    attacker_fumble_roll: oc_commands.AttackerFumbleRoll = None,
    defender_fumble_roll: oc_commands.DefenderFumbleRoll = None,
    damage_roll: oc_commands.DamageRoll = None,
    damage_bonus: oc_commands.DamageBonus = 0,
    rng: random.Random,
) -> Result:
    """OpenCore: attack on the attacker's turn (or with a fumble's extra attack); the wound and its effects are applied."""
    enc = shape.checked(encounter)
    _for(enc, "opencore", "An attack roll against a defense roll")
    powers = opencore.Powers(power=power, power_score=power_score, power_damage=power_damage, attack_skill=attack_skill,
                             resistance=resistance, power_protection=power_protection, substance_flaw=substance_flaw,
                             critical_bonus=critical_bonus)
    return _answer(*opencore.attack(enc, attacker, target, rng, attack_bonus=attack_bonus, defense_bonus=defense_bonus,
                                    attack_roll=attack_roll, defense_roll=defense_roll, critical_roll=critical_roll,
                                    critical_type=critical_type, weapon=weapon, mode=mode, powers=powers,
                                    dice=chain.AttackDice(attacker_fumble_roll, defender_fumble_roll, damage_roll,
                                                                damage_bonus)), before=encounter)


@command("encounter action", writes="encounter")
def take_action(
    encounter: EncounterFile,
    *,
    who: Who,
    action: Annotated[Literal["bide", "defense"], Arg("bide: +20 to next round's initiative; defense: defensive skills doubled until the next action")],
) -> Result:
    """OpenCore: take the Bide or Defense action as this round's action."""
    enc = shape.checked(encounter)
    _for(enc, "opencore", "Bide and Defense")
    return _answer(*opencore.action(enc, who, "bide" if action == "bide" else "defending"), before=encounter)


@command("encounter damage", writes="encounter")
def damage(
    encounter: EncounterFile,
    *,
    target: Who,
    amount: Annotated[int, Arg("damage dealt (Cyno: in the units of the damage's level)")],
    critical_type: Annotated[Literal["slash", "impact", "puncture", "shrapnel", "burn"] | None,
                             Arg("opencore: the critical table, when the damage reaches HP")] = None,
    critical_roll: Annotated[int | None, Arg("opencore: the 1d100 critical roll (rolled when called for)")] = None,
    level: Annotated[str | None, Arg("cyno: the damage's level ('' for DP, h, k, ...; default: the target's)")] = None,
    static: Annotated[bool, Arg("cyno: static damage points")] = False,
    rng: random.Random,
) -> Result:
    """Damage by hand: opencore through armor, Toughness and HP with its critical; cyno across damage-rating levels."""
    enc = shape.checked(encounter)
    check_amount(amount)
    if enc["rules"] == "opencore":
        _refuse({"level": level is not None, "static": static}, "is Cyno's damage rating")
        return _answer(*opencore.damage(enc, target, amount, rng, critical_type=critical_type, critical_roll=critical_roll), before=encounter)
    _refuse({"critical_type": critical_type, "critical_roll": critical_roll is not None}, "is OpenCore's criticals")
    if level is not None:
        with about("level"):  # checked here, where the level is still the argument
            cy_system.parse_level(level)
    return _answer(*cyno.damage(enc, target, amount, level=level, static=static), before=encounter)


def check_amount(amount: int) -> None:
    if not 0 <= amount <= shape.BIG:
        raise RollbookError(f"damage must be between 0 and {shape.BIG:,}, not {amount}", fields=("amount",))


@command("encounter crit", writes="encounter")
def crit(
    encounter: EncounterFile,
    *,
    target: Who,
    type: Annotated[Literal["slash", "impact", "puncture", "shrapnel", "burn"], Arg("the critical table")],
    roll: Annotated[int | None, Arg("the 1d100 (rolled when left out)")] = None,
    attack_roll: Annotated[int | None, Arg("the unmodified attack roll: under 20 gives -20, over 80 +20")] = None,
    bonus: oc_commands.CriticalBonus = 0,
    rng: random.Random,
) -> Result:
    """OpenCore: roll a critical on a combatant and apply it (extra damage, stun, unconscious, bloodloss, location)."""
    enc = shape.checked(encounter)
    _for(enc, "opencore", "A critical hit table")
    return _answer(*opencore.critical(enc, target, type, rng, roll=roll, attack_roll=attack_roll, bonus=bonus), before=encounter)


@command("encounter heal", writes="encounter")
def heal(encounter: EncounterFile, *, target: Who,
         amount: Annotated[int, Arg("points given back (never above the combatant's most)")]) -> Result:
    """Give back hit points (opencore) or damage points (cyno), by hand."""
    enc = shape.checked(encounter)
    if enc["rules"] == "opencore":
        return _answer(*opencore.heal(enc, target, amount), before=encounter)
    return _answer(*turns.heal(enc, target, amount, "dp"), before=encounter)


@command("encounter stabilize", writes="encounter")
def stabilize(encounter: EncounterFile, *, target: Who) -> Result:
    """OpenCore: a bleeding combatant is stabilized (by chance or healing): bleeding and bloodloss stop."""
    enc = shape.checked(encounter)
    _for(enc, "opencore", "Stabilizing")
    return _answer(*opencore.stabilize(enc, target), before=encounter)


@command("encounter effect", writes="encounter")
def add_effect(
    encounter: EncounterFile,
    *,
    who: Who,
    kind: Annotated[Literal["stun", "unconscious", "bloodloss", "location", "stumble", "dropped-weapon", "note"],
                    Arg("the effect")],
    rounds: Annotated[int | None, Arg("rounds it lasts (stun, unconscious, a note); the others end by rule or by hand")] = None,
    hp_per_round: Annotated[int | None, Arg("bloodloss: HP lost a round, e.g. -2")] = None,
    location: Annotated[str | None, Arg(f"location: {_either(oc_system.LOCATIONS)}")] = None,
    skill_penalty: Annotated[int | None, Arg("location: the penalty to applicable skills, e.g. -30")] = None,
    defense_penalty: Annotated[int | None, Arg("stumble: the penalty to defense, e.g. -20")] = None,
    text: Annotated[str | None, Arg("note: what it is")] = None,
) -> Result:
    """Add an effect by hand (what the rules do not cover, or a ruling made at the table)."""
    enc = shape.checked(encounter)
    given = {"hp_per_round": hp_per_round, "location": location, "skill_penalty": skill_penalty,
             "defense_penalty": defense_penalty, "text": text}
    fields = {name: value for name, value in given.items() if value is not None}
    wanted = shape.EFFECT_FIELDS[kind]
    extra = sorted(set(fields) - set(wanted))
    missing = [name for name in wanted if name not in fields]
    named = kind.replace("-", " ")  # as a page says it: "dropped weapon"
    if extra or missing:
        them = "it" if len(missing or extra) == 1 else "them"
        raise RollbookError(f"a {named} effect takes {_words(wanted) or 'nothing more'}",
                            hint=f"give {them}" if missing else f"leave {them} out", fields=tuple(missing or extra))
    if location is not None and location not in oc_system.LOCATIONS:
        raise RollbookError(f"a location is {_either(oc_system.LOCATIONS)}, not {quoted(location)}",
                            hint="choose one of them", fields=("location",))
    if ("rounds" in shape.EFFECT_ENDS[kind]) != (rounds is not None) and kind != "note":
        raise RollbookError(f"a {named} effect {'lasts a number of rounds' if rounds is None else 'ends by rule or by hand'}",
                            hint="give the rounds" if rounds is None else "leave the rounds out", fields=("rounds",))
    return _answer(*turns.add_effect(enc, who, kind, rounds, fields), before=encounter)


@command("encounter end-effect", writes="encounter")
def end_effect(encounter: EncounterFile, *, who: Who,
               kind: Annotated[str | None, Arg("end every effect of this kind, e.g. location or dropped-weapon")] = None,
               index: Annotated[int | None, Arg("end only this one: its place in the combatant's effects, from 0")] = None,
               ) -> Result:
    """End an effect by hand (bandaged, weapon picked up, ...): one by its place, or all of a kind."""
    return _answer(*turns.end_effect(shape.checked(encounter), who, kind=kind, index=index), before=encounter)


@command("encounter surprise", writes="encounter")
def surprise(encounter: EncounterFile, *, who: Who,
             roll: Annotated[int | None, Arg("the GM's 1D6 (rolled when left out)")] = None,
             rng: random.Random) -> Result:
    """Cyno: before the first turn, roll the Surprise Chart for a combatant who may be surprised."""
    enc = shape.checked(encounter)
    _for(enc, "cyno", "The Surprise Chart")
    return _answer(*cyno.surprise(enc, who, rng, roll=roll), before=encounter)


@command("encounter hold", writes="encounter")
def hold(encounter: EncounterFile, *, who: Who, after: Who,
         roll: Annotated[int | None, Arg("if both hold back: this combatant's d20 (rolled when left out)")] = None,
         other_roll: Annotated[int | None, Arg("if both hold back: the other's d20 (rolled when left out)")] = None,
         rng: random.Random) -> Result:
    """Cyno: hold back this turn until another combatant has moved (both holding: d20 + stress, the higher waits)."""
    enc = shape.checked(encounter)
    _for(enc, "cyno", "Holding back")
    return _answer(*cyno.hold(enc, who, after, rng, roll=roll, other_roll=other_roll), before=encounter)


@command("encounter strike", writes="encounter")
def strike(
    encounter: EncounterFile,
    *,
    attacker: Who,
    target: Who,
    defense: Annotated[Literal["none", "dodge", "blind-dodge", "parry"], Arg("what the target declared before the strike roll")] = "none",
    roll: Annotated[int | None, Arg("the 1D20 strike roll (rolled when left out)")] = None,
    condition: Annotated[list[str] | None, Arg("a chart condition (repeat), e.g. half-cover", metavar="CONDITION")] = None,
    aim: Annotated[int, Arg("actions spent aiming (+1 each; they are spent too)")] = 0,
    ranged: Annotated[bool, Arg("not a hand-to-hand attack: it cannot be dodged")] = False,
    unaware: Annotated[bool, Arg("the target does not know it is attacked: no dodge or parry")] = False,
    defense_roll: Annotated[int | None, Arg("the dodge or parry d20 (rolled when needed)")] = None,
    percentile: Annotated[int | None, Arg("the blind dodge's or skilled parry's percentage roll (rolled when needed)")] = None,
    damage_roll: Annotated[int | None, Arg("the weapon's damage roll (rolled on a hit; a volley's: all its missiles')")] = None,
    rocket: Annotated[bool, Arg("an unguided rocket: -2 to hit")] = False,
    volley: Annotated[int | None, Arg("a guided missile volley of this many missiles: no bonuses or penalties, all hit or all miss")] = None,
    location_roll: Annotated[int | None, Arg("an aimed hit's percentage roll against the weaponry skill (rolled when left out)")] = None,
    rng: random.Random,
) -> Result:
    """Cyno: strike on the attacker's turn (one action), against the target's declared dodge or parry; damage across levels."""
    enc = shape.checked(encounter)
    _for(enc, "cyno", "A strike against a declared dodge or parry")
    return _answer(*cyno.strike(enc, attacker, target, rng, defense=defense, roll=roll, conditions=condition or [],
                                aim=aim, ranged=ranged, unaware=unaware, defense_roll=defense_roll,
                                percentile=percentile, damage_roll=damage_roll, rocket=rocket, volley=volley,
                                location_roll=location_roll), before=encounter)
