"""``rollbook codex ...``: the Ogre CharacterCodex rules as commands (CLI and JSON API alike)."""

from __future__ import annotations

import random
from typing import Annotated, Literal

from rollbook import rulings
from rollbook.commands import Arg, Result, command, percent
from rollbook.errors import about
from rollbook.systems import codex, parse_number

CheckRulings = Annotated[list[str] | None, Arg("a ruling's alternative, by the ruling's id (repeat): "
                                               "codex-automatic-failure or codex-take-conditions", metavar="ID")]
CHECK_RULINGS = ("impossible_fails", "take_conditions")  # the rulings a check switches


Modifier = Annotated[int, Arg("the skill modifier added to the d20", ask="the skill modifier added to the d20, such as 3")]
DC = Annotated[int, Arg("the Difficulty Class to equal or exceed", ask="the Difficulty Class the roll must reach, such as 15")]


def _ranks(ranks: tuple[codex.RankChance, ...]) -> list[Result]:
    return [{"rank": r.rank, "chance": str(r.chance), "or_more": r.or_more} for r in ranks]


@command("codex check")
def check(
    *,
    modifier: Modifier,
    dc: DC,
    take: Annotated[Literal["10", "10+", "20"] | None, Arg("take 10, 10+ or 20 instead of a plain roll")] = None,
    rolls: Annotated[list[int] | None, Arg("the d20s rolled, in order (repeat for open-ended dice); rolled when left out", metavar="D20")] = None,
    automatic: Annotated[bool, Arg("use automatic success (needs modifier >= DC)")] = False,
    impossible_fails: Annotated[bool, Arg("GM option: fail without rolling when a 20 could not succeed (ruling codex-automatic-failure)")] = False,
    safe: Annotated[bool, Arg("the character is not threatened or distracted (needed to take 10 or 20)",
                              only_with=("take", codex.SAFE_TAKES))] = False,
    take_conditions: Annotated[codex.TakeConditions | None, Arg("ruling codex-take-conditions: asked (default: say the "
                                                                "character is safe to take 10 or 20) or trusted (the table "
                                                                "keeps the conditions)")] = None,
    failure_has_cost: Annotated[bool, Arg("the skill carries penalties for failure (taking 20 incurs them first)",
                                          only_with=("take", codex.COSTLY_TAKES))] = False,
    ruling: CheckRulings = None,
    rng: random.Random,
) -> Result:
    """A skill check: d20 (open-ended 1s and 20s) + modifier vs DC, with the exact chance of every outcome."""
    # the GM's rulings, by name or by the ruling's id (as opencore check and encounter start take them)
    named = {"impossible_fails": "true" if impossible_fails else None, "take_conditions": take_conditions}
    chosen = rulings.chosen(named, ruling or [], CHECK_RULINGS, "a Codex check")
    impossible_fails = chosen.get("impossible_fails") == "true"
    take_conditions = "trusted" if chosen.get("take_conditions") == "trusted" else "asked"
    dice = tuple(rolls) if rolls else ()
    if not dice and not automatic and not (impossible_fails and codex.impossible_on_20(modifier, dc)):
        dice = codex.roll_dice(rng, take)
    with about(dice="rolls"):
        result = codex.check(modifier, dc, dice, take=take, automatic=automatic, impossible_fails=impossible_fails,
                             safe=safe, failure_has_cost=failure_has_cost, take_conditions=take_conditions)
    odds = result.chances
    if result.automatic:
        text = f"Automatic {result.automatic} (modifier {modifier:+d} vs DC {dc})"
    else:
        how = f"take {take}" if take in ("10", "20") else f"d20 {', '.join(map(str, result.dice))}"
        if take == "10+" and result.dice[0] < codex.TAKE_10_FLOOR:
            how += f" (take 10+: counts as {codex.TAKE_10_FLOOR})"
        outcome = result.outcome
        if result.success_rank >= codex.TOTAL_SUCCESS_RANK:
            outcome += f", rank {result.success_rank}"
        elif result.failure_rank:
            outcome += f", rank {result.failure_rank}"
        text = f"{how} {modifier:+d} = {result.total} vs DC {dc}: {outcome}"
    text += f" (chance of success {odds.success} = {percent(odds.success)})"
    if result.impossible_on_20 and not result.automatic:
        text += "; a natural 20 alone could not succeed: the GM may rule automatic failure"
    if result.outcome in ("total success", "total failure"):
        text += f"\n{codex.MEANINGS[result.outcome]}"
    if result.time_multiplier > 1:
        text += f"\nTaking 20 takes {result.time_multiplier} times as long as a single check."
    if result.penalties_incurred:
        text += f"\n{codex.PENALTIES_INCURRED}"
    return {
        "modifier": modifier, "dc": dc, "take": take, "dice": list(result.dice), "total": result.total,
        "success": result.success, "automatic": result.automatic, "impossible_on_20": result.impossible_on_20,
        "total_success": result.success_rank >= codex.TOTAL_SUCCESS_RANK, "success_rank": result.success_rank,
        "total_failure": result.failure_rank > 0, "failure_rank": result.failure_rank,
        "outcome": result.outcome, "meaning": codex.MEANINGS[result.outcome],
        "time_multiplier": result.time_multiplier, "penalties_incurred": result.penalties_incurred,
        "chance": str(odds.success), "chances": _chances(odds), "chain": _chain(result.dice, take),
        "text": text,
    }


def _chances(odds: codex.Chances) -> Result:
    return {"success": str(odds.success), "total_success": str(odds.total_success),
            "total_failure": str(odds.total_failure), "success_ranks": _ranks(odds.success_ranks),
            "failure_ranks": _ranks(odds.failure_ranks), "method": "exact (closed form, no truncation)"}


def _chain(dice: list[int] | tuple[int, ...], take: str | None) -> list[Result]:
    """Each d20 of a check with what it does, so a page can show the open-ended chain die by die."""
    if not dice:
        return []
    natural = dice[0]
    sign = +1 if natural == codex.SIDES else -1 if natural == 1 and take != "10+" else 0
    if sign > 0:
        note = "natural 20: open-ended, roll again and add"
    elif sign < 0:
        note = "natural 1: open-ended, roll again and subtract"
    elif take == "10+" and natural < codex.TAKE_10_FLOOR:
        note = f"natural {natural}, counts as {codex.TAKE_10_FLOOR} (take 10+)"
    else:
        note = f"natural {natural}"
    counts = max(natural, codex.TAKE_10_FLOOR) if take == "10+" else natural
    out: list[Result] = [{"roll": natural, "adds": counts, "note": note, "open_ended": sign != 0}]
    for value in dice[1:]:
        again = value == codex.SIDES
        out.append({"roll": value, "adds": sign * value, "open_ended": again,
                    "note": f"{'added' if sign > 0 else 'subtracted'}{' (20 again: roll once more)' if again else ''}"})
    return out


@command("codex dc")
def dc(complexity: Annotated[str, Arg("the task's complexity, such as tough or nearly impossible", metavar="COMPLEXITY")]) -> Result:
    """The guideline DC for a task's complexity."""
    value = codex.dc_for(complexity)
    return {"complexity": complexity, "dc": value, "text": f"{complexity.strip().capitalize()}: DC {value}"}


@command("codex round")
def round_(
    value: Annotated[str, Arg("a number or fraction, e.g. 7/2 or 3.5", metavar="VALUE", ask="a number or fraction, such as 7/2 or 3.5")],
    *,
    damage: Annotated[bool, Arg("a damage roll: the result is at least 1")] = False,
) -> Result:
    """Round a fraction down, even one-half or larger (damage has a minimum of 1)."""
    exact = parse_number(value, "the value", field="value")
    result = codex.round_down(exact, minimum=1 if damage else None)
    return {"value": str(exact), "result": result, "text": f"{value} rounds down to {result}"}


@command("codex multiply")
def multiply(
    *,
    by: Annotated[list[str], Arg("a multiplier (one for each), such as 2 and 2", metavar="MULTIPLIER",
                                   ask="the multipliers, such as 2 and 2")],
    value: Annotated[str | None, Arg("the number multiplied (rounded down)")] = None,
    real_world: Annotated[bool, Arg("a real-world value (weight, distance): multiply normally")] = False,
) -> Result:
    """Combine multipliers: x2 and x2 make x3 (each extra adds 1 less); real-world values multiply normally."""
    factors = [parse_number(m, "the multiplier", field="by") for m in by]
    with about("by"):
        combined = codex.combine_multipliers(factors, real_world=real_world)
    out: Result = {"multipliers": [str(f) for f in factors], "real_world": real_world, "multiplier": str(combined),
                   "result": None}
    text = f"{' and '.join('x' + str(f) for f in factors)} make x{combined}"
    if value is not None:
        out["result"] = codex.round_down(parse_number(value, "the value", field="value") * combined)
        text += f": {value} becomes {out['result']}"
    return {**out, "text": text}


@command("codex odds")
def odds(
    *,
    modifier: Modifier,
    dc: DC,
    take: Annotated[Literal["10", "10+", "20"] | None, Arg("take 10, 10+ or 20 instead of a plain roll")] = None,
) -> Result:
    """The exact chance of every outcome of a check, before rolling it."""
    chances = codex.chances(modifier, dc, take)
    how = f" taking {take}" if take else ""
    return {"modifier": modifier, "dc": dc, "take": take, "chance": str(chances.success), "chances": _chances(chances),
            "can_succeed_automatically": codex.can_succeed_automatically(modifier, dc),
            "impossible_on_20": codex.impossible_on_20(modifier, dc),
            "text": f"Modifier {modifier:+d} vs DC {dc}{how}: chance of success {chances.success} = "
                    f"{percent(chances.success)}"}
