"""Statistical fairness with fixed seeds: chi-square tests of single dice, d% and its two d10,
and of whole expressions against their exact distributions (the roller and the maths agree)."""

from __future__ import annotations

import math
import random

import pytest

from rollbook.dice import distribution, roll

Z_999 = 3.0902  # one-sided normal quantile for p = 0.001


def critical(df: int) -> float:
    """Chi-square critical value at p = 0.001 (Wilson-Hilferty approximation)."""
    return df * (1 - 2 / (9 * df) + Z_999 * math.sqrt(2 / (9 * df))) ** 3


def chi_square(observed: dict[int, int], expected: dict[int, float]) -> float:
    return sum((observed.get(k, 0) - e) ** 2 / e for k, e in expected.items())


def faces_rolled(expression: str, seed: int, times: int) -> list[int]:
    rng = random.Random(seed)
    out: list[int] = []
    for _ in range(times):
        out.extend(d["value"] for term in roll(expression, rng).dice for d in term["dice"])
    return out


@pytest.mark.parametrize("sides", [4, 6, 8, 10, 12, 20, 100])
def test_single_dice_are_fair(sides):
    faces = faces_rolled(f"1000d{sides}", seed=sides, times=sides // 4 + 1)
    counts = {f: faces.count(f) for f in range(1, sides + 1)}
    assert set(faces) <= set(counts)
    expected = {f: len(faces) / sides for f in counts}
    assert chi_square(counts, expected) < critical(sides - 1)


def test_percentile_and_its_two_d10_are_fair():
    rng = random.Random(100)
    values, tens, units = [], [], []
    for _ in range(30):
        for die in roll("1000d%", rng).dice[0]["dice"]:
            values.append(die["value"])
            (pair,) = die["percentile"]
            tens.append(pair["tens"])
            units.append(pair["units"])
    n = len(values)
    assert chi_square({v: values.count(v) for v in range(1, 101)}, {v: n / 100 for v in range(1, 101)}) < critical(99)
    for digits in (tens, units):
        assert chi_square({d: digits.count(d) for d in range(10)}, {d: n / 10 for d in range(10)}) < critical(9)


@pytest.mark.parametrize("expression", ["4d6kh3", "2d6r1", "1d20ro<3", "d20oe", "3d6!", "10d10>=8", "2d20kl1",
                                        "4dF", "{1d20, 2d10}kh1", "1d100/1d6"])
def test_rolls_follow_the_exact_distribution(expression):
    dist = distribution(expression)
    rng = random.Random(77)
    n = 4000
    rolled: dict[int, int] = {}
    for _ in range(n):
        t = roll(expression, rng).total
        rolled[t] = rolled.get(t, 0) + 1
    # merge the rare totals from each end into bins expecting at least 5 rolls
    bins: list[tuple[float, int]] = []
    acc_e, acc_o = 0.0, 0
    for value, p in dist.probabilities.items():
        acc_e += float(p) * n
        acc_o += rolled.get(value, 0)
        if acc_e >= 5:
            bins.append((acc_e, acc_o))
            acc_e, acc_o = 0.0, 0
    if acc_e or acc_o:
        e, o = bins.pop()
        bins.append((e + acc_e, o + acc_o))
    stat = sum((o - e) ** 2 / e for e, o in bins)
    assert sum(o for _, o in bins) == n
    assert stat < critical(len(bins) - 1)
