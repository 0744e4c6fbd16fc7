"""Rounds and turns, the log, and the manual edits: what both rule sets do the same way.

A rule set gives its own :class:`RoundRules` (how a round begins, what a turn's start and a round's
end do, who takes turns); :func:`next_turn` runs them in order. Every change to hit points or
damage points is an event with its ``hp`` (or ``dp``) change, so the log explains every number.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import Any, Callable

from rollbook import rulings
from rollbook.encounter.shape import (
    EFFECT_FIELDS, LOG_KEPT, LONGEST_TEXT, MOST_COMBATANTS, Combatant, Effect, Encounter, Event, Step, check_effect, effect,
)
from rollbook.errors import RollbookError, quoted


def event(enc: Encounter, kind: str, text: str, who: str | None = None, **extra: Any) -> Event:
    return {"round": enc["round"], "kind": kind, "who": who, "text": text, **extra}


def logged(enc: Encounter, events: list[Event]) -> Step:
    """The encounter with ``events`` appended to its log (only the last LOG_KEPT are kept). An
    event's ``detail`` (an attack's whole chain, for the page to unfold) is returned, not kept."""
    kept = [{key: value for key, value in e.items() if key != "detail"} for e in events]
    enc["log"] = (enc["log"] + kept)[-LOG_KEPT:]
    enc["logged"] += len(events)
    return enc, events


def find(enc: Encounter, who: str) -> Combatant:
    for combatant in enc["combatants"]:
        if combatant["id"] == who:
            return combatant
    # by the names a page shows (an id is the engine's: a page never shows one)
    names = ", ".join(c["name"] for c in enc["combatants"])
    raise RollbookError("there is no such combatant in this encounter: it may have been taken out",
                        hint=f"choose one of: {names}" if names else "add one first")


def current(enc: Encounter) -> Combatant | None:
    """The combatant whose turn it is (None before the first round and between rounds)."""
    return None if enc["turn"] is None else find(enc, enc["order"][enc["turn"]])


def has(combatant: Combatant, kind: str) -> bool:
    return any(e["kind"] == kind for e in combatant["effects"])


def new_id(enc: Encounter, side: str) -> str:
    """``a1``, ``a2``, ... by the side's first letter: short ids a player can type."""
    prefix = (side[:1] or "c").lower() if side[:1].isalpha() else "c"
    taken = {c["id"] for c in enc["combatants"]}
    n = 1
    while f"{prefix}{n}" in taken:
        n += 1
    return f"{prefix}{n}"


def numbered(enc: Encounter, name: str) -> str:
    """``name``, or, when a combatant has it already, the next free number after it (Goblin,
    Goblin 2, Goblin 3): a name is how a player tells combatants apart."""
    taken = {c["name"] for c in enc["combatants"]}
    if name not in taken:
        return name
    base, n = re.sub(r" \d+$", "", name), 2
    while _with_number(base, n) in taken:
        n += 1
    return _with_number(base, n)


def _with_number(base: str, n: int) -> str:
    """``base n`` within the longest name: the base gives way, the number is kept whole."""
    number = f" {n}"
    return base[:LONGEST_TEXT - len(number)].rstrip() + number


def add(enc: Encounter, combatant: Combatant, note: str = "") -> Step:
    """``combatant`` joins; ``note`` follows the line that says so (e.g. what a score at 0 means)."""
    if len(enc["combatants"]) >= MOST_COMBATANTS:
        raise RollbookError(f"an encounter holds at most {MOST_COMBATANTS} combatants")
    if any(c["id"] == combatant["id"] for c in enc["combatants"]):
        raise RollbookError(f"there is already a combatant {quoted(combatant['id'])}", hint="give another id, or leave it out", fields=("id",))
    enc["combatants"].append(combatant)
    joins = " (joins the order next round)" if enc["round"] else ""
    return logged(enc, [event(enc, "add", f"{combatant['name']} ({combatant['side']}) joins{joins}{note}",
                              combatant["id"])])


def remove(enc: Encounter, who: str) -> Step:
    combatant = find(enc, who)
    now = current(enc)
    if now is not None and now["id"] == who:
        raise RollbookError(f"{combatant['name']} is acting now, so cannot leave yet",
                            hint=f"move on to the next turn, then remove {combatant['name']}")
    if who in enc["order"]:
        if enc["turn"] is not None and enc["order"].index(who) < enc["turn"]:
            enc["turn"] -= 1  # the same combatant keeps the turn
        enc["order"].remove(who)
    enc["combatants"].remove(combatant)
    return logged(enc, [event(enc, "remove", f"{combatant['name']} leaves the encounter", who)])


@dataclass(frozen=True)
class RoundRules:
    """What a rule set does at the points of a round."""

    begin_round: Callable[[Encounter, random.Random, dict[str, int]], list[Event]]  # sets order and turn
    turn_starts: Callable[[Encounter, Combatant], list[Event]]
    round_ends: Callable[[Encounter], list[Event]]
    takes_turns: Callable[[Combatant], bool]  # false for the dead (OpenCore) or the downed (Cyno)


def next_turn(enc: Encounter, rules: RoundRules, rng: random.Random, rolls: dict[str, int]) -> Step:
    """The next combatant's turn; after the last, the round ends and the next begins."""
    if not enc["combatants"]:
        raise RollbookError("no one is in the encounter yet: add the combatants first, then roll initiative")
    if enc["round"] == 0 or enc["turn"] is None:
        return turn_from(enc, rules, rng, rolls, len(enc["order"]))  # not started, or nobody was left
    return turn_from(enc, rules, rng, rolls, enc["turn"] + 1)


def turn_from(enc: Encounter, rules: RoundRules, rng: random.Random, rolls: dict[str, int], position: int) -> Step:
    """The turn of the first combatant at ``position`` or after it who takes turns; past the end of
    the order the round ends and the next begins (with ``rolls`` for its initiative)."""
    events: list[Event] = []
    while True:
        if position >= len(enc["order"]):
            if enc["round"]:
                events += rules.round_ends(enc)
            if not any(rules.takes_turns(c) for c in enc["combatants"]):
                enc["turn"] = None
                events.append(event(enc, "end", "nobody is left to act: the fight is over"))
                return logged(enc, events)
            enc["round"] += 1
            events += rules.begin_round(enc, rng, rolls)
            rolls, position = {}, 0
            continue
        who = find(enc, enc["order"][position])
        if rules.takes_turns(who):
            break
        position += 1
    if rolls:
        raise RollbookError("initiative is rolled when a round begins; this step moves to the next turn",
                            hint="leave out the initiative rolls", fields=("roll",))
    enc["turn"] = position
    events.append(event(enc, "turn", f"Round {enc['round']}: {who['name']}'s turn", who["id"]))
    events += rules.turn_starts(enc, who)
    return logged(enc, events)


def count_down(enc: Encounter, rounds_count: str) -> list[Event]:
    """At the end of a round every counted effect loses a round, and ends at 0 (ruling
    opencore-effect-rounds: with ``after-dealt`` the round it was dealt does not count)."""
    events: list[Event] = []
    for combatant in enc["combatants"]:
        kept: list[Effect] = []
        for item in combatant["effects"]:
            if item["rounds"] is not None and not (rounds_count == "after-dealt" and item["dealt"] == enc["round"]):
                item["rounds"] -= 1
                if item["rounds"] == 0:
                    events.append(event(enc, "effect-ends", f"{combatant['name']}: {describe(enc, item, rounds=False)} ends",
                                        combatant["id"], effect=item["kind"]))
                    continue
            kept.append(item)
        combatant["effects"] = kept
    return events


def end_at_round_end(enc: Encounter) -> list[Event]:
    """Effects that last "until the end of the round" end, for every combatant."""
    events: list[Event] = []
    for c in enc["combatants"]:
        ending = [e for e in c["effects"] if e["ends"] == "round-end"]
        c["effects"] = [e for e in c["effects"] if e["ends"] != "round-end"]
        events += [event(enc, "effect-ends", f"{c['name']}: {describe(enc, e)} ends", c["id"], effect=e["kind"]) for e in ending]
    return events


def end_at_own_turn(enc: Encounter, who: Combatant) -> list[Event]:
    """Effects that last "until his next action" end as the holder's turn begins."""
    ending = [e for e in who["effects"] if e["ends"] == "own-turn"]
    who["effects"] = [e for e in who["effects"] if e["ends"] != "own-turn"]
    return [event(enc, "effect-ends", f"{who['name']}: {describe(enc, e)} ends", who["id"], effect=e["kind"]) for e in ending]


def describe(enc: Encounter, item: Effect, *, rounds: bool = True) -> str:
    """An effect in words, with the rounds it has left; another combatant it names, by its name."""
    def name(who: str) -> str:  # one taken out since is still named by what the effect kept
        return next((c["name"] for c in enc["combatants"] if c["id"] == who), who)

    detail = {
        "bloodloss": lambda e: f"bloodloss {e['hp_per_round']} HP a round",
        "location": lambda e: f"location {e['location']} ({e['skill_penalty']} to applicable skills)",
        "stumble": lambda e: f"stumbled ({e['defense_penalty']} to defense)",
        "extra-attack": lambda e: f"an extra attack against {name(e['against'])}",
        "surprised": lambda e: "surprised, misses the turn" if e["misses_turn"] else "surprised, loses initiative",
        "holding": lambda e: f"holding back until {name(e['after'])} moves",
        "note": lambda e: e["text"],
    }.get(item["kind"], lambda e: e["kind"].replace("-", " "))(item)
    if rounds and item["rounds"] is not None:
        detail += f", {item['rounds']} round{'s' if item['rounds'] != 1 else ''} left"
    return detail


def add_effect(enc: Encounter, who: str, kind: str, rounds: int | None, fields: dict[str, Any]) -> Step:
    """An effect added by hand (what the rules do not cover, or a ruling made at the table)."""
    combatant = find(enc, who)
    if kind not in EFFECT_FIELDS:
        raise RollbookError(f"unknown effect {quoted(kind)}", hint="effects: " + ", ".join(k.replace("-", " ") for k in EFFECT_FIELDS))
    item = effect(kind, enc["round"], rounds=rounds, **fields)
    check_effect("the effect", item)
    combatant["effects"].append(item)
    return logged(enc, [event(enc, "effect", f"{combatant['name']}: {describe(enc, item)} (by hand)", who, effect=kind)])


def end_effect(enc: Encounter, who: str, *, kind: str | None = None, index: int | None = None) -> Step:
    """End one effect (its place in the combatant's list) or every effect of a kind, by hand
    (bandaged, weapon picked up, ...)."""
    combatant = find(enc, who)
    effects = combatant["effects"]
    if (kind is None) == (index is None):
        raise RollbookError("say which effect ends: its kind, or its place among the combatant's effects",
                            hint="such as stun, or 0 for the first", fields=("kind", "index"))
    if index is not None:
        if not 0 <= index < len(effects):  # (ended meanwhile, perhaps in another tab)
            raise RollbookError(f"{combatant['name']} no longer has that effect", hint=_effects_now(enc, combatant),
                                fields=("index",))
        ending = [effects[index]]
    else:
        ending = [e for e in effects if e["kind"] == kind]
        if not ending:
            raise RollbookError(f"{combatant['name']} has no {str(kind).replace('-', ' ')} effect", hint=_effects_now(enc, combatant),
                                fields=("kind",))
    combatant["effects"] = [e for e in effects if not any(e is gone for gone in ending)]
    return logged(enc, [event(enc, "effect-ends", f"{combatant['name']}: {describe(enc, e, rounds=False)} ended by hand",
                              who, effect=e["kind"]) for e in ending])


def _effects_now(enc: Encounter, combatant: Combatant) -> str:
    """What a combatant is under, in words, for a refusal's hint."""
    words = "; ".join(describe(enc, e) for e in combatant["effects"])
    return f"its effects now: {words}" if words else "it is under no effect now"


def heal(enc: Encounter, who: str, amount: int, points: str) -> Step:
    """Give back ``amount`` of ``points`` (hp or dp), never above the most the combatant has."""
    combatant = find(enc, who)
    if amount < 1:
        raise RollbookError(f"healing is at least 1 point, not {amount}", fields=("amount",))
    gained = min(amount, combatant[f"{points}_max"] - combatant[points])
    combatant[points] += gained
    note = f" (at most {combatant[f'{points}_max']})" if gained < amount else ""
    return logged(enc, [event(enc, "heal", f"{combatant['name']} heals {gained} {points.upper()}{note}: "
                                           f"{combatant[points]} {points.upper()}", who, **{points: gained})])


def not_started(enc: Encounter, what: str) -> None:
    if enc["turn"] is None:
        raise RollbookError(f"{what} needs someone's turn", hint="roll initiative first")


def typical(given: dict[str, int], scores: dict[str, int], words: dict[str, str], ruling: str,
            also: tuple[str, ...] = ()) -> tuple[dict[str, int], str]:
    """``given`` with a typical combatant's ``scores`` where it has none (ruling ``ruling``), and the
    words that say which were filled (``words``: a score's name as a player reads it; ``also``: the
    words for anything else filled, such as a weapon)."""
    have = {name.lower() for name in given}
    filled = {name: value for name, value in scores.items() if name not in have}
    said = [*score_words(filled, words), *also]
    if not said:
        return given, ""
    return {**filled, **given}, f"; {', '.join(said)} ({rulings.get(ruling).title})"


def score_words(scores: dict[str, int], words: dict[str, str]) -> list[str]:
    return [f"{words.get(name, name.replace('_', ' '))} {value}" for name, value in scores.items()]
