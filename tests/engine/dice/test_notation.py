"""Parsing: every feature of the notation, the fixed modifier order, errors with their column."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rollbook.dice import DiceError, DiceLimitError, DiceSyntaxError, canonical, parse
from rollbook.dice.parser import parse_tree
from rollbook.dice.tree import (Chain, Condition, Dice, Explode, Expression, Group, Keep, Negate, Number, OpenEnded,
                                Parens, Reroll)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("d20", "1d20"), ("1D8", "1d8"), ("d%", "1d%"), ("4df", "4dF"), ("3d4+3", "3d4 + 3"),
        ("4d6k3", "4d6kh3"), ("4d6d1", "4d6dl1"), ("4d6k", "4d6kh1"), ("2d20KL1", "2d20kl1"),
        ("2d6r1", "2d6r1"), ("2d6r=1", "2d6r1"), ("1d20ro<3", "1d20ro<3"), ("2d6r1r2", "2d6r1r2"),
        ("3d6!", "3d6!"), ("3d6!>=5", "3d6!>=5"), ("3d6!!", "3d6!!"), ("3d6!p", "3d6!p"), ("3d6!5!6", "3d6!5!6"),
        ("d20oe", "1d20oe"), ("d100oe5", "1d100oe5"), ("d20oel", "1d20oel"), ("d100OEH5", "1d100oeh5"),
        ("10d10>=8", "10d10>=8"), ("5d6=6", "5d6=6"), ("6d10<3", "6d10<3"),
        ("4d6mi2", "4d6mi2"), ("4d6ma5mi2", "4d6mi2ma5"), ("4dFmi0", "4dFmi0"),
        ("{4d6, 2d10}kh1", "{4d6, 2d10}kh1"), ("{1d20+5,1d20+3}>=15", "{1d20 + 5, 1d20 + 3}>=15"),
        ("1d20+5 # Climb", "1d20 + 5 # Climb"), ("1d20+5#  Climb check ", "1d20 + 5 # Climb check"),
        (" 4 d 6 kh 3 + 2 ", "4d6kh3 + 2"), ("(1+1)d6", "(1 + 1)d6"), ("2d(3*2)", "2d(3 * 2)"),
        ("-1d6", "-1d6"), ("--3", "--3"), ("2*-3", "2 * -3"), ("(1d4)d6", "(1d4)d6"),
        ("d20oekh1", "1d20oekh1"), ("3d6!-2", "3d6! - 2"),
    ],
)
def test_canonical_form(text, expected):
    assert canonical(parse(text)) == expected
    assert canonical(parse(expected)) == expected


def test_modifiers_apply_in_one_order_whatever_order_they_are_written_in():
    a = parse("4d6r1mi2kh3>=3")
    b = parse("4d6>=3kh3mi2r1")
    assert a == b
    assert canonical(a) == canonical(b) == "4d6r1mi2kh3>=3"
    # a comparison right after '!' is the explosion's; written first it is the success condition
    assert parse("10d10>=8!").root.success == Condition(">=", 8)
    assert parse("10d10!>=8").root.explode == Explode("!", (Condition(">=", 8),))
    assert canonical(parse("10d10>=8!")) == "10d10>=8!"


def test_precedence():
    tree = parse("1+2*3-4/5").root
    assert isinstance(tree, Chain) and [op for op, _ in tree.rest] == ["+", "-"]
    assert isinstance(tree.rest[0][1], Chain) and tree.rest[0][1].rest[0][0] == "*"
    neg = parse("-7/2").root  # unary minus binds tighter than '/', as in Python: (-7)/2
    assert isinstance(neg, Chain) and isinstance(neg.first, Negate)


@pytest.mark.parametrize(
    ("text", "column", "words"),
    [
        ("1d", 3, "expected a number of sides after 'd'"),
        ("1d20+", 6, "after '+'"),
        ("2d6 3", 5, "unexpected '3'"),
        ("(1d6", 5, "expected ')' to close the '(' at column 1"),
        ("1d6)", 4, "closes no '('"),
        ("4d6x", 4, "unknown modifier 'x'"),
        ("4d6kh3kl1", 7, "a second keep or drop"),
        ("1d20ro", 7, "expected a face or a comparison after 'ro'"),
        ("{1d6", 5, "to close the '{' at column 1"),
        ("{1d6}r1", 6, "a group takes only"),
        ("2d6r<7", 4, "reroll every face"),
        ("1d6!<7", 4, "explode on more than half"),
        ("1d6oe4", 4, "cannot be open-ended"),
        ("4d6!kh3", 5, "keep and drop count whole dice"),
        ("1/(1d6-1)", 2, "the divisor can be zero"),
        ("5/0", 2, "the divisor is zero"),
        ("(1d6-4)d6", 1, "the number of dice can be negative"),
        ("1d0", 1, "at least 1 side"),
        ("2d6mi5ma3", 7, "mi5 is above ma3"),
        ("1d20oe!", 7, "cannot both explode and be open-ended"),
        ("3d6!!!", 6, "cannot be mixed"),
        ("1d%!", 4, None),
    ],
)
def test_errors_name_the_column(text, column, words):
    if words is None:  # valid
        parse(text)
        return
    with pytest.raises(DiceError) as info:
        parse(text)
    assert info.value.column == column
    assert str(info.value).startswith(f"column {column}: ")
    assert words in str(info.value)


def test_empty_expression():
    with pytest.raises(DiceSyntaxError, match="empty"):
        parse("   ")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("1001d6", "at most 1,000 dice in one roll"),
        ("600d6+600d6", "at most 1,000 dice in one roll"),
        ("1d10001", "at most 10,000 sides on a die"),
        ("1" + "+1" * 600, "at most 1,000 characters"),
        ("(" * 40 + "1" + ")" * 40, "at most 32 levels of nesting"),
        ("-" * 40 + "1", "at most 32 levels of nesting"),
        ("{" * 40 + "1" + "}" * 40, "at most 32 levels of nesting"),
        ("1234567890d6", "at most 9 digits in a number"),
        ("{" + ",".join(["1"] * 21) + "}", "at most 20 expressions in one group"),
    ],
)
def test_limits(text, message):
    with pytest.raises(DiceLimitError, match=message) as info:
        parse(text)
    assert info.value.kind == "limit"


def test_long_flat_sums_do_not_recurse():
    text = "+".join(["1d6"] * 240)  # 959 characters: a loop, never a deep recursion
    assert len(parse(text).root.rest) == 239


# --- print/parse round trip on generated trees -------------------------------------------------

numbers = st.integers(min_value=0, max_value=50).map(Number)
comparisons = st.sampled_from(["=", "<", "<=", ">", ">="])
conditions = st.builds(Condition, comparisons, st.integers(min_value=-3, max_value=30))


def dice(counts, sides_expr):
    return st.builds(
        Dice,
        count=counts,
        sides=st.one_of(st.integers(1, 100).map(Number), st.sampled_from(["%", "F"]), sides_expr),
        reroll=st.none() | st.builds(Reroll, st.booleans(), st.lists(conditions, min_size=1, max_size=2).map(tuple)),
        explode=st.none() | st.builds(Explode, st.sampled_from(["!", "!!", "!p"]),
                                      st.lists(conditions, max_size=2).map(tuple)),
        minimum=st.none() | st.integers(-2, 9),
        maximum=st.none() | st.integers(-2, 9),
        keep=st.none() | st.builds(Keep, st.sampled_from(["kh", "kl", "dh", "dl"]), st.integers(0, 9)),
        success=st.none() | conditions,
    )


def open_dice(counts):
    return st.builds(Dice, count=counts, sides=st.integers(2, 100).map(Number),
                     open_ended=st.builds(OpenEnded, st.sampled_from(["both", "low", "high"]), st.integers(1, 9)))


def trees():
    def extend(inner):
        parens = inner.map(Parens)
        unary = st.one_of(numbers, parens, dice(st.one_of(numbers, parens), parens), open_dice(numbers),
                          st.lists(inner, min_size=1, max_size=3).flatmap(
                              lambda items: st.builds(Group, st.just(tuple(items)),
                                                      st.none() | st.builds(Keep, st.sampled_from(["kh", "kl"]),
                                                                            st.integers(0, 3)),
                                                      st.none() | conditions)))
        unary = st.one_of(unary, unary.map(Negate))
        product = st.one_of(unary, st.builds(Chain, unary, st.lists(st.tuples(st.sampled_from("*/"), unary),
                                                                    min_size=1, max_size=3).map(tuple)))
        return st.one_of(product, st.builds(Chain, product, st.lists(st.tuples(st.sampled_from("+-"), product),
                                                                     min_size=1, max_size=3).map(tuple)))

    return st.recursive(st.one_of(numbers, dice(numbers, st.nothing())), extend, max_leaves=8)


@settings(max_examples=200, deadline=None)
@given(trees(), st.none() | st.text(alphabet="abcXYZ 12#", min_size=1, max_size=10).map(str.strip).filter(bool))
def test_print_parse_round_trip(tree, label):
    expr = Expression(tree, label)
    text = canonical(expr)
    again = parse_tree(text)
    assert again == expr
    assert canonical(again) == text
