"""The syntax tree of a dice expression: what was written, before any die is rolled.

Nodes are frozen dataclasses, so two parses of the same text compare equal (the print/parse
round trip is tested on that). Sums and products are flat chains rather than nested binary
nodes: a long ``1+1+1+...`` is then a loop, never a deep recursion.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, Union

Comparison = Literal["=", "<", "<=", ">", ">="]
KeepMode = Literal["kh", "kl", "dh", "dl"]
ExplodeKind = Literal["!", "!!", "!p"]
OpenEnds = Literal["both", "low", "high"]


@dataclass(frozen=True)
class Condition:
    """A test on one value: ``=1``, ``<3``, ``>=8``."""

    op: Comparison
    value: int

    def holds(self, x: int) -> bool:
        v = self.value
        op = self.op
        if op == "=":
            return x == v
        if op == ">=":
            return x >= v
        if op == "<=":
            return x <= v
        if op == ">":
            return x > v
        return x < v


@dataclass(frozen=True)
class Reroll:
    """``r`` rerolls while any condition holds; ``ro`` rerolls once."""

    once: bool
    conditions: tuple[Condition, ...]


@dataclass(frozen=True)
class Explode:
    """``!`` adds a die per exploding face (listed separately), ``!!`` compounds them into one
    die, ``!p`` penetrates (each extra die counts one less). No conditions: the highest face."""

    kind: ExplodeKind
    conditions: tuple[Condition, ...]


@dataclass(frozen=True)
class OpenEnded:
    """``oe``/``oel``/``oeh`` with a width: how many faces at each end open the roll.

    ``d20oe`` has width 1 (20 adds, 1 subtracts); ``d100oe5`` is the Rolemaster form (01-05, 96-100)."""

    ends: OpenEnds
    width: int


@dataclass(frozen=True)
class Keep:
    """Keep or drop ``count`` dice: kh/kl keep the highest/lowest, dh/dl drop them."""

    mode: KeepMode
    count: int


@dataclass(frozen=True)
class Number:
    value: int
    column: int = field(default=0, compare=False)  # 1-based, for error messages


@dataclass(frozen=True)
class Dice:
    """``NdS`` with its modifiers, stored in the fixed order in which they apply."""

    count: Node
    sides: Node | Literal["%", "F"]
    reroll: Reroll | None = None
    explode: Explode | None = None
    open_ended: OpenEnded | None = None
    minimum: int | None = None  # ``mi``: each face below it counts as it
    maximum: int | None = None  # ``ma``: each face above it counts as it
    keep: Keep | None = None
    success: Condition | None = None
    column: int = field(default=0, compare=False)  # 1-based, for error messages
    # where each modifier was written ("reroll", "explode", ...), for error messages
    modifier_columns: tuple[tuple[str, int], ...] = field(default=(), compare=False)

    def column_of(self, modifier: str) -> int:
        return dict(self.modifier_columns).get(modifier, self.column)


@dataclass(frozen=True)
class Group:
    """``{4d6, 2d10}kh1``: several expressions, summed, kept or counted like dice."""

    items: tuple[Node, ...]
    keep: Keep | None = None
    success: Condition | None = None
    column: int = field(default=0, compare=False)  # 1-based, for error messages


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
    """``a + b - c`` or ``a * b / c``: one precedence level, evaluated left to right.

    ``rest`` pairs each operator with its operand; ``columns`` holds the operators' columns."""

    first: Node
    rest: tuple[tuple[str, Node], ...]
    columns: tuple[int, ...] = field(default=(), compare=False)


@dataclass(frozen=True)
class Expression:
    """A whole roll: the arithmetic and an optional label (``1d20+5 # Climb``)."""

    root: Node
    label: str | None = None


Node = Union[Number, Dice, Group, Negate, Parens, Chain]
