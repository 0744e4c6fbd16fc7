"""Dice notation to syntax tree: a hand-written recursive-descent parser.

It reads characters directly (no token list), so every error knows its column and says what
was expected there ("column 3: expected a number of sides after 'd'"). Nesting is capped
before Python's own recursion limit can be reached, so no input raises RecursionError.
The grammar is documented, in EBNF, in docs/dice-notation.md.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Callable, Literal, Mapping

from rollbook.dice import limits
from rollbook.dice.errors import DiceError, DiceSyntaxError
from rollbook.dice.tree import (
    Chain,
    Comparison,
    Condition,
    Dice,
    Explode,
    Expression,
    Group,
    Keep,
    KeepMode,
    Negate,
    Node,
    Number,
    OpenEnded,
    Parens,
    Reroll,
)

MAX_NUMBER_DIGITS = 9  # constants up to 999,999,999: enough for any table, small enough to stay fast
COMPARISONS: tuple[Comparison, ...] = (">=", "<=", ">", "<", "=")  # longest first
KEEP_WORDS: dict[str, KeepMode] = {"kh": "kh", "kl": "kl", "dh": "dh", "dl": "dl", "k": "kh", "d": "dl"}
OPEN_WORDS = {"oe": "both", "oel": "low", "oeh": "high"}
MODIFIER_WORDS = ("oel", "oeh", "oe", "kh", "kl", "dh", "dl", "ro", "mi", "ma", "k", "d", "r")  # longest first
EXAMPLE = "e.g. 1d20+5, 4d6kh3 or 2d6+1d4"


def _describe(ch: str) -> str:
    return "the end of the expression" if ch == "" else repr(ch)


Values = tuple[tuple[str, int], ...]  # named values (``STR``) and what they stand for, names upper case


class _Parser:
    def __init__(self, text: str, values: Values = ()) -> None:
        self.text = text
        self.pos = 0
        self.depth = 0
        self.values = dict(values)

    # --- characters -------------------------------------------------------------------------
    def skip(self) -> None:
        text, pos = self.text, self.pos
        while pos < len(text) and text[pos].isspace():
            pos += 1
        self.pos = pos

    def peek(self) -> str:
        self.skip()
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def column(self) -> int:
        self.skip()
        return self.pos + 1

    def error(self, message: str, column: int | None = None, hint: str | None = None) -> DiceSyntaxError:
        return DiceSyntaxError(message, column=column or self.column(), hint=hint)

    def word(self) -> str:
        """The modifier name at the cursor, consumed: the longest one that matches, so that
        ``d20oekh1`` reads ``oe`` then ``kh``. An unknown name is the whole run of letters."""
        self.skip()
        start = self.pos
        for name in MODIFIER_WORDS:
            if self.text[start:start + len(name)].lower() == name:
                self.pos = start + len(name)
                return name
        while self.pos < len(self.text) and self.text[self.pos].isascii() and self.text[self.pos].isalpha():
            self.pos += 1
        return self.text[start:self.pos].lower()

    def number(self, what: str) -> int:
        col = self.column()
        start = self.pos
        while self.pos < len(self.text) and self.text[self.pos] in "0123456789":
            self.pos += 1
        digits = self.text[start:self.pos]
        if not digits:
            raise self.error(f"expected {what}, found {_describe(self.peek())}", col)
        if len(digits) > MAX_NUMBER_DIGITS:
            raise limits.too_many("digits in a number", MAX_NUMBER_DIGITS, column=col)
        return int(digits)

    def letters(self) -> str:
        """The run of ASCII letters at the cursor, not consumed: ``STR`` in ``2d10+STR``."""
        self.skip()
        end = self.pos
        while end < len(self.text) and self.text[end].isascii() and self.text[end].isalpha():
            end += 1
        return self.text[self.pos:end]

    def name_value(self) -> tuple[int, int]:
        """``STR``: the value given for the name at the cursor, and its column."""
        col = self.column()
        name = self.letters()
        self.pos += len(name)
        upper = name.upper()
        value = self.values.get(upper)
        if value is None:
            raise self.error(f"{upper} has no value: pass --var {upper}=<score>", col,
                             hint=f'in JSON, "vars": {{"{upper}": <score>}}')
        return value, col

    def named_value(self) -> Node:
        """A name as an operand; a negative value is printed ``(-3)``, so the text reads back."""
        value, col = self.name_value()
        if value < 0:
            return Parens(Negate(Number(-value, col), col), col)
        return Number(value, col)

    def optional_number(self) -> int | None:
        return self.number("a number") if self.peek().isdigit() else None

    def enter(self, column: int) -> None:
        self.depth += 1
        if self.depth > limits.MAX_DEPTH:
            raise limits.too_many("levels of nesting (parentheses, groups, minus signs)", limits.MAX_DEPTH, column=column)

    # --- grammar ----------------------------------------------------------------------------
    def expression(self) -> Expression:
        if not self.text.strip():
            raise DiceSyntaxError("the expression is empty", hint=EXAMPLE)
        root = self.sum()
        label = None
        if self.peek() == "#":
            label = self.text[self.pos + 1:].strip() or None
            self.pos = len(self.text)
        if self.peek() != "":
            ch = self.peek()
            hint = "join the parts with + - * /" if (ch.isalnum() or ch in ("(", "{")) else None
            if ch == ")":
                raise self.error("this ')' closes no '('")
            raise self.error(f"unexpected {_describe(ch)}", hint=hint)
        return Expression(root, label)

    def sum(self, after: str | None = None) -> Node:
        return self.chain("+-", self.product, after)

    def product(self, after: str | None = None) -> Node:
        return self.chain("*/", self.unary, after)

    def chain(self, ops: str, operand: Callable[[str | None], Node], after: str | None) -> Node:
        first = operand(after)
        rest: list[tuple[str, Node]] = []
        columns: list[int] = []
        while self.peek() != "" and self.peek() in ops:
            columns.append(self.column())
            op = self.text[self.pos]
            self.pos += 1
            rest.append((op, operand(op)))
        return Chain(first, tuple(rest), tuple(columns)) if rest else first

    def unary(self, after: str | None = None) -> Node:
        if self.peek() == "-":
            col = self.column()
            self.enter(col)
            self.pos += 1
            node = Negate(self.unary("-"), col)
            self.depth -= 1
            return node
        return self.operand(after)

    def operand(self, after: str | None) -> Node:
        ch = self.peek()
        col = self.column()
        if ch.isdigit():
            count: Node = Number(self.number("a number"), col)
        elif ch == "(":
            count = self.parens()
        elif ch in ("d", "D") and reads_as_dice(self.letters()):
            return self.dice(Number(1, col), col)
        elif ch.isascii() and ch.isalpha():
            count = self.named_value()
        elif ch == "{":
            return self.group()
        else:
            where = f" after {after!r}" if after else ""
            hint = EXAMPLE if ch == "" or ch in "+*/)" else None
            if ch == "%":
                hint = "percentile dice are written d%"
            raise self.error(f"expected a number, dice or '('{where}, found {_describe(ch)}", hint=hint)
        if self.peek() in ("d", "D"):
            return self.dice(count, col)
        return count

    def parens(self) -> Node:
        col = self.column()
        self.enter(col)
        self.pos += 1
        inner = self.sum()
        if self.peek() != ")":
            raise self.error(f"expected ')' to close the '(' at column {col}, found {_describe(self.peek())}")
        self.pos += 1
        self.depth -= 1
        return Parens(inner, col)

    def dice(self, count: Node, col: int) -> Dice:
        self.skip()
        self.pos += 1  # the d
        ch = self.peek()
        sides: Node | Literal["%", "F"]
        if ch.isdigit():
            sides = Number(self.number("a number of sides"), self.column())
        elif ch == "%":
            self.pos += 1
            sides = "%"
        elif ch in ("F", "f"):
            self.pos += 1
            sides = "F"
        elif ch == "(":
            sides = self.parens()
        else:
            raise self.error(f"expected a number of sides after 'd', found {_describe(ch)}",
                             hint="e.g. d20, d% or dF")
        return self.dice_modifiers(Dice(count, sides, column=col))

    def condition(self, required_after: str | None) -> Condition | None:
        """``>=8``, ``<3``, ``=1`` or a bare face ``1``; None when absent and not required."""
        self.skip()
        col = self.column()
        for op in COMPARISONS:
            if self.text.startswith(op, self.pos):
                self.pos += len(op)
                return Condition(op, self.signed(f"a number after '{op}'"))
        if self.peek().isdigit():  # a bare face; negative ones need '=' (r=-1) so '3d6!-2' stays a sum
            return Condition("=", self.number("a face"))
        if required_after:
            raise self.error(f"expected a face or a comparison after {required_after!r}, found {_describe(self.peek())}",
                             col, hint=f"e.g. {required_after}1 or {required_after}<3")
        return None

    def signed(self, what: str) -> int:
        """A whole number, negative (Fate dice have negative faces) or named (``d100<=DEX``)."""
        if self.peek() == "-":
            self.pos += 1
            return -self.number(what)
        if self.peek().isascii() and self.peek().isalpha():
            return self.name_value()[0]
        return self.number(what)

    def dice_modifiers(self, dice: Dice) -> Dice:
        seen: dict[str, int] = {}
        fields: dict[str, object] = {}
        rerolls: list[Condition] = []
        explodes: list[Condition] = []

        def once(name: str, col: int) -> None:
            if name in seen:
                raise self.error(f"a second {name} modifier (the first is at column {seen[name]})", col,
                                 hint="give each kind of modifier once")
            seen[name] = col

        while True:
            ch = self.peek()
            col = self.column()
            if ch.isalpha():
                word = self.word()
                if word in KEEP_WORDS:
                    once("keep or drop", col)
                    fields["keep"] = Keep(KEEP_WORDS[word], self.keep_count())
                elif word in ("r", "ro"):
                    if "reroll" in seen and (word == "ro") != fields["reroll_once"]:
                        raise self.error("'r' and 'ro' cannot be mixed on one die", col)
                    seen.setdefault("reroll", col)
                    fields["reroll_once"] = word == "ro"
                    rerolls.append(self.condition(word))  # type: ignore[arg-type]
                elif word in OPEN_WORDS:
                    once("open-ended", col)
                    fields["open_ended"] = OpenEnded(OPEN_WORDS[word], self.optional_number() or 1)  # type: ignore[arg-type]
                elif word in ("mi", "ma"):
                    once("mi" if word == "mi" else "ma", col)
                    fields["minimum" if word == "mi" else "maximum"] = self.signed(f"a number after {word!r}")
                else:
                    raise self.error(f"unknown modifier {word!r}", col,
                                     hint="modifiers are kh kl dh dl k d r ro ! !! !p oe oel oeh mi ma and >= > <= < =")
            elif ch == "!":
                kind = "!"
                self.pos += 1
                if self.text.startswith("!", self.pos):
                    kind, self.pos = "!!", self.pos + 1
                elif self.text[self.pos:self.pos + 1] in ("p", "P"):
                    kind, self.pos = "!p", self.pos + 1
                if "explode" in seen and fields["explode_kind"] != kind:
                    raise self.error(f"{kind!r} cannot be mixed with {fields['explode_kind']!r} on one die", col)
                seen.setdefault("explode", col)
                fields["explode_kind"] = kind
                cond = self.condition(None)
                if cond is not None:
                    explodes.append(cond)
            elif ch and ch in "<>=":
                once("success", col)
                fields["success"] = self.condition(None)
            else:
                break
        if "reroll" in seen:
            fields["reroll"] = Reroll(bool(fields.pop("reroll_once")), tuple(rerolls))
        if "explode" in seen:
            fields["explode"] = Explode(fields.pop("explode_kind"), tuple(explodes))  # type: ignore[arg-type]
        if "explode" in seen and "open-ended" in seen:
            raise self.error("a die cannot both explode and be open-ended", max(seen["explode"], seen["open-ended"]),
                             hint="use one of ! !! !p oe")
        return Dice(dice.count, dice.sides, column=dice.column, modifier_columns=tuple(seen.items()),
                    **fields)  # type: ignore[arg-type]

    def keep_count(self) -> int:
        """The count after kh/kl/dh/dl/k/d: one when left out."""
        n = self.optional_number()
        return 1 if n is None else n

    def group(self) -> Group:
        col = self.column()
        self.enter(col)
        self.pos += 1
        items = [self.sum()]
        while self.peek() == ",":
            self.pos += 1
            items.append(self.sum())
            if len(items) > limits.MAX_GROUP_ITEMS:
                raise limits.too_many("expressions in one group", limits.MAX_GROUP_ITEMS, column=col)
        if self.peek() != "}":
            raise self.error(f"expected ',' or '}}' to close the '{{' at column {col}, found {_describe(self.peek())}")
        self.pos += 1
        self.depth -= 1
        keep: Keep | None = None
        success: Condition | None = None
        while True:
            ch = self.peek()
            mcol = self.column()
            if ch.isalpha():
                word = self.word()
                if word not in KEEP_WORDS:
                    raise self.error(f"a group takes only keep/drop and success modifiers, not {word!r}", mcol)
                if keep is not None:
                    raise self.error("a second keep or drop modifier on this group", mcol)
                keep = Keep(KEEP_WORDS[word], self.keep_count())  # type: ignore[arg-type]
            elif ch and ch in "<>=":
                if success is not None:
                    raise self.error("a second success condition on this group", mcol)
                success = self.condition(None)
            else:
                break
        return Group(tuple(items), keep, success, col)


def reads_as_dice(word: str) -> bool:
    """Where an operand starts, ``d`` alone (``d20``, ``d%``) or ``dF…`` is a die; any other
    run of letters is a name, so ``DEX`` is never ``d`` + ``EX``."""
    return word.lower() == "d" or word.lower().startswith("df")


MAX_NAME_CHARS = 20


def named_values(given: Mapping[str, int] | None) -> Values:
    """Check the values given for names (``{"STR": 3}``) and put them in the parser's form:
    upper-case names, sorted, so that ``str`` and ``STR`` are one name and one cache entry."""
    out: dict[str, int] = {}
    for name, value in (given or {}).items():
        upper = name.upper() if isinstance(name, str) else ""
        if not (upper.isascii() and upper.isalpha()) or len(upper) > MAX_NAME_CHARS:
            raise DiceError(f"a name is 1 to {MAX_NAME_CHARS} letters (A to Z), not {name!r}", hint="e.g. STR=3")
        if reads_as_dice(upper):
            raise DiceError(f"{name!r} would read as dice (d, dF), so it cannot be a name", hint="e.g. DEX=12")
        if isinstance(value, bool) or not isinstance(value, int):
            raise DiceError(f"the value of {upper} must be a whole number, not {value!r}", hint=f"e.g. {upper}=3")
        if len(str(abs(value))) > MAX_NUMBER_DIGITS:
            raise limits.too_many("digits in a number", MAX_NUMBER_DIGITS, hint=f"the value of {upper}")
        if upper in out:
            raise DiceError(f"{upper} is given twice", hint="give each name one value")
        out[upper] = value
    return tuple(sorted(out.items()))


@lru_cache(maxsize=512)
def parse_tree(text: str, values: Values = ()) -> Expression:
    """Parse without semantic checks (the cache makes repeated rolls of one expression cheap).

    ``values`` gives each name its number (``(("STR", 3),)``): names are read case-insensitively
    and become plain numbers in the tree, so everything after the parser sees only numbers."""
    if len(text) > limits.MAX_CHARS:
        raise limits.too_many("characters in an expression", limits.MAX_CHARS)
    return _Parser(text, values).expression()
