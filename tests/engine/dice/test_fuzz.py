"""Fuzzing: random and mutated text never raises anything but the engine's own error, and every
answer, valid or not, comes quickly (no hang, no RecursionError, no memory blow-up)."""

from __future__ import annotations

import random
import sys
import time

from hypothesis import given, settings
from hypothesis import strategies as st

from dice_strategies import ALPHABET, expressions, mutated
from rollbook import api
from rollbook.dice import DiceError, DiceLimitError, distribution, limits, roll
from rollbook.errors import RollbookError

IN_BROWSER = sys.platform == "emscripten"  # Pyodide runs slower: time only on CPython
# CPU seconds of this process (time.process_time), not wall time: four test runs share two cores
# here, and a loaded machine must not fail a quick answer; a hang or a slow path still does.
QUICK = 1.0


def answer(text: str) -> None:
    start = time.process_time()
    for step in (lambda: roll(text, random.Random(1)), lambda: distribution(text).probabilities):
        try:
            step()
        except RollbookError as error:
            assert str(error) and "\n" not in str(error)
            if isinstance(error, DiceError) and not isinstance(error, DiceLimitError):
                assert error.column, f"{text!r}: no column in {error}"  # the widget points at it
    assert IN_BROWSER or time.process_time() - start < QUICK, text


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=ALPHABET, max_size=40))
def test_random_text(text):
    answer(text)


@settings(max_examples=200, deadline=None)
@given(mutated())
def test_mutated_expressions(text):
    answer(text)


@settings(max_examples=100, deadline=None)
@given(expressions)
def test_generated_expressions(text):
    answer(text)


def test_hostile_inputs():
    for text in ["(" * 5000, "-" * 5000 + "1", "{" * 500, "1d6" + "!" * 500, "9" * 5000, "1" + "+1" * 499,
                 "1000d10000", "1000d10000kh999", "999d2!", "1000d100>=50", "20d10000", "10d10000kh5",
                 "{" + ",".join(["1d100"] * 20) + "}kh10", "(1d1000)d1000", "1d10000*1d10000",
                 "1d10000/1d10000", "d10000oe5000", "1000dF", "\x00", "１d6", "1d6\n+2", "1d6 # " + "x" * 900,
                 # the notation of issue 10
                 "2^" * 300 + "2", "pow(" * 40 + "2" + ", 2)" * 40, "9^9^9", "1000^1000", "1.5^1000",
                 "exp(exp(exp(1d6)))", "sqrt(" * 30 + "1d6" + ")" * 30, "1/3" * 300, "(1/3)" + "*(1/3)" * 200,
                 "1000d100u", "30d30u", "20d20uo", "12d12u", "1000d6!k999", "1000d6!d1", "999d2!p kh500",
                 "100d6!>=2k50", "5000d6", "2500d100+2500d100", "{1000d6+1000d8}k999", "{50d6+50d8}k50",
                 "d100!>1", "d10000!>1", "10d10000!<9999kh5", "1d6" + "[x]" * 300, "1d6 /*" + "*" * 900,
                 "{" + ",".join(["1d20/3"] * 20) + "}kh10", "1d1000/1d1000+1d1000/1d999", "1.123456789d6",
                 "sin(1d10000)*cos(1d10000)", "tan(1d10000)^2", "10d10cs>1cf<10sd", "4dF.1" * 200,
                 "999999999*" * 40 + "1", "(1d4!)^1000", "(1d4!)^10*(1d4!)^10", "{50d6+50d8}k50",
                 "{20d6+20d8+20d10}k10",
                 # matches, unique exploding dice, long chains followed in one pass
                 "1000d100mt", "5000d2mt", "1000d6m" + "m" * 50, "100d100mt2>50", "1000d10000!!mt", "10d20!u",
                 "20d20!u", "19d20!u", "50d100!uo", "30d30!u<3", "1000d1000u", "1000d10000ukh3", "d20!>=3",
                 "d100!>1", "d10000!>=2", "5d6!>=2k2", "{5000d2+1d6}k2500", "{100d6+100d8+100d10}k150"]:
        answer(text)


def test_hostile_requests():
    """Through the JSON API as the browser asks, with --count: rerolls and explosions that run long
    are answered quickly, and never with megabytes of dice."""
    for text, count in [("1000d10000r<10000", 100), ("1000d10000r<9999", 100), ("1000d2!", 100), ("1000d2!", 9),
                        ("1000d10000r<10000", 1), ("999d2!p", 10), ("1000d%r<100", 10), ("(1d999)d2!", 100),
                        ("{" + ",".join(["50d2!"] * 20) + "}", 100), ("1000d10000", 100), ("1000d6ro<6", 10)]:
        start = time.process_time()
        out = api.call_json(api.dumps({"command": "roll", "args": {"expression": text, "count": count, "seed": 1}}))
        assert IN_BROWSER or time.process_time() - start < QUICK, (text, count)
        assert len(out) < 1_500_000, (text, count)


# Exact odds are refused once their work passes limits.MAX_WORK, counted in units of about 40 ns:
# the count must follow the time really spent, or a slow path would slip under the limit.
# Measured 7-110 ns of CPU a unit on this machine when quiet (the small ones carry fixed costs), and
# up to 214 ns inside the whole suite (50d100 under two workers and their Chromiums, 2026-12-04):
# the bound leaves room for that; a slow path the count missed would be many times over it.
NS_PER_UNIT = 250
# seconds of parsing, fractions and dictionaries that no unit counts: 30d100kh10 (76,000 units) took
# 72.6 ms of CPU inside a loaded clean-clone make test (2026-12-06), over the 0.05 once held here
FIXED = 0.1


def test_the_work_counted_follows_the_time_spent():
    from rollbook.dice import clear_caches, weights
    for text in ["d20!>=3", "{20d6+20d8}k10", "50d100u", "10d6!p>=5k2", "4d6!d1", "50d100", "100d10mt",
                 "d100!>50", "1000d100>=50", "{4d6+3d8}k4", "5d10!k2", "4d6!u", "10d10mt3>5", "20d20u",
                 "19d20!u", "5d6!>=2k2", "3d8!>=6u>4", "30d100kh10", "60d100kh30", "60d6kl20",
                 "30d100dh10dl10", "60d20dh20dl20", "4d6ma4kh2"]:
        clear_caches()
        start = time.process_time()
        distribution(text).probabilities
        spent = time.process_time() - start
        assert weights.meter.used <= limits.MAX_WORK, text
        assert IN_BROWSER or spent < FIXED + weights.meter.used * NS_PER_UNIT * 1e-9, (text, spent, weights.meter.used)
