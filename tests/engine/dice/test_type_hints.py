"""Type hints everywhere in the dice package: every parameter and every return of every function
and method it defines (mypy checks them: .venv/bin/python -m mypy engine/rollbook/dice)."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import rollbook.dice


def defined_functions():
    for info in pkgutil.iter_modules(rollbook.dice.__path__):
        module = importlib.import_module(f"rollbook.dice.{info.name}")
        for name, value in vars(module).items():
            if getattr(value, "__module__", None) != module.__name__:
                continue
            if inspect.isclass(value):
                for attr, member in vars(value).items():
                    member = getattr(member, "__func__", getattr(member, "fget", getattr(member, "func", member)))
                    if inspect.isfunction(member):
                        yield module, f"{module.__name__}.{name}.{attr}", member
            elif inspect.isfunction(value) or hasattr(value, "__wrapped__"):
                yield module, f"{module.__name__}.{name}", inspect.unwrap(value)


def test_every_parameter_and_return_is_annotated():
    missing = []
    seen = 0
    for module, where, fn in defined_functions():
        if fn.__name__ == "<lambda>" or fn.__code__.co_filename != module.__file__:
            continue  # a lambda, or a method a dataclass generated
        seen += 1
        signature = inspect.signature(fn)
        for param in signature.parameters.values():
            if param.name not in ("self", "cls") and param.annotation is inspect.Parameter.empty:
                missing.append(f"{where}({param.name})")
        if signature.return_annotation is inspect.Signature.empty:
            missing.append(f"{where} (return)")
    assert seen > 80 and not missing, missing
