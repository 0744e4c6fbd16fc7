"""The syntax tree of a dice expression: what was written, before any die is rolled.

Nodes are frozen dataclasses, so two parses of the same text compare equal (the print/parse
round trip is tested on that). Sums and products are flat chains rather than nested binary
nodes: a long ``1+1+1+...`` is then a loop, never a deep recursion.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Literal, Union

Comparison = Literal["=", "<>", "<", "<=", ">", ">="]
KeepMode = Literal["kh", "kl", "dh", "dl"]
ExplodeKind = Literal["!", "!!", "!p", "!!p"]
OpenEnds = Literal["both", "low", "high"]
SortOrder = Literal["a", "d"]
# d% (percentile), dF (Fate: two faces each of -1, 0, +1), dF.1 (one -1, four blanks, one +1)
SpecialSides = Literal["%", "F", "F.1"]
# What a total can be: whole numbers, exact fractions ('/' divides exactly, 1.45 is 29/20), and
# floats only from the functions whose answers are irrational (sqrt, log, exp, sin, cos, tan).
Value = Union[int, Fraction, float]


@dataclass(frozen=True)
class Condition:
    """A test on one value: ``=1``, ``<3``, ``>=8``."""

    op: Comparison
    value: int

    def holds(self, x: Value) -> bool:
        v = self.value
        op = self.op
        if op == "=":
            return x == v
        if op == "<>":
            return x != v
        if op == ">=":
            return x >= v
        if op == "<=":
            return x <= v
        if op == ">":
            return x > v
        return x < v


@dataclass(frozen=True)
class Reroll:
    """``r`` rerolls while any condition holds; ``ro`` rerolls once. No conditions (a bare ``r``):
    the lowest face. Also ``u``/``uo``: reroll a die showing a face an earlier die shows (no
    conditions: any face; with some, only duplicates that meet one)."""

    once: bool
    conditions: tuple[Condition, ...]


@dataclass(frozen=True)
class Explode:
    """``!`` adds a die per exploding face (listed separately), ``!!`` compounds them into one
    die; ``!p`` and ``!!p`` penetrate (each extra roll counts one less), as separate dice or
    compounded. No conditions: the highest face."""

    kind: ExplodeKind
    conditions: tuple[Condition, ...]


@dataclass(frozen=True)
class OpenEnded:
    """``oe``/``oel``/``oeh`` with a width: how many faces at each end open the roll.

    ``d20oe`` has width 1 (20 adds, 1 subtracts); ``d100oe5`` is the Rolemaster form (01-05, 96-100)."""

    ends: OpenEnds
    width: int


@dataclass(frozen=True)
class Match:
    """Roll20's ``m``/``mt``: dice showing the same face are a set (``size`` of them at least,
    two unless given; with a ``condition``, only faces that meet it). ``m`` marks them, ``mt``
    counts the sets instead of adding the dice."""

    total: bool
    size: int = 2
    condition: Condition | None = None


@dataclass(frozen=True)
class Keep:
    """Keep or drop ``count`` dice: kh/kl keep the highest/lowest, dh/dl drop them."""

    mode: KeepMode
    count: int


@dataclass(frozen=True)
class Number:
    value: int | Fraction  # a decimal (1.45) is read exactly, as a fraction
    column: int = field(default=0, compare=False)  # 1-based, for error messages
    label: str | None = field(default=None, compare=False)  # ``5[bonus]``: shown, never counted


@dataclass(frozen=True)
class Function:
    """``floor(1d6/2)``, ``max(1d6, 1d8)``: one of the math functions (see functions.py)."""

    name: str
    args: tuple[Node, ...]
    column: int = field(default=0, compare=False)  # 1-based, for error messages


@dataclass(frozen=True)
class Dice:
    """``NdS`` with its modifiers, stored in the fixed order in which they apply."""

    count: Node
    sides: Node | SpecialSides
    reroll: Reroll | None = None
    explode: Explode | None = None
    open_ended: OpenEnded | None = None
    minimum: int | None = None  # ``mi``/``min``: each face below it counts as it
    maximum: int | None = None  # ``ma``/``max``: each face above it counts as it
    unique: Reroll | None = None  # ``u``/``uo``: reroll duplicates
    keep: tuple[Keep, ...] = ()  # each decides on the whole pool; a die stays if none drops it
    success: Condition | None = None
    failure: Condition | None = None  # ``f<3``: each failure counts -1 against the successes
    critical_success: tuple[Condition, ...] | None = None  # ``cs``: marked only; () is the top face
    critical_failure: tuple[Condition, ...] | None = None  # ``cf``: marked only; () is the lowest face
    sort: SortOrder | None = None  # ``s``/``sa``/``sd``: the dice are shown in order
    match: Match | None = None  # ``m``/``mt``: sets of equal faces, marked or counted
    label: str | None = field(default=None, compare=False)  # ``2d6[fire]``: shown, never counted
    column: int = field(default=0, compare=False)  # 1-based, for error messages
    # where each modifier was written ("reroll", "explode", ...), for error messages
    modifier_columns: tuple[tuple[str, int], ...] = field(default=(), compare=False)

    def column_of(self, modifier: str) -> int:
        return dict(self.modifier_columns).get(modifier, self.column)


@dataclass(frozen=True)
class Group:
    """``{4d6, 2d10}kh1``: several expressions, summed, kept or counted like dice."""

    items: tuple[Node, ...]
    keep: tuple[Keep, ...] = ()
    success: Condition | None = None
    failure: Condition | None = None
    sort: SortOrder | None = None
    label: str | None = field(default=None, compare=False)
    column: int = field(default=0, compare=False)  # 1-based, for error messages

    @property
    def pools_dice(self) -> bool:
        """``{4d6+3d8}k4``: one expression inside, so keep/drop and successes act on its dice
        (as on Roll20); with several, on the expressions' totals."""
        return len(self.items) == 1 and bool(self.keep or self.success)


@dataclass(frozen=True)
class Negate:
    operand: Node
    column: int = field(default=0, compare=False)  # 1-based, for error messages


@dataclass(frozen=True)
class Parens:
    inner: Node
    column: int = field(default=0, compare=False)  # 1-based, for error messages


@dataclass(frozen=True)
class Chain:
    """``a + b - c`` or ``a * b / c % d``: one precedence level, evaluated left to right; or
    ``a ^ b``, one power (right to left: ``b`` may itself be a power).

    ``rest`` pairs each operator with its operand; ``columns`` holds the operators' columns."""

    first: Node
    rest: tuple[tuple[str, Node], ...]
    columns: tuple[int, ...] = field(default=(), compare=False)


@dataclass(frozen=True)
class Expression:
    """A whole roll: the arithmetic and an optional label (``1d20+5 # Climb``)."""

    root: Node
    label: str | None = None


Node = Union[Number, Dice, Group, Negate, Parens, Chain, Function]
