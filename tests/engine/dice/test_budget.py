"""One request rolls at most limits.MAX_ROLLED dice, rerolls, explosions and --count included:
refused before rolling when the count alone (or a bounded worst case) is too much, stopped while
rolling when rerolls or explosions run long. Normal play never meets the limit."""

from __future__ import annotations

import random
import sys
import time

import pytest
from hypothesis import given, settings

from dice_strategies import expressions
from rollbook import api
from rollbook.dice import Budget, DiceError, DiceLimitError, limits, roll
from rollbook.dice.results import walk_dice

IN_BROWSER = sys.platform == "emscripten"  # Pyodide runs slower: time only on CPython
MAX_JSON = 1_500_000  # characters of one roll answer, die by die (measured: at most about 0.95 MB)


class CountingRandom(random.Random):
    """Counts the random numbers drawn: 0 proves that nothing was rolled."""

    draws = 0

    def random(self) -> float:
        self.draws += 1
        return super().random()

    def getrandbits(self, k: int) -> int:
        self.draws += 1
        return super().getrandbits(k)


def ask_roll(expression: str, count: int = 1, seed: int = 1) -> dict:
    return api.call({"command": "roll", "args": {"expression": expression, "count": count, "seed": seed}})


@pytest.mark.parametrize("expression", ["4d6kh3", "10d10!", "1d20+5", "d20oe", "10d10>=8", "2d6r1", "d100oe5",
                                        "{4d6, 2d10}kh1", "8d6!p"])
def test_normal_play_never_meets_the_limit(expression):
    answer = ask_roll(expression, count=limits.MAX_REPEATS)
    assert answer["ok"], answer


@pytest.mark.parametrize("expression, count", [("1000d10000r<10000", 100), ("1000d2!", 100), ("1000d6", 11),
                                               ("1000d6ro1", 6), ("(1d999)d6", 100)])
def test_refused_before_any_die_is_rolled(expression, count):
    rng = CountingRandom(1)
    budget = Budget()
    with pytest.raises(DiceLimitError, match="at most 10,000 dice rolled in one request"):
        roll_all(expression, count, rng, budget)
    assert rng.draws == 0


def roll_all(expression: str, count: int, rng: random.Random, budget: Budget) -> None:
    from rollbook.dice import plan
    plan(expression, count, budget)
    for _ in range(count):
        roll(expression, rng, budget)


@pytest.mark.parametrize("expression, count", [("1000d10000r<10000", 1), ("1000d10000r<9999", 1), ("999d2!", 20),
                                               ("1000d20r<20", 1), ("500d2!p", 20)])
def test_stopped_while_rolling(expression, count):
    start = time.process_time()  # CPU time: the test runs share a loaded machine (see test_fuzz.QUICK)
    answer = ask_roll(expression, count)
    assert not answer["ok"] and answer["error"]["kind"] == "limit"
    assert "at most 10,000 dice rolled in one request" in answer["error"]["message"]
    assert IN_BROWSER or time.process_time() - start < 0.5


def test_the_budget_is_shared_across_the_count():
    """Ten rolls of 500d2! roll about 10,000 dice: some seeds fit, some are stopped; each alone fits."""
    outcomes = {ask_roll("500d2!", 10, seed)["ok"] for seed in range(6)}
    assert outcomes == {True, False}
    assert all(ask_roll("500d2!", 1, seed)["ok"] for seed in range(6))


@pytest.mark.parametrize("expression, count", [("1000d%", 10), ("1000d%r<50", 5), ("1000d%!", 9), ("100d100oe5", 90),
                                               ("1000d10000!!", 9), ("1000d6>=4", 10), ("1000d%ro<50mi60", 5)])
def test_json_stays_small(expression, count):
    answer = ask_roll(expression, count)
    assert answer["ok"], answer
    assert len(api.dumps(answer)) < MAX_JSON


def test_count_lists_each_die_once():
    answer = ask_roll("3d6+1d4", 3)["result"]
    assert [term["roll"] for term in answer["dice"]] == [1, 1, 2, 2, 3, 3]
    assert [r["total"] for r in answer["rolls"]] == answer["totals"] and "dice" not in answer["rolls"][0]


@settings(max_examples=150, deadline=None)
@given(expressions)
def test_every_die_rolled_is_spent(text):
    """What the budget counts is exactly what was rolled: one per face in every die's record."""
    budget = Budget()
    try:
        result = roll(text, random.Random(3), budget)
    except DiceError:
        return
    rolled = sum(len(die.rolls) for term in walk_dice(result.root) for die in term.dice)
    assert limits.MAX_ROLLED - budget.left == rolled
