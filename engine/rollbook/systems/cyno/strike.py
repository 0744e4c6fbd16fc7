"""Cyno's strike roll: 1D20 with the chart's bonuses and penalties, the automatic miss and hit, the
critical range, aimed hits and a critical's double damage.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Literal, Sequence

from rollbook import rulings, tables
from rollbook.errors import RollbookError, quoted
from rollbook.systems import check_range
from rollbook.systems.cyno.attributes import coordination_modifier
from rollbook.systems.cyno.options import DEFAULT, Options


# The strike roll's die, automatic miss and hit, critical range and hit threshold: table cyno.strike.roll.
ROCKET_PENALTY = -2
CRITICAL_DAMAGE_MULTIPLIER = 2


@dataclass(frozen=True)
class StrikeModifier:
    source: str  # what the reader sees: the chart line or the rule
    modifier: int


def condition_rows() -> dict[str, tables.Row]:
    """Every selectable chart line by id (large-target, half-cover, ...)."""
    rows: dict[str, tables.Row] = {}
    for name in ("cyno.strike.bonuses", "cyno.strike.penalties"):
        rows.update({row["id"]: row for row in tables.get(name).rows if "id" in row})
    return rows


def weaponry_skill_line(skill: int) -> tables.Row:
    """The one chart line a weaponry skill falls in (ruling cyno-weaponry-skill-band)."""
    check_range("the weaponry skill", skill, 0, 100, hint="a percentage", field="weaponry_skill")
    below = [r for r in tables.get("cyno.strike.penalties").rows if "skill_below" in r and skill < r["skill_below"]]
    if below:
        return min(below, key=lambda r: r["skill_below"])
    return next(r for r in tables.get("cyno.strike.bonuses").rows
                if "skill_low" in r and r["skill_low"] <= skill <= r["skill_high"])


def damage_lost_line() -> tables.Row:
    return next(r for r in tables.get("cyno.strike.penalties").rows if "per_damage_lost" in r)


def _source(line: str) -> str:
    """A chart line as a modifier's source, shown in brackets inside a sentence: no full stop of its own."""
    return line.removesuffix(".")


def strike_modifiers(*, coordination: int | None = None, weaponry_skill: int | None = None,
                     conditions: Iterable[str] = (), damage_lost: int = 0, aim_actions: int = 0,
                     rocket: bool = False, options: Options = DEFAULT) -> tuple[StrikeModifier, ...]:
    """Every bonus and penalty that applies to a strike, each with its source."""
    out: list[StrikeModifier] = []
    if coordination is not None:
        out.append(StrikeModifier(f"coordination {coordination}", coordination_modifier(coordination)))
    if weaponry_skill is not None:  # left out: no line, +0 (ruling cyno-weaponry-skill-left-out)
        line = weaponry_skill_line(weaponry_skill)
        out.append(StrikeModifier(_source(tables.strike_condition(line)), line["modifier"]))
    known = condition_rows()
    groups: dict[str, str] = {}
    for condition in dict.fromkeys(conditions):
        if condition not in known:
            raise RollbookError(f"unknown strike condition {quoted(condition)}", hint="one of: " + ", ".join(known),
                                fields=("conditions",))
        row = known[condition]
        if "group" in row and not (row["group"] == "target-size" and options.target_size == "both"):
            if row["group"] in groups:
                ruling = "cyno-large-and-small-target" if row["group"] == "target-size" else "cyno-exclusive-conditions"
                raise RollbookError(f"{quoted(groups[row['group']])} and {quoted(condition)} cannot both apply",
                                    hint=f"choose one {row['group']} line ({rulings.named(ruling)})",
                                    fields=("conditions",))
            groups[row["group"]] = condition
        out.append(StrikeModifier(_source(row["condition"]), row["modifier"]))
    if damage_lost < 0:
        raise RollbookError(f"damage lost cannot be negative ({damage_lost})", fields=("damage_lost",))
    line = damage_lost_line()
    steps = damage_lost // line["per_damage_lost"]
    if steps:
        out.append(StrikeModifier(f"{damage_lost} damage points lost", line["modifier"] * steps))
    if aim_actions < 0:
        raise RollbookError(f"aiming actions cannot be negative ({aim_actions})", fields=("aim_actions",))
    if aim_actions:
        out.append(StrikeModifier(aim_source(aim_actions), aim_actions))
    if rocket:
        out.append(StrikeModifier("rocket", ROCKET_PENALTY))
    return tuple(out)


def aim_source(actions: int) -> str:
    return f"aimed for {actions} action{'s' if actions > 1 else ''}"


@dataclass(frozen=True)
class Strike:
    roll: int
    lines_roll: int  # the roll the natural-roll lines read: the die, or the die + aiming (ruling cyno-aim-and-natural-lines)
    modifiers: tuple[StrikeModifier, ...]
    total: int
    hit: bool
    critical: bool
    automatic: Literal["miss", "hit"] | None
    reason: str


def strike_die() -> int:
    """The strike roll's die (1D20), from table cyno.strike.roll."""
    return tables.die_sides(tables.get("cyno.strike.roll").settings["dice"])


def _natural_lines(roll: int) -> list[tables.Row]:
    return [row for row in tables.get("cyno.strike.roll").rows if row["natural_low"] <= roll <= row["natural_high"]]


def strike(roll: int, modifiers: Sequence[StrikeModifier] = (), *, aim_actions: int = 0,
           options: Options = DEFAULT) -> Strike:
    """1D20 + modifiers, read from table cyno.strike.roll: 5 or lower misses, 20 hits, otherwise a
    hit above 10; a natural 19 or 20 that hits is critical (ruling cyno-critical-needs-hit). With
    aim_lines=aimed, the die + ``aim_actions`` decides those lines, counting as at most 20 (ruling
    cyno-aim-and-natural-lines)."""
    sides = strike_die()
    check_range("the strike roll", roll, 1, sides, field="roll")
    table = tables.get("cyno.strike.roll")
    lines_roll = min(sides, roll + aim_actions) if options.aim_lines == "aimed" else roll
    lines = _natural_lines(lines_roll)
    total = roll + sum(m.modifier for m in modifiers)
    automatic: Literal["miss", "hit"] | None = next((r["automatic"] for r in lines if "automatic" in r), None)
    if automatic is not None:
        capped = "" if roll + aim_actions == lines_roll else f", counted as {lines_roll},"  # the die has no higher face
        what = f"a natural {roll}" if lines_roll == roll else \
            f"an aimed {roll} + {aim_actions}{capped if capped else f' = {lines_roll}'}"
        hit, reason = automatic == "hit", f"{what} is an automatic {automatic}"
    else:
        hit = total > table.settings["hit_above"]
        reason = f"{total} is {'' if hit else 'not '}higher than {table.settings['hit_above']}"
    critical = hit and any(r.get("critical") for r in lines)
    return Strike(roll, lines_roll, tuple(modifiers), total, hit, critical, automatic, reason)


def exact_location(weaponry_skill: int, roll: int) -> bool:
    """An aimed hit lands exactly where aimed when a percentage roll is at or under the weapon
    skill; otherwise it is close, but not exact."""
    check_range("the weaponry skill", weaponry_skill, 0, 100, hint="a percentage", field="weaponry_skill")
    check_range("the aiming percentage roll", roll, 1, 100, field="location_roll")
    return roll <= weaponry_skill


def critical_damage(damage: int) -> int:
    """A critical strike does double damage: the total rolled, times 2, in the weapon's units
    (ruling cyno-critical-doubles-the-roll)."""
    return damage * CRITICAL_DAMAGE_MULTIPLIER
