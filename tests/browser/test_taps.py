"""The quick paths of issue #18's budgets, at 390 x 844: every tap and every typed field a player
makes is counted (Taps), and the count is asserted. A menu counts two taps (open it, pick one), a
typed field one tap (into it) and one field. What only sets the scene (a first roll, a reload) is
done on the page directly and not counted."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Locator, Page, TimeoutError as PlaywrightTimeout, expect

from browserkit import ENGINE_TIMEOUT_MS, Visit, phone_context, widgets_drawn
from kit.engine import engine
from kit.kept import KEPT

pytestmark = [pytest.mark.browser, pytest.mark.cpython_only]


class Taps:
    """A player's taps and typed fields, counted; each tapped thing must be on screen already
    (Playwright would scroll to it, which a budget of no scrolling does not allow)."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.taps = 0
        self.fields = 0

    def in_view(self, target: Locator) -> None:
        expect(target).to_be_in_viewport(ratio=1)  # wholly on screen, as it is

    def tap(self, target: Locator) -> None:
        self.in_view(target)
        target.click()
        self.taps += 1

    def type(self, target: Locator, text: str) -> None:
        self.tap(target)
        target.fill(text)
        self.fields += 1

    def pick(self, target: Locator, value: str) -> None:
        self.in_view(target)
        target.select_option(value)
        self.taps += 2


def kept(page: Page) -> dict[str, Any]:
    return page.evaluate(f"() => JSON.parse(localStorage.getItem('{KEPT}') || '{{\"log\": [], \"characters\": []}}')")


def test_roll_1d20_plus_5_again_after_a_reload_in_one_tap(phone, base_url: str) -> None:
    page = phone.new_page()
    page.goto(base_url + "tools/roller/")
    field = page.get_by_label("Dice expression")
    field.fill("1d20+5")
    field.press("Enter")
    expect(page.locator(".rollbook-total__value")).to_be_visible(timeout=ENGINE_TIMEOUT_MS)
    expect(page.locator("#rollbook-odds-title")).to_contain_text("1d20+5", timeout=ENGINE_TIMEOUT_MS)

    # the odds heading follows the expression: after an error it names none
    field.fill("2d")
    field.press("Enter")
    expect(page.locator("#rollbook-roller-problem")).to_be_visible()
    expect(page.locator("#rollbook-odds-title")).to_have_text("Exact odds")

    page.reload()
    expect(field).to_have_value("1d20+5")  # the last roll made here, from the kept log
    recent = page.get_by_role("group", name="Recent")
    expect(recent.get_by_role("button")).to_have_text(["1d20+5"])  # the failed "2d" was never kept
    taps = Taps(page)
    taps.tap(page.get_by_role("button", name="Roll", exact=True))
    expect(page.locator(".rollbook-total__value")).to_be_visible(timeout=ENGINE_TIMEOUT_MS)
    first, again = kept(page)["log"]
    assert again["expression"] == "1d20+5" and again["seed"] != first["seed"]
    expect(page.locator(".rollbook-total__value")).to_have_text(
        str(engine("roll", expression="1d20+5", seed=again["seed"])["total"]))
    assert (taps.taps, taps.fields) == (1, 0)

    # and from Recent, one tap too
    taps.tap(recent.get_by_role("button", name="Roll 1d20+5 again"))
    expect(page.locator(".rollbook-log__entry")).to_have_count(3)
    assert taps.taps == 2

    # a pressed secondary button (focused and under the pointer) in the light palette: its text
    # stands out from its background by 4.5:1 at least
    die = page.get_by_role("group", name="Quick dice").get_by_role("button", name="d6", exact=True)
    die.focus()
    die.hover()
    page.mouse.down()
    ratio = die.evaluate("""async (button) => {
      await Promise.all(button.getAnimations().map((a) => a.finished));
      const style = getComputedStyle(button);
      const rgb = (c) => c.match(/[\\d.]+/g).slice(0, 3).map(Number);
      const lum = (c) => { const [r, g, b] = rgb(c).map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
        return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
      const [a, b] = [lum(style.color), lum(style.backgroundColor)].sort((x, y) => y - x);
      return (a + 0.05) / (b + 0.05);
    }""")
    page.mouse.up()
    assert page.evaluate("() => document.body.getAttribute('data-md-color-scheme')") == "default"
    assert ratio >= 4.5, f"pressed secondary button: {ratio:.2f}:1"


def test_roll_a_character_and_keep_it_named_in_three_taps_one_field_no_scrolling(tab: Visit) -> None:
    page = tab("tools/character/")
    taps = Taps(page)
    roll = page.get_by_role("button", name="Roll a character")
    expect(roll).to_be_visible()
    scrolled = page.evaluate("() => scrollY")
    taps.tap(roll)
    expect(page.locator("[data-score=HP]")).to_be_visible(timeout=ENGINE_TIMEOUT_MS)
    taps.type(page.get_by_label("Character name"), "Brakka")
    taps.tap(page.get_by_role("button", name="Keep this character"))
    done = page.locator(".rollbook-done")
    expect(done).to_contain_text("Brakka is kept in this browser and is the active character")
    taps.in_view(done)
    assert page.evaluate("() => scrollY") == scrolled
    assert (taps.taps, taps.fields) == (3, 1)
    (character,) = kept(page)["characters"]
    expected = engine("opencore character", seed=character["seed"])
    assert character["name"] == "Brakka" and character["scores"] == expected["rolled"]
    expect(page.locator("[data-score=HP]")).to_have_text(str(expected["hp"]))


def test_look_up_a_critical_with_the_engine_rolling_in_three_taps(tab: Visit) -> None:
    page = tab("tools/criticals/")
    taps = Taps(page)
    kind = page.get_by_label("Damage type")
    kind.wait_for()
    # reading down to the form is not a tap: the whole form then fits on the screen
    page.locator("rollbook-criticals form").evaluate("(form) => form.scrollIntoView({block: 'center'})")
    taps.pick(kind, "impact")
    taps.tap(page.get_by_role("button", name="Look up"))
    row = page.locator(".rollbook-crit-row")
    expect(row).to_be_visible(timeout=ENGINE_TIMEOUT_MS)
    assert taps.taps <= 3
    (entry,) = kept(page)["log"]
    assert entry["total"] == engine("opencore crit", type="impact", seed=entry["seed"])["roll"]


def test_the_combat_page_takes_the_kept_characters_by_a_tap(tab: Visit) -> None:
    scores = {"STR": 80, "DEX": 33, "AGL": 95, "CON": 46, "INT": 89, "PER": 95, "WIS": 84, "CHA": 68, "COM": 1}
    brakka = {"id": "brakka", "name": "Brakka", "scores": scores, "hp_roll": 60, "locked": [], "options": {},
              "created": "2026-12-01T18:00:00.000Z"}
    page = tab("tools/combat/", kept={"rollbook": 1, "log": [], "characters": [brakka], "active": "brakka"})

    jump = page.get_by_role("navigation", name="Helpers on this page")
    expect(jump.get_by_role("link")).to_have_count(11)
    # a player taps what is drawn: on a loaded machine the helpers above the party's could still be
    # drawing after the jump (each with the kept character's own notes), moving it off screen
    widgets_drawn(page)
    # and the engine started: a helper drawn while it starts (3 s after the load, when the start is
    # slow) says "Starting the dice engine…", a line it drops once the engine is ready
    expect(page.get_by_text("Starting the dice engine")).to_have_count(0, timeout=ENGINE_TIMEOUT_MS)
    taps = Taps(page)
    taps.tap(jump.get_by_role("link", name="Party initiative"))
    party = page.locator("rollbook-opencore-party-initiative")
    tick = party.get_by_label("Brakka (DEX 33)")
    taps.tap(tick)
    taps.tap(party.get_by_role("button", name="Order the party"))
    expect(party.locator(".rollbook-total")).to_contain_text("Brakka acts first", timeout=ENGINE_TIMEOUT_MS)
    assert (taps.taps, taps.fields) == (3, 0)
    (entry,) = kept(page)["log"]
    expected = engine("opencore party-initiative", character=["name=Brakka,dex=33"], seed=entry["seed"])
    expect(party.locator(".rollbook-total__value")).to_have_text(str(expected["order"][0]["total"]))

    # the active character's STR and DEX are filled in, and say whose they are
    attack = page.locator("rollbook-opencore-attack")
    expect(attack.get_by_label("Attacker's STR")).to_have_value("80")
    expect(attack.locator(".rollbook-field", has=page.get_by_label("Attacker's STR"))).to_contain_text("Brakka's")
    expect(page.locator("rollbook-opencore-initiative").get_by_label("DEX", exact=True)).to_have_value("33")
    # one More options fold per form
    for name in ("opencore-attack", "cyno-strike", "cyno-dodge", "cyno-parry"):
        expect(page.locator(f"rollbook-{name} details.rollbook-fold")).to_have_count(1)


# --- issue 38: taps that cannot slip, answers where the thumb is, inputs remembered ------------

# Every request a page sends its engine, by command (counted where the page posts it to the worker).
COUNT_ASKED = """(() => {
  const post = Worker.prototype.postMessage;
  Worker.prototype.postMessage = function (message, ...rest) {
    if (message && message.request) (window.__asked ??= []).push(message.request.command);
    return post.call(this, message, ...rest);
  };
})();"""


def asked(page: Page, command: str) -> int:
    return page.evaluate("(command) => (window.__asked ?? []).filter((c) => c === command).length", command)


def read_down_to(target: Locator) -> None:
    """The reader scrolls until `target` is wholly on screen (reading down is not a tap)."""
    target.evaluate("(el) => scrollBy(0, Math.max(0, Math.ceil(el.getBoundingClientRect().bottom - innerHeight) + 8))")


# Where the element and the page were, when it did not come on screen: a failure says why.
WHERE = """async (selector) => {
  const box = document.querySelector(selector)?.getBoundingClientRect();
  let frames = 0;
  const counting = () => { frames += 1; requestAnimationFrame(counting); };
  requestAnimationFrame(counting);
  await new Promise((done) => setTimeout(done, 1000));
  return {box: box && [box.top, box.bottom], scrollY, innerHeight, framesInASecond: frames,
    visibility: document.visibilityState, engine: [...document.querySelectorAll(".rollbook-engine-state")].map((e) => e.textContent),
    material: !document.querySelector('script[type="rollbook/material-later"]'), hash: location.hash};
}"""


def on_screen(page: Page, selector: str) -> dict[str, float]:
    """Wait until the element's box lies wholly inside the 844 px screen (a smooth scroll may be
    on its way), and return it. (Polled on a timer, not on frames: a page that draws no frames
    fails with where things were, not a bare timeout.)"""
    try:
        page.wait_for_function("""(selector) => { const box = document.querySelector(selector)?.getBoundingClientRect();
          return Boolean(box && box.height > 0 && box.top >= 0 && box.bottom <= innerHeight); }""",
                               arg=selector, timeout=5_000, polling=100)
    except PlaywrightTimeout:
        pytest.fail(f"{selector} not wholly on screen after 5 s: {page.evaluate(WHERE, selector)}")
    return page.locator(selector).bounding_box()


@pytest.mark.parametrize("path, button, command, answer", [
    ("tools/roller/", "Roll", "roll", "rollbook-roller .rollbook-total__value"),
    ("tools/criticals/", "Look up", "opencore crit", "rollbook-criticals .rollbook-total__value"),
    ("tools/checks/", "Roll the check", "codex check", "rollbook-codex-check .rollbook-total__value"),
    ("tools/character/", "Roll a character", "opencore character", "[data-score=HP]"),
])
def test_a_double_tap_is_one_roll_and_a_tap_after_the_answer_another(fresh_phone, base_url: str, path: str, button: str,
                                                                       command: str, answer: str) -> None:
    fresh_phone.add_init_script(COUNT_ASKED)
    page = fresh_phone.new_page()
    page.goto(base_url + path)
    if path == "tools/roller/":
        page.get_by_label("Dice expression").fill("1d6")
    go = page.get_by_role("button", name=button, exact=True).first
    go.dblclick()  # two taps, the second long before the engine answers the first
    expect(page.locator(answer)).to_be_visible(timeout=ENGINE_TIMEOUT_MS)
    page.wait_for_timeout(500)
    assert asked(page, command) == 1
    go.click()  # once the answer is shown, a tap rolls again
    page.wait_for_function("(command) => window.__asked.filter((c) => c === command).length === 2", arg=command)
    if command != "opencore character":  # a character is not a roll in the log
        page.wait_for_function("(key) => JSON.parse(localStorage.getItem(key)).log.length === 2", arg=KEPT)


def test_look_up_a_critical_with_the_engine_rolling_in_one_tap_the_answer_in_view(tab: Visit) -> None:
    """Budget (issue 38): 1 tap, the answer wholly on the 844 px screen, the page scrolled no
    more than it takes, Look up still under the thumb."""
    page = tab("tools/criticals/")
    look_up = page.get_by_role("button", name="Look up")
    look_up.wait_for()
    read_down_to(look_up)
    taps = Taps(page)
    taps.tap(look_up)
    expect(page.locator("rollbook-criticals .rollbook-total__value")).to_be_visible(timeout=ENGINE_TIMEOUT_MS)
    box = on_screen(page, "rollbook-criticals .rollbook-answer")
    assert box["y"] + box["height"] <= 844
    taps.in_view(look_up)
    assert taps.taps == 1
    (entry,) = kept(page)["log"]
    expect(page.locator("rollbook-criticals .rollbook-total__value")).to_have_text(
        str(engine("opencore crit", type="slash", seed=entry["seed"])["roll"]))

    # the roller: its total no longer peeks at the bottom edge
    tab("tools/roller/")
    page.get_by_label("Dice expression").fill("1d20+5")
    taps.tap(page.get_by_role("button", name="Roll", exact=True))
    expect(page.locator("rollbook-roller .rollbook-total__value")).to_be_visible(timeout=ENGINE_TIMEOUT_MS)
    on_screen(page, "rollbook-roller .rollbook-answer")
    taps.in_view(page.get_by_role("button", name="Roll", exact=True))


def test_a_codex_check_at_dc_15_with_plus_3_again_after_a_reload_in_one_tap_no_field(phone, base_url: str) -> None:
    """Budget (issue 38): the first time 1 tap and 1 field (DC 15 is the default), the second time,
    after a reload, 1 tap and 0 fields: the helper remembers what it was last rolled with."""
    page = phone.new_page()
    page.goto(base_url + "tools/checks/")
    check = page.locator("rollbook-codex-check")
    go = check.get_by_role("button", name="Roll the check")
    go.wait_for()
    read_down_to(go)
    taps = Taps(page)
    taps.type(check.get_by_label("Skill modifier"), "3")
    expect(check.get_by_label("DC", exact=True)).to_have_value("15")
    taps.tap(go)
    expect(check.locator(".rollbook-total__value")).to_be_visible(timeout=ENGINE_TIMEOUT_MS)
    on_screen(page, "rollbook-codex-check .rollbook-answer")
    assert (taps.taps, taps.fields) == (2, 1)  # a typed field is a tap into it and a field

    page.reload()
    go.wait_for()
    read_down_to(go)
    expect(check.get_by_label("Skill modifier")).to_have_value("3")
    expect(check.get_by_label("DC", exact=True)).to_have_value("15")
    taps = Taps(page)
    taps.tap(go)
    expect(check.locator(".rollbook-total__value")).to_be_visible(timeout=ENGINE_TIMEOUT_MS)
    on_screen(page, "rollbook-codex-check .rollbook-answer")
    assert (taps.taps, taps.fields) == (1, 0)
    first, again = kept(page)["log"]
    assert "modifier=3" in again["link"] and "dc=15" in again["link"] and again["seed"] != first["seed"]
    expected = engine("codex check", modifier=3, dc=15, seed=again["seed"])
    expect(check.locator(".rollbook-total__value")).to_have_text(str(expected["total"]))


def test_with_less_motion_asked_for_the_answer_is_brought_into_view_at_once(browser: Any, base_url: str, outside) -> None:
    """prefers-reduced-motion: the page jumps straight to the answer, with no smooth scroll."""
    context = phone_context(browser, base_url, outside, reduced_motion="reduce")
    try:
        page = context.new_page()
        page.goto(base_url + "tools/roller/")
        page.get_by_label("Dice expression").fill("1d20+5")
        page.get_by_role("button", name="Roll", exact=True).click()
        expect(page.locator("rollbook-roller .rollbook-total__value")).to_be_visible(timeout=ENGINE_TIMEOUT_MS)
        page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
        box = page.locator("rollbook-roller .rollbook-answer").bounding_box()
        assert box["y"] >= 0 and box["y"] + box["height"] <= 844, box
    finally:
        context.close()
