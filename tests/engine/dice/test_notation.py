"""Parsing: every feature of the notation, the fixed modifier order, errors with their column."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rollbook.dice import DiceError, DiceLimitError, DiceSyntaxError, canonical, parse
from rollbook.dice.parser import parse_tree
from rollbook.dice.errors import place
from rollbook.dice.tree import (Chain, Condition, Dice, Explode, Expression, Function, Group, Keep, Negate, Number,
                                OpenEnded, Parens, Reroll)


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
        # rpg-dice-roller and Roll20 (issue 10)
        ("4d6min3", "4d6mi3"), ("4d6max3", "4d6ma3"), ("4d10dh1dl2", "4d10dh1dl2"), ("4d10dl2dh1", "4d10dh1dl2"),
        ("3d10k1dh1", "3d10kh1dh1"), ("d6r", "1d6r"), ("d6ro", "1d6ro"), ("2d6r<>3", "2d6r<>3"),
        ("2d6r!=3", "2d6r<>3"), ("2d6<>4", "2d6<>4"), ("2d6!=4", "2d6!4"), ("2d6!!=4", "2d6!!4"),
        ("2d6!<>4", "2d6!<>4"), ("4d6u", "4d6u"), ("4d6u=5", "4d6u=5"), ("3d8uo>6", "3d8uo>6"),
        ("2d20cs", "2d20cs"), ("4d10cs>7", "4d10cs>7"), ("2d20cf", "2d20cf"), ("6d4cf=2", "6d4cf=2"),
        ("4d6s", "4d6sa"), ("4d6sd", "4d6sd"), ("4d6>4f<3", "4d6>4f<3"), ("4dF.1", "4dF.1"), ("4dF.2", "4dF"),
        ("2d6!p", "2d6!p"), ("2d6!!p", "2d6!!p"), ("2d6!!p>4", "2d6!!p>4"), ("5d10!k2", "5d10kh2!"),
        ("4d6r>=5cs", "4d6r>=5cs"), ("d6rcs>=5", "1d6cs>=5r"), ("{4d6+3d8}k4", "{4d6 + 3d8}kh4"),
        ("{1d20, 1d20}>10f<3sd", "{1d20, 1d20}>10f<3sd"), ("round(4d10/3)", "round(4d10 / 3)"),
        ("MAX( 1d6 ,1d8 )", "max(1d6, 1d8)"), ("pow(2d4, 2)", "pow(2d4, 2)"), ("1d20+1.45", "1d20 + 1.45"),
        ("d15%2", "1d15 % 2"), ("3d20^4", "3d20 ^ 4"), ("3d20**4", "3d20 ^ 4"), ("2^3^2", "2 ^ 3 ^ 2"),
        ("-2^2", "-2 ^ 2"), ("floor(7/2)d6", "floor(7 / 2)d6"), ("2d6[fire] + 1d4[ cold ]", "2d6[fire] + 1d4[cold]"),
        ("5[bonus]+1d6", "5[bonus] + 1d6"), ("{1d6, 1d8}kh1[best]", "{1d6, 1d8}kh1[best]"),
        ("1d20+5 // Climb", "1d20 + 5 # Climb"), ("1d20 /* a */ + /* b */ 5", "1d20 + 5"),
        # Roll20's inline roll brackets are parentheses; its '\' starts the roll's description
        ("[[1d20+5]]", "(1d20 + 5)"), ("3d6 + [[ 1d4 ]]", "3d6 + (1d4)"),
        ("1d20+5 \\ Roll for Initiative", "1d20 + 5 # Roll for Initiative"),
        ("{3d20+5}>21", "{3d20 + 5}>21"), ("{2d6-1}>=3f<2", "{2d6 - 1}>=3f<2"), ("6d6!mt", "6d6mt!"),
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
        ("(1d6", 5, "expected ')' to close the '(' at the 1st character"),
        ("1d6)", 4, "closes no '('"),
        ("4d6x", 4, "unknown modifier 'x'"),
        ("4d6kh3kh1", 7, "a second kh modifier"),
        ("1d20f<3", 5, "'f' counts failures against successes"),
        ("1d20>3f", 8, "expected a face or a comparison after 'f'"),
        ("{1d6", 5, "to close the '{' at the 1st character"),
        ("{1d6}r1", 6, "a group takes keep/drop"),
        ("2d6r<7", 4, "reroll every face"),
        ("1d6!<7", 4, "explode on every roll"),
        ("1d6oe4", 4, "cannot be open-ended"),
        ("4d6!!u", 6, "combines with '!' (extra dice of their own) but not with a compounding"),
        ("d20oeu", 6, "but not with a compounding, penetrating or open-ended roll"),
        ("6d6!u", 5, "6 dice and the 1 die they can add cannot all show different faces"),
        ("4d6kh3mt", 7, "'mt' counts the sets among the dice as rolled, so it cannot be combined with keep"),
        ("4d6>3mt", 6, "cannot be combined with a success count"),
        ("4d6!mt", 0, None),  # matches among the exploded dice too, as on Roll20
        ("[[1d20+5", 9, "expected ']]' to close the '[[' at the 1st character"),
        ("1d20+5 Roll for Initiative", 8, "to label the roll, put # before the words: 1d20+5 # Roll for Initiative"),
        ("/roll 2d6+1", 1, "Roll20's /roll is not part of the expression (leave it out: 2d6+1)"),
        ("4d6mtkh3", 4, "cannot be combined with keep or drop"),
        ("4d6m1", 4, "a set of matching dice has at least 2 dice, not 1"),
        ("4d6mm", 5, "a second match modifier"),
        ("5d3u", 4, "5 dice cannot all show different faces"),
        ("sqrt(1d6-3)", 1, "the value inside sqrt() can be negative"),
        ("log(1d6-1)", 1, "the value inside log() can be zero or negative"),
        ("floor(1, 2)", 1, "floor takes 1 argument, not 2"),
        ("max(1d6)", 1, "max takes 2 arguments, not 1"),
        ("max(1d6, 2", 11, "to close max( at the 1st character"),
        ("(7/2)d6", 1, "the number of dice must be a whole number"),
        ("2d(1d6/2)", 1, "the number of sides must be a whole number"),
        ("2^2000", 2, "an exponent can be at most 1,000"),
        ("(1d6-3)^0.5", 8, "not whole needs a base that cannot be negative"),
        ("(1d6!)^11", 7, "a base that can explode can be raised to a power of at most 10"),
        ("999999999*" * 34 + "1", 1, "this total can be far too large"),
        ("(1d3-2)^-1", 8, "the base of a negative power can be zero"),
        ("7 % (1d3-1)", 3, "the divisor can be zero"),
        ("1d6 /* open", 5, "this '/*' comment is never closed"),
        ("2d6[fire", 4, "this '[' label is never closed"),
        ("(2d6)[fire]", 6, "a [label] follows dice, a group or a number"),
        ("4dF.3", 4, "a Fate die is dF, dF.2 (the same) or dF.1"),
        ("{1d6, 1d8}f<2", 11, "a group takes keep/drop"),
        ("{4d6-3d8}k4", 1, "keep or drop in a group of one expression acts on its dice, so the expression may only "
                           "add dice together"),
        ("{3d6*2}>3", 1, "counting successes in a group of one expression acts on its dice"),
        ("{4d6kh3+3d8}k4", 2, "kept, dropped or counted by the group"),
        ("1/(1d6-1)", 2, "the divisor can be zero"),
        ("5/0", 2, "the divisor is zero"),
        ("(1d6-4)d6", 1, "the number of dice can be negative"),
        ("1d0", 1, "at least 1 side"),
        ("2d6mi5ma3", 7, "mi5 is above ma3"),
        ("1d20oe!", 7, "cannot both explode and be open-ended"),
        ("3d6!!!", 6, "cannot be mixed"),
        ("1d%!", 4, None),
        ("4d6!kh3", 0, None),
        ("1d20ro", 0, None),
        ("4d6kh3kl1", 0, None),
    ],
)
def test_errors_say_their_place_and_keep_the_column(text, column, words):
    if words is None:  # valid
        parse(text)
        return
    with pytest.raises(DiceError) as info:
        parse(text)
    assert info.value.column == column
    # the place in words (the API's column places the page's caret); past the end the words say so
    said = str(info.value)
    assert said.startswith(f"at {place(column)}, ") if column <= len(text) else "found the end of the expression" in said
    assert words in said


def test_empty_expression():
    with pytest.raises(DiceSyntaxError, match="empty"):
        parse("   ")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("5001d6", "at most 5,000 dice in one roll"),
        ("3000d6+3000d6", "at most 5,000 dice in one roll"),
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

numbers = st.one_of(st.integers(min_value=0, max_value=50),
                    st.integers(1, 999).map(lambda k: Fraction(k, 100))).map(Number)
comparisons = st.sampled_from(["=", "<>", "<", "<=", ">", ">="])
conditions = st.builds(Condition, comparisons, st.integers(min_value=-3, max_value=30))
some_conditions = st.lists(conditions, max_size=2).map(tuple)
KEEP_ORDER = ["kh", "kl", "dh", "dl"]
keeps = st.lists(st.builds(Keep, st.sampled_from(KEEP_ORDER), st.integers(0, 9)), max_size=3,
                 unique_by=lambda k: k.mode).map(lambda ks: tuple(sorted(ks, key=lambda k: KEEP_ORDER.index(k.mode))))
labels = st.none() | st.text(alphabet="abc XYZ", min_size=1, max_size=6).map(str.strip).filter(bool)


@st.composite
def dice_term(draw, counts, sides_expr):
    success = draw(st.none() | conditions)
    return Dice(
        count=draw(counts),
        sides=draw(st.one_of(st.integers(1, 100).map(Number), st.sampled_from(["%", "F", "F.1"]), sides_expr)),
        reroll=draw(st.none() | st.builds(Reroll, st.booleans(), some_conditions)),
        explode=draw(st.none() | st.builds(Explode, st.sampled_from(["!", "!!", "!p", "!!p"]), some_conditions)),
        minimum=draw(st.none() | st.integers(-2, 9)),
        maximum=draw(st.none() | st.integers(-2, 9)),
        unique=draw(st.none() | st.builds(Reroll, st.booleans(), some_conditions)),
        keep=draw(keeps),
        success=success,
        failure=draw(st.none() | conditions) if success else None,
        critical_success=draw(st.none() | some_conditions),
        critical_failure=draw(st.none() | some_conditions),
        sort=draw(st.none() | st.sampled_from(["a", "d"])),
        label=draw(labels),
    )


def dice(counts, sides_expr):
    return dice_term(counts, sides_expr)


def open_dice(counts):
    return st.builds(Dice, count=counts, sides=st.integers(2, 100).map(Number),
                     open_ended=st.builds(OpenEnded, st.sampled_from(["both", "low", "high"]), st.integers(1, 9)))


@st.composite
def group(draw, inner):
    items = tuple(draw(st.lists(inner, min_size=1, max_size=3)))
    success = draw(st.none() | conditions)
    return Group(items, draw(keeps), success, draw(st.none() | conditions) if success else None,
                 draw(st.none() | st.sampled_from(["a", "d"])), draw(labels))


def functions(inner):
    return st.one_of(st.builds(lambda name, a: Function(name, (a,)), st.sampled_from(["abs", "floor", "ceil", "round",
                                                                                   "sign", "sqrt", "log", "sin"]), inner),
                     st.builds(lambda name, a, b: Function(name, (a, b)), st.sampled_from(["max", "min", "pow"]),
                               inner, inner))


def trees():
    def extend(inner):
        parens = inner.map(Parens)
        operand = st.one_of(numbers, parens, dice(st.one_of(numbers, parens, functions(inner)), parens),
                            open_dice(numbers), group(inner), functions(inner))
        unary = st.deferred(lambda: st.one_of(operand, power, unary.map(Negate)))
        power = st.builds(lambda base, exponent: Chain(base, (("^", exponent),)), operand, unary)
        product = st.one_of(unary, st.builds(Chain, unary, st.lists(st.tuples(st.sampled_from("*/%"), unary),
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
