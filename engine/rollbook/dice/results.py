"""The result tree of one roll: every die's faces and fate, the total, a readable breakdown.

The breakdown marks a dropped die ``~~2~~``, a rerolled face ``1↻5`` (rolled again: the 1 is not
counted), an exploding die ``6!``, a counted success ``**9**``, a face that counts another number
``6→5`` (clamped by ``mi``/``ma``, or a penetrating die's extra roll, one less than it showed), a
die of a matching set ``3≡`` and an open-ended chain ``(20 + 14)`` / ``(1 - 20 - 5)``. Plain dice keep only their faces; the per-die records for
``dice``/``to_json`` are built when asked for, which keeps rolling fast.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Union

from rollbook.dice.notation import canonical, dice_text, group_modifiers_text, label_text, number_text
from rollbook.dice.tree import Dice, Expression, Group, Value


@dataclass(slots=True)
class Die:
    """One die as rolled. ``value`` is what it counts for; ``rolls`` every face it showed."""

    sides: int | str
    value: int
    rolls: list[int]
    parts: list[int] | None = None  # a chain's signed parts, e.g. [1, -20, -5]; None for one roll
    rerolled: list[int] = field(default_factory=list)  # faces rerolled away, in order
    clamped_from: int | None = None  # the face before mi/ma changed it
    exploded: bool = False  # '!': this die added another
    added: bool = False  # '!': this die was added by an explosion
    penalty: int = 0  # '!p': an extra roll counts this much less than it showed (a compound die: its parts after the first)
    kept: bool = True
    success: bool | None = None
    failure: bool = False  # counted against the successes (f<3)
    critical: str | None = None  # cs/cf: "success" or "failure", marked only
    matched: bool = False  # m/mt: one of a set of dice showing the same face
    percentile: list[tuple[int, int]] | None = None  # d%: (tens, units) of each roll, 00+0 = 100

    def text(self, alone: bool = False) -> str:
        """This die in a breakdown; a chain is parenthesised unless it is the term's only die."""
        if self.parts is not None and len(self.parts) > 1:
            later = (f" + {p + self.penalty}→{p}" if self.penalty else f" - {-p}" if p < 0 else f" + {p}"
                     for p in self.parts[1:])
            body = str(self.parts[0]) + "".join(later)
            body = body if alone else f"({body})"
        else:
            shown = [self.clamped_from] if self.clamped_from is not None else []
            shown += [self.value + self.penalty] if self.penalty and self.parts is None else []
            body = "".join(f"{face}→" for face in shown) + str(self.value)
        if self.exploded:
            body += "!"
        if self.critical:  # rpg-dice-roller's marks: 20** and 1__
            body += "**" if self.critical == "success" else "__"
        if self.matched:
            body += "≡"
        if self.rerolled:  # each face rolled again, then the one it ended on
            body = "".join(f"{r}↻" for r in self.rerolled) + body
        if self.success:
            body = f"**{body}**"
        elif self.failure:
            body = f"_{body}_"
        if not self.kept:
            body = f"~~{body}~~"
        return body

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"sides": self.sides, "value": self.value, "rolls": list(self.rolls),
                               "kept": self.kept}
        if self.parts is not None:
            out["chain"] = list(self.parts)
        if self.rerolled:
            out["rerolled"] = list(self.rerolled)
        if self.clamped_from is not None:
            out["clamped_from"] = self.clamped_from
        if self.exploded:
            out["exploded"] = True
        if self.added:
            out["added"] = True
        if self.penalty:
            out["penalty"] = self.penalty
        if self.success is not None:
            out["success"] = self.success
        if self.failure:
            out["failure"] = True
        if self.critical:
            out["critical"] = self.critical
        if self.matched:
            out["matched"] = True
        if self.percentile is not None:
            out["percentile"] = [{"tens": t, "units": u} for t, u in self.percentile]
        return out


class DiceResult:
    """A rolled ``NdS`` term. Plain dice store faces and kept flags only (the fast path)."""

    __slots__ = ("node", "sides", "_faces", "_kept", "_dice", "total", "computed")

    def __init__(self, node: Dice, sides: int | str, total: Value, *, faces: list[int] | None = None,
                 kept: list[bool] | None = None, dice: list[Die] | None = None,
                 computed: tuple[ResultNode | None, ResultNode | None] | None = None) -> None:
        self.node = node
        self.sides = sides
        self.total = total
        self._faces = faces
        self._kept = kept
        self._dice = dice
        self.computed = computed  # the rolled count and sides, when they are expressions

    @property
    def dice(self) -> list[Die]:
        if self._dice is None:
            faces = self._faces or []
            kept = self._kept or [True] * len(faces)
            success = self.node.success
            self._dice = [Die(self.sides, f, [f], kept=k, success=(success.holds(f) if success and k else None))
                          for f, k in zip(faces, kept)]
        return self._dice

    def text(self) -> str:
        if self.computed is not None:
            count, sides = (None if r is None else result_text(r) for r in self.computed)
            term = dice_text(self.node, count, sides)
        else:
            term = term_text(self.node)
        if self._dice is None:  # plain dice: straight from the faces
            faces = self._faces or []
            success = self.node.success
            kept = self._kept
            if success is None and kept is None:
                return f"{term} ({', '.join(map(str, faces))})"
            shown = []
            for i, f in enumerate(faces):
                t = str(f)
                if kept is not None and not kept[i]:
                    t = f"~~{t}~~"
                elif success is not None and success.holds(f):
                    t = f"**{t}**"
                shown.append(t)
            return f"{term} ({', '.join(shown)})"
        dice = self._dice
        return f"{term} ({', '.join(d.text(len(dice) == 1) for d in dice)})"


_TERM_TEXT: dict[int, tuple[Dice, str]] = {}


def term_text(node: Dice) -> str:
    """``dice_text`` of a term, remembered (by identity: parsed trees are cached and reused)."""
    hit = _TERM_TEXT.get(id(node))
    if hit is not None and hit[0] is node:
        return hit[1]
    if len(_TERM_TEXT) > 2048:
        _TERM_TEXT.clear()
    text = dice_text(node)
    _TERM_TEXT[id(node)] = (node, text)
    return text


class GroupResult:
    __slots__ = ("node", "items", "kept", "success", "total", "failed")

    def __init__(self, node: Group, items: list[ResultNode], kept: list[bool], success: list[bool | None],
                 total: Value, failed: list[bool]) -> None:
        self.node, self.items, self.kept, self.success, self.total = node, items, kept, success, total
        self.failed = failed

    def text(self) -> str:
        parts = []
        for item, kept, ok, failed in zip(self.items, self.kept, self.success, self.failed):
            t = result_text(item)
            if ok:
                t = f"**{t}**"
            elif failed:
                t = f"_{t}_"
            parts.append(t if kept else f"~~{t}~~")
        return "{" + ", ".join(parts) + "}" + group_modifiers_text(self.node)


class ValueResult:
    """A constant, or an arithmetic node or function: its children's results and its own total."""

    __slots__ = ("kind", "parts", "ops", "total", "label")

    def __init__(self, kind: str, total: Value, parts: tuple[ResultNode, ...] = (), ops: tuple[str, ...] = (),
                 label: str | None = None) -> None:
        self.kind, self.total, self.parts, self.ops, self.label = kind, total, parts, ops, label

    def text(self) -> str:
        if self.kind == "number":
            return number_text(self.total) + (label_text(self.label) if self.label else "")
        if self.kind == "function":
            return f"{self.ops[0]}(" + ", ".join(result_text(p) for p in self.parts) + ")"
        if self.kind == "negate":
            return "-" + result_text(self.parts[0])
        if self.kind == "parens":
            return f"({result_text(self.parts[0])})"
        out = [result_text(self.parts[0])]
        for op, part in zip(self.ops, self.parts[1:]):
            out.append(f" {op} {result_text(part)}")
        return "".join(out)


ResultNode = Union[DiceResult, GroupResult, ValueResult]


def result_text(node: ResultNode) -> str:
    return node.text()


def walk_dice(node: ResultNode) -> list[DiceResult]:
    """Every dice term, each followed by the dice of its computed count and sides."""
    found: list[DiceResult] = []
    stack: list[Any] = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, DiceResult):
            found.append(n)
            if n.computed is not None:
                stack.extend(reversed([r for r in n.computed if r is not None]))
        elif isinstance(n, GroupResult):
            stack.extend(reversed(n.items))
        else:
            stack.extend(reversed(n.parts))
    return found


def json_number(v: Value) -> int | float:
    return v if isinstance(v, int) else float(v)


class RollResult:
    """One roll of a whole expression."""

    __slots__ = ("tree", "root", "total", "_text")

    def __init__(self, tree: Expression, root: ResultNode) -> None:
        self.tree = tree
        self.root = root
        self.total = root.total
        self._text: str | None = None

    @property
    def expression(self) -> str:
        return canonical(self.tree)

    @property
    def label(self) -> str | None:
        return self.tree.label

    @property
    def text(self) -> str:
        """The breakdown: ``4d6kh3 (6, 5, ~~2~~, 4) = 15``."""
        if self._text is None:
            body = f"{result_text(self.root)} = {number_text(self.total)}"
            self._text = f"{self.tree.label}: {body}" if self.tree.label else body
        return self._text

    @property
    def dice(self) -> list[dict[str, Any]]:
        """Per term: its notation and each die's record."""
        return [{"term": dice_text(r.node), "total": r.total, "dice": [d.to_json() for d in r.dice]}
                | ({"label": r.node.label} if r.node.label else {})
                for r in walk_dice(self.root)]

    def to_json(self) -> dict[str, Any]:
        out = {"expression": self.expression, "total": json_number(self.total), "text": self.text,
               "dice": self.dice, "label": self.label}
        if not isinstance(self.total, int):  # a fraction or an irrational: the exact text beside the number
            out["total_exact"] = number_text(self.total)
        return out

    def __repr__(self) -> str:
        return f"<RollResult {self.text}>"
