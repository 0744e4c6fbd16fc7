"""The encounter tracker (tools/encounter/) in a real Chromium at phone size: a seeded OpenCore
fight of three rounds to a fallen combatant, step for step the engine's answers on CPython
(the kept encounter is compared whole), a reload in the middle, undo, edits by hand, export and
import, Cyno's strike, axe-core and tap targets."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Locator, Page, expect

from browserkit import ENGINE_TIMEOUT_MS, Visit, axe_violations, small_tap_targets
from kit.engine import engine
from kit.kept import put_kept, read_kept

pytestmark = [pytest.mark.browser, pytest.mark.cpython_only]

SEED = 7  # with these two, the Orc falls in round 3 (checked below on CPython)
BUCK = {"name": "Buck", "side": "players", "weapon": "Sword", "armor_name": "Chain Mail",
        "score": {"hp": 30, "con": 40, "dex": 80, "str": 76, "attack_skill": 60, "defense_skill": 40, "toughness": 5}}
ORC = {"name": "Orc", "side": "orcs", "weapon": "Large Club", "armor_name": None,
       "score": {"hp": 20, "con": 30, "dex": 40, "str": 70, "attack_skill": 40, "defense_skill": 20, "toughness": 0}}
LABELS = {"hp": "HP", "con": "CON", "dex": "DEX", "str": "STR", "attack_skill": "Attack skill",
          "defense_skill": "Defense skill", "toughness": "Toughness"}
CHARACTER = {"id": "c1", "name": "Kristine", "hp_roll": 60, "created": "2026-11-30T18:00:00.000Z",
             "scores": {"STR": 80, "DEX": 33, "AGL": 95, "CON": 46, "INT": 89, "PER": 95, "WIS": 84, "CHA": 68, "COM": 1}}
TAPPABLE = ("rollbook-encounter button, rollbook-encounter input, rollbook-encounter select, "
            "rollbook-encounter summary, rollbook-encounter a")


def added(encounter: dict[str, Any], who: dict[str, Any]) -> dict[str, Any]:
    args = {k: v for k, v in who.items() if v is not None}
    return engine("encounter add", encounter=encounter, **args)["encounter"]


def seeded_fight() -> tuple[list[Any], list[dict[str, Any]]]:
    """The fight on CPython, as the page plays it: Next, then the acting combatant attacks the
    other, until one falls; each rolling step takes the next seed. Returns the steps and the
    encounter after each step (the first: both combatants added, before initiative)."""
    enc = added(added(engine("encounter start", rules="opencore")["encounter"], BUCK), ORC)
    states, steps, seed = [enc], [], SEED
    while True:
        answer = engine("encounter next", encounter=enc, seed=seed)
        seed, enc = seed + 1, answer["encounter"]
        steps.append("next")
        states.append(enc)
        me = enc["order"][enc["turn"]]
        other = next(c for c in enc["order"] if c != me)
        answer = engine("encounter attack", encounter=enc, attacker=me, target=other, seed=seed)
        seed, enc = seed + 1, answer["encounter"]
        steps.append(("attack", me, other, seed - 1, answer))
        states.append(enc)
        if any(s["state"] != "conscious" for s in answer["status"]):
            return steps, states


def kept(page: Page) -> dict[str, Any]:
    return read_kept(page, {})


def steps_done(widget: Locator, n: int) -> None:
    """Wait until the page has kept n steps (Undo counts them)."""
    expect(widget.locator(".rollbook-encounter__undo")).to_have_text(f"Undo ({n})", timeout=ENGINE_TIMEOUT_MS)


def start(visit: Visit, query: str = "", rules: str = "opencore") -> Locator:
    """The encounter page opened (by `visit`: the `tab` fixture, or a page's own) and an encounter started."""
    widget = visit("tools/encounter/" + query).locator("rollbook-encounter")
    if rules != "opencore":
        widget.get_by_label("Rules").select_option(rules)
    widget.get_by_role("button", name="Start the encounter").click()
    expect(widget.get_by_role("heading", name="Before the first round")).to_be_visible(timeout=ENGINE_TIMEOUT_MS)
    return widget


def add(widget: Locator, who: dict[str, Any], steps: int) -> None:
    form = widget.locator(".rollbook-encounter__add")
    if not form.evaluate("(details) => details.open"):
        form.locator("summary").click()
    form.get_by_label("Name").fill(who["name"])
    form.get_by_label("Side").fill(who["side"])
    for name, value in who["score"].items():
        form.get_by_label(LABELS.get(name, name), exact=True).fill(str(value))
    if "weapon" in who:
        form.get_by_label("Weapon", exact=True).select_option(who["weapon"])
        form.get_by_label("Armor", exact=True).select_option(who["armor_name"] or "")
    form.get_by_role("button", name="Add to the encounter").click()
    steps_done(widget, steps)


def test_a_seeded_fight_runs_three_rounds_to_a_fallen_combatant_through_a_reload_and_undo(phone, base_url: str) -> None:
    steps, states = seeded_fight()
    assert states[-1]["round"] == 3  # the fight this test is about: three rounds, then one falls
    page = phone.new_page()  # a page of its own: it is reloaded

    def at(path: str) -> Page:
        page.goto(base_url + path)
        return page
    widget = start(at, f"?seed={SEED}")
    add(widget, BUCK, 1)
    add(widget, ORC, 2)
    got = kept(page)["encounter"]["current"]
    assert got == states[0], [(a, b) for a, b in zip(got["combatants"], states[0]["combatants"]) if a != b]
    for i, step in enumerate(steps, start=1):
        if step == "next":
            widget.locator(".rollbook-encounter__next").click()
        else:
            _, attacker, target, _, _ = step
            card = widget.locator("li[aria-current='true']")
            expect(card).to_have_attribute("data-id", attacker)
            expect(card.get_by_label("Target")).to_have_value(target)
            card.locator(".rollbook-encounter__attack").click()
        steps_done(widget, 2 + i)
        fight = kept(page)["encounter"]
        assert fight["current"] == states[i], f"step {i}: {step if step == 'next' else step[:3]}"
        assert fight["undo"][-1] == states[i - 1]
        if i == 6:  # in round 2: reload; the fight is where it was, the same combatant acting
            page.reload()
            widget = page.locator("rollbook-encounter")
            steps_done(widget, 2 + i)
            assert kept(page)["encounter"] == fight
            active = next(c for c in states[i]["combatants"] if c["id"] == states[i]["order"][states[i]["turn"]])
            expect(widget.locator(".rollbook-encounter__now")).to_have_text(f"Round {states[i]['round']}: {active['name']}'s turn")
            assert states[i]["round"] == 2
            expect(widget.locator(f"li[data-id='{active['id']}']")).to_have_attribute("aria-current", "true")

    # The fall, as the engine says it, on the card and in the chain of the last attack.
    _, attacker, target, _, last = steps[-1]
    fallen = next(s for s in last["status"] if s["id"] == target)
    assert fallen["state"] in ("unconscious", "dead")
    card = widget.locator(f"li[data-id='{target}']")
    expect(card.locator(".rollbook-combatant__status")).to_contain_text(fallen["state"])
    hp = next(c for c in states[-1]["combatants"] if c["id"] == target)["hp"]
    expect(card.get_by_role("progressbar").first).to_have_accessible_name(f"HP {hp} / 20")
    detail = next(e["detail"] for e in last["events"] if e.get("detail"))
    chain = widget.locator("dl.rollbook-chain")
    expect(chain).to_contain_text(f"{detail['attack_roll']} → {detail['attack_total']}")
    wound = detail["wound"]
    lost = wound["to_hp"] + wound["effects"]["extra_damage"]  # (a minus sign, as the attack helper writes it)
    expect(chain).to_contain_text(f"−{lost} ({wound['hp']} left): {wound['state']}")
    expect(page.locator("[role=status]", has_text="attacks")).to_have_count(1)  # announced

    # Every attack is in the roll log, with its seed.
    log = kept(page)["log"]
    attacks = [s for s in steps if s != "next"]
    assert [entry["seed"] for entry in log] == [s[3] for s in attacks]
    assert log[-1]["text"] == last["text"]

    # Undo: the exact state before the last attack, then before that.
    widget.locator(".rollbook-encounter__undo").click()
    steps_done(widget, 1 + len(steps))
    assert kept(page)["encounter"]["current"] == states[-2]
    expect(card.locator(".rollbook-combatant__status")).to_contain_text("conscious")
    widget.locator(".rollbook-encounter__undo").click()
    steps_done(widget, len(steps))
    assert kept(page)["encounter"]["current"] == states[-3]


def test_an_open_edit_stays_with_its_combatant_when_the_turn_order_changes(tab: Visit) -> None:
    """The GM opens Edit on the Troll, types its damage and rolls initiative: the order changes, and
    the open edit, with what was typed, is still the Troll's, so Damage goes to the Troll. The cards
    were drawn by their place in the order: Edit Troll, opened in third place, came back as Edit
    Goblin, open in third place, under the thumb. A refusal there is said at its field in that card."""
    widget = start(tab, "?seed=5")  # (this seed puts the Troll second)
    form = widget.locator(".rollbook-encounter__add")
    for n, name in enumerate(("Orc", "Goblin", "Troll"), start=1):
        form.get_by_label("Name", exact=True).fill(name)
        form.get_by_role("button", name="Add to the encounter").tap()
        steps_done(widget, n)
    names = widget.locator("li.rollbook-combatant h3")
    troll = widget.locator("li.rollbook-combatant").filter(has=widget.page.locator("h3", has_text="Troll"))
    troll.locator("summary", has_text="Edit Troll").click()
    troll.get_by_label("Damage or HP", exact=True).fill("3")
    hp = {c["name"]: c["hp"] for c in kept(widget.page)["encounter"]["current"]["combatants"]}
    widget.locator(".rollbook-encounter__next").tap()
    steps_done(widget, 4)
    expect(names.nth(1)).to_contain_text("Troll")  # the order changed (else this proves nothing)
    expect(widget.locator("details.rollbook-combatant__edit[open] > summary")).to_have_text(["Edit Troll"])
    expect(troll.get_by_label("Damage or HP", exact=True)).to_have_value("3")
    troll.get_by_role("button", name="Damage", exact=True).tap()
    # no armor: the engine asks which critical table, at that field of the card tapped
    table = troll.get_by_label("Critical table", exact=True)
    expect(table).to_have_attribute("aria-invalid", "true")
    expect(widget.locator(".rollbook-problem")).to_have_count(1)
    table.select_option("slash")
    troll.get_by_role("button", name="Damage", exact=True).tap()
    steps_done(widget, 5)
    after = {c["name"]: c["hp"] for c in kept(widget.page)["encounter"]["current"]["combatants"]}
    assert after["Troll"] < hp["Troll"] and {n: after[n] for n in ("Orc", "Goblin")} == {n: hp[n] for n in ("Orc", "Goblin")}


def an_orc_with_two_notes(tab: Visit) -> tuple[Locator, Locator, Locator]:
    """An encounter with an Orc whose Edit is open and who has two notes, "winded" and "limping"
    (three steps): the widget, the Orc's card and its End buttons."""
    widget = start(tab)
    form = widget.locator(".rollbook-encounter__add")
    form.get_by_label("Name", exact=True).fill("Orc")
    form.get_by_role("button", name="Add to the encounter").tap()
    steps_done(widget, 1)
    card = widget.locator("li.rollbook-combatant").first
    card.locator("summary", has_text="Edit Orc").click()
    for n, words in enumerate(("winded", "limping"), start=2):
        card.get_by_label("Effect", exact=True).select_option("note")
        card.get_by_label("Note", exact=True).fill(words)
        card.get_by_role("button", name="Add the effect").tap()
        steps_done(widget, n)
    return widget, card, card.get_by_role("list", name="End an effect of Orc").get_by_role("button")


def test_end_effect_tapped_twice_ends_one_effect(tab: Visit) -> None:
    """Ending an effect takes it out of the card's list, which closes up under the finger: a quick
    double tap's second tap landed on the next effect's End, and ended it too; so did a second
    press of Enter on the focused End."""
    from test_character import double_tap

    widget, card, ends = an_orc_with_two_notes(tab)
    expect(ends).to_have_count(2)
    double_tap(widget.page, ends.first)
    steps_done(widget, 4)
    widget.page.wait_for_timeout(500)
    expect(ends).to_have_count(1)
    assert [e.get("text") for e in kept(widget.page)["encounter"]["current"]["combatants"][0]["effects"]] == ["limping"]

    # Enter pressed twice on a focused End, slower than a double tap: the button goes with its
    # effect, so the second press ends nothing (it was the next effect's button: dazed ended too)
    card.get_by_label("Effect", exact=True).select_option("note")
    card.get_by_label("Note", exact=True).fill("dazed")
    card.get_by_role("button", name="Add the effect").tap()
    steps_done(widget, 5)
    ends.first.focus()
    widget.page.keyboard.press("Enter")
    steps_done(widget, 6)
    widget.page.wait_for_timeout(500)
    widget.page.keyboard.press("Enter")
    widget.page.wait_for_timeout(1000)
    expect(ends).to_have_count(1)
    assert [e.get("text") for e in kept(widget.page)["encounter"]["current"]["combatants"][0]["effects"]] == ["dazed"]


# The page's engine requests of one command held back `ms` (the engine is slow to answer), and
# put back as they were: the started tab lives on after the test.
HOLD_BACK = """([command, ms]) => {
  const post = Worker.prototype.postMessage;
  Worker.prototype.postMessage = function (message, ...rest) {
    if (message?.request?.command !== command) return post.call(this, message, ...rest);
    setTimeout(() => post.call(this, message, ...rest), ms);
  };
  window.__putBack = () => { Worker.prototype.postMessage = post; };
}"""

# A second tap made in the page `after` ms after one of `items` leaves the widget, at the first
# tap's place, on whatever is there then (a finger cannot be timed from outside the page to a few
# ms): it says what it landed on and when.
TAP_AGAIN_AS_IT_GOES = """([x, y, after, items]) => {
  const widget = document.querySelector("rollbook-encounter");
  const count = () => widget.querySelectorAll(items).length;
  const before = count();
  let first = null;
  widget.addEventListener("click", (event) => { first = event.timeStamp; }, { capture: true, once: true });
  window.__tappedAgain = new Promise((done) => {
    setTimeout(() => done({ landedOn: null, left: count() }), 30_000); // it never left
    const watch = new MutationObserver(() => {
      if (count() >= before) return;
      watch.disconnect();
      const closed = performance.now();
      setTimeout(() => {
        const target = document.elementFromPoint(x, y);
        const landedOn = (target?.closest("button, li") ?? target)?.textContent.trim().split("\\n")[0] ?? null;
        target?.dispatchEvent(new MouseEvent("click", { clientX: x, clientY: y, bubbles: true, cancelable: true, composed: true, view: window }));
        done({ landedOn, closedAfter: Math.round(closed - first), tappedAfter: Math.round(performance.now() - first) });
      }, after);
    });
    watch.observe(widget, { childList: true, subtree: true });
  });
}"""


def tap_again_as_it_goes(page: Page, button: Locator, command: str, items: str) -> dict[str, Any]:
    """Tap `button`, its step's engine request held back 450 ms, and tap again at its place 100 ms
    after one of `items` has left; what the second tap landed on, and when."""
    button.scroll_into_view_if_needed()
    box = button.bounding_box()
    assert box
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.evaluate(HOLD_BACK, [command, 450])
    try:
        page.evaluate(TAP_AGAIN_AS_IT_GOES, [x, y, 100, items])
        page.touchscreen.tap(x, y)
        second = page.evaluate("window.__tappedAgain")
    finally:
        page.evaluate("window.__putBack()")
    # past a double tap's time from the first tap: what counts is the list's closing up
    assert second["tappedAfter"] > 400, second
    return second


def test_end_effect_tapped_again_as_it_goes_ends_one_effect(tab: Visit) -> None:
    """Ending an effect waits for the engine: a tap again at its place just after the effect has
    gone lands on the next effect's End. It was taken whenever the engine took long enough that it
    came more than 400 ms after the first tap (a double tap's time was counted from the first tap,
    not from the list's closing up)."""
    widget, _, ends = an_orc_with_two_notes(tab)
    second = tap_again_as_it_goes(widget.page, ends.first, "encounter end-effect", ".rollbook-combatant__effects > li")
    assert second["landedOn"].startswith("End limping"), f"the second tap should land on the next effect's End: {second}"
    steps_done(widget, 4)
    widget.page.wait_for_timeout(600)  # a second step would be under way by now
    expect(ends).to_have_count(1)
    assert [e.get("text") for e in kept(widget.page)["encounter"]["current"]["combatants"][0]["effects"]] == ["limping"], second


def test_a_removed_combatants_answer_takes_its_place_under_the_thumb(tab: Visit) -> None:
    """Removing a combatant takes its card out of the page. Its answer went with it (said nowhere),
    and the browser, keeping what was in view in place, brought what lay above the card under the
    finger: the add form's button, so a tap again just as the card went added the foe whose name
    the GM had typed ahead. The answer now takes the card's place, where Remove was, and a tap
    there is no step."""
    widget = start(tab)
    form = widget.locator(".rollbook-encounter__add")
    for n, name in enumerate(("Orc", "Goblin", "Troll"), start=1):
        form.get_by_label("Name", exact=True).fill(name)
        form.get_by_role("button", name="Add to the encounter").tap()
        steps_done(widget, n)
    form.get_by_label("Name", exact=True).fill("Wolf")  # the next foe, typed ahead
    cards = widget.locator("li.rollbook-combatant")
    names = [summary.removeprefix("Edit ") for summary in cards.locator("summary", has_text="Edit").all_inner_texts()]
    cards.first.locator("summary", has_text="Edit").click()
    remove = cards.first.get_by_role("button", name=f"Remove {names[0]}")
    second = tap_again_as_it_goes(widget.page, remove, "encounter remove", "li.rollbook-combatant")
    assert second["landedOn"] == f"{names[0]} leaves the encounter", f"the second tap should land on the answer: {second}"
    steps_done(widget, 4)
    page = widget.page
    page.wait_for_timeout(600)  # a second step would be under way by now
    expect(cards).to_have_count(2)
    assert sorted(c["name"] for c in kept(page)["encounter"]["current"]["combatants"]) == sorted(names[1:]), second
    expect(widget.locator(".rollbook-encounter__undo")).to_have_text("Undo (4)")
    expect(form.get_by_label("Name", exact=True)).to_have_value("Wolf")
    # the answer in the card's place, before the cards left, wholly on screen
    answer = widget.locator("ol.rollbook-combatants > li").first
    expect(answer.get_by_role("heading", name=f"{names[0]} leaves the encounter")).to_be_in_viewport(ratio=1)
    expect(widget.locator("ol.rollbook-combatants > li").nth(1)).to_have_class(re.compile(r"\brollbook-combatant\b"))
    assert axe_violations(page, within=["rollbook-encounter"]) == []


def test_a_name_typed_as_the_last_combatant_joins_is_kept_in_the_add_form(tab: Visit) -> None:
    """The add form empties in the frame that shows the combatant joined: a name typed from then on
    (the next combatant's, the GM quick on the keys) stays. It was emptied once the step's lock was
    let go, a moment later, wiping what was typed in between (test_edits_by_hand failed 1 run in 4-8)."""
    widget = start(tab)
    page = widget.page
    form = widget.locator(".rollbook-encounter__add")
    if not form.evaluate("(details) => details.open"):
        form.locator("summary").click()
    # typed in the very frame "Undo (1)" is drawn: the worst case of a quick GM, every time
    page.evaluate("""() => {
      const tracker = document.querySelector('rollbook-encounter');
      const seen = new MutationObserver(() => {
        if (tracker.querySelector('.rollbook-encounter__undo')?.textContent.trim() !== 'Undo (1)') return;
        seen.disconnect();
        const name = tracker.querySelector('#rollbook-enc-add-name');
        name.value = 'Orc';
        name.dispatchEvent(new Event('input', { bubbles: true }));
      });
      seen.observe(tracker, { subtree: true, childList: true, characterData: true });
    }""")
    form.get_by_label("Name").fill("Buck")
    form.get_by_label("Side").fill("players")
    form.get_by_role("button", name="Add to the encounter").click()
    steps_done(widget, 1)
    page.wait_for_timeout(300)  # the lock let go, the page drawn again
    expect(form.get_by_label("Name")).to_have_value("Orc")
    expect(form.get_by_label("Side")).to_have_value("foes")  # the rest back to the blank form's
    assert [c["name"] for c in read_kept(page)["encounter"]["current"]["combatants"]] == ["Buck"]


def test_edits_by_hand_and_an_export_import_round_trip(tab: Visit, tmp_path: Path) -> None:
    widget = start(tab, "?seed=3")
    page = widget.page
    add(widget, BUCK, 1)
    add(widget, ORC, 2)
    edit = widget.locator("li[data-id='o1'] details.rollbook-combatant__edit")
    edit.locator("summary").click()
    edit.get_by_label("Effect", exact=True).select_option("stun")
    edit.get_by_label("Rounds", exact=True).fill("2")
    edit.get_by_role("button", name="Add the effect").click()
    steps_done(widget, 3)
    expect(widget.locator("li[data-id='o1'] .rollbook-badge")).to_have_text("stun, 2 rounds left")
    edit.get_by_label("Damage or HP").fill("5")
    edit.get_by_label("Critical table").select_option("slash")
    edit.get_by_role("button", name="Damage", exact=True).click()
    steps_done(widget, 4)
    edit.get_by_label("Damage or HP").fill("3")
    edit.get_by_role("button", name="Heal").click()
    steps_done(widget, 5)
    edit.get_by_role("button", name="End stun, 2 rounds left").click()
    steps_done(widget, 6)
    expect(widget.locator("li[data-id='o1'] .rollbook-badge")).to_have_count(0)
    edit.get_by_label("Critical bonus").fill("10")  # a critical the GM calls for, in the encounter's record
    edit.get_by_role("button", name="Roll a critical").click()
    steps_done(widget, 7)
    enc = added(added(engine("encounter start", rules="opencore")["encounter"], BUCK), ORC)
    enc = engine("encounter effect", encounter=enc, who="o1", kind="stun", rounds=2)["encounter"]
    enc = engine("encounter damage", encounter=enc, target="o1", amount=5, critical_type="slash", seed=3)["encounter"]
    enc = engine("encounter heal", encounter=enc, target="o1", amount=3)["encounter"]
    enc = engine("encounter end-effect", encounter=enc, who="o1", index=0)["encounter"]
    critical = engine("encounter crit", encounter=enc, target="o1", type="slash", bonus=10, seed=4)
    enc = critical["encounter"]
    expect(widget.locator(".rollbook-encounter__step")).to_contain_text(critical["events"][0]["text"])
    assert "+10 (weapon or Power)" in critical["events"][0]["text"]
    before = kept(page)["encounter"]
    assert before["current"] == enc
    assert before["full"] == {"p1": {"armor": 40, "toughness": 5}, "o1": {"armor": 0, "toughness": 0}}

    with page.expect_download() as download:
        page.get_by_role("button", name="Export to a file").click()
    exported = tmp_path / download.value.suggested_filename
    download.value.save_as(exported)
    assert json.loads(exported.read_text())["encounter"] == before

    # End it, start a Cyno fight (one strike), then import: the file's encounter comes back
    # whole, and the Cyno fight it replaced is one Undo away.
    widget.get_by_text("Rulings and ending the encounter").click()
    widget.get_by_role("button", name="End the encounter").click()
    expect(widget.get_by_role("button", name="Bring it back")).to_be_visible()
    widget = start(tab, "?seed=4", rules="cyno")
    form = widget.locator(".rollbook-encounter__add")
    for name, side, dp in (("Kristine", "players", 30), ("Sid", "gangers", 20)):
        form.get_by_label("Name").fill(name)
        form.get_by_label("Side").fill(side)
        for label, value in (("Reflex", 2), ("Coordination", 14), ("Stress", 10), ("Actions", 3), ("DP", dp)):
            form.get_by_label(label, exact=True).fill(str(value))
        form.get_by_label("Weapon damage").fill("2d6")
        form.get_by_role("button", name="Add to the encounter").click()
        steps_done(widget, 1 if name == "Kristine" else 2)
    # Before the first turn, the GM rolls the Surprise Chart for Sid (seed 4: a 2, he misses the turn).
    sid = widget.locator("li.rollbook-combatant", has_text="Sid")
    sid.get_by_text("Edit Sid").click()
    sid.get_by_role("button", name="Surprised? Roll the chart").click()
    steps_done(widget, 3)
    expect(widget).to_contain_text("Surprised, miss the whole turn")
    widget.locator(".rollbook-encounter__next").click()
    steps_done(widget, 4)
    card = widget.locator("li[aria-current='true']")
    expect(card).to_contain_text("Kristine")
    card.get_by_label("Target's defense").select_option("dodge")
    card.locator(".rollbook-encounter__attack").click()
    defense = card.get_by_label("Target's defense")  # refused at the field it is about, which has the focus
    expect(defense).to_have_attribute("aria-invalid", "true")
    expect(widget.locator(f"#{defense.get_attribute('aria-describedby')}")).to_contain_text(
        "Target's defense: Sid misses this whole turn (surprised), so cannot dodge")
    expect(defense).to_be_focused()
    card.get_by_label("Target's defense").select_option("none")
    card.get_by_text("Strike options").click()  # the strike charts' lines, from the engine's tables
    card.get_by_label("+1: Striking at a large target", exact=False).check()
    expect(card.get_by_text("Strike options (1)")).to_be_visible()
    card.locator(".rollbook-encounter__attack").click()
    steps_done(widget, 5)
    expect(widget.locator("dl.rollbook-chain")).to_contain_text("Strike")
    expect(widget.locator("dl.rollbook-chain")).to_contain_text("+1 (Striking at a large target. Anything over 3 meters)")
    # Rockets ("a -2 penalty to hit") and missile volleys ("the bonus and penalty of the character do not apply")
    card.get_by_label("What is fired").select_option("rocket")
    card.get_by_label("+1: Striking at a large target", exact=False).uncheck()
    card.locator(".rollbook-encounter__attack").click()
    steps_done(widget, 6)
    expect(widget.locator("dl.rollbook-chain")).to_contain_text("-2 (")
    card.get_by_label("What is fired").select_option("volley")
    expect(card.get_by_label("Actions spent aiming")).to_have_count(0)  # a missile cannot be aimed
    card.get_by_label("Missiles in the volley").fill("3")
    card.locator(".rollbook-encounter__attack").click()
    steps_done(widget, 7)
    expect(widget.locator("[data-step-answer]")).to_contain_text("Kristine strikes Sid with a volley of 3 missiles")
    cyno = kept(page)["encounter"]["current"]

    page.get_by_label("Import a file").set_input_files(str(exported))
    expect(page.locator(".rollbook-done")).to_contain_text("an encounter (it took the place of the one kept here")
    now = kept(page)["encounter"]
    assert now["current"] == before["current"] and now["undo"] == [*before["undo"], cyno]
    expect(widget.locator(".rollbook-encounter__now")).to_have_text("Before the first round")
    expect(widget.locator(".rollbook-encounter__step")).to_have_count(0)  # the Cyno strike is not this fight's
    widget.locator(".rollbook-encounter__undo").click()
    expect(widget.locator(".rollbook-encounter__now")).not_to_have_text("Before the first round")  # (Undo waits its turn across tabs)
    assert kept(page)["encounter"]["current"] == cyno


def test_a_ruling_chosen_at_the_start_is_kept_and_rules_the_strike(tab: Visit) -> None:
    # Cyno's large and small target (ruling cyno-large-and-small-target) switched to its alternative:
    # both lines apply to one strike, where the reading refuses the second.
    page = tab("tools/encounter/?seed=5")
    widget = page.locator("rollbook-encounter")
    widget.get_by_label("Rules").select_option("cyno")
    rulings = widget.locator(".rollbook-encounter__rulings-choice")
    expect(rulings.locator("summary")).to_have_text("Rulings: each at its usual reading")
    rulings.locator("summary").click()  # folded: the usual readings need no choice
    choice = widget.get_by_label("Large and small target")
    # the titles are the engine's answer, which a loaded machine may give after 5 s
    expect(choice.locator("xpath=..")).to_contain_text("Ruling: A target is large or small, not both", timeout=ENGINE_TIMEOUT_MS)
    choice.select_option("both")
    expect(rulings.locator("summary")).to_have_text("Rulings: 1 changed")
    widget.get_by_role("button", name="Start the encounter").click()
    expect(widget.get_by_role("heading", name="Before the first round")).to_be_visible(timeout=ENGINE_TIMEOUT_MS)
    assert kept(page)["encounter"]["current"]["rulings"]["target_size"] == "both"
    form = widget.locator(".rollbook-encounter__add")
    for n, name in enumerate(("Kristine", "Sid"), 1):
        form.get_by_label("Name").fill(name)
        form.get_by_label("Side").fill("players" if n == 1 else "gangers")
        for label, value in (("Reflex", 10), ("Coordination", 14), ("Stress", 10), ("Actions", 2), ("DP", 20)):
            form.get_by_label(label, exact=True).fill(str(value))
        form.get_by_label("Weapon damage").fill("1d6")
        form.get_by_role("button", name="Add to the encounter").click()
        steps_done(widget, n)
    widget.locator(".rollbook-encounter__next").click()
    steps_done(widget, 3)
    card = widget.locator("li[aria-current='true']")
    card.get_by_text("Strike options").click()
    card.get_by_label("+1: Striking at a large target", exact=False).check()
    card.get_by_label("-1: Striking at a small target", exact=False).check()
    expect(card.get_by_text("Strike options (2)")).to_be_visible()
    card.locator(".rollbook-encounter__attack").click()
    steps_done(widget, 4)
    chain = widget.locator("dl.rollbook-chain")
    expect(chain).to_contain_text("+1 (Striking at a large target")
    expect(chain).to_contain_text("-1 (Striking at a small target")
    widget.get_by_text("Rulings and ending the encounter").click()
    expect(widget.locator(".rollbook-encounter__rulings")).to_contain_text("Large and small target: Both may apply")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_encounter_page_is_accessible_and_fits_a_phone(tab: Visit, scheme: str) -> None:
    page = tab("tools/encounter/", color_scheme=scheme, kept={"rollbook": 1, "characters": [CHARACTER]})
    widget = page.locator("rollbook-encounter")
    expect(widget.get_by_role("button", name="Start the encounter")).to_be_visible()
    assert axe_violations(page, within=["rollbook-encounter"]) == []
    widget = start(tab, "?seed=5")
    # A kept character joins in one tap with its own CON, DEX, STR, the HP the engine works out
    # for it and the typical skills (the ruling shown beside the button, by its title).
    form = widget.locator(".rollbook-encounter__add")
    expect(form).to_contain_text("A typical foe has 50 in every score and 13 HP: CON 50, DEX 50, STR 50, HP 13")
    form.get_by_role("button", name="Kristine").click()
    steps_done(widget, 1)
    sheet = engine("opencore character", scores="STR=80,DEX=33,AGL=95,CON=46,INT=89,PER=95,WIS=84,CHA=68,COM=1", hp_roll=60)
    (joined,) = kept(page)["encounter"]["current"]["combatants"]
    assert (joined["name"], joined["side"], joined["hp"], joined["con"], joined["dex"], joined["str"],
            joined["attack_skill"], joined["defense_skill"]) == ("Kristine", "players", sheet["hp"], 46, 33, 80, 50, 50)
    add(widget, ORC, 2)
    widget.locator(".rollbook-encounter__next").click()
    steps_done(widget, 3)
    widget.locator(".rollbook-encounter__attack").click()
    steps_done(widget, 4)
    widget.locator("li[aria-current='true'] details.rollbook-combatant__edit summary").click()
    widget.locator(".rollbook-encounter__add summary").click()
    widget.locator(".rollbook-encounter__log summary").click()
    assert axe_violations(page, within=["rollbook-encounter"]) == []
    assert small_tap_targets(page, TAPPABLE) == []
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390  # no sideways scroll
    # Next and Undo stay on the screen, at the bottom, wherever the page is scrolled.
    page.mouse.wheel(0, -10_000)
    box = widget.locator(".rollbook-encounter__next").bounding_box()
    assert box and box["y"] + box["height"] <= 844 and box["height"] >= 44


@pytest.mark.parametrize("seed", ["-1", "9007199254740991", "lots"])
def test_a_link_seed_out_of_range_is_left_out_and_said_and_the_fight_still_runs(tab: Visit, seed: str) -> None:
    # each step takes the next seed: -1 is no seed at all, and the largest exact whole number
    # leaves no room for the next (every dice step failed)
    page = tab(f"tools/encounter/?seed={seed}")
    widget = page.locator("rollbook-encounter")
    expect(widget.locator(".rollbook-encounter__start .rollbook-problem")).to_contain_text(
        "The link's seed was left out, so this encounter's dice are not seeded")
    expect(widget.locator(".rollbook-answer__shared")).to_have_count(0)
    widget.get_by_role("button", name="Start the encounter").click()
    quick = widget.get_by_role("list", name="Add in one tap")
    for n in (1, 2):
        quick.get_by_role("button", name="A typical foe").click()
        expect(widget.locator(".rollbook-encounter__undo")).to_have_text(f"Undo ({n})", timeout=ENGINE_TIMEOUT_MS)
    widget.locator(".rollbook-encounter__next").click()  # rolls initiative: a dice step
    expect(widget.locator(".rollbook-encounter__undo")).to_have_text("Undo (3)", timeout=ENGINE_TIMEOUT_MS)
    kept = read_kept(page)["encounter"]
    assert kept["seed"] is None and kept["current"]["round"] == 1


def hostile_states() -> dict[str, dict[str, Any]]:
    """Kept encounters the page cannot draw: the store refuses them as it reads them (kept/schema.js),
    so the tracker's own fallback (tracker.js unreadable()) is not reached this way."""
    start = engine("encounter start", rules="opencore")["encounter"]
    return {
        "turn order missing": {k: v for k, v in start.items() if k != "order"},
        "rulings missing": {**start, "rulings": None},
        "log entry that is none": {**start, "log": [None, 7, "text"]},
    }


# Where the store found the problem, in a player's words (kept/words.js placeWords).
HOSTILE_REASONS = {"turn order missing": "turn order: is missing",
                   "rulings missing": "rulings: expected a group of values, found nothing",
                   "log entry that is none": "log entry 1: expected a group of values, found nothing"}


@pytest.mark.parametrize("what", ["turn order missing", "rulings missing", "log entry that is none"])
def test_a_kept_encounter_the_page_cannot_draw_is_set_aside_and_said_plainly(phone, base_url: str, what: str) -> None:
    """Issue 39: a hostile kept encounter threw "Cannot read properties of undefined (reading 'map')"
    and left the page blank. The store refuses it as it reads it: the encounter alone is set aside
    (its copy can be exported), said plainly, and a new one starts."""
    state = hostile_states()[what]
    page = phone.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(base_url + "tools/")
    put_kept(page, {"rollbook": 1, "encounter": {"current": state, "undo": [], "full": {}, "seed": None,
                                                 "updated": "2026-12-05T08:00:00.000Z"}})
    page.goto(base_url + "tools/encounter/")
    tracker = page.locator("rollbook-encounter")
    expect(tracker.get_by_role("alert")).to_contain_text(
        f"The kept encounter could not be read ({HOSTILE_REASONS[what]}), so it is not shown.", timeout=ENGINE_TIMEOUT_MS)
    expect(tracker.get_by_role("button", name="Export the unreadable copy")).to_be_visible()
    tracker.get_by_role("button", name="Start the encounter").click()
    expect(tracker.locator(".rollbook-encounter__meta")).to_have_text("OpenCore", timeout=ENGINE_TIMEOUT_MS)
    assert errors == []


def test_hostile_rules_in_a_start_link_are_ignored_and_the_fight_starts_as_usual(phone, base_url: str) -> None:
    """A start link's values other than its seed are not read: ?rules=__proto__ starts OpenCore."""
    page = phone.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(base_url + "tools/encounter/?rules=__proto__&initiative=constructor&death_at=toString")
    tracker = page.locator("rollbook-encounter")
    expect(tracker.get_by_label("Rules")).to_have_value("opencore")
    tracker.get_by_role("button", name="Start the encounter").click()
    expect(tracker.locator(".rollbook-encounter__meta")).to_have_text("OpenCore", timeout=ENGINE_TIMEOUT_MS)
    assert errors == []
