"""The rulings: well-formed, unique, and every option they name is a real engine option."""

from __future__ import annotations

import dataclasses
import re
import typing

import pytest

from rollbook import commands, rulings
from rollbook.errors import RollbookError

REQUIRED_IDS = {
    "opencore-sdac-name", "opencore-composite-rounding", "opencore-com-at-cha-50", "opencore-com-limits",
    "opencore-hp-minimum", "opencore-dex-modifier", "opencore-save-direction", "opencore-willpower-composite",
    "opencore-perception-direction", "opencore-crit-overlap-at-zero", "opencore-crit-clamping",
    "opencore-weapon-critical-table", "opencore-attack-ties", "opencore-double-fumble",
    "opencore-death-threshold", "opencore-fortitude-score", "codex-total-success-rank",
    "codex-total-failure-rank", "codex-automatic-failure", "codex-take-10-plus-open-ended",
    "cyno-initiative-die", "cyno-weaponry-skill-band", "cyno-critical-needs-hit", "cyno-reflex-steps",
    "cyno-level-gap", "cyno-damage-rounding", "cyno-static-damage",
}


def test_the_starter_rulings_are_all_there():
    assert REQUIRED_IDS <= {r.id for r in rulings.all_rulings()}


def test_rulings_are_complete_and_grouped_by_rule_set():
    found = rulings.all_rulings()
    order = [r.rule_set for r in found]
    assert order == sorted(order, key=["opencore", "codex", "cyno"].index)
    assert len({r.id for r in found}) == len(found)
    for ruling in found:
        assert re.fullmatch(r"(opencore|codex|cyno)(-[a-z0-9]+)+", ruling.id)
        assert ruling.id.startswith(ruling.rule_set + "-")
        for name in ("title", "rule", "question", "reading", "why"):
            assert getattr(ruling, name).strip(), (ruling.id, name)
        with pytest.raises(dataclasses.FrozenInstanceError):
            ruling.title = "x"  # type: ignore[misc]


def test_every_option_is_a_command_parameter_with_that_choice():
    params: dict[str, set] = {}
    for cmd in commands.load_all().values():
        for p in cmd.params:
            params.setdefault(p.name, set()).update(p.choices or (True,) if p.kind is bool else p.choices or ())
    for ruling in rulings.all_rulings():
        if ruling.option is None:
            continue
        name, _, value = ruling.option.partition("=")
        assert name in params, ruling.id
        assert (True if value == "true" else value) in params[name], ruling.id


def test_get_unknown_ruling():
    assert rulings.get("opencore-composite-rounding").rule_set == "opencore"
    with pytest.raises(RollbookError, match="there is no ruling 'opencore-nope'"):
        rulings.get("opencore-nope")


def test_ruling_fields_match_the_contract():
    names = [f.name for f in dataclasses.fields(rulings.Ruling)]
    assert names == ["id", "title", "rule_set", "rule", "question", "reading", "why", "alternative", "option"]
    hints = typing.get_type_hints(rulings.Ruling)
    assert hints["alternative"] == str | None and hints["option"] == str | None


def test_the_death_threshold_ruling_says_what_the_engine_does():
    """The engine bleeds only below 0 HP, as the seed says ("reduced to negative HP's")."""
    from rollbook.systems import opencore

    assert not opencore.bleeding(0, 32) and opencore.bleeding(-1, 32)
    reading = rulings.get("opencore-death-threshold").reading
    assert "Below 0 HP" in reading and "0 HP or below a character is unconscious and loses" not in reading


def test_the_rulings_command_names_every_ruling_by_its_title():
    from rollbook import api
    answer = api.call({"command": "rulings", "args": {}})["result"]["rulings"]
    assert [r["id"] for r in answer] == [r.id for r in rulings.all_rulings()]
    assert {"id": "opencore-death-threshold", "rule_set": "opencore", "title": rulings.get("opencore-death-threshold").title} in answer
