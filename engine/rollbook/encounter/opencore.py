"""OpenCore's encounter steps: initiative each round (individual with Bide, or group), the attack
chain of ``opencore attack`` applied to the combatants, damage and criticals as effects, bleeding,
and death by ruling opencore-death-threshold.

Every timing the document leaves open is a ruling the encounter carries in ``rulings``:
bloodloss_at (opencore-bloodloss-timing), rounds_count (opencore-effect-rounds), death_at.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

from rollbook import rulings
from rollbook.encounter import turns
from rollbook.encounter.shape import NEW, Combatant, Effect, Encounter, Event, Step, check_combatant, effect
from rollbook.errors import RollbookError, about, quoted
from rollbook.systems import check_range, opencore, roll_off, roll_total
from rollbook.systems.opencore import attack as chain

HAND_TO_HAND = opencore.HAND_TO_HAND


@dataclasses.dataclass(frozen=True)
class Powers:
    """An attack's Power options, as ``opencore attack`` takes them (the Powers section is not in
    the document, so a Power's numbers are the GM's): the attacking Power with its score and
    damage, the Hand-to-Hand skill for a touch Power (default: the combatant's attack skill), the
    target's Magic Resistance, Armor/Shielding protection and substance flaw, and a critical bonus."""

    power: opencore.PowerKind | None = None
    power_score: int | None = None
    power_damage: int | None = None
    attack_skill: int | None = None
    resistance: int = 0
    power_protection: int = 0
    substance_flaw: bool = False
    critical_bonus: int = 0


def options(enc: Encounter) -> opencore.Options:
    r = enc["rulings"]
    return opencore.Options(death_at=r["death_at"], str_damage=r["str_damage"], dex_modifier=r["dex_modifier"])


def state(enc: Encounter, c: Combatant) -> opencore.HealthState:
    return opencore.health_state(c["hp"], c["con"], options(enc))


# The scores ``encounter add`` takes, and whether each is required.
# Ruling opencore-typical-combatant: the scores of a combatant added as typical, where none is given.
TYPICAL_RULING = "opencore-typical-combatant"
TYPICAL = {"con": 50, "dex": 50, "str": 50, "hp": 13, "attack_skill": 50, "defense_skill": 50}
SCORE_WORDS = {"con": "CON", "dex": "DEX", "str": "STR", "hp": "HP", "attack_skill": "attack skill",
               "defense_skill": "defense skill"}


def score_words(scores: dict[str, int]) -> list[str]:
    return turns.score_words(scores, SCORE_WORDS)


def typical(given: dict[str, int]) -> tuple[dict[str, int], str]:
    """``given`` with a typical combatant's scores where it has none, and the words that say which."""
    return turns.typical(given, TYPICAL, SCORE_WORDS, TYPICAL_RULING)


SCORES = {"con": True, "dex": True, "hp": True, "attack_skill": True, "defense_skill": True,
          "str": False, "hp_max": False, "armor": False, "toughness": False, "fortitude": False}


def combatant(enc: Encounter, *, name: str, side: str, scores: dict[str, int], who: str | None = None,
              armor_name: str | None = None, weapon: str = HAND_TO_HAND) -> Combatant:
    """A new OpenCore combatant; armor's damage rating comes from the armor table unless given."""
    with about(armor="armor_name"):
        worn = opencore.armor(armor_name) if armor_name is not None else None
    new: Combatant = {
        "id": who or turns.new_id(enc, side), "name": name, "side": side, "initiative": None, "acted": False,
        "con": scores["con"], "dex": scores["dex"], "str": scores.get("str"),
        "hp": scores["hp"], "hp_max": scores.get("hp_max", scores["hp"]),
        "armor": scores.get("armor", worn["damage_rating"] if worn else 0),
        "armor_name": worn["armor"] if worn else None,
        "toughness": scores.get("toughness", 0), "fortitude": scores.get("fortitude", 0),
        "attack_skill": scores["attack_skill"], "defense_skill": scores["defense_skill"],
        "weapon": opencore.weapon(weapon)["weapon"], "stabilized": False, "effects": [],
    }
    check_combatant(NEW, new, "opencore")
    if "+STR" in str(opencore.weapon(weapon).get("damage", "")) and new["str"] is None:
        raise RollbookError(f"{new['weapon']} adds STR to damage", hint="give the combatant's STR", fields=("score.str",))
    return new


# --- what a combatant can do ----------------------------------------------------------------------


def unconscious(enc: Encounter, c: Combatant) -> bool:
    return state(enc, c) == "unconscious" or turns.has(c, "unconscious")


def stunned(c: Combatant) -> bool:
    return turns.has(c, "stun")


def targetable(enc: Encounter, c: Combatant) -> bool:
    """Whether an attack, damage or a critical may still be aimed at ``c``: all but the dead (an
    unconscious defender is attacked, and cannot defend)."""
    return state(enc, c) != "dead"


def bleeding(enc: Encounter, c: Combatant) -> list[tuple[str, int]]:
    """What a combatant bleeds each round, by cause: every bloodloss (its multiple: x2 is -2), and
    below 0 HP the bleeding of the dying until stabilized (ruling opencore-bleeding-adds)."""
    if state(enc, c) == "dead":
        return []
    causes = [(f"bloodloss {e['hp_per_round']}", e["hp_per_round"]) for e in c["effects"] if e["kind"] == "bloodloss"]
    if not c["stabilized"] and opencore.bleeding(c["hp"], c["con"], options(enc)):
        causes.append((f"bleeding below 0 HP {opencore.bloodloss_per_round()}", opencore.bloodloss_per_round()))
    return causes


def bleeding_per_round(enc: Encounter, c: Combatant) -> int:
    return sum(loss for _, loss in bleeding(enc, c))


def wielded(c: Combatant) -> str:
    """The weapon in hand: Hand to Hand once the weapon is dropped (a fumble), until picked up."""
    return HAND_TO_HAND if turns.has(c, "dropped-weapon") else c["weapon"]


def status(enc: Encounter, c: Combatant) -> dict[str, Any]:
    """What the page shows for a combatant: derived, never stored."""
    health = state(enc, c)
    out = unconscious(enc, c) or health == "dead"  # out of the fight: the page draws it as down
    defense = (opencore.stun_defense_penalty() if stunned(c) else 0) + sum(
        e["defense_penalty"] for e in c["effects"] if e["kind"] == "stumble")
    return {"id": c["id"], "state": health, "out": out, "targetable": targetable(enc, c),
            "bleeding": bleeding_per_round(enc, c),
            "can_attack": not out and not stunned(c),  # a dropped weapon leaves Hand to Hand
            "can_defend": not out, "defense_modifier": defense,
            # on its turn: why the page offers no Attack (or no Defense and Bide), in a refusal's words
            "attack_refused": attack_refused(enc, c), "action_refused": action_refused(enc, c),
            "extra_attacks": extra_attacks(enc, c),
            "wielded": wielded(c),  # what the page attacks with: Hand to Hand once the weapon is dropped
            "skill_penalty": sum(e["skill_penalty"] for e in c["effects"] if e["kind"] == "location"),
            "armor_useless": c["armor_name"] is not None and c["armor"] == 0,
            "effects": [turns.describe(enc, e) for e in c["effects"]]}


# --- hit points -----------------------------------------------------------------------------------


def hp_changed(enc: Encounter, c: Combatant, before: opencore.HealthState) -> list[Event]:
    """The state change an HP change caused, in the document's words."""
    after = state(enc, c)
    if after == before:
        return []
    text = {"unconscious": "falls unconscious", "dead": "dies", "conscious": "regains consciousness"}[after]
    return [turns.event(enc, "state", f"{c['name']} {text} ({c['hp']} HP, CON {c['con']})", c["id"], state=after)]


def bleed(enc: Encounter, c: Combatant) -> list[Event]:
    causes = bleeding(enc, c)
    if not causes:
        return []
    before = state(enc, c)
    loss = sum(hp for _, hp in causes)
    c["hp"] += loss
    why = " + ".join(cause for cause, _ in causes)
    events = [turns.event(enc, "bleed", f"{c['name']} bleeds {loss} HP ({why}): {c['hp']} HP", c["id"], hp=loss)]
    return events + hp_changed(enc, c, before)


def wounded(enc: Encounter, target: Combatant, wound: dict[str, Any], by: str | None, text: str) -> list[Event]:
    """Apply an ``opencore attack`` wound (or ``apply_wound``'s answer): armor, Toughness and HP
    left, and the critical's effects, each lasting what the table says."""
    before = state(enc, target)
    change = wound["hp"] - target["hp"]
    target.update(hp=wound["hp"], armor=wound["armor"], toughness=wound["toughness"])
    if wound["to_hp"] or wound["effects"]["extra_damage"]:
        target["stabilized"] = False  # a new wound bleeds again
    events = [turns.event(enc, "damage", text, target["id"], hp=change, by=by)]
    if wound["to_armor"] and target["armor"] == 0 and target["armor_name"] is not None:
        events.append(turns.event(enc, "armor", f"{target['name']}'s {target['armor_name']} is useless", target["id"]))
    events += critical_effects(enc, target, wound["effects"])
    # the wound's own text counts what it does; earlier bloodloss adds to it (ruling opencore-bleeding-adds)
    causes = bleeding(enc, target)
    this_wound = -wound["effects"]["hp_per_round"] - opencore.bloodloss_per_round() * bool(wound["bleeding"])
    if causes and -bleeding_per_round(enc, target) != this_wound:
        events.append(turns.event(enc, "bleeding", f"{target['name']} now loses {-bleeding_per_round(enc, target)} HP a "
                                                   f"round ({' + '.join(why for why, _ in causes)})", target["id"]))
    return events + hp_changed(enc, target, before)


def critical_effects(enc: Encounter, target: Combatant, effects: dict[str, Any]) -> list[Event]:
    """A critical's ``effects`` (opencore attack's ``wound.effects``) as effects on the target."""
    now = enc["round"]
    added = []
    if effects["stun_rounds"]:
        added.append(effect("stun", now, rounds=effects["stun_rounds"]))
    if effects["unconscious_rounds"]:
        added.append(effect("unconscious", now, rounds=effects["unconscious_rounds"]))
    if effects["bloodloss"]:
        added.append(effect("bloodloss", now, hp_per_round=effects["hp_per_round"]))
    if effects["location"]:
        added.append(effect("location", now, location=effects["location"], skill_penalty=effects["skill_penalty"]))
    target["effects"] += added
    return [turns.event(enc, "effect", f"{target['name']}: {turns.describe(enc, e)}", target["id"], effect=e["kind"])
            for e in added]


# --- the round ------------------------------------------------------------------------------------


def begin_round(enc: Encounter, rng: random.Random, rolls: dict[str, int]) -> list[Event]:
    """Initiative for the round: individual (1d20 + DEX modifier + weapon speed + armor penalty,
    +20 after Bide) or group (each side 1d6, the higher side acts first)."""
    acting = [c for c in enc["combatants"] if state(enc, c) != "dead"]
    for c in enc["combatants"]:
        c["initiative"] = None
    if enc["initiative"] == "group":
        return _group_initiative(enc, acting, rng, rolls)
    _known(rolls, [c["id"] for c in acting], "combatant")
    members = {}
    for c in acting:
        roll = check_range(f"{c['name']}'s initiative roll", rolls[c["id"]], 1, 20, field=f"roll.{c['id']}") if c["id"] in rolls \
            else roll_total("1d20", rng)
        armor = opencore.armor(c["armor_name"])["initiative_penalty"] if c["armor_name"] else 0
        members[c["id"]] = opencore.individual_initiative(
            roll, c["dex"], speed_factor=opencore.weapon(wielded(c))["speed"], armor_penalty=armor,
            bide=turns.has(c, "bide"), options=options(enc))
    order = opencore.party_order(members, lambda: roll_total("1d20", rng))
    events = []
    for m in order:
        c = turns.find(enc, m.name)
        i = m.initiative
        c["initiative"] = i.total
        c["effects"] = [e for e in c["effects"] if e["kind"] != "bide"]
        parts = [f"{i.roll} (1d20)", f"{i.dex_modifier:+d} (DEX)", f"{i.speed_factor:+d} ({wielded(c)})"]
        parts += [f"{i.armor_penalty:+d} ({c['armor_name']})"] * bool(c["armor_name"]) + [f"{i.bide_bonus:+d} (bide)"] * bool(i.bide_bonus)
        ties = f", tie broken with {', '.join(map(str, m.tie_rolls))}" if m.tie_rolls else ""
        events.append(turns.event(enc, "initiative", f"{c['name']}: initiative {' '.join(parts)} = {i.total}{ties}",
                                  c["id"], initiative=i.total))
    enc["order"] = [m.name for m in order]
    return events


def _known(rolls: dict[str, int], names: list[str], what: str) -> None:
    unknown = sorted(set(rolls) - set(names))
    if unknown:
        raise RollbookError(f"an initiative roll is given for {quoted(unknown[0])}, no {what} that rolls this round",
                            hint="give rolls for " + ", ".join(names), fields=(f"roll.{unknown[0]}",))


def _group_initiative(enc: Encounter, acting: list[Combatant], rng: random.Random, rolls: dict[str, int]) -> list[Event]:
    sides = list(dict.fromkeys(c["side"] for c in acting))
    _known(rolls, sides, "side")
    if len(sides) == 1:
        enc["order"] = [c["id"] for c in acting]
        return [turns.event(enc, "initiative", f"Only {sides[0]} can still act: no initiative to roll")]
    if len(sides) != 2:
        raise RollbookError(f"group initiative is between two opposing sides, and this encounter has {len(sides)}: "
                            f"{', '.join(sides)}",
                            hint="give each combatant one of two sides, or start with individual initiative")
    pairs, winner = roll_off(rolls.get(sides[0]), rolls.get(sides[1]), "1d6", rng, opencore.group_initiative_winner)
    first, second = sides if winner == "first" else sides[::-1]
    enc["order"] = [c["id"] for c in acting if c["side"] == first] + [c["id"] for c in acting if c["side"] == second]
    shown = ", then ".join(f"{a} vs {b}" for a, b in pairs)
    return [turns.event(enc, "initiative", f"Group initiative {sides[0]} vs {sides[1]}: {shown}: {first} acts first")]


def turn_starts(enc: Encounter, who: Combatant) -> list[Event]:
    who["acted"] = False
    events = turns.end_at_own_turn(enc, who)
    if enc["rulings"]["bloodloss_at"] == "own-turn":
        events += bleed(enc, who)
    if unconscious(enc, who):
        events.append(turns.event(enc, "cannot-act", f"{who['name']} is unconscious: cannot attack, defend or move", who["id"]))
    elif stunned(who):
        events.append(turns.event(enc, "cannot-act", f"{who['name']} is stunned: cannot attack, -50 to defense", who["id"]))
    return events


def round_ends(enc: Encounter) -> list[Event]:
    events = [turns.event(enc, "round-end", f"End of round {enc['round']}")]
    if enc["rulings"]["bloodloss_at"] == "end-of-round":
        for c in enc["combatants"]:
            events += bleed(enc, c)
    events += turns.count_down(enc, enc["rulings"]["rounds_count"])
    for c in enc["combatants"]:  # the next round's action is still to take
        c["acted"] = False
    return events + turns.end_at_round_end(enc)


def round_rules(enc: Encounter) -> turns.RoundRules:
    """The round rules, knowing the encounter's death ruling (the dead take no turns)."""
    return turns.RoundRules(begin_round, turn_starts, round_ends, lambda c: state(enc, c) != "dead")


# --- actions --------------------------------------------------------------------------------------


def _acting(enc: Encounter, who: str, what: str, *, against: str | None = None) -> tuple[Combatant, bool]:
    """The combatant taking an action now: on its own turn, or with an extra attack (fumble chart).
    Returns it and whether the extra attack is used."""
    c = turns.find(enc, who)
    mine = enc["turn"] is not None and enc["order"][enc["turn"]] == who
    # Ruling opencore-extra-attack: until the round ends; on its own turn the round's action comes
    # first, then the extra attack (it used to be taken for neither: its holder attacked without end).
    extra = against is not None and (not mine or c["acted"]) and has_extra_attack(c, against)
    if not extra:
        turns.not_started(enc, what)
        if not mine:
            now = turns.current(enc)
            raise RollbookError(f"it is {now['name'] if now else 'nobody'}'s turn, not {c['name']}'s",
                                hint="move on to the next turn first")
        if c["acted"]:
            raise RollbookError(_acted(c), hint="a character makes a single action per round")
    if _out(enc, c):
        raise RollbookError(_out(enc, c) or "")
    return c, extra


def _acted(c: Combatant) -> str:
    return f"{c['name']} has taken this round's action"


def _out(enc: Encounter, c: Combatant) -> str | None:
    """Why ``c`` cannot act at all (dead or unconscious), or None."""
    if state(enc, c) == "dead" or unconscious(enc, c):
        return f"{c['name']} is {'dead' if state(enc, c) == 'dead' else 'unconscious'} and cannot act"
    return None


def _stunned(c: Combatant) -> str | None:
    return f"{c['name']} is stunned: unable to attack" if stunned(c) else None


def action_refused(enc: Encounter, c: Combatant) -> str | None:
    """Why ``c`` cannot take its action on its turn now (the words a refused step would give), or None."""
    return _out(enc, c) or (_acted(c) if c["acted"] else None)


def attack_refused(enc: Encounter, c: Combatant) -> str | None:
    """Why ``c`` cannot attack on its turn now, or None (an extra attack from a fumble aside)."""
    return action_refused(enc, c) or _stunned(c)


def extra_attacks(enc: Encounter, c: Combatant) -> list[str]:
    """Whom ``c`` may attack now, out of its turn, with a fumble's extra attack (the ids, as the
    page offers them): none while it is out or stunned, none against one gone or dead; what
    ``attack`` would refuse is not offered."""
    if _out(enc, c) or stunned(c):
        return []
    if turns.current(enc) is c and not c["acted"]:
        return []  # its turn's own attack comes first (see _acting)
    return [o["id"] for o in enc["combatants"] if o is not c and has_extra_attack(c, o["id"]) and targetable(enc, o)]


def has_extra_attack(c: Combatant, target: str) -> bool:
    """Whether ``c`` holds a fumble's extra attack against ``target``."""
    return any(e["kind"] == "extra-attack" and e["against"] == target for e in c["effects"])


def without_extra_attack(c: Combatant, target: str) -> list[Effect]:
    """``c``'s effects but its extra attack against ``target`` (used)."""
    return [e for e in c["effects"] if not (e["kind"] == "extra-attack" and e["against"] == target)]


def attack(enc: Encounter, attacker: str, target: str, rng: random.Random, *, attack_bonus: int = 0,
           defense_bonus: int = 0, attack_roll: int | None = None, defense_roll: int | None = None,
           critical_roll: int | None = None, critical_type: str | None = None, weapon: str | None = None,
           mode: str | None = None, powers: Powers | None = None, dice: chain.AttackDice | None = None) -> Step:
    """One attack by ``opencore attack``'s chain, with the combatants' numbers; its wound applied.
    ``powers``: a Power attacks, or the target has Power protection or a substance flaw (the
    numbers the GM gives, as ``opencore attack`` takes them); ``dice``: the fumble and damage rolls
    a player made (the chain rolls the rest)."""
    p = powers or Powers()
    a, extra = _acting(enc, attacker, "an attack", against=target)
    t = turns.find(enc, target)
    if t is a:
        raise RollbookError(f"{a['name']} cannot attack itself")
    if stunned(a):
        raise RollbookError(_stunned(a) or "", hint="take another action, or move on to the next turn")
    if p.power is not None and (weapon is not None or mode is not None):
        raise RollbookError(f"a Power attacks without a weapon ({quoted(weapon or mode)})",
                            hint="leave out the weapon and its mode; a touch Power adds Hand-to-Hand damage by itself",
                            fields=("weapon" if weapon is not None else "mode", "power"))
    if p.power is None and p.attack_skill is not None:
        raise RollbookError("this skill replaces the combatant's own for a touch Power's Hand-to-Hand attack",
                            hint="choose the touch Power, or leave it out", fields=("attack_skill", "power"))
    if turns.has(a, "dropped-weapon") and p.power is None and weapon != HAND_TO_HAND:  # fists need no weapon
        raise RollbookError(f"{a['name']} has dropped its weapon",
                            hint=f"end {a['name']}'s dropped weapon effect once it is picked up, or attack {HAND_TO_HAND}",
                            fields=("weapon",))
    if not targetable(enc, t):
        raise RollbookError(f"{t['name']} is dead")
    asleep = unconscious(enc, t)
    mental = p.power == "mental"  # "Mental powers used in combat cannot be blocked": no rolls at all
    if mental and (attack_roll is not None or defense_roll is not None or attack_bonus or defense_bonus):
        raise RollbookError("Mental powers used in combat cannot be blocked, so nothing is rolled",
                            hint="leave out the attack and defense rolls and bonuses",
                            fields=tuple(name for name, given in (("attack_roll", attack_roll is not None),
                                                                  ("defense_roll", defense_roll is not None),
                                                                  ("attack_bonus", attack_bonus), ("defense_bonus", defense_bonus))
                                         if given))
    no_defense = asleep or mental
    r = enc["rulings"]
    skill = None if p.power in ("physical", "mental") else (p.attack_skill if p.attack_skill is not None else a["attack_skill"])
    answer = chain.attack(
        attack_skill=skill, defense_skill=None if no_defense else t["defense_skill"],
        attack_bonus=attack_bonus, defense_bonus=0 if no_defense else defense_bonus + sum(
            e["defense_penalty"] for e in t["effects"] if e["kind"] == "stumble"),
        defending=not no_defense and turns.has(t, "defending"), stunned=not no_defense and stunned(t),
        unconscious=asleep and not mental,
        attack_roll=attack_roll, defense_roll=None if no_defense else defense_roll,
        weapon=None if p.power is not None else weapon or a["weapon"],
        mode=mode, strength=None if p.power in ("physical", "mental") else a["str"],
        fortitude=0 if p.power in ("physical", "mental") else t["fortitude"],
        str_damage=r["str_damage"], hp=t["hp"], con=t["con"],
        armor=t["armor"], toughness=t["toughness"], critical_type=critical_type, critical_roll=critical_roll,
        death_at=r["death_at"], rng=rng, power=p.power, power_score=p.power_score, power_damage=p.power_damage,
        resistance=p.resistance, power_protection=p.power_protection, substance_flaw=p.substance_flaw,
        critical_bonus=p.critical_bonus, attacker_stunned=False, attacker_unconscious=False,
        **dataclasses.asdict(dice or chain.AttackDice()),
    )
    if extra:
        a["effects"] = without_extra_attack(a, target)
    else:
        a["acted"] = True
    head = f"{a['name']} attacks {t['name']}" + (" (extra attack)" if extra else "")
    events: list[Event] = []
    if answer["wound"] is not None:
        events += wounded(enc, t, answer["wound"], a["id"], f"{head}: {answer['text']}")
    else:
        events.append(turns.event(enc, "attack", f"{head}: {answer['text']}", t["id"], hp=0, by=a["id"]))
    events[0]["detail"] = {key: value for key, value in answer.items() if key != "text"}  # opencore attack's answer
    for side, fumble in answer["fumbles"].items():
        events += _fumbled(enc, a if side == "attacker" else t, t if side == "attacker" else a, fumble)
    if answer["self_damage"]:
        events += _self_injury(enc, a, answer["self_damage"],
                               HAND_TO_HAND if p.power == "touch" else weapon or a["weapon"], rng)
    return turns.logged(enc, events)


def _fumbled(enc: Encounter, who: Combatant, opponent: Combatant, fumble: dict[str, Any]) -> list[Event]:
    """The Fumble Chart's result as effects: stumbling (-20 to defense until the next turn), falling
    over (the opponent's immediate extra attack), a dropped weapon (until picked up)."""
    added = []
    if fumble["defense_penalty"]:
        added.append((who, effect("stumble", enc["round"], defense_penalty=fumble["defense_penalty"])))
    if fumble["opponent_extra_attack"]:
        added.append((opponent, effect("extra-attack", enc["round"], against=who["id"])))
    if fumble["drops_weapon"]:
        added.append((who, effect("dropped-weapon", enc["round"])))
    for c, item in added:
        c["effects"].append(item)
    return [turns.event(enc, "effect", f"{c['name']}: {turns.describe(enc, item)} (fumble)", c["id"], effect=item["kind"])
            for c, item in added]


def _self_injury(enc: Encounter, a: Combatant, damage: int, weapon: str, rng: random.Random) -> list[Event]:
    """"Attacker drops weapon and injures self with it": the damage goes through the attacker's own
    armor, Toughness and HP, with the weapon's critical when it reaches HP, rolled without the attack
    roll's +/-20 (ruling opencore-self-injury-critical)."""
    wound = chain.apply_wound(damage, hp=a["hp"], con=a["con"], armor=a["armor"], toughness=a["toughness"],
                              power_protection=0, substance_flaw=False, table=opencore.weapon(weapon).get("critical"),
                              critical_roll=None, critical_bonus=0, attack_roll=None, options=options(enc), rng=rng)
    return wounded(enc, a, wound, a["id"], f"{a['name']} injures self: {wound['text']}")


def damage(enc: Encounter, target: str, amount: int, rng: random.Random, *, critical_type: str | None = None,
           critical_roll: int | None = None) -> Step:
    """Damage by hand (a trap, a fall, a Power): through armor, Toughness, then HP, with the critical
    it calls for when it reaches HP."""
    t = turns.find(enc, target)
    if not targetable(enc, t):
        raise RollbookError(f"{t['name']} is dead")
    wound = chain.apply_wound(amount, hp=t["hp"], con=t["con"], armor=t["armor"], toughness=t["toughness"],
                              power_protection=0, substance_flaw=False, table=critical_type, critical_roll=critical_roll,
                              critical_bonus=0, attack_roll=None, options=options(enc), rng=rng)
    return turns.logged(enc, wounded(enc, t, wound, None, f"{t['name']} takes {wound['text']}"))


def critical(enc: Encounter, target: str, critical_type: str, rng: random.Random, *, roll: int | None = None,
             attack_roll: int | None = None, bonus: int = 0) -> Step:
    """A critical the GM calls for, rolled on the target (its Toughness left counts against it, the
    weapon's or Power's ``bonus`` for it) and applied: the extra damage straight to HP, the rest as
    effects."""
    t = turns.find(enc, target)
    if not targetable(enc, t):
        raise RollbookError(f"{t['name']} is dead")
    die = check_range("the critical roll", roll, 1, 100, field="roll") if roll is not None else roll_total("1d100", rng)
    hit = opencore.critical_hit(critical_type, die, attack_roll=attack_roll, toughness=t["toughness"], bonus=bonus)
    looked_up, effects = chain.critical_record(hit, attack_roll), opencore.effects_of(hit)
    before = state(enc, t)
    t["hp"] -= effects.extra_damage
    if effects.extra_damage:
        t["stabilized"] = False
    text = looked_up["text"]
    lost = f"{effects.extra_damage} HP lost" if effects.extra_damage else "no HP lost"  # never "-0 HP"
    events = [turns.event(enc, "critical", f"{t['name']}: {text}; {lost}: {t['hp']} HP", t["id"], hp=-effects.extra_damage)]
    events += critical_effects(enc, t, dataclasses.asdict(effects))
    return turns.logged(enc, events + hp_changed(enc, t, before))


def heal(enc: Encounter, target: str, amount: int) -> Step:
    t = turns.find(enc, target)
    if state(enc, t) == "dead":
        raise RollbookError(f"{t['name']} is dead: healing cannot bring a character back")
    before = state(enc, t)
    enc, events = turns.heal(enc, target, amount, "hp")
    enc, more = turns.logged(enc, hp_changed(enc, t, before))
    return enc, events + more


def stabilize(enc: Encounter, target: str) -> Step:
    """"stabilized by chance or healing": the bleeding below 0 HP and every bloodloss stop."""
    t = turns.find(enc, target)
    if not bleeding_per_round(enc, t):
        raise RollbookError(f"{t['name']} is not bleeding")
    t["stabilized"] = True
    t["effects"] = [e for e in t["effects"] if e["kind"] != "bloodloss"]
    return turns.logged(enc, [turns.event(enc, "stabilize", f"{t['name']} is stabilized: the bleeding stops", target)])


def action(enc: Encounter, who: str, kind: str) -> Step:
    """Bide (+20 to next round's initiative) or Defense (defensive skills doubled until the next
    action), taken as the combatant's action this round."""
    c, _ = _acting(enc, who, {"bide": "Bide", "defending": "the Defense action"}.get(kind, kind))
    if kind == "bide" and enc["initiative"] == "group":
        raise RollbookError("Bide adds to individual initiative", hint="this encounter uses group initiative")
    c["acted"] = True
    item = effect(kind, enc["round"])
    c["effects"].append(item)
    words = {"bide": "bides: +20 to next round's initiative", "defending": "defends: defensive skills doubled until the next action"}
    return turns.logged(enc, [turns.event(enc, "action", f"{c['name']} {words[kind]}", who, effect=kind)])
