"""Cyno's metric damage rating: the levels (DP, hDP, kDP, ...), converting between them, and what a
weapon's damage does to a target of another level.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from fractions import Fraction

from rollbook import tables
from rollbook.errors import RollbookError, quoted
from rollbook.systems.cyno.strike import critical_damage


def named_levels() -> dict[str, int]:
    """Symbol -> level (power of ten of one unit in basic DP) for every named row of the chart."""
    return {row["symbol"]: row["level"] for row in tables.get("cyno.metric").rows}


def level_symbols() -> dict[int, str]:
    """Every level from atto to exa with its symbol; unnamed ones after the named level below:
    k+1, k+2, M+1, ..., u+1, u+2 (ruling cyno-unnamed-levels)."""
    named = sorted((level, symbol) for symbol, level in named_levels().items())
    out: dict[int, str] = {}
    for (level, symbol), (next_level, _) in zip(named, named[1:] + [(named[-1][0] + 1, "")]):
        out[level] = symbol
        for step in range(1, next_level - level):
            out[level + step] = f"{symbol}+{step}"
    return out


_NAMED_STEP = re.compile(r"^([A-Za-z]+)\+(\d{1,2})$")


def parse_level(text: str) -> int:
    """A damage-rating level from its symbol (``""``, ``da``, ``h``, ``k``, ``k+1``, ``M``, ...), with
    or without ``DP``, or its name (``kilo``, ``Kilo+1``, ``MEGA+2``: names in any letter case).
    Symbols are case-sensitive (m milli, M mega)."""
    symbols = level_symbols()
    by_symbol = {symbol: level for level, symbol in symbols.items()}
    by_name = {row["prefix"].lower(): row["level"] for row in tables.get("cyno.metric").rows if row["prefix"] != "-"}
    clean = text.strip()
    if clean.endswith("DP"):
        clean = clean[:-2]
    if clean in ("", "-"):
        return 0
    if clean in by_symbol:
        return by_symbol[clean]
    if clean.lower() in by_name:
        return by_name[clean.lower()]
    step = _NAMED_STEP.match(clean)
    if step and step[1].lower() in by_name:  # "Kilo+1 for one level above Kilo and Kilo+2 for two levels"
        named = by_name[step[1].lower()]
        level = named + int(step[2])
        if level not in symbols or symbols[level] != f"{symbols[named]}+{step[2]}":
            hint = (f"{clean} is {symbols[level]}DP" if level in symbols and int(step[2]) else
                    "a +N name counts the unnamed levels above a named one, e.g. Kilo+1")
            raise RollbookError(f"there is no level {quoted(clean)}", hint=hint)
        return level
    symbol_step = _NAMED_STEP.match(clean)
    if symbol_step and symbol_step[1] in by_symbol:  # k+3: past the unnamed levels, a named one
        level = by_symbol[symbol_step[1]] + int(symbol_step[2])
        if level in symbols and int(symbol_step[2]):
            raise RollbookError(f"there is no level {quoted(clean)}", hint=f"{clean} is {symbols[level]}DP")
    if clean.startswith("S"):  # the document's static notation: 5 ShDP, SDP
        try:
            parse_level(clean[1:])
        except RollbookError:
            pass
        else:
            raise RollbookError(f"{quoted(text)} is static damage at the {clean[1:]}DP level",
                                hint=f"give the level as {quoted(clean[1:])} and say the damage is static")
    raise RollbookError(f"unknown damage-rating level {quoted(text)}",
                        hint="a prefix symbol such as da, h, k, k+1, M (m is milli, M is mega), none for DP, "
                             "or a name such as kilo or Kilo+1")


def level_symbol(level: int) -> str:
    return level_symbols()[level]


def level_name(level: int) -> str:
    """A level's name as the document gives it: the prefix (Kilo, "-" for the basic unit), or for an
    unnamed level the named level below it plus the distance, "Kilo+1 for one level above Kilo"."""
    names = {row["level"]: row["prefix"] for row in tables.get("cyno.metric").rows}
    below = max(named for named in names if named <= level)
    if below == level:
        return "basic unit" if names[level] == "-" else names[level]
    return f"{names[below]}+{level - below}"


def convert(amount: Fraction | int, from_level: int, to_level: int) -> Fraction:
    """Move the decimal point: one place per level (1 daDP = 10 DP)."""
    return Fraction(amount) * Fraction(10) ** (from_level - to_level)


@dataclass(frozen=True)
class DamageRating:
    amount: int  # as rolled, in the weapon's units (doubled by a critical)
    weapon_level: int
    target_level: int
    static: bool
    exact: Fraction  # in the target's units
    damage: int  # whole points in the target's units (ruling cyno-damage-rounding)
    reason: str


LEVEL_GAP_NO_DAMAGE = 2  # "DP weapons are two destruction levels below hDP, therefore does no damage"


def damage_to(amount: int, weapon_level: int, target_level: int, *, static: bool = False,
              critical: bool = False) -> DamageRating:
    """What ``amount`` points at ``weapon_level`` do to a target at ``target_level``, in its units.

    Two or more levels below the target: nothing (ruling cyno-level-gap). Static damage against a
    target at or below its level: the same number of the target's points (ruling cyno-static-damage).
    Otherwise the decimal point moves one place per level; fractions round down.
    """
    if amount < 0:
        raise RollbookError(f"damage cannot be negative ({amount})", fields=("amount",))
    for level in (weapon_level, target_level):
        if level not in level_symbols():
            raise RollbookError(f"no damage-rating level {level}")
    if critical:
        amount = critical_damage(amount)
    weapon, target = level_symbol(weapon_level) + "DP", level_symbol(target_level) + "DP"
    gap = target_level - weapon_level
    if static and gap <= 0:
        exact = Fraction(amount)
        reason = f"static damage does {amount} {target} against {target}"
    elif gap >= LEVEL_GAP_NO_DAMAGE:
        exact = Fraction(0)
        reason = f"{weapon} is {gap} levels below {target}: no damage"
    else:
        exact = convert(amount, weapon_level, target_level)
        reason = f"{amount} {weapon} = {format_decimal(exact)} {target}"
    return DamageRating(amount, weapon_level, target_level, static, exact, math.floor(exact), reason)


def format_decimal(value: Fraction) -> str:
    """A fraction with a terminating decimal as plain digits: 1/2 -> ``0.5``, 300 -> ``300``."""
    places = 0
    while (value * 10**places).denominator != 1:  # converted damage always terminates
        places += 1
    digits = str(abs(value.numerator * 10**places // value.denominator)).rjust(places + 1, "0")
    sign = "-" if value < 0 else ""
    return sign + (f"{digits[:-places]}.{digits[-places:]}" if places else digits)
