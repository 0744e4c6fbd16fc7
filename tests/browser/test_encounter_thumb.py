"""The fight on one screen (issue 38), at 390 x 844 as a GM plays it with one thumb: every step's
answer where the tap was made and in view without scrolling, taps that cannot slip, no attack
offered that the rules forbid, Cyno as quick as OpenCore, and the start said at its button.

The budgets the issue sets are asserted here; `Thumb` counts taps, typed fields, the scrolling a
player would need to reach each button (Playwright's own scrolling, measured before the tap) and
to read each answer (how far off-screen it is drawn)."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from typing import Any

import pytest
from playwright.sync_api import Locator, Page, expect

from browserkit import ENGINE_TIMEOUT_MS, Visit
from kit.engine import engine
from kit.kept import KEPT, put_kept, read_kept

pytestmark = [pytest.mark.browser, pytest.mark.cpython_only]

SCREEN = 844
BAR = 76  # the Next / Undo bar at the bottom of the screen (encounter.css): what lies under it is not in view
KRISTINE = {"id": "c1", "name": "Kristine", "hp_roll": 60, "created": "2026-11-30T18:00:00.000Z",
            "scores": {"STR": 80, "DEX": 33, "AGL": 95, "CON": 46, "INT": 89, "PER": 95, "WIS": 84, "CHA": 68, "COM": 1}}


def cyno_kept(name: str, side: str, **score: int) -> dict[str, Any]:
    return {"id": name.lower(), "name": name, "rules": "cyno", "side": side, "weapon": "2d6", "armor_name": None,
            "score": score, "created": "2026-11-30T18:00:00.000Z"}


# Two kept Cyno characters (kept with "Also keep it for next time") and a kept kind of foe.
RACHEL = cyno_kept("Rachel", "players", reflex=14, coordination=14, stress=12, actions=2, dp=30, weaponry_skill=70)
SID = cyno_kept("Sid", "players", reflex=12, coordination=13, stress=10, actions=2, dp=25)
GANGER = cyno_kept("Ganger", "gang", reflex=10, coordination=11, stress=9, actions=2, dp=20)


class Thumb:
    """A player's taps and typed fields, and the scrolling each would need, counted."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.taps = 0
        self.fields = 0
        self.reach = 0.0  # px scrolled to reach a button
        self.read = 0.0  # px scrolled to read an answer

    def _offscreen(self, box: dict[str, float] | None, bottom: float = SCREEN - BAR) -> float:
        assert box is not None
        return max(0.0, -box["y"]) + max(0.0, box["y"] + box["height"] - bottom)

    def tap(self, target: Locator) -> None:
        in_bar = target.evaluate("(e) => !!e.closest('.rollbook-encounter__bar')")  # the bar's own buttons are tappable
        self.reach += self._offscreen(target.bounding_box(), SCREEN if in_bar else SCREEN - BAR)
        self.taps += 1
        target.click()

    def type(self, field: Locator, text: str) -> None:
        self.reach += self._offscreen(field.bounding_box())
        self.fields += 1
        field.fill(text)

    def reads(self, answer: Locator) -> str:
        """The answer drawn: how far it lies off-screen is scrolling the player needs to read it."""
        expect(answer).to_be_visible()
        self.page.wait_for_timeout(100)  # the answer is brought into view in the frame after it is drawn
        self.read += self._offscreen(answer.bounding_box())
        return answer.inner_text()


def steps_done(widget: Locator, n: int) -> None:
    """n steps kept (Undo counts them, up to its 20)."""
    expect(widget.locator(".rollbook-encounter__undo")).to_have_text(f"Undo ({min(n, 20)})", timeout=ENGINE_TIMEOUT_MS)


def logged(page: Page) -> int:
    return kept_encounter(page)["current"]["logged"]


def step_kept(page: Page, before: int) -> None:
    """The next step is kept (its events logged) and drawn: the page is measured as the player sees
    it once the step's answer is in place (it is brought into view in the frame after it is drawn)."""
    page.wait_for_function(f"(n) => JSON.parse(localStorage.getItem('{KEPT}')).encounter.current.logged > n",
                           arg=before, timeout=ENGINE_TIMEOUT_MS)
    page.evaluate(STILL)


# Where the page is: its scroll, the current card and the step's answer, and whether Material has
# started (widgets/material-later.js marks it): what a Strike that moved too far is reported with.
WHERE = """() => ({
  scrollY, card: document.querySelector("li[aria-current='true']")?.getBoundingClientRect().top,
  answer: document.querySelector("[data-step-answer]")?.getBoundingClientRect().toJSON(),
  material: performance.getEntriesByType("mark").filter((m) => m.name.startsWith("rollbook: Material")).map((m) => Math.round(m.startTime)),
  now: Math.round(performance.now()),
})"""


# The page at rest: the step over, then its scroll and the current card where they were for three
# frames in a row. Over means the page's locks let go (widgets/step-lock.js, the kept store's
# settling): a step is kept in storage under the step lock, and Next brings the new current card
# into view only after the lock is let go (tracker.js run(), then #next), which on a loaded machine
# came more than three still frames after storage showed the step: two clean-clone runs measured
# a Strike before Next's +127 px move and read 143-144 px (2026-12-06). A fixed two frames, before
# that, measured mid-move too (the answer drawn, then brought into view, each in a frame of its own).
STILL = """async () => {
  for (let tries = 0; tries < 600; tries++) {
    const { held, pending } = await navigator.locks.query();
    if (![...held, ...pending].some((lock) => lock.name?.startsWith("rollbook"))) break;
    await new Promise((wait) => setTimeout(wait, 16));
  }
  await new Promise((done) => {
    const at = () => `${scrollY} ${document.querySelector("li[aria-current='true']")?.getBoundingClientRect().top}`;
    let last = at(), same = 0, frames = 0;
    const frame = () => {
      const now = at();
      same = now === last ? same + 1 : 0;
      last = now;
      if (same >= 3 || ++frames > 300) setTimeout(done); else requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  });
}"""


def keep(page: Page, kept: dict[str, Any]) -> None:
    put_kept(page, {"rollbook": 2, **kept})
    page.reload()


def kept_encounter(page: Page) -> dict[str, Any]:
    return read_kept(page)["encounter"]


def test_an_opencore_fight_of_a_kept_character_and_two_typical_foes_reads_every_answer_without_scrolling(tab: Visit) -> None:
    page = tab("tools/encounter/?seed=11", kept={"rollbook": 2, "characters": [KRISTINE]})
    widget = page.locator("rollbook-encounter")
    thumb = Thumb(page)
    thumb.tap(widget.get_by_role("button", name="Start the encounter"))
    quick = widget.get_by_role("list", name="Add in one tap")
    for n, name in enumerate(["Kristine", "A typical foe", "A typical foe"], start=1):
        thumb.tap(quick.get_by_role("button", name=name, exact=True))
        steps_done(widget, n)
        # the answer by the buttons, which stay where they were
        assert "joins" in thumb.reads(widget.locator(".rollbook-encounter__quick [data-step-answer]"))
    assert [c["name"] for c in kept_encounter(page)["current"]["combatants"]] == ["Kristine", "Foe", "Foe 2"]
    thumb.tap(widget.locator(".rollbook-encounter__next"))
    steps, attacks = 4, []
    while True:  # each turn: the acting combatant attacks, then Next; until round 3 would begin
        steps_done(widget, steps)
        card = widget.locator("li[aria-current='true']")
        thumb.tap(card.locator(".rollbook-encounter__attack"))
        steps += 1
        steps_done(widget, steps)
        said = thumb.reads(card.locator("[data-step-answer] .rollbook-encounter__outcome"))
        attacks.append(said)
        assert said.startswith(("Hit ", "Missed ", "Critical hit")), said
        # the attack is taken: not offered again, and the reason is where the button was
        expect(card.locator(".rollbook-encounter__attack")).to_have_count(0)
        expect(card.locator(".rollbook-combatant__refused")).to_contain_text("has taken this round's action")
        # the target's card says it too (the engine's line for it)
        step = page.evaluate("() => document.querySelector('rollbook-encounter').step")
        target = next(o for o in step["outcomes"] if f"act-{o['id']}" != step["at"])
        expect(widget.locator(f"li[data-id='{target['id']}'] .rollbook-combatant__outcome")).to_have_text(
            "Last step: " + target["text"])
        enc = kept_encounter(page)["current"]
        if enc["round"] == 2 and enc["turn"] == len(enc["order"]) - 1:
            break
        thumb.tap(widget.locator(".rollbook-encounter__next"))
        steps += 1
    assert len(attacks) == 6
    print(f"OpenCore: {thumb.taps} taps, {thumb.fields} fields, {thumb.read:.0f} px to read, {thumb.reach:.0f} px to reach")
    assert thumb.taps <= 16 and thumb.fields == 0 and thumb.read == 0, (thumb.taps, thumb.fields, thumb.read)


def test_forget_pressed_or_tapped_twice_loses_no_kept_foe(tab: Visit) -> None:
    """The kept foes' one-tap picks were drawn by place: once Rachel was forgotten, the focused
    "Forget the foe" button was Sid's, so Enter pressed twice forgot both, and Undo brought back
    Sid alone. A quick double tap's second tap added Ganger to the fight (his pick had taken the
    place of Rachel's ×): it is not taken. Foes forgotten while Undo is offered come back together."""
    from test_character import double_tap

    page = tab("tools/encounter/", kept={"rollbook": 2, "foes": [RACHEL, SID, GANGER]})
    widget = page.locator("rollbook-encounter")
    widget.get_by_label("Rules").select_option("cyno")
    widget.get_by_role("button", name="Start the encounter").tap()
    forget = widget.get_by_role("button", name="Forget the foe Rachel")
    expect(forget).to_be_visible(timeout=ENGINE_TIMEOUT_MS)
    picks = widget.locator(".rollbook-encounter__foe")
    names = lambda: [f["name"] for f in read_kept(page)["foes"]]  # noqa: E731
    forget.focus()
    page.keyboard.press("Enter")
    page.keyboard.press("Enter")
    expect(picks).to_have_count(2)
    assert names() == ["Sid", "Ganger"]
    widget.get_by_role("button", name="Undo forget").click()
    expect(picks).to_have_count(3)

    double_tap(page, forget)  # the second on Ganger's pick, where Rachel's × was: it added Ganger to the fight
    said = widget.locator(".rollbook-encounter__quick .rollbook-done")
    expect(said).to_contain_text("Rachel forgotten.")
    assert names() == ["Sid", "Ganger"] and read_kept(page)["encounter"]["current"]["combatants"] == []
    page.wait_for_timeout(400)  # (at the same place any sooner, a tap is taken for the double tap's second)
    widget.get_by_role("button", name="Forget the foe Sid").tap()  # one of its own: brought back with the first
    expect(said).to_contain_text("Rachel and Sid forgotten.")
    widget.get_by_role("button", name="Undo forget").click()
    expect(picks).to_have_count(3)
    assert names() == ["Rachel", "Sid", "Ganger"]


def test_a_cyno_fight_of_two_kept_characters_and_four_foes_of_two_kinds_is_as_quick(tab: Visit) -> None:
    page = tab("tools/encounter/?seed=3", kept={"rollbook": 2, "foes": [RACHEL, SID, GANGER]})
    widget = page.locator("rollbook-encounter")
    thumb = Thumb(page)
    widget.get_by_label("Rules").select_option("cyno")
    thumb.taps += 1  # the one choice: the rule set
    thumb.tap(widget.get_by_role("button", name="Start the encounter"))
    quick = widget.get_by_role("list", name="Add in one tap")
    expect(widget.locator(".rollbook-encounter__quick")).to_contain_text(
        "A typical Cyno foe has 10 in each attribute, 2 actions, 20 DP and a 1d6 weapon", timeout=ENGINE_TIMEOUT_MS)
    for n, name in enumerate(["Rachel", "Sid", "Ganger", "Ganger", "A typical foe", "A typical foe"], start=1):
        thumb.tap(quick.get_by_role("button", name=name, exact=True))
        steps_done(widget, n)
    combatants = kept_encounter(page)["current"]["combatants"]
    assert [(c["name"], c["side"], c["dp"], c["weapon_damage"]) for c in combatants] == [
        ("Rachel", "players", 30, "2d6"), ("Sid", "players", 25, "2d6"), ("Ganger", "gang", 20, "2d6"),
        ("Ganger 2", "gang", 20, "2d6"), ("Foe", "foes", 20, "1d6"), ("Foe 2", "foes", 20, "1d6")]
    setup = thumb.taps
    # three rounds: at each player's turn a strike; Next moves on
    strikes, moved = 0, []
    jumps: list[dict[str, Any]] = []
    while True:
        before = logged(page)
        thumb.tap(widget.locator(".rollbook-encounter__next"))
        step_kept(page, before)
        enc = kept_encounter(page)["current"]
        card = widget.locator("li[aria-current='true']")
        if card.locator(".rollbook-combatant__side").inner_text().startswith("players"):
            strike = card.locator(".rollbook-encounter__attack")
            if strike.count():
                y = strike.bounding_box()["y"]
                seen = page.evaluate(WHERE)
                before = logged(page)
                strike.click()  # counted apart: the budget is the set-up and the rounds
                strikes += 1
                step_kept(page, before)
                said = thumb.reads(card.locator("[data-step-answer] .rollbook-encounter__outcome"))
                assert said.startswith(("Hit ", "Missed ", "Critical hit")), said
                if said.startswith(("Hit ", "Critical")) and "held" not in said:
                    assert " DP lost, " in said, said  # the damage is on screen, not only in the working
                # with an action left, the Strike button stays under the thumb, its answer right under
                # it: the page moves only as much as the answer needs to clear the Next bar
                if strike.count():
                    box = strike.bounding_box()
                    assert box and 0 <= box["y"] and box["y"] + box["height"] <= SCREEN - BAR, box
                    moved.append(abs(box["y"] - y))
                    if moved[-1] >= 40:  # how it moved, for the failure's report (a loaded CI run read 143 px once)
                        jumps.append({"before": seen, "after": page.evaluate(WHERE), "said": said})
        if enc["round"] == 3 and enc["turn"] == len(enc["order"]) - 1:
            break
    rounds = thumb.taps - setup
    print(f"Cyno: set-up {setup} taps, rounds {rounds} taps (+{strikes} strikes), {thumb.fields} fields, "
          f"{thumb.read:.0f} px to read, {thumb.reach:.0f} px to reach, Strike moved {sorted(moved)} px")
    # every strike (the 143-293 px once seen here were Next's own move, the current card brought into
    # view, after the Strike button was measured: step_kept now waits for the step's locks and the frame)
    assert strikes >= 3 and max(moved) < 40, f"{strikes} strikes, moved {moved}: {json.dumps(jumps)}"
    assert thumb.taps <= 26 and thumb.fields <= 2 and thumb.read == 0, (setup, rounds, thumb.fields, thumb.read)


def three_typical_foes(page: Page) -> Locator:
    """An encounter started on `page` (the tracker's) with three typical foes added (three steps): its tracker."""
    widget = page.locator("rollbook-encounter")
    widget.get_by_role("button", name="Start the encounter").click()
    quick = widget.get_by_role("list", name="Add in one tap")
    for n in (1, 2, 3):
        quick.get_by_role("button", name="A typical foe").click()
        steps_done(widget, n)
    return widget


def test_a_quick_second_tap_of_next_or_undo_is_not_taken_twice(tab: Visit) -> None:
    page = tab("tools/encounter/?seed=5")
    widget = three_typical_foes(page)
    widget.locator(".rollbook-encounter__next").click()
    steps_done(widget, 4)
    first = kept_encounter(page)["current"]
    assert first["turn"] == 0
    # two taps, the second before the first one's answer is drawn (one task: a warm engine answers
    # within a few ms, and a tap after the answer is drawn is meant)
    double = "(button) => { button.click(); button.click(); }"
    widget.locator(".rollbook-encounter__next").evaluate(double)
    steps_done(widget, 5)
    page.wait_for_timeout(1500)  # a second step would have been taken by now
    steps_done(widget, 5)
    assert kept_encounter(page)["current"]["turn"] == 1  # one turn on, none skipped
    expect(widget.locator("[role=alert]")).to_have_count(0)  # nothing to say: its answer is on screen
    widget.locator(".rollbook-encounter__undo").evaluate(double)
    steps_done(widget, 4)
    page.wait_for_timeout(1000)
    steps_done(widget, 4)
    assert kept_encounter(page)["current"] == first


def test_end_shows_encounter_ended_and_bring_it_back_where_the_thumb_is(tab: Visit) -> None:
    """End is tapped at the foot of the fight, which goes with it: the start form that is drawn in
    its place is shorter, and "Encounter ended." with Bring it back (a slip undone in one tap) was
    left 170 px above the screen."""
    page = tab("tools/encounter/")
    widget = three_typical_foes(page)
    widget.get_by_text("Rulings and ending the encounter").click()
    end = widget.get_by_role("button", name="End the encounter")
    end.scroll_into_view_if_needed()
    end.tap()
    back = widget.get_by_role("button", name="Bring it back")
    expect(back).to_be_visible()
    page.evaluate(STILL)
    box = back.bounding_box()
    assert box and 48 <= box["y"] and box["y"] + box["height"] <= SCREEN - BAR, f"Bring it back at {box}, out of view"
    back.tap()
    steps_done(widget, 3)


def test_a_stunned_combatant_is_offered_no_attack_and_the_reason_is_where_the_button_was(tab: Visit) -> None:
    enc = engine("encounter start", rules="opencore")["encounter"]
    for name, side in (("Buck", "players"), ("Orc", "orcs")):
        enc = engine("encounter add", encounter=enc, name=name, side=side, typical=True)["encounter"]
    enc = engine("encounter next", encounter=enc, roll={"p1": 20, "o1": 1})["encounter"]  # Buck's turn
    enc = engine("encounter crit", encounter=enc, target="o1", type="impact", roll=75)["encounter"]  # Orc stunned
    enc = engine("encounter next", encounter=enc, seed=1)["encounter"]  # the Orc's turn
    now = datetime.now(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")
    page = tab("tools/encounter/", kept={"rollbook": 2, "encounter": {"current": enc, "undo": [], "full": {}, "seed": None, "updated": now}})
    card = page.locator("rollbook-encounter li[aria-current='true']")
    expect(card).to_have_attribute("data-id", "o1")
    expect(card.locator(".rollbook-combatant__refused")).to_have_text("Orc is stunned: unable to attack.", timeout=ENGINE_TIMEOUT_MS)
    expect(card.locator(".rollbook-encounter__attack")).to_have_count(0)
    expect(card.get_by_role("button", name="Defense action")).to_be_visible()  # what is still open is offered


def test_a_fumbles_extra_attack_is_one_tap_on_the_card_that_has_it_out_of_turn(tab: Visit) -> None:
    """OpenCore's Fumble Chart, 81-90: "falls over - opponent gets an immediate extra attack". Buck
    fumbles on his own turn: the Orc's card (not the one acting) offers its extra attack in one tap,
    draws the answer there, in view, and offers it no more; Buck's turn goes on."""
    enc = engine("encounter start", rules="opencore")["encounter"]
    for name, side in (("Buck", "players"), ("Orc", "orcs")):
        enc = engine("encounter add", encounter=enc, name=name, side=side, typical=True)["encounter"]
    enc = engine("encounter next", encounter=enc, roll={"p1": 20, "o1": 1})["encounter"]  # Buck's turn
    fumbled = engine("encounter attack", encounter=enc, attacker="p1", target="o1", attack_roll=3,
                     attacker_fumble_roll=85, defense_roll=50, seed=1)
    assert "falls over" in fumbled["text"].lower()
    now = datetime.now(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")
    page = tab("tools/encounter/", kept={"rollbook": 2, "encounter": {"current": fumbled["encounter"], "undo": [], "full": {}, "seed": 7, "updated": now}})
    orc = page.locator("rollbook-encounter li[data-id='o1']")
    extra = orc.get_by_role("button", name="Extra attack on Buck")
    expect(extra).to_be_visible(timeout=ENGINE_TIMEOUT_MS)
    expect(orc).to_have_attribute("aria-current", "false")  # out of turn
    expect(page.locator("rollbook-encounter .rollbook-encounter__extra-attack")).to_have_count(1)  # Buck has none
    thumb = Thumb(page)
    before = logged(page)
    thumb.tap(extra)
    step_kept(page, before)
    answer = thumb.reads(orc.locator("[data-step-answer]"))
    assert answer.startswith("Extra attack: ") and "Buck" in answer, answer
    assert thumb.read == 0 and thumb.taps == 1, f"{thumb.read} px to scroll to read it"
    expect(extra).to_have_count(0)  # used
    kept = kept_encounter(page)["current"]
    assert any(entry["text"].startswith("Orc attacks Buck (extra attack)") for entry in kept["log"])
    orc_kept = next(c for c in kept["combatants"] if c["id"] == "o1")
    assert not any(e["kind"] == "extra-attack" for e in orc_kept["effects"]) and not orc_kept["acted"]
    expect(page.locator("rollbook-encounter li[aria-current='true']")).to_have_attribute("data-id", "p1")
    steps_done(page.locator("rollbook-encounter"), 1)


def bucks_turn(tab: Visit, weapon: str, dropped: bool = False, orcs_weapon: str = "Hand to Hand") -> tuple[Page, Locator]:
    """An OpenCore fight kept and opened on Buck's turn (Buck with `weapon`, and it `dropped`, against
    a typical Orc with `orcs_weapon`, slower than Buck's); the page and Buck's card."""
    enc = engine("encounter start", rules="opencore")["encounter"]
    enc = engine("encounter add", encounter=enc, name="Buck", side="players", typical=True, weapon=weapon)["encounter"]
    enc = engine("encounter add", encounter=enc, name="Orc", side="orcs", typical=True, weapon=orcs_weapon)["encounter"]
    assert enc["combatants"][0]["name"] == "Buck"
    enc = engine("encounter next", encounter=enc, roll={"p1": 20, "o1": 1})["encounter"]
    if dropped:
        enc = engine("encounter effect", encounter=enc, who="p1", kind="dropped-weapon")["encounter"]
    now = datetime.now(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")
    page = tab("tools/encounter/", kept={"rollbook": 2, "encounter": {"current": enc, "undo": [], "full": {}, "seed": 7, "updated": now}})
    return page, page.locator("rollbook-encounter li[data-id='p1']")


def kept_by_tapping(page: Page, button: Locator) -> str:
    """`button` tapped and its step kept; the kept encounter's log, every event's words."""
    before = logged(page)
    button.click()
    step_kept(page, before)
    return "\n".join(entry["text"] for entry in kept_encounter(page)["current"]["log"])


def refused_at(card: Locator, label: str, said: str) -> Locator:
    """The card's step was refused at the field `label`: focused, marked, the message beside it
    (starting with the label, then `said`) and in view above the Next / Undo bar. The field."""
    field = card.get_by_label(label, exact=True)
    expect(field).to_be_focused(timeout=ENGINE_TIMEOUT_MS)
    expect(field).to_have_attribute("aria-invalid", "true")
    expect(card.locator(".rollbook-problem")).to_contain_text(f"{label}: {said}")
    box = field.bounding_box()
    assert box and 48 <= box["y"] and box["y"] + box["height"] <= SCREEN - BAR, f"the field at {box}, out of view"
    return field


def test_a_combatant_whose_weapon_was_dropped_attacks_hand_to_hand_in_one_tap(tab: Visit) -> None:
    """Fumble chart, "drops weapon": until it is picked up the fists are what is left. The engine
    refuses an attack that names no weapon then, and the card's Attack named none: every tap said
    "Buck has dropped its weapon ... or attack Hand to Hand", which no button on the page could do."""
    page, buck = bucks_turn(tab, "Sword", dropped=True)
    attack = buck.locator(".rollbook-encounter__attack")
    expect(attack).to_have_text("Attack Orc (Hand to Hand)", timeout=ENGINE_TIMEOUT_MS)
    before = logged(page)
    attack.click()
    step_kept(page, before)
    expect(page.locator("rollbook-encounter .rollbook-problem")).to_have_count(0)
    assert any(entry["text"].startswith("Buck attacks Orc") for entry in kept_encounter(page)["current"]["log"])
    steps_done(page.locator("rollbook-encounter"), 1)


def test_a_thrown_weapons_damage_and_dice_rolled_at_the_table_go_into_the_attack(tab: Visit) -> None:
    """The Weapons Table gives Thrown weapons no damage and no critical table: the engine asks for
    both, and the card had no field for either, so such a combatant could never attack. "Attack
    options" takes them, the bonuses and the two d100s rolled at the table; the rolls count for one
    attack, each refusal is at its field."""
    page, buck = bucks_turn(tab, "Thrown weapons")
    attack = buck.locator(".rollbook-encounter__attack")
    expect(attack).to_have_text("Attack Orc", timeout=ENGINE_TIMEOUT_MS)
    attack.click()  # no damage roll: refused at its field, which is opened, focused and in view
    refused_at(buck, "Damage roll", "Thrown weapons deal the thrown weapon's own damage").fill("4")
    buck.get_by_label("Attack roll (1d100)").fill("90")
    buck.get_by_label("Defense roll (1d100)").fill("10")
    attack.click()  # a hit that reaches HP: which critical table, the Weapons Table does not say either
    table = buck.get_by_label("Critical table of the attack")
    expect(table).to_be_focused(timeout=ENGINE_TIMEOUT_MS)
    expect(buck.locator(".rollbook-problem")).to_contain_text("Critical table of the attack: which critical table does this hit use?")
    table.select_option("impact")
    before = logged(page)
    attack.click()
    step_kept(page, before)
    chain = buck.locator("dl.rollbook-chain")
    expect(chain).to_contain_text("90 →")
    expect(chain).to_contain_text("10 →")
    expect(chain).to_contain_text(": 4")  # the damage as rolled at the table
    expect(buck.locator(".rollbook-problem")).to_have_count(0)
    steps_done(page.locator("rollbook-encounter"), 1)
    # used: emptied for Buck's next attack (his form is gone this round: he has acted)
    kept_options = page.evaluate("() => document.querySelector('rollbook-encounter').edits.p1")
    assert [kept_options[k] for k in ("damage_roll", "attack_roll", "defense_roll")] == ["", "", ""], kept_options


def test_a_weapons_mode_is_chosen_on_the_acting_card_and_goes_into_the_attack(tab: Visit) -> None:
    """The Assault Rifle fires single, burst or full auto (the Weapons Table), and the card's attack
    named no mode: the engine took the first, and a burst or full auto took tools/combat/."""
    page, buck = bucks_turn(tab, "Assault Rifle", orcs_weapon="Shotgun")
    attack = buck.locator(".rollbook-encounter__attack")
    expect(attack).to_have_text("Attack Orc", timeout=ENGINE_TIMEOUT_MS)
    buck.locator("summary", has_text="Attack options").click()
    mode = buck.get_by_label("Mode", exact=True)
    expect(mode.locator("option")).to_have_text(["single", "burst", "full auto"])  # the engine's table, in its order
    mode.select_option("full auto")
    buck.get_by_label("Attack roll (1d100)").fill("90")
    buck.get_by_label("Defense roll (1d100)").fill("10")
    expect(buck.locator("summary", has_text="Attack options")).to_have_text("Attack options (3)")
    said = kept_by_tapping(page, attack)
    assert "Buck attacks Orc" in said and "Damage 3d10+20" in said, said  # full auto's damage, not single's 3d10


def test_a_power_attacks_from_the_acting_card_with_its_own_numbers_each_refusal_at_its_field(tab: Visit) -> None:
    """OpenCore's Powers attack without a weapon (a Physical Power's score is the combat skill); the
    card could attack only with the weapon in hand. "Attack with" offers the engine's kinds of Power,
    shows the fields each takes and hides the weapon's, and the button says what attacks."""
    page, buck = bucks_turn(tab, "Sword")
    attack = buck.locator(".rollbook-encounter__attack")
    expect(attack).to_have_text("Attack Orc", timeout=ENGINE_TIMEOUT_MS)
    buck.locator("summary", has_text="Attack options").click()
    with_what = buck.get_by_label("Attack with")
    expect(with_what.locator("option")).to_have_text(["Its weapon (Sword)", "Touch Power (Hand-to-Hand)", "Physical Power (its score)",
                                                     "Mental Power (not blocked)"])
    with_what.select_option("physical")
    expect(attack).to_have_text("Attack Orc (Physical Power)")
    expect(buck.get_by_label("Damage roll")).to_have_count(0)  # the weapon's own fields go with it
    expect(buck.get_by_label("Better weapon's bonus")).to_have_count(0)
    attack.click()  # no damage of its own: refused at that field, focused and in view
    refused_at(buck, "Power's damage", "a Power's damage is a number the GM gives").fill("6")
    buck.get_by_label("Power's score").fill("70")
    buck.get_by_label("Attack roll (1d100)").fill("90")
    buck.get_by_label("Defense roll (1d100)").fill("10")
    buck.get_by_label("Critical table of the attack").select_option("impact")
    said = kept_by_tapping(page, attack)
    assert "Buck attacks Orc: Attack 90 → 160" in said and "Damage 6 (Power)" in said, said  # the Power's score as the skill, its damage
    expect(buck.locator(".rollbook-problem")).to_have_count(0)


def test_a_cyno_strikes_dice_rolled_at_the_table_go_into_the_strike_each_used_once(tab: Visit) -> None:
    """A GM who rolls Cyno's dice at the table had nowhere on the card to give them: the strike, the
    dodge or parry, the damage. "Strike options" takes each the strike declared calls for (a dodge
    roll only against a dodge), a refusal at its field; once kept they are emptied for the next."""
    enc = engine("encounter start", rules="cyno")["encounter"]
    enc = engine("encounter add", encounter=enc, name="Rachel", side="players", weapon="2d6", score=RACHEL["score"])["encounter"]
    enc = engine("encounter add", encounter=enc, name="Ganger", side="gang", weapon="1d6", score=GANGER["score"])["encounter"]
    enc = engine("encounter next", encounter=enc, roll={"p1": 4, "g1": 1})["encounter"]  # Rachel first
    now = datetime.now(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")
    page = tab("tools/encounter/", kept={"rollbook": 2, "encounter": {"current": enc, "undo": [], "full": {}, "seed": 7, "updated": now}})
    rachel = page.locator("rollbook-encounter li[data-id='p1']")
    strike = rachel.locator(".rollbook-encounter__attack")
    expect(strike).to_have_text("Strike Ganger", timeout=ENGINE_TIMEOUT_MS)
    rachel.locator("summary", has_text="Strike options").click()
    # (tapped at once: the strike charts' lines, the engine's last table to come, may be drawn above
    # the rolls after the refusal, and the refused field is brought back into view then)
    expect(rachel.get_by_label("Dodge or parry roll (1d20)")).to_have_count(0)  # no dodge or parry declared: none to roll
    rachel.get_by_label("Target's defense").select_option("dodge")
    rachel.get_by_label("Strike roll (1d20)").fill("25")
    strike.click()  # no d20 shows 25: refused at that field, focused and in view
    refused_at(rachel, "Strike roll (1d20)", "the strike roll must be between 1 and 20, not 25").fill("15")
    rachel.get_by_label("Dodge or parry roll (1d20)").fill("3")
    rachel.get_by_label("Damage roll").fill("9")
    expect(rachel.locator("summary", has_text="Strike options")).to_have_text("Strike options (3)")
    said = kept_by_tapping(page, strike)
    assert "Rachel strikes Ganger: 15 " in said and "dodge fails: 3 " in said and "takes 9 DP" in said, said
    expect(rachel.locator(".rollbook-problem")).to_have_count(0)
    kept_options = page.evaluate("() => document.querySelector('rollbook-encounter').edits.p1")
    assert [kept_options[k] for k in ("roll", "defense_roll", "damage_roll")] == ["", "", ""], kept_options  # used: one strike's
    expect(rachel.locator("summary", has_text="Strike options")).to_have_text("Strike options")


def test_start_says_the_engine_is_starting_at_the_button_within_100_ms_on_a_slow_phone(fresh_phone, base_url: str) -> None:
    held: list[Any] = []
    fresh_phone.route("**/pyodide/*/pyodide.asm.mjs", lambda route: held.append(route))  # the engine still on its way
    try:
        page = fresh_phone.new_page()
        page.goto(base_url + "tools/encounter/")
        widget = page.locator("rollbook-encounter")
        button = widget.get_by_role("button", name="Start the encounter")
        expect(button).to_be_visible()
        # the page's own clock: from the tap to the first frame that has the words at the button
        page.evaluate("""() => {
          window.__said = new Promise((done) => {
            document.addEventListener("click", () => {
              const tapped = performance.now();
              new MutationObserver((_, observer) => {
                if (document.querySelector(".rollbook-encounter__waiting")) { observer.disconnect(); done(performance.now() - tapped); }
              }).observe(document.querySelector("rollbook-encounter"), { childList: true, subtree: true });
            }, { capture: true, once: true });
          });
        }""")
        button.click()
        waiting = widget.locator(".rollbook-encounter__waiting")
        expect(waiting).to_have_text("Starting the dice engine…", timeout=2000)
        took = page.evaluate("window.__said")
        below, said = button.bounding_box(), waiting.bounding_box()
        assert below and said and 0 <= said["y"] - (below["y"] + below["height"]) < 40, (below, said)
        assert said["y"] + said["height"] <= SCREEN
        print(f"Start: said at the button {took:.1f} ms after the tap")
        assert took < 100
    finally:
        fresh_phone.unroute("**/pyodide/*/pyodide.asm.mjs")
        for route in held:
            route.continue_()
    expect(widget.get_by_role("heading", name="Before the first round")).to_be_visible(timeout=ENGINE_TIMEOUT_MS)
    expect(widget.locator(".rollbook-encounter__waiting")).to_have_count(0)


def test_a_reload_mid_encounter_draws_attack_where_it_stays(fresh_phone, base_url: str) -> None:
    # The card is drawn from the kept encounter at once; the engine's status (the line above the
    # bars) comes after: its room is kept, so Attack does not move under the thumb (it moved 28 px).
    enc = engine("encounter start", rules="opencore")["encounter"]
    for name, side in (("Buck", "players"), ("Orc", "orcs")):
        enc = engine("encounter add", encounter=enc, name=name, side=side, typical=True)["encounter"]
    enc = engine("encounter next", encounter=enc, roll={"p1": 20, "o1": 1})["encounter"]
    now = datetime.now(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")
    fresh_phone.add_init_script("""
      window.__tops = new Set();
      const look = () => {
        const button = document.querySelector("li[aria-current='true'] .rollbook-encounter__attack");
        if (button) window.__tops.add(Math.round(button.getBoundingClientRect().top + scrollY));
        requestAnimationFrame(look);
      };
      requestAnimationFrame(look);""")
    page = fresh_phone.new_page()
    page.goto(base_url + "tools/encounter/")
    keep(page, {"encounter": {"current": enc, "undo": [], "full": {}, "seed": None, "updated": now}})
    card = page.locator("rollbook-encounter li[aria-current='true']")
    expect(card.locator(".rollbook-combatant__status")).to_contain_text("initiative", timeout=ENGINE_TIMEOUT_MS)
    page.wait_for_timeout(300)
    tops = page.evaluate("[...window.__tops]")
    assert tops and max(tops) - min(tops) <= 1, tops
