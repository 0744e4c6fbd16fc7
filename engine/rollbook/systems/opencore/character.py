"""OpenCore characters: the nine abilities, the Comeliness rule, the composites (SDAC, IPW, CC),
starting health points and what a score of 0 does.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal, Mapping

from rollbook import tables
from rollbook.errors import RollbookError, quoted
from rollbook.systems import check_range


ABILITY_LOW, ABILITY_HIGH = 1, 100  # "Roll a 1d100 for each ability. Range 1 - 100."
# A score can later fall to 0 (the document gives the consequences: see zero_score_consequence).
ABILITY_FLOOR = 0
D100 = range(1, 101)


def ability_codes() -> tuple[str, ...]:
    """STR, DEX, AGL, CON, INT, PER, WIS, CHA, COM, in the seed's order."""
    return tuple(row["code"] for row in tables.get("opencore.abilities").rows)


def parse_scores(text: str, *, lowest: int = ABILITY_LOW) -> dict[str, int]:
    """``"STR=76,DEX=80"`` -> ``{"STR": 76, "DEX": 80}``; codes are case-insensitive.

    ``lowest`` is 1 for a new character (rolled 1 to 100) and ABILITY_FLOOR where a score may
    have fallen to 0 since."""
    codes = ability_codes()
    scores: dict[str, int] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        code, sep, value = part.partition("=")
        code = code.strip().upper()
        if not sep or not re.fullmatch(r"-?\d+", value.strip()):
            raise RollbookError(f"cannot read the score {quoted(part)}", hint="write CODE=NUMBER, e.g. STR=76,DEX=80")
        if code not in codes:
            raise RollbookError(f"unknown ability {quoted(code)} in {quoted(part)}", hint="abilities: " + ", ".join(codes))
        if code in scores:
            raise RollbookError(f"{code} is given twice")
        scores[code] = check_range(code, int(value), lowest, ABILITY_HIGH)
    return scores


ZeroConsequence = Literal["unconscious or immobile", "dead"]


def zero_score_consequence(code: str) -> ZeroConsequence:
    """What a score of 0 does: "Unlike the other ability scores, which render the character
    unconscious or immobile when they hit 0, having 0 Constitution is fatal." Which of the two
    is the GM's (ruling opencore-zero-ability)."""
    return "dead" if code == "CON" else "unconscious or immobile"


def zero_scores(abilities: Mapping[str, int]) -> dict[str, ZeroConsequence]:
    """Every ability at 0, with its consequence, in the document's order."""
    return {code: zero_score_consequence(code) for code in ability_codes() if abilities.get(code) == 0}


def round_half_up(numerator: int, denominator: int) -> int:
    """Nearest whole number, halves up, in integer arithmetic (ruling opencore-composite-rounding).

    Python's round() rounds halves to even and would turn Buck Hunter's CC of 58.5 into 58.
    """
    return (2 * numerator + denominator) // (2 * denominator)


def comeliness_row(cha: int) -> tables.Row | None:
    """The row of the Charisma rule that applies to ``cha``; None at exactly 50
    (ruling opencore-com-at-cha-50)."""
    for row in tables.get("opencore.comeliness").rows:  # the shifts and the cap are the page's table
        if cha < row.get("cha_below", ABILITY_LOW) or cha >= row.get("cha_from", ABILITY_HIGH + 1):
            return row
    return None


def comeliness(cha: int, com: int) -> int:
    """COM after the Charisma rule: +25 below CHA 50, -25 from 51, unchanged at exactly 50
    (ruling opencore-com-at-cha-50), kept within 1..100 (ruling opencore-com-limits)."""
    row = comeliness_row(cha)
    shifted = com + (row["shift"] if row else 0)
    return max(ABILITY_LOW, min(tables.get("opencore.comeliness").settings["most"], shifted))


def composite(code: str, abilities: Mapping[str, int]) -> int:
    """One composite score (SDAC, IPW or CC) from the abilities it needs."""
    row = next((r for r in tables.get("opencore.composites").rows if r["code"] == code), None)
    if row is None:
        raise RollbookError(f"unknown composite {quoted(code)}", hint="SDAC, IPW or CC")
    missing = [a for a in row["abilities"] if a not in abilities]
    if missing:
        raise RollbookError(f"{code} needs {', '.join(missing)}", hint=f"{code} = {tables.composite_formula(row)}")
    return round_half_up(sum(abilities[a] for a in row["abilities"]), len(row["abilities"]))


def composite_codes() -> tuple[str, ...]:
    return tuple(row["code"] for row in tables.get("opencore.composites").rows)


def starting_hp(roll: int, con: int) -> int:
    """1d100 - CON, at least 1 (ruling opencore-hp-minimum)."""
    return max(1, roll - con)


@dataclass(frozen=True)
class Character:
    rolled: Mapping[str, int]  # the nine abilities as rolled
    abilities: Mapping[str, int]  # after the Comeliness rule
    composites: Mapping[str, int]  # SDAC, IPW, CC
    hp_roll: int
    hp: int


def make_character(rolled: Mapping[str, int], hp_roll: int) -> Character:
    """A character from nine rolled abilities and the HP roll (the COM rule applied)."""
    missing = [c for c in ability_codes() if c not in rolled]
    if missing:
        raise RollbookError(f"a character needs all nine abilities; missing {', '.join(missing)}")
    for code, value in rolled.items():
        check_range(code, value, ABILITY_LOW, ABILITY_HIGH)
    check_range("the HP roll", hp_roll, 1, 100)
    abilities = {code: rolled[code] for code in ability_codes()}
    abilities["COM"] = comeliness(abilities["CHA"], abilities["COM"])
    composites = {code: composite(code, abilities) for code in composite_codes()}
    return Character(dict(rolled), abilities, composites, hp_roll, starting_hp(hp_roll, abilities["CON"]))


def ability_modifier(score: int) -> int:
    """(score - 50) / 10 rounded down: -5..+5 (rulings opencore-dex-modifier, opencore-str-damage)."""
    return (score - 50) // 10
