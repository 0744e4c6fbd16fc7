"""What one die can show once its sides are known, and what its modifiers do to one face.

Shared by the roller (one face at a time) and the exact distributions (all faces at once), so
the two cannot disagree about what ``r<3``, ``!``, ``oe5`` or ``mi2`` mean.
"""

from __future__ import annotations

from collections.abc import Sequence

from rollbook.dice import limits
from rollbook.dice.errors import DiceError
from rollbook.dice.tree import Condition, Dice
from rollbook.dice.notation import dice_text

FATE_FACES = (-1, 0, 1)
FATE_ONE_FACES = (-1, 0, 0, 0, 0, 1)  # rpg-dice-roller's dF.1: a d6 read as 1 = -1, 6 = +1, else blank


def faces_of(sides: int | str) -> Sequence[int]:
    """d% is 1-100 (two d10, 00 and 0 read as 100, as both seeds say); dF is -1, 0, +1."""
    if sides == "%":
        return range(1, 101)
    if sides == "F":
        return FATE_FACES
    if sides == "F.1":
        return FATE_ONE_FACES
    return range(1, int(sides) + 1)


def any_holds(conditions: tuple[Condition, ...], face: int) -> bool:
    return any(c.holds(face) for c in conditions)


def reroll_conditions(d: Dice, faces: Sequence[int]) -> tuple[Condition, ...]:
    """What ``r``/``ro`` rerolls: its conditions, or for a bare ``r`` the lowest face (as on Roll20)."""
    assert d.reroll is not None
    return d.reroll.conditions or (Condition("=", min(faces)),)


def critical(d: Dice, value: int, faces: Sequence[int]) -> str | None:
    """``cs``/``cf`` marks (the total never changes): "success", "failure" or None. Without a compare
    point, the highest face is a critical success and the lowest a critical failure."""
    if d.critical_success is not None and any_holds(d.critical_success or (Condition("=", max(faces)),), value):
        return "success"
    if d.critical_failure is not None and any_holds(d.critical_failure or (Condition("=", min(faces)),), value):
        return "failure"
    return None


def clamp(d: Dice, face: int) -> int:
    if d.minimum is not None and face < d.minimum:
        return d.minimum
    if d.maximum is not None and face > d.maximum:
        return d.maximum
    return face


def roll_weights(d: Dice, faces: Sequence[int]) -> dict[int, int]:
    """Relative weights of the value one roll of this die gives, after rerolls and clamps.

    ``r`` (reroll while matching) leaves the other faces equally likely; ``ro`` rerolls once, so a
    matching face can still stand: weight ``n`` per face from the first roll, plus ``matches``
    per face from the reroll, over ``n * n``."""
    n = len(faces)
    weights: dict[int, int] = {}
    reroll = d.reroll
    conditions = reroll_conditions(d, faces) if reroll else ()
    matching = [f for f in faces if any_holds(conditions, f)]
    if not reroll or not matching:
        for f in faces:
            weights[clamp(d, f)] = weights.get(clamp(d, f), 0) + 1
        return weights
    matched = set(matching)
    for f in faces:
        if reroll.once:
            w = len(matching) + (0 if f in matched else n)
        else:
            w = 0 if f in matched else 1
        if w:
            v = clamp(d, f)
            weights[v] = weights.get(v, 0) + w
    return weights


def explodes(d: Dice, value: int, top: int) -> bool:
    """Does a roll showing ``value`` (after clamps) explode? Bare ``!`` explodes on the top face."""
    assert d.explode is not None
    if d.explode.conditions:
        return any_holds(d.explode.conditions, value)
    return value == top


def open_ends(d: Dice, faces: Sequence[int]) -> tuple[int | None, int | None, int]:
    """Open-ended thresholds ``(low, high, again)``: a first roll at or below ``low`` subtracts
    another roll, at or above ``high`` adds one; every added or subtracted roll at or above
    ``again`` (the top ``width`` faces) continues its chain, as the CharacterCodex and Rolemaster do."""
    assert d.open_ended is not None
    width, ends = d.open_ended.width, d.open_ended.ends
    again = faces[-1] - width + 1
    low = faces[0] + width - 1 if ends in ("both", "low") else None
    high = again if ends in ("both", "high") else None
    return low, high, again


def validate(d: Dice, sides: int | str) -> None:
    """Refuse, with the reason, a die that cannot be rolled or would roll forever."""
    where = d.column or None
    name = dice_text(Dice(d.count, d.sides), sides=str(sides))
    if isinstance(sides, int):
        if sides < 1:
            raise DiceError(f"a die needs at least 1 side, not {sides}", column=where, hint="e.g. d6")
        limits.check_sides(sides, where)
    faces = faces_of(sides)
    if d.reroll and all(any_holds(reroll_conditions(d, faces), f) for f in faces):
        word = "ro" if d.reroll.once else "r"
        raise DiceError(f"'{word}' would reroll every face of {name}", column=d.column_of("reroll") or None,
                        hint="the condition must leave some face standing")
    if d.unique and (d.open_ended or (d.explode and d.explode.kind != "!")):
        raise DiceError("'u' makes each die show a face of its own, so it combines with '!' (extra dice of their "
                        "own) but not with a compounding, penetrating or open-ended roll, whose dice are chains",
                        column=d.column_of("unique") or None, hint="e.g. 4d6!u")
    if d.match and d.match.total:
        clash = [name for name, present in (("keep or drop", d.keep), ("a success count", d.success is not None),
                                            ("'u'", d.unique)) if present]
        if clash:
            raise DiceError(f"'mt' counts the sets among the dice as rolled, so it cannot be combined with {clash[0]}",
                            column=d.column_of("match") or None, hint="use m to mark the sets, e.g. 4d6kh3m")
    if d.minimum is not None and d.maximum is not None and d.minimum > d.maximum:
        raise DiceError(f"mi{d.minimum} is above ma{d.maximum}", column=d.column_of("maximum") or None)
    weights = roll_weights(d, faces)
    total = sum(weights.values())
    if d.explode:
        top = max(weights)
        hot = sum(w for v, w in weights.items() if explodes(d, v, top))
        if hot == total:  # any fewer, and a chain ends with probability 1
            raise DiceError(f"'{d.explode.kind}' would explode on every roll of {name}",
                            column=d.column_of("explode") or None,
                            hint="leave some face that does not explode, e.g. ! (the highest face only)")
    if d.open_ended:
        width = d.open_ended.width
        if width < 1 or 2 * width > len(faces):
            raise DiceError(f"{name} cannot be open-ended on {width} faces at each end",
                            column=d.column_of("open-ended") or None,
                            hint="at most half the faces may open the roll, e.g. d20oe or d100oe5")
        again = open_ends(d, faces)[2]
        if 2 * sum(w for v, w in weights.items() if v >= again) > total:
            raise DiceError(f"{name} would open upward on more than half the rolls",
                            column=d.column_of("open-ended") or None)
