"""The core the rules build on: NdS, d%, d20oe, constants and + - * / (floor), rolled and exact."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from rollbook.dice import DiceError, distribution, roll
from rollbook.errors import RollbookError


def seeded(expression: str, seed: int = 1):
    return roll(expression, random.Random(seed))


@pytest.mark.parametrize(
    ("expression", "total"),
    [("7", 7), ("2+3*4", 14), ("(2+3)*4", 20), ("7/2", Fraction(7, 2)), ("-7/2", Fraction(-7, 2)),
     ("floor(7/2)", 3), ("floor(-7/2)", -4), ("ceil(7/2)", 4), ("round(7/2)", 4), ("round(-7/2)", -4),
     ("floor(7/-2)", -4), ("-floor(7/2)", -3), ("10-2-3", 5), ("2*3/4", Fraction(3, 2)), ("6/3", 2),
     ("1 + 2 # label", 3), ("--3", 3), ("1.45", Fraction(29, 20)), ("7 % 3", 1), ("-7 % 3", 2), ("2^10", 1024),
     ("2**-1", Fraction(1, 2)), ("-2^2", -4), ("2^3^2", 512), ("abs(-3)", 3), ("sign(-3)", -1), ("max(2, 5)", 5),
     ("min(2, 5)", 2), ("pow(3, 2)", 9), ("sqrt(9/4)", Fraction(3, 2))],
)
def test_constants_and_arithmetic_divide_exactly(expression, total):
    """'/' divides exactly, as on Roll20 and in rpg-dice-roller; floor/ceil/round give the rule
    books' rounding down (CharacterCodex) and the other readings."""
    assert seeded(expression).total == total
    d = distribution(expression)
    assert d.probabilities == {total: Fraction(1)}
    assert d.residual == 0


def test_two_d6_distribution_is_exact():
    d = distribution("2d6")
    assert d.probabilities == {s: Fraction(6 - abs(s - 7), 36) for s in range(2, 13)}
    assert (d.min, d.max, d.mean) == (2, 12, 7.0)
    assert d.p_at_least(10) == Fraction(1, 6)
    assert d.p_at_most(3) == Fraction(1, 12)
    assert d.p_eq(7) == Fraction(1, 6)
    assert d.stdev == pytest.approx((35 / 6) ** 0.5)


def test_the_seeds_dice_notation_example_3d4_plus_3_lies_between_6_and_15():
    # CharacterCodex: "3d4+3 ... (resulting in a number between 6 and 15)"
    d = distribution("3d4+3")
    assert (d.min, d.max) == (6, 15)
    assert all(6 <= seeded("3d4+3", s).total <= 15 for s in range(200))


def test_upper_case_D_as_the_seeds_write_it():
    assert seeded("1D8").expression == "1d8"
    assert distribution("1D8").probabilities == {v: Fraction(1, 8) for v in range(1, 9)}


def test_percentile_is_1_to_100_read_from_two_d10():
    d = distribution("d%")
    assert d.probabilities == {v: Fraction(1, 100) for v in range(1, 101)}
    for seed in range(300):
        r = seeded("d%", seed)
        (die,) = r.dice[0]["dice"]
        (pair,) = die["percentile"]
        expected = pair["tens"] * 10 + pair["units"] or 100  # 00 and 0 read as 100
        assert r.total == expected and 1 <= r.total <= 100


def test_percentile_double_zero_is_100():
    class Zeros(random.Random):
        def randrange(self, *args, **kwargs):  # both d10 show 0
            return 0

    assert roll("d%", Zeros()).total == 100


def _pinned(faces: list[int]) -> random.Random:
    """A random source that shows these faces (as 1-based die faces) in order."""

    class Pinned(random.Random):
        def __init__(self) -> None:
            super().__init__(0)
            self.faces = list(faces)

        def randrange(self, n, *args, **kwargs):
            face = self.faces.pop(0)
            assert 1 <= face <= n
            return face - 1

    return Pinned()


@pytest.mark.parametrize(
    ("faces", "total", "text"),
    [
        ([14], 14, "1d20oe (14) = 14"),
        ([20, 7], 27, "1d20oe (20 + 7) = 27"),
        ([20, 20, 3], 43, "1d20oe (20 + 20 + 3) = 43"),
        ([1, 13], -12, "1d20oe (1 - 13) = -12"),
        # CharacterCodex: "If you roll a 20 on your second dice, you throw a third dice and subtract it"
        ([1, 20, 5], -24, "1d20oe (1 - 20 - 5) = -24"),
        ([1, 1], 0, "1d20oe (1 - 1) = 0"),  # a 1 on the subtracted die does not chain
    ],
)
def test_d20_open_ended_both_ways_as_the_codex_says(faces, total, text):
    r = roll("d20oe", _pinned(faces))
    assert (r.total, r.text) == (total, text)


def test_d20_open_ended_exact_values():
    d = distribution("d20oe")
    assert d.p_eq(10) == Fraction(1, 20)
    assert d.p_eq(20) == 0  # a natural 20 always adds at least 1
    assert d.p_eq(21) == Fraction(1, 400)  # 20 then 1
    assert d.p_eq(41) == Fraction(1, 8000)  # 20, 20, 1
    assert d.p_eq(-1) == Fraction(1, 400)  # 1 then 2
    assert d.p_eq(0) == Fraction(1, 400)  # 1 then 1
    assert 0 < d.residual < Fraction(1, 10**12)
    assert sum(d.probabilities.values()) + d.residual == 1
    assert d.mean == pytest.approx(10.5)


def test_rolemaster_d100oe5():
    assert roll("d100oe5", _pinned([97, 96, 50])).total == 97 + 96 + 50
    assert roll("d100oe5", _pinned([3, 98, 20])).total == 3 - 98 - 20
    assert roll("d100oe5", _pinned([6])).total == 6
    d = distribution("d100oe5")
    assert d.p_eq(6) == Fraction(1, 100)
    assert d.p_eq(-37) == Fraction(5, 100 * 100)  # 1-5 (subtracts) then 38-42 (stops)
    assert d.p_eq(-1) == Fraction(5, 100 * 100)
    # -92: 1-3 then 93-95 (which stop), or 5, 96 (which chains), 1
    assert d.p_eq(-92) == Fraction(3, 100**2) + Fraction(1, 100**3)


def test_sums_of_dice_and_constants():
    d = distribution("1d20+5")
    assert d.probabilities == {v: Fraction(1, 20) for v in range(6, 26)}
    d = distribution("2d6*3")
    assert set(d.probabilities) == set(range(6, 37, 3))
    d = distribution("floor(1d6/2)")
    assert d.probabilities == {0: Fraction(1, 6), 1: Fraction(1, 3), 2: Fraction(1, 3), 3: Fraction(1, 6)}
    d = distribution("1d6/2")
    assert d.probabilities == {Fraction(v, 2): Fraction(1, 6) for v in range(1, 7)}
    d = distribution("1d100-1d20")
    assert (d.min, d.max) == (-19, 99)
    assert d.mean == pytest.approx(50.5 - 10.5)


def test_same_seed_same_roll():
    assert seeded("10d10+d%+d20oe", 42).text == seeded("10d10+d%+d20oe", 42).text


def test_roll_result_fields():
    r = seeded("4d6kh3")
    data = r.to_json()
    assert set(data) >= {"expression", "total", "text", "dice"}
    kept = [d["value"] for d in data["dice"][0]["dice"] if d["kept"]]
    assert r.total == sum(kept) and len(kept) == 3


def test_errors_are_rollbook_errors_with_a_column():
    with pytest.raises(DiceError, match="^expected a number of sides after 'd', found the end") as info:
        roll("1d")
    assert info.value.column == 3
    with pytest.raises(RollbookError, match=r"^at the 5th character, expected a number, dice or '\(' after '\+'") as error:
        distribution("2d6+*")
    assert isinstance(error.value, DiceError) and error.value.column == 5


def test_d20oe_agrees_with_the_codex_rules_closed_form():
    """The dice engine's d20oe and the CharacterCodex rules' own formula (ruling codex-open-ended-dice)."""
    codex = pytest.importorskip("rollbook.systems.codex")
    d = distribution("d20oe")
    for t in range(-45, 66):
        assert abs(d.p_at_least(t) - codex.die_at_least(t)) <= d.residual, t
