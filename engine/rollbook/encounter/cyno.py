"""Cyno's Role-Play's encounter steps: initiative every combat turn on the die for the number of
combatants, surprise in the first turn, holding back, the strike against a declared dodge or
parry, and damage across damage-rating levels. A combat turn is a round here.

Actions: each combatant has ``actions`` a turn; a strike spends one (and one per aiming action), a
dodge or an unskilled parry spends one of the target's. At 0 damage points a combatant is down
(ruling cyno-zero-damage-points).
"""

from __future__ import annotations

import random
from typing import Any, Literal, Sequence

from rollbook import rulings
from rollbook.encounter import turns
from rollbook.encounter.shape import NEW, Combatant, Encounter, Event, Step, check_combatant, effect
from rollbook.errors import RollbookError, about, quoted
from rollbook.systems import check_range, cyno, rank_with_rerolls, roll_off, roll_total

# Ruling cyno-typical-combatant: a combatant added as typical, where a score or the weapon is not given.
TYPICAL_RULING = "cyno-typical-combatant"
TYPICAL = {"reflex": 10, "coordination": 10, "stress": 10, "actions": 2, "dp": 20}
TYPICAL_WEAPON = "1d6"
SCORE_WORDS = {"dp": "DP"}


def score_words(scores: dict[str, int]) -> list[str]:
    return turns.score_words(scores, SCORE_WORDS)


def typical(given: dict[str, int], weapon: str | None) -> tuple[dict[str, int], str, str]:
    """``given`` with a typical combatant's scores where it has none, the weapon's damage (the
    typical one when none is given), and the words that say what was filled."""
    scores, note = turns.typical(given, TYPICAL, SCORE_WORDS, TYPICAL_RULING,
                                 also=() if weapon is not None else (f"weapon {TYPICAL_WEAPON}",))
    return scores, TYPICAL_WEAPON if weapon is None else weapon, note


SCORES = {"reflex": True, "coordination": True, "stress": True, "actions": True, "dp": True,
          "dp_max": False, "weaponry_skill": False, "hand_to_hand_skill": False}


def options(enc: Encounter) -> cyno.Options:
    r = enc["rulings"]
    return cyno.Options(aim_lines=r["aim_lines"], impossible_dodge=r["impossible_dodge"],
                        failed_skilled_parry=r["failed_skilled_parry"], target_size=r["target_size"],
                        ranged_parry=r["ranged_parry"])


def combatant(enc: Encounter, *, name: str, side: str, scores: dict[str, int], weapon_damage: str,
              weapon_level: str, level: str, static: bool, who: str | None = None) -> Combatant:
    from rollbook.dice import parse  # checks the damage dice now, not at the first hit

    with about("weapon"):
        parse(weapon_damage)
    with about("weapon_level"):
        weapon_symbol = cyno.level_symbol(cyno.parse_level(weapon_level))
    with about("level"):
        symbol = cyno.level_symbol(cyno.parse_level(level))
    new: Combatant = {
        "id": who or turns.new_id(enc, side), "name": name, "side": side, "initiative": None,
        "reflex": scores["reflex"], "coordination": scores["coordination"], "stress": scores["stress"],
        "actions": scores["actions"], "actions_left": scores["actions"],
        "weaponry_skill": scores.get("weaponry_skill"), "hand_to_hand_skill": scores.get("hand_to_hand_skill"),
        "weapon_damage": weapon_damage, "weapon_level": weapon_symbol, "static": static, "level": symbol,
        "dp": scores["dp"], "dp_max": scores.get("dp_max", scores["dp"]), "effects": [],
    }
    check_combatant(NEW, new, "cyno")
    return new


def down(c: Combatant) -> bool:
    """Out of the fight at 0 damage points (ruling cyno-zero-damage-points)."""
    return c["dp"] <= 0


def targetable(c: Combatant) -> bool:
    """Whether a strike may still be aimed at ``c``: not once it is down."""
    return not down(c)


def status(enc: Encounter, c: Combatant) -> dict[str, Any]:
    lost = c["dp_max"] - c["dp"]
    # out: out of the fight (the page draws it as down); targetable: a strike at it is not refused
    return {"id": c["id"], "state": "down" if down(c) else "standing", "out": down(c), "targetable": targetable(c),
            "actions_left": c["actions_left"],
            "damage_lost": lost, "strike_penalty": sum(m.modifier for m in cyno.strike_modifiers(damage_lost=lost)),
            "can_attack": not down(c) and c["actions_left"] > 0, "attack_refused": attack_refused(c),
            "extra_attacks": [],  # (OpenCore's fumble gives one; Cyno's rules none)
            "effects": [turns.describe(enc, e) for e in c["effects"]]}


def attack_refused(c: Combatant) -> str | None:
    """Why ``c`` cannot strike on its turn now (down, or no action left), or None."""
    if down(c):
        return f"{c['name']} is down"
    if c["actions_left"] < 1:
        return f"{c['name']} has no action left this turn"
    return None


# --- the combat turn ------------------------------------------------------------------------------


def begin_round(enc: Encounter, rng: random.Random, rolls: dict[str, int]) -> list[Event]:
    """Roll initiative for all: the die has more sides than the combatants; the reflex bonus on a
    d20 or more; ties roll again among themselves. Surprised in the first turn: lose initiative
    (act after everyone) or miss the whole turn."""
    acting = [c for c in enc["combatants"] if not down(c)]
    for c in enc["combatants"]:
        c["initiative"] = None
        c["actions_left"] = c["actions"]
    if not acting:
        enc["order"] = []
        return []
    sides = cyno.initiative_die(len(acting))
    unknown = sorted(set(rolls) - {c["id"] for c in acting})
    if unknown:
        raise RollbookError(f"an initiative roll is given for {quoted(unknown[0])}, who does not roll this turn",
                            fields=(f"roll.{unknown[0]}",))
    first: dict[str, int] = {}
    later: dict[str, list[int]] = {c["id"]: [] for c in acting}
    bonus = {c["id"]: cyno.initiative_bonus(c["reflex"], sides) for c in acting}
    for c in acting:
        first[c["id"]] = check_range(f"{c['name']}'s initiative roll", rolls[c["id"]], 1, sides, field=f"roll.{c['id']}") if c["id"] in rolls \
            else roll_total(f"1d{sides}", rng)

    def again(who: str) -> int:
        later[who].append(roll_total(f"1d{sides}", rng))
        return later[who][-1] + bonus[who]

    ranked = rank_with_rerolls({who: first[who] + bonus[who] for who in first}, again)
    surprised = {c["id"]: e for c in acting for e in c["effects"] if e["kind"] == "surprised"}
    for who, item in surprised.items():
        if item["misses_turn"]:  # no actions at all this turn, not even a dodge (ruling cyno-surprise-first-turn)
            turns.find(enc, who)["actions_left"] = 0
    enc["order"] = [w for w in ranked if w not in surprised] + [w for w in ranked if w in surprised
                                                                 and not surprised[w]["misses_turn"]]
    events = [turns.event(enc, "initiative", f"{len(acting)} combatants roll 1D{sides}")]
    for who in ranked:
        c = turns.find(enc, who)
        c["initiative"] = first[who] + bonus[who]
        ties = f", tie broken with {', '.join(map(str, later[who]))}" if later[who] else ""
        note = {True: ": surprised, misses the turn", False: ": surprised, loses initiative"}.get(
            surprised[who]["misses_turn"], "") if who in surprised else ""
        events.append(turns.event(enc, "initiative", f"{c['name']}: initiative {first[who]} {bonus[who]:+d} (reflex) = "
                                                     f"{c['initiative']}{ties}{note}", who, initiative=c["initiative"]))
    return events


def turn_starts(enc: Encounter, who: Combatant) -> list[Event]:
    return turns.end_at_own_turn(enc, who)


def round_ends(enc: Encounter) -> list[Event]:
    events = [turns.event(enc, "round-end", f"End of turn {enc['round']}")]
    events += turns.count_down(enc, "after-dealt")  # a note's rounds start after the turn it was added in
    return events + turns.end_at_round_end(enc)


def round_rules(enc: Encounter) -> turns.RoundRules:
    return turns.RoundRules(begin_round, turn_starts, round_ends, lambda c: not down(c))


def surprise(enc: Encounter, who: str, rng: random.Random, *, roll: int | None = None) -> Step:
    """The Surprise Chart (1D6) for one combatant, before the first turn."""
    c = turns.find(enc, who)
    if enc["round"] != 0:
        raise RollbookError("surprise is rolled before the first turn", hint="start a new encounter for a new ambush")
    if turns.has(c, "surprised"):
        raise RollbookError(f"{c['name']} is already surprised")
    result = cyno.surprise(check_range("the surprise roll", roll, 1, 6, field="roll") if roll is not None
                           else roll_total("1d6", rng))
    if result.surprised:
        c["effects"].append(effect("surprised", 1, misses_turn=result.misses_turn))
    return turns.logged(enc, [turns.event(enc, "surprise", f"{c['name']}: surprise {result.roll}: {result.result}", who)])


def hold(enc: Encounter, who: str, after: str, rng: random.Random, *, roll: int | None = None,
         other_roll: int | None = None) -> Step:
    """Hold back this turn until ``after`` has moved. When ``after`` already holds for this
    combatant, both roll d20 + stress bonus and the higher waits longer (moves after the other)."""
    c = turns.find(enc, who)
    other = turns.find(enc, after)
    now = turns.current(enc)
    if now is None:
        raise RollbookError(f"{c['name']} cannot hold back before anyone's turn", hint="roll initiative first")
    if now["id"] != who:
        raise RollbookError(f"{c['name']} cannot hold back now: it is {now['name']}'s turn",
                            hint=f"hold back on {c['name']}'s own turn")
    if after not in enc["order"][enc["turn"] + 1:]:
        raise RollbookError(f"{other['name']} does not move later this turn", hint="hold back for someone still to move")
    position = enc["turn"]
    events: list[Event]
    if any(e["kind"] == "holding" and e["after"] == who for e in other["effects"]):
        pairs, winner = roll_off(roll, other_roll, "1d20", rng,
                                 lambda a, b: cyno.hold_back_winner(a, c["stress"], b, other["stress"]))
        mine, theirs = cyno.stress_modifier(c["stress"]), cyno.stress_modifier(other["stress"])
        shown = ", then ".join(f"{a}{mine:+d} vs {b}{theirs:+d}" for a, b in pairs)  # 1d20 + stress bonus
        if winner == "second":
            events = [turns.event(enc, "hold", f"Both hold back: {c['name']} {shown} {other['name']}: "
                                               f"{other['name']} waits longer, {c['name']} must move now", who)]
            return turns.logged(enc, events)
        other["effects"] = [e for e in other["effects"] if e["kind"] != "holding"]
        text = f"Both hold back: {c['name']} {shown} {other['name']}: {c['name']} waits longer"
    elif roll is not None or other_roll is not None:
        raise RollbookError("the d20s are rolled only when both hold back for each other", hint="leave them out",
                            fields=tuple(name for name, given in (("roll", roll is not None), ("other_roll", other_roll is not None))
                                         if given))
    else:
        text = f"{c['name']} holds back until {other['name']} has moved"
    enc["order"].remove(who)
    enc["order"].insert(enc["order"].index(after) + 1, who)
    c["effects"].append(effect("holding", enc["round"], after=after))
    enc, events = turns.logged(enc, [turns.event(enc, "hold", text, who)])
    enc, more = turns.turn_from(enc, round_rules(enc), rng, {}, position)  # whoever now stands here moves
    return enc, events + more


# --- striking -------------------------------------------------------------------------------------

Declared = Literal["none", "dodge", "blind-dodge", "parry"]


def strike(enc: Encounter, attacker: str, target: str, rng: random.Random, *, defense: Declared = "none",
           roll: int | None = None, conditions: Sequence[str] = (), aim: int = 0, ranged: bool = False,
           unaware: bool = False, defense_roll: int | None = None, percentile: int | None = None,
           damage_roll: int | None = None, rocket: bool = False, volley: int | None = None,
           location_roll: int | None = None) -> Step:
    """One strike on the attacker's turn against the defense the target declared before the roll.
    ``rocket``: an unguided rocket (-2); ``volley``: a guided missile volley of that many missiles
    (no bonuses or penalties, ruling cyno-missile-modifiers; all hit or all miss, each doing its own
    damage, ruling cyno-volley-damage); ``location_roll``: an aimed hit's percentage roll against
    the weaponry skill (exactly on the aimed location, or close)."""
    if volley is not None:
        check_range("the volley", volley, 1, 1000, field="volley")
        given = [name for name, on in (("condition", bool(conditions)), ("aim", bool(aim)), ("rocket", rocket),
                                       ("ranged", ranged)) if on]
        if given:
            raise RollbookError("a missile volley's strike takes no bonuses or penalties and is its own kind of attack "
                                f"({rulings.named('cyno-missile-modifiers')})", hint=f"leave out: {', '.join(given)}",
                                fields=("volley", *given))
    if location_roll is not None:
        if not aim:
            raise RollbookError("only an aimed hit rolls for its location", hint="aim first, or leave it out",
                                fields=("location_roll", "aim"))
        check_range("the aiming percentage roll", location_roll, 1, 100, field="location_roll")
    a, t = turns.find(enc, attacker), turns.find(enc, target)
    now = turns.current(enc)
    if now is None or now["id"] != attacker:
        raise RollbookError(f"it is {now['name'] if now else 'nobody'}'s turn, not {a['name']}'s",
                            hint="move on to the next turn first")
    if t is a:
        raise RollbookError(f"{a['name']} cannot strike itself")
    if not targetable(t):
        raise RollbookError(f"{t['name']} is down")
    if aim < 0:
        raise RollbookError(f"aiming takes 1 action or more, not {aim}", hint="or none: leave it out", fields=("aim",))
    if a["actions_left"] < 1 + aim:
        left = a["actions_left"]
        raise RollbookError(f"{a['name']} has {left} action{'s' if left != 1 else ''} left, and this strike needs {1 + aim}"
                            + (f": 1 to strike and {aim} to aim" if aim else ""), fields=("aim",) if aim else ())
    if unaware and defense != "none":
        raise RollbookError(cyno.UNAWARE, hint="declare no defense, or say the target knows", fields=("defense", "unaware"))
    ranged = ranged or rocket  # "shot like any other projectile weapons": no hand-to-hand blow to dodge or parry
    opts = options(enc)
    skilled = defense == "parry" and t["hand_to_hand_skill"] is not None
    if defense != "none" and any(e["kind"] == "surprised" and e["misses_turn"] for e in t["effects"]):
        raise RollbookError(f"{t['name']} misses this whole turn (surprised), so cannot {defense.replace('-', ' ')} "
                            f"({rulings.named('cyno-surprise-first-turn')})", hint="declare no defense", fields=("defense",))
    # a skilled parry costs no action, unless it fails under the ruling's other option: then it needs one to lose
    costs = not skilled or opts.failed_skilled_parry == "action"
    if defense != "none" and costs and t["actions_left"] < 1:
        raise RollbookError(f"{t['name']} has no action left to {defense.replace('-', ' ')}"
                            + (f" (a failed skilled parry costs one, {rulings.named('cyno-parry-with-skill')})" if skilled else ""),
                            fields=("defense",))
    if aim and a["weaponry_skill"] is None:
        raise RollbookError(f"an aimed hit's location is rolled against the weaponry skill, and {a['name']} has none",
                            hint="strike without aiming", fields=("aim",))
    modifiers = () if volley is not None else cyno.strike_modifiers(
        coordination=a["coordination"], weaponry_skill=a["weaponry_skill"], conditions=conditions,
        damage_lost=a["dp_max"] - a["dp"], aim_actions=aim, rocket=rocket, options=opts)
    die = check_range("the strike roll", roll, 1, 20, field="roll") if roll is not None else roll_total("1d20", rng)
    hit = cyno.strike(die, modifiers, aim_actions=aim, options=opts)
    a["actions_left"] -= 1 + aim
    parts = " ".join(f"{m.modifier:+d} ({m.source})" for m in hit.modifiers)
    verdict = ("critical hit" if hit.critical else "hit") if hit.hit else "miss"
    exact = None
    if aim and hit.hit:  # "To hit the exact location, a percentage roll is made against the weapon skill"
        exact = cyno.exact_location(a["weaponry_skill"], location_roll if location_roll is not None
                                    else roll_total("1d100", rng))
    what = f" with a volley of {volley} missiles" if volley is not None else ""
    where = "" if exact is None else ("; exactly on the aimed location" if exact else "; close to the aimed location, not exact")
    events = [turns.event(enc, "strike", f"{a['name']} strikes {t['name']}{what}: {hit.roll}{' ' + parts if parts else ''} = "
                                         f"{hit.total}: {verdict} ({hit.reason}){where}", target, dp=0, by=attacker,
                          detail={"roll": hit.roll, "modifiers": [{"source": m.source, "modifier": m.modifier}
                                                                  for m in hit.modifiers],
                                  "total": hit.total, "hit": hit.hit, "critical": hit.critical,
                                  "automatic": hit.automatic, "reason": hit.reason, "volley": volley,
                                  "exact_location": exact})]
    blocked = False
    if defense != "none":
        answer = _defend(t, defense, hit.total, hit.hit, ranged, defense_roll, percentile, opts, rng, volley)
        t["actions_left"] -= answer.actions_spent
        blocked = hit.hit and answer.success
        verdict = ("succeeds" if answer.success else "fails") if answer.allowed else "is not allowed"
        if answer.allowed and not hit.hit:
            verdict = "was declared"
        # the page's line for each card says whether the declared defense held (the detail is not kept in the log)
        events[0]["detail"]["defense"] = {"action": answer.action, "success": blocked}
        events.append(turns.event(enc, "defense", f"{t['name']}: {answer.action} {verdict}: {answer.reason} "
                                                  f"({answer.actions_spent} action{'s' if answer.actions_spent != 1 else ''})",
                                  target))
    missiles = 1 if volley is None else volley  # each missile of a volley that hits does its own damage
    if hit.hit and not blocked:
        events += _damaged(enc, t, damage_roll if damage_roll is not None
                           else sum(roll_total(a["weapon_damage"], rng) for _ in range(missiles)),
                           a["weapon_level"], a["static"], hit.critical, attacker)
    elif blocked and defense == "parry":
        amount = damage_roll if damage_roll is not None else roll_total(a["weapon_damage"], rng)
        events.append(turns.event(enc, "parry", f"The parrying weapon or limb takes the {amount} damage", target))
    return turns.logged(enc, events)


ACTION: dict[str, cyno.DefenseAction] = {"dodge": "dodge", "blind-dodge": "blind dodge", "parry": "parry"}


def _defend(t: Combatant, defense: Declared, strike_total: int, hit: bool, ranged: bool, die: int | None,
            percentile: int | None, opts: cyno.Options, rng: random.Random, volley: int | None = None) -> cyno.Defense:
    """The declared dodge or parry; dice are rolled only when they can decide something."""
    skilled = defense == "parry" and t["hand_to_hand_skill"] is not None
    if volley is not None and defense != "parry" and volley >= cyno.UNDODGEABLE_VOLLEY:
        return cyno.dodge(strike_total, None, reflex=t["reflex"], volley=volley, options=opts)
    ranged = ranged or (volley is not None and defense == "parry")  # missiles are no blow to parry
    if defense != "parry" and ranged:  # a dodge the rules rule out: its cost is ruling cyno-impossible-dodge's
        return cyno.dodge(strike_total, None, reflex=t["reflex"], ranged=True, options=opts)
    if defense == "parry" and ranged and opts.ranged_parry == "blow-only":  # ruling cyno-parry-blows-only
        return cyno.parry(strike_total, None, reflex=t["reflex"], hand_to_hand_skill=t["hand_to_hand_skill"],
                          ranged=True, options=opts)
    if not hit:  # declared before the roll: a dodge or an unskilled parry is spent even on a miss
        return cyno.Defense(ACTION[defense], True, False, 0 if skilled else 1, None, 0, None, None,
                            "the strike missed anyway")
    if skilled:
        pct = percentile if percentile is not None else roll_total("1d100", rng)
        return cyno.parry(strike_total, None, reflex=t["reflex"], hand_to_hand_skill=t["hand_to_hand_skill"],
                          skill_roll=pct, options=opts)
    if defense == "parry":
        return cyno.parry(strike_total, die if die is not None else roll_total("1d20", rng), reflex=t["reflex"],
                          options=opts)
    blind = None
    if defense == "blind-dodge":
        blind = percentile if percentile is not None else roll_total("1d100", rng)
    needs_die = not (blind is not None and blind > cyno.BLIND_DODGE_AT_OR_BELOW)
    d20 = die if die is not None or not needs_die else roll_total("1d20", rng)
    return cyno.dodge(strike_total, d20, reflex=t["reflex"], blind_roll=blind, options=opts)


def _damaged(enc: Encounter, t: Combatant, amount: int, weapon_level: str, static: bool, critical: bool,
             by: str | None) -> list[Event]:
    rating = cyno.damage_to(amount, cyno.parse_level(weapon_level), cyno.parse_level(t["level"]), static=static,
                            critical=critical)
    was_down = down(t)
    before = t["dp"]
    # 0 DP is down, and there is nothing below it to keep: a hit from levels above (2 MDP on a DP
    # soldier is 2,000,000 DP) would otherwise leave a number no encounter file holds
    t["dp"] = max(before - rating.damage, min(before, 0))
    unit = t["level"] + "DP"
    events = [turns.event(enc, "damage", f"{t['name']} takes {rating.damage} {unit} ({rating.reason}"
                                         f"{', critical: double' if critical else ''}): {t['dp']} {unit} left",
                          t["id"], dp=t["dp"] - before, by=by)]
    if down(t) and not was_down:
        events.append(turns.event(enc, "state", f"{t['name']} is down (0 damage points)", t["id"], state="down"))
    return events


def damage(enc: Encounter, target: str, amount: int, *, level: str | None, static: bool) -> Step:
    """Damage by hand, in the units of ``level`` (the target's when left out)."""
    t = turns.find(enc, target)
    if down(t):
        raise RollbookError(f"{t['name']} is down")
    return turns.logged(enc, _damaged(enc, t, amount, t["level"] if level is None else level, static, False, None))
