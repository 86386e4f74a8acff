"""The analysis board in a real headless browser (Debian's chromium and chromedriver, driven by
Selenium): paste a position, read the solver's values, step through the principal variation,
switch to a player's view and get a suggestion, play a round against the random bot, review it,
review a record loaded from a file, build a position by putting cards into places and analyse
it, and open Scopone and 3-player positions by their link.

Screenshots go to $SCOPA_ARTIFACTS (default tests/artifacts/). Without /usr/bin/chromium the
tests are skipped on a developer's machine and fail in CI (CI set): .ci/run installs it.
"""
import json
import os
import re
import threading
import time
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")


def _unavailable(why: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"{why}: CI must run the browser tests (.ci/run installs chromium)", pytrace=False)
    pytest.skip(why, allow_module_level=True)


if not (CHROMIUM.exists() and CHROMEDRIVER.exists()):
    _unavailable("no /usr/bin/chromium and /usr/bin/chromedriver (apt-get install chromium chromium-driver)")
try:
    from selenium import webdriver
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support import expected_conditions as EC
    from selenium.webdriver.support.ui import Select, WebDriverWait
    import fastapi  # noqa: F401
    import uvicorn  # noqa: F401
except ImportError as exc:
    _unavailable(f"the web test dependencies are missing ({exc.name})")

from scopa_solver import (GameRecord, GreedyBot, Position, RandomBot, RoundRecord, Rules, analyze,  # noqa: E402
                          play_round, solve, suggest)
from scopa_solver.core.cards import iter_cards  # noqa: E402
from scopa_solver.web.app import free_port, make_server  # noqa: E402
import helpers  # noqa: E402

ARTIFACTS = Path(os.environ.get("SCOPA_ARTIFACTS") or Path(__file__).parent / "artifacts")
START = Position.new_round(seed=5)
# a position in the middle of a round: captures, a scopa, moves of different values
MID = Position.from_string("6dCd4c/Ad7d7s 3d5c6sFb 5dAs2s4s5s2b5b6b/RdRcCsCb "
                           "CcAbFc3cFdFs7b2c3bAc4d6cRs2d4b3s7cRb 0/1 0 1 1")
WAIT = 30


@pytest.fixture(scope="module")
def base_url():
    port = free_port()
    server = make_server(port)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 15
    while not server.started:
        assert time.monotonic() < deadline and thread.is_alive(), "the server did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(15)


@pytest.fixture(scope="module")
def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1400,1000",
                 "--disable-gpu"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)
    driver.set_page_load_timeout(WAIT)
    yield driver
    driver.quit()


def shot(driver, name):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    driver.save_screenshot(str(ARTIFACTS / f"{name}.png"))


def open_page(driver, url):
    driver.get(url)
    WebDriverWait(driver, WAIT).until(lambda d: d.execute_script("return document.body.dataset.ready") == "1")


def wait(driver, condition):
    # the page redraws parts of itself as answers come in: an element found may go stale
    return WebDriverWait(driver, WAIT, ignored_exceptions=(StaleElementReferenceException,)).until(condition)


def text(driver, css):
    return driver.find_element(By.CSS_SELECTOR, css).text


def rows(driver, css):
    return driver.find_elements(By.CSS_SELECTOR, f"{css} tbody tr")


def texts(driver, css):
    """The text of every element matching `css`, read at one moment (a live analysis redraws its
    rows as deeper answers land, so elements found one call earlier can be gone)."""
    return driver.execute_script(
        "return Array.from(document.querySelectorAll(arguments[0]), e => e.innerText.trim())", css)


def board_notation(driver):
    return driver.execute_script("const e = document.querySelector('#board-notation'); return e && e.textContent")


def test_paste_a_position_read_the_values_and_step_through_the_pv(browser, base_url):
    open_page(browser, base_url)
    box = browser.find_element(By.ID, "notation")
    box.clear()
    box.send_keys(MID.to_string(), Keys.ENTER)
    wait_exact(browser, len(MID.legal_moves()))
    expected = analyze(MID)
    shown = [(r.find_element(By.CSS_SELECTOR, ".move").text, r.find_element(By.CSS_SELECTOR, ".value").text)
             for r in rows(browser, "#moves")]
    assert shown == [(str(m.move), f"{m.value:+d}" if m.value else "0") for m in expected]
    best = [r.find_element(By.CSS_SELECTOR, ".move").text for r in rows(browser, "#moves")
            if "best" in r.get_attribute("class").split()]
    assert best == [str(m.move) for m in expected if m.value == expected[0].value]
    assert len(set(m.value for m in expected)) > 1
    assert len(browser.find_elements(By.CSS_SELECTOR, "#moves .exactness .ok")) == len(expected)  # every value exact
    assert len(browser.find_elements(By.CSS_SELECTOR, "#hand0 svg.card")) == 3
    assert len(browser.find_elements(By.CSS_SELECTOR, "#table svg.card")) == 4
    assert text(browser, "#stock .count") == str(len(MID.stock)) == "18"
    assert text(browser, "#pile0 .count") == "8" and text(browser, "#pile1 .scopas") == "1"
    assert text(browser, "#pile0 .coins") == str(MID.round_score().players[0].coins)
    assert urllib.parse.parse_qs(urllib.parse.urlparse(browser.current_url).query)["pos"] == [MID.to_string()]
    # the evaluation bar: the position's value for the chosen side (player 0, to move here)
    assert text(browser, "#eval-label").startswith(f"{expected[0].value:+d} for player 0" if expected[0].value
                                                    else "0 for player 0")

    # clicking the principal variation's second move plays the line to it
    pv = solve(MID).pv
    after = [MID.play(pv[0])]
    after.append(after[0].play(pv[1]))
    browser.find_element(By.CSS_SELECTOR, '#pv-moves li[data-index="2"]').click()
    wait(browser, lambda d: board_notation(d) == after[1].to_string() and text(d, "#hist-step") == "2 / 2")
    assert [e.get_attribute("data-move") for e in browser.find_elements(By.CSS_SELECTOR, "#history .hmove")] == \
        [str(m) for m in pv[:2]]
    body = browser.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.ARROW_LEFT)
    wait(browser, lambda d: board_notation(d) == after[0].to_string() and text(d, "#hist-step") == "1 / 2")
    body.send_keys(Keys.HOME)
    wait(browser, lambda d: board_notation(d) == MID.to_string())
    browser.find_element(By.ID, "hist-last").click()
    wait(browser, lambda d: board_notation(d) == after[1].to_string())
    browser.find_element(By.ID, "hist-first").click()
    wait(browser, lambda d: board_notation(d) == MID.to_string())
    browser.find_element(By.ID, "hist-next").click()
    wait(browser, lambda d: board_notation(d) == after[0].to_string())
    browser.find_element(By.ID, "hist-first").click()
    wait(browser, lambda d: board_notation(d) == MID.to_string())

    browser.find_element(By.ID, "tree-btn").click()
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#tree svg"))
    wait_exact(browser, len(MID.legal_moves()))
    shot(browser, "board-analysis")


def wait_exact(driver, count):
    """Until the move table has `count` rows and says its values are exact (the analysis deepens
    to the end of the round) and the principal variation is shown."""
    wait(driver, lambda d: len(rows(d, "#moves")) == count and d.find_elements(By.CSS_SELECTOR, "#trust.exact")
         and d.find_elements(By.CSS_SELECTOR, "#pv-moves li") and "to the end" in text(d, "#pv-value"))


def test_the_move_list_variations_highlights_and_the_browsers_back(browser, base_url):
    """Every move played goes into the list (a deal separator where new hands are dealt); a
    different move from an earlier point starts a variation; the address holds the line and the
    browser's Back steps back; the last move's card and captures are marked on the board."""
    open_page(browser, f"{base_url}/?pos={urllib.parse.quote(START.to_string())}")
    wait(browser, lambda d: len(rows(d, "#moves")) == len(START.legal_moves()) and d.find_elements(By.CSS_SELECTOR, "#pv-moves li"))
    pv = [e.text.split(". ", 1)[1] for e in browser.find_elements(By.CSS_SELECTOR, "#pv-moves li")]
    assert len(pv) == 36
    browser.find_element(By.CSS_SELECTOR, '#pv-moves li[data-index="7"]').click()     # past the first deal
    line = pv[:7]
    pos = START
    for m in line:
        pos = pos.play(m)
    wait(browser, lambda d: board_notation(d) == pos.to_string())
    assert [e.get_attribute("data-move") for e in browser.find_elements(By.CSS_SELECTOR, "#history .hmove")] == line
    assert text(browser, "#history .deal-sep") == "deal 2"        # new hands after the sixth move
    query = urllib.parse.parse_qs(urllib.parse.urlparse(browser.current_url).query)
    assert query["pos"] == [START.to_string()] and query["line"] == ["_".join(line)]
    # the last move: its card shown under the table, and marked where it went
    last = browser.find_element(By.CSS_SELECTOR, "#last-move .last")
    assert last.get_attribute("data-move") == line[-1]
    card = line[-1].split("x")[0]
    assert browser.find_elements(By.CSS_SELECTOR, f'#last-move svg.played[data-card="{card}"]')
    assert browser.find_elements(By.CSS_SELECTOR, f'#board svg.card.played[data-card="{card}"], #board svg.card.taken[data-card="{card}"]')
    # hovering a move of the analysis marks its card in the hand
    wait(browser, lambda d: len(rows(d, "#moves")) == len(pos.legal_moves()))
    row = rows(browser, "#moves")[0]
    hovered = row.get_attribute("data-move").split("x")[0]
    ActionChains(browser).move_to_element(row).perform()
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, f'#hand{pos.to_move} svg.card.hover[data-card="{hovered}"]'))

    # the browser's Back returns where the board was (one entry a step), Forward again
    browser.back()
    wait(browser, lambda d: board_notation(d) == START.to_string() and text(d, "#hist-step") == "0 / 7")
    browser.forward()
    wait(browser, lambda d: board_notation(d) == pos.to_string())
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_LEFT)
    before = START
    for m in line[:-1]:
        before = before.play(m)
    wait(browser, lambda d: board_notation(d) == before.to_string() and text(d, "#hist-step") == "6 / 7")
    browser.back()       # back, not forward to the line's end: the entry before the line
    wait(browser, lambda d: board_notation(d) == START.to_string())

    # from the third move on, another move: a variation; the main line stays
    browser.find_element(By.CSS_SELECTOR, '#history .hmove[data-ply="2"]').click()
    at = START.play(line[0]).play(line[1])
    wait(browser, lambda d: board_notation(d) == at.to_string() and len(rows(d, "#moves")) == len(at.legal_moves()))
    other = next(r for r in rows(browser, "#moves") if r.get_attribute("data-move") != line[2])
    other_move = other.get_attribute("data-move")
    other.click()
    wait(browser, lambda d: board_notation(d) == at.play(other_move).to_string())
    assert [e.get_attribute("data-move") for e in browser.find_elements(By.CSS_SELECTOR, "#history .variation .hmove")] == [other_move]
    assert len(browser.find_elements(By.CSS_SELECTOR, "#history .hmove")) == 8
    assert urllib.parse.parse_qs(urllib.parse.urlparse(browser.current_url).query)["line"] == \
        ["_".join(line[:2] + [other_move])]
    # a link with a line opens the board at its end, with the moves in the list
    open_page(browser, browser.current_url)
    wait(browser, lambda d: board_notation(d) == at.play(other_move).to_string() and text(d, "#hist-step") == "3 / 3")
    browser.back()       # the entry before: the board, not a blank page
    wait(browser, lambda d: d.execute_script("return document.body.dataset.ready") == "1"
         and board_notation(d) == at.to_string())


def test_a_scientifico_deal_shows_depth_limited_values_at_once_and_can_be_stopped(browser, base_url):
    """The first play of Scopone scientifico (40 cards to play): far too big to solve, the board
    still shows a value for every move at once, says they are depth-limited estimates and how
    far to trust them, deepens, and stops when asked. No infinite bounds anywhere."""
    deal = Position.new_round(seed=3, rules=Rules(players=4, game="scientifico"))
    open_page(browser, f"{base_url}/?pos={urllib.parse.quote(deal.to_string())}&seed=3")
    wait(browser, lambda d: len(rows(d, "#moves")) == len(deal.legal_moves()))
    values = texts(browser, "#moves tbody tr .value")
    assert all(v == "0" or v[0] in "+-" and v[1:].isdigit() for v in values), values
    assert browser.find_elements(By.CSS_SELECTOR, "#trust.estimate")
    assert "plays ahead (of 40 left)" in text(browser, "#trust") and "∞" not in text(browser, "body")
    assert "depth" in text(browser, "#moves-note") and "value for side 0" == text(browser, "#value-head")
    assert all(t.startswith("≈ d") for t in texts(browser, "#moves .exactness"))
    assert "for side 0 (0+2)" in text(browser, "#eval-label")
    # the header follows the position of the link: its game and seed
    assert Select(browser.find_element(By.ID, "deal-game")).first_selected_option.text == "Scopone scientifico"
    assert browser.find_element(By.ID, "seed").get_attribute("value") == "3"
    assert browser.find_element(By.ID, "an-stop").is_displayed()
    # the thinking line, an engine's info line: the depth done, the depth being searched, the
    # nodes counted live by the server's search (they move within a depth, not only when one
    # lands), n/s and a clock
    seen: dict = {}

    def ticked(d):
        m = re.fullmatch(r"deepening… depth (\d+) · searching (\d+) · ([\d.]+(?: [kMG])?) nodes · "
                         r"([\d.]+(?: [kMG])?) n/s · (\d+) s", text(d, "#an-status"))
        assert m, text(d, "#an-status")
        seen.setdefault((m[1], m[2]), set()).add(m[3])
        return len(seen[(m[1], m[2])]) >= 2
    wait(browser, ticked)
    browser.execute_script("window.scrollTo(0, 0)")
    shot(browser, "board-scientifico")
    browser.find_element(By.ID, "an-stop").click()
    wait(browser, lambda d: text(d, "#an-status") == "stopped" and d.find_element(By.ID, "an-go").is_displayed())
    depth = text(browser, "#moves-note")
    time.sleep(1.5)      # no more answers come in once stopped (not a timing assertion: nothing changes)
    assert text(browser, "#moves-note") == depth
    # the evaluation bar stays with the chosen side while the side to move changes
    Select(browser.find_element(By.ID, "eval-side")).select_by_index(1)
    wait(browser, lambda d: "for side 1 (1+3)" in text(d, "#eval-label"))
    rows(browser, "#moves")[0].click()
    wait(browser, lambda d: "for side 1 (1+3)" in text(d, "#eval-label") and "Seat 1" in text(d, "#moves-note"))
    browser.find_element(By.ID, "an-stop").click()

    # later in the round the analysis deepens live until the values are exact
    later = late(Rules(players=4, game="scientifico"), 3, 24)
    open_page(browser, f"{base_url}/?pos={urllib.parse.quote(later.to_string())}")
    wait(browser, lambda d: len(rows(d, "#moves")) == len(later.legal_moves()))
    notes = set()
    WebDriverWait(browser, 240, ignored_exceptions=(StaleElementReferenceException,)).until(
        lambda d: notes.add(text(d, "#moves-note")) or d.find_elements(By.CSS_SELECTOR, "#trust.exact"))
    assert any("depth" in n for n in notes) or len(notes) == 1      # seen at a depth first (unless exact at once)
    assert move_table(browser) == shown_values(analyze(later))
    assert len(browser.find_elements(By.CSS_SELECTOR, "#moves .exactness .ok")) == len(later.legal_moves())


@pytest.mark.parametrize("rules", [Rules(), Rules(players=3), Rules(players=4, game="scopone"), Rules(players=6)],
                         ids=["scopa", "3", "scopone", "6"])
def test_phone_width_has_no_sideways_overflow(browser, base_url, rules):
    pos = Position.new_round(seed=4, rules=rules)
    browser.set_window_size(420, 900)
    try:
        open_page(browser, f"{base_url}/?pos={urllib.parse.quote(pos.to_string())}")
        wait(browser, lambda d: len(rows(d, "#moves")) == len(pos.legal_moves()))
        width = browser.execute_script("return [document.documentElement.scrollWidth, document.documentElement.clientWidth]")
        assert width[0] <= width[1], width
        if rules.players == 4:
            browser.execute_script("window.scrollTo(0, 0)")
            shot(browser, "board-phone")
        # stop a live analysis before the next test (in one step: it may end by itself meanwhile)
        browser.execute_script("const b = document.getElementById('an-stop'); if (!b.hidden) b.click();")
    finally:
        browser.set_window_size(1400, 1000)


def rect(driver, element):
    return driver.execute_script("const r = arguments[0].getBoundingClientRect(); "
                                 "return {left: r.left, right: r.right, top: r.top, bottom: r.bottom, "
                                 "width: r.width, height: r.height}", element)


@pytest.fixture
def phone(browser):
    browser.set_window_size(420, 900)
    yield browser
    browser.set_window_size(1400, 1000)


@pytest.mark.parametrize("rules", [Rules(players=4, game="scopone"), Rules(players=6)], ids=["scopone", "6"])
def test_phone_width_table_cards_are_as_big_as_the_hands_cards(phone, base_url, rules):
    pos = Position.new_round(seed=4, rules=rules)
    assert pos.table
    open_page(phone, f"{base_url}/?pos={urllib.parse.quote(pos.to_string())}")
    wait(phone, lambda d: board_notation(d) == pos.to_string())
    table = [rect(phone, e) for e in phone.find_elements(By.CSS_SELECTOR, "#table svg.card")]
    hands = [rect(phone, e) for e in phone.find_elements(By.CSS_SELECTOR, '[id^="hand"] svg.card')]
    assert len(table) == len(list(iter_cards(pos.table))) and hands
    smallest = min(r["width"] for r in table), min(r["height"] for r in table)
    biggest = max(r["width"] for r in hands), max(r["height"] for r in hands)
    assert smallest[0] >= biggest[0] and smallest[1] >= biggest[1], (smallest, biggest)
    phone.execute_script("const b = document.getElementById('an-stop'); if (!b.hidden) b.click();")


def test_phone_width_two_player_piles_show_their_cards_row(phone, base_url):
    open_page(phone, f"{base_url}/?pos={urllib.parse.quote(MID.to_string())}")
    wait(phone, lambda d: board_notation(d) == MID.to_string())
    for p in (0, 1):
        box = rect(phone, phone.find_element(By.ID, f"pile{p}"))
        row = phone.find_element(By.CSS_SELECTOR, f"#pile{p} .cards.small")
        cards = row.find_elements(By.CSS_SELECTOR, "svg.card")
        assert len(cards) == len(list(iter_cards(MID.piles[p]))) > 0 and row.is_displayed()
        for card in cards:     # every card drawn, inside its pile's box
            r = rect(phone, card)
            assert r["width"] > 5 and r["height"] > 5
            assert box["left"] <= r["left"] and r["right"] <= box["right"] + 0.5, (p, box, r)
            assert box["top"] <= r["top"] and r["bottom"] <= box["bottom"] + 0.5, (p, box, r)
    phone.execute_script("const b = document.getElementById('an-stop'); if (!b.hidden) b.click();")


def test_phone_width_the_suggestions_best_badge_is_spaced_from_its_number(phone, base_url):
    view = START.view(0)
    open_page(phone, f"{base_url}/?pos={urllib.parse.quote(view.to_string())}")
    wait(phone, lambda d: board_notation(d) == view.to_string())
    phone.find_element(By.CSS_SELECTOR, '#tabs [data-tab="hidden"]').click()
    fill(phone, ("worlds", "10"), ("suggest-seed", "3"))
    phone.find_element(By.ID, "suggest-btn").click()
    suggestion_done(phone, 10)
    badge = rect(phone, phone.find_element(By.CSS_SELECTOR, "#suggest-table tr.best .optimal .badge"))
    number = rect(phone, phone.find_element(By.CSS_SELECTOR, "#suggest-table tr.best .optimal .pct"))
    assert "best" in text(phone, "#suggest-table tr.best .optimal .badge")
    # on one line, with a gap between the two boxes
    assert badge["top"] < number["bottom"] and number["top"] < badge["bottom"], (badge, number)
    assert number["left"] - badge["right"] >= 4, (badge, number)
    width = phone.execute_script("return [document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert width[0] <= width[1], width
    phone.execute_script("document.querySelector('#suggest-table').scrollIntoView({block: 'center'})")
    shot(phone, "suggestion-phone")


def test_a_link_opens_its_position_and_bad_notation_shows_a_message(browser, base_url):
    pos = Position.from_string("7d2c/3b4c 3s4s -/- - 0/0 0 1 -")
    open_page(browser, f"{base_url}/?pos={urllib.parse.quote(pos.to_string())}")
    wait(browser, lambda d: len(rows(d, "#moves")) == 2)
    assert board_notation(browser) == pos.to_string()
    box = browser.find_element(By.ID, "notation")
    box.clear()
    box.send_keys("7d7d/3b4c 3s4s -/- - 0/0 0 1 -", Keys.ENTER)
    error = wait(browser, EC.visibility_of_element_located((By.ID, "error")))
    assert "7d" in error.text and "Traceback" not in error.text
    assert board_notation(browser) == pos.to_string()          # the board is left as it was


def test_a_players_view_and_a_suggestion(browser, base_url):
    open_page(browser, f"{base_url}/?pos={urllib.parse.quote(START.to_string())}")
    wait(browser, lambda d: len(rows(d, "#moves")) == len(START.legal_moves()))
    browser.find_element(By.CSS_SELECTOR, '#tabs [data-tab="hidden"]').click()
    browser.find_element(By.CSS_SELECTOR, '.view-btn[data-player="0"]').click()
    wait(browser, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#hand1 svg.back")) == 3)
    assert board_notation(browser) == START.view(0).to_string()
    fill(browser, ("worlds", "40"), ("suggest-seed", "3"))
    browser.find_element(By.ID, "suggest-btn").click()
    suggestion_done(browser, 40)
    expected = suggest(START.view(0), worlds=40, seed=3, progress=False)
    shown = [(r.find_element(By.CSS_SELECTOR, ".move").text, r.find_element(By.CSS_SELECTOR, ".mean").text)
             for r in rows(browser, "#suggest-table")]
    assert shown == [(str(m.move), f"{m.mean:+.3f}") for m in expected.moves]
    assert "40 worlds" in text(browser, "#suggest-info") and "seed 3" in text(browser, "#suggest-info")

    # a long search shows a spinner and can be cancelled (the server stops it when the page
    # leaves; the limit is long enough that a busy machine cannot finish before the click)
    fill(browser, ("worlds", "2000"), ("suggest-time", "20"))
    browser.find_element(By.ID, "suggest-btn").click()
    wait(browser, EC.visibility_of_element_located((By.ID, "status")))
    browser.find_element(By.ID, "cancel-btn").click()
    wait(browser, lambda d: not d.find_element(By.ID, "status").is_displayed())
    assert text(browser, "#note") == "cancelled" and not browser.find_element(By.ID, "error").is_displayed()
    assert "worlds solved" in text(browser, "#suggest-info")      # the last answer stays
    assert text(browser, "#suggest-progress").endswith("(stopped)")
    assert not browser.find_element(By.ID, "suggest-stop").is_displayed()


def fill(driver, *fields):
    """Type each (element id, value) into its input, replacing what it held."""
    for field, value in fields:
        box = driver.find_element(By.ID, field)
        box.clear()
        box.send_keys(value)


def suggestion_done(driver, worlds):
    """Wait for the suggestion's last round: `worlds` worlds solved, the Stop gone."""
    wait(driver, lambda d: text(d, "#suggest-progress").startswith(f"{worlds:,} of ")
         and not d.find_element(By.ID, "suggest-stop").is_displayed())


def test_a_suggestion_shows_its_worlds_as_its_rounds_land_and_can_be_stopped(browser, base_url):
    view = START.view(0)
    open_page(browser, f"{base_url}/?pos={urllib.parse.quote(view.to_string())}")
    wait(browser, lambda d: board_notation(d) == view.to_string())
    browser.find_element(By.CSS_SELECTOR, '#tabs [data-tab="hidden"]').click()
    fill(browser, ("worlds", "160"), ("suggest-seed", "3"), ("suggest-time", "30"))
    browser.execute_script("""window.seen = []; const e = document.querySelector('#suggest-progress');
        new MutationObserver(() => window.seen.push(e.textContent)).observe(e, {childList: true, characterData: true, subtree: true});""")
    browser.find_element(By.ID, "suggest-btn").click()
    suggestion_done(browser, 160)
    seen = [t for t in browser.execute_script("return window.seen") if t]
    assert seen == ["0 of 160 worlds", "10 of 160 worlds", "40 of 160 worlds", "160 of 160 worlds"]
    expected = suggest(view, worlds=160, seed=3, progress=False)     # the last round: one request's answer
    shown = [(r.find_element(By.CSS_SELECTOR, ".move").text, r.find_element(By.CSS_SELECTOR, ".mean").text)
             for r in rows(browser, "#suggest-table")]
    assert shown == [(str(m.move), f"{m.mean:+.3f}") for m in expected.moves]

    # Stop after the first round: the worlds solved by then stay, and say how many they are
    fill(browser, ("worlds", "2000"), ("suggest-time", "5"))
    browser.find_element(By.ID, "suggest-btn").click()
    wait(browser, lambda d: " of 2,000 worlds" in text(d, "#suggest-progress")
         and not text(d, "#suggest-progress").startswith("0 "))
    browser.find_element(By.ID, "suggest-stop").click()
    wait(browser, lambda d: not d.find_element(By.ID, "suggest-stop").is_displayed())
    progress = text(browser, "#suggest-progress")
    assert progress.endswith("(stopped)") and not browser.find_element(By.ID, "error").is_displayed()
    solved = int(progress.split(" of ")[0].replace(",", ""))
    assert solved in (10, 40, 160, 640)
    expected = suggest(view, worlds=solved, seed=3, progress=False)
    assert [r.find_element(By.CSS_SELECTOR, ".mean").text for r in rows(browser, "#suggest-table")] == \
        [f"{m.mean:+.3f}" for m in expected.moves]
    assert f"{solved} worlds solved" in text(browser, "#suggest-info")


def test_play_a_round_against_the_random_bot_and_review_it(browser, base_url):
    open_page(browser, base_url)
    browser.find_element(By.CSS_SELECTOR, '#tabs [data-tab="play"]').click()
    Select(browser.find_element(By.ID, "bot")).select_by_value("random")
    Select(browser.find_element(By.ID, "seat")).select_by_value("0")
    browser.find_element(By.ID, "new-game-btn").click()
    played = 0
    while True:
        wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#play-moves .play-move")
             or d.find_element(By.ID, "play-after").is_displayed())
        if browser.find_element(By.ID, "play-after").is_displayed():
            break
        # the opponent's hand is face down while the round goes on
        assert browser.find_elements(By.CSS_SELECTOR, "#hand1 svg.back")
        assert not browser.find_elements(By.CSS_SELECTOR, "#hand1 svg[data-card]")
        if played:     # the bot's reply is shown on the board, not only in the log
            bot_move = browser.find_elements(By.CSS_SELECTOR, "#play-log li")[-1].text.split(": ")[1].split(" ")[0]
            assert [e.get_attribute("data-move") for e in browser.find_elements(By.CSS_SELECTOR, "#last-move .last")] \
                == [bot_move]
        count = len(browser.find_elements(By.CSS_SELECTOR, "#play-log li"))
        browser.find_element(By.CSS_SELECTOR, "#play-moves .play-move").click()
        wait(browser, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#play-log li")) > count)
        played += 1
        assert played <= 18
    assert played == 18 and len(browser.find_elements(By.CSS_SELECTOR, "#play-log li")) == 36
    assert "Round over" in text(browser, "#play-result")

    browser.find_element(By.CSS_SELECTOR, '#tabs [data-tab="review"]').click()
    fill(browser, ("review-worlds", "10"))
    browser.find_element(By.CSS_SELECTOR, '#tabs [data-tab="play"]').click()
    browser.find_element(By.ID, "review-game-btn").click()
    wait(browser, lambda d: len(rows(d, "#review-table")) == 36)
    record = GameRecord.from_json(browser.find_element(By.ID, "record-text").get_attribute("value"))
    positions = record.replay()[0].positions
    marked = [r for r in rows(browser, "#review-table") if {"mistake", "blunder"} & set(r.get_attribute("class").split())]
    row = marked[len(marked) // 2] if marked else rows(browser, "#review-table")[20]
    index = int(row.get_attribute("data-index"))
    # the graph: one point a decision, the mistakes and blunders marked as in the table
    points = browser.find_elements(By.CSS_SELECTOR, "#review-graph .gdec")
    assert len(points) == 36
    assert [p.get_attribute("data-index") for p in points if {"mistake", "blunder"} & set(p.get_attribute("class").split())] \
        == [r.get_attribute("data-index") for r in marked]
    browser.execute_script("arguments[0].dispatchEvent(new MouseEvent('click', {bubbles: true}))", points[index])
    wait(browser, lambda d: board_notation(d) == positions[index].to_string())
    # its analysis in view, under the review
    wait(browser, lambda d: d.find_element(By.ID, "review-analysis").is_displayed()
         and len(rows(d, "#review-moves")) == len(positions[index].legal_moves()))
    # the keys step through the decisions
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_DOWN)
    wait(browser, lambda d: board_notation(d) == positions[index + 1].to_string())
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_UP)
    wait(browser, lambda d: board_notation(d) == positions[index].to_string())
    # the move table (in the Analysis tab, hidden now) marks the move played there
    played = "return Array.from(document.querySelectorAll('#moves tbody tr.played')).map(r => r.dataset.move)"
    wait(browser, lambda d: d.execute_script(played) == [str(record.rounds[0].moves[index])])
    browser.set_window_size(1400, 1300)         # the board and the decisions around the chosen one
    browser.execute_script("window.scrollTo(0, 0)")
    shot(browser, "board-review")
    browser.set_window_size(1400, 1000)


@pytest.fixture
def gated_bots(monkeypatch):
    """The board's bots wait for the test's go (`release()`) before each move: a slow bot, whose
    thinking the test can watch, one move at a time; `moved` lists the moves made."""
    from scopa_solver.web import service
    go = threading.Semaphore(0)
    made = service._bot

    class Gated:
        moved: list = []
        release = go.release

        def __init__(self, kind, seed, rules, record=None):
            self.inner = made(kind, seed, rules, record)
            self.name = self.inner.name

        def __call__(self, pos):
            assert go.acquire(timeout=WAIT), "the test never let the bot move"
            move = self.inner(pos)
            Gated.moved.append(move)
            return move
    monkeypatch.setattr(service, "_bot", Gated)
    yield Gated
    for _ in range(40):          # let any bot still waiting finish
        go.release()


def test_a_four_seat_game_shows_each_bot_move_as_it_is_played(browser, base_url, gated_bots):
    """Scopone scientifico, the human in seat 2: while the bots think the input is off and the
    seat thinking is named; each bot move lands on the board and in the list on its own; the
    card played leaves the hand at once."""
    open_page(browser, base_url)
    browser.find_element(By.CSS_SELECTOR, '#tabs [data-tab="play"]').click()
    Select(browser.find_element(By.ID, "play-game")).select_by_value("players=4 game=scientifico")
    Select(browser.find_element(By.ID, "bot")).select_by_value("random")
    Select(browser.find_element(By.ID, "seat")).select_by_value("2")
    browser.find_element(By.ID, "new-game-btn").click()
    log = lambda d: texts(d, "#play-log li")     # noqa: E731

    def thinking(seat, moves):
        wait(browser, lambda d: text(d, "#play-prompt") == f"{['Seat 0 (S)', 'Seat 1 (E)', 'Seat 2 (N)', 'Seat 3 (W)'][seat]} is thinking…"
             and len(log(d)) == moves)
        assert not browser.find_elements(By.CSS_SELECTOR, "#play-moves .play-move")
        assert browser.execute_script("return document.querySelector('#tab-play').dataset.thinking") == str(seat)
        assert f"Seat {seat}" in text(browser, "#status-text")
        time.sleep(0.3)           # the bot waits: nothing more may land meanwhile
        assert len(log(browser)) == moves

    thinking(0, 0)                # seat 3 dealt: seats 0 and 1 play before the human
    # Cancel stops the bots (the game waits); Play on lets them go on
    browser.find_element(By.ID, "cancel-btn").click()
    wait(browser, lambda d: text(d, "#play-prompt") == "Stopped while Seat 0 (S) was thinking."
         and d.find_element(By.ID, "play-resume").is_displayed())
    assert not browser.find_elements(By.CSS_SELECTOR, "#play-moves .play-move") and text(browser, "#note") == "cancelled"
    gated_bots.release()          # the cancelled request's bot moves: its answer is dropped
    wait(browser, lambda d: len(gated_bots.moved) == 1)
    time.sleep(0.3)
    assert log(browser) == []
    browser.find_element(By.ID, "play-resume").click()
    thinking(0, 0)
    gated_bots.release()
    thinking(1, 1)
    last = log(browser)[0].split(": ")[1]
    assert [e.get_attribute("data-move") for e in browser.find_elements(By.CSS_SELECTOR, "#last-move .last")] == [last]
    shot(browser, "play-bot-thinking")
    gated_bots.release()
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#play-moves .play-move") and len(log(d)) == 2)
    assert text(browser, "#play-prompt").startswith("Your move")

    hand = [e.get_attribute("data-card") for e in browser.find_elements(By.CSS_SELECTOR, "#hand2 svg.card")]
    button = browser.find_element(By.CSS_SELECTOR, "#play-moves .play-move")
    move = button.get_attribute("data-move")
    button.click()
    card = move.split("x")[0]
    # the card is gone at once, the seat after the human is thinking, and nothing can be clicked
    thinking(3, 3)
    assert [e.get_attribute("data-card") for e in browser.find_elements(By.CSS_SELECTOR, "#hand2 svg.card")] == \
        [c for c in hand if c != card]
    assert log(browser)[-1] == f"you: {move}"
    for seat, moves in ((0, 4), (1, 5)):
        gated_bots.release()
        thinking(seat, moves)
    gated_bots.release()
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#play-moves .play-move") and len(log(d)) == 6)
    assert [e.get_attribute("data-move") for e in browser.find_elements(By.CSS_SELECTOR, "#last-move .last")] == \
        [x.split(": ")[1] for x in log(browser)[3:]]      # the three bots' moves since the human's
    assert not browser.find_element(By.ID, "error").is_displayed()


def review_record_file(browser, base_url, path, worlds):
    """Open the board, load the game record at `path` in the Review tab and review it with
    `worlds` worlds a decision."""
    open_page(browser, base_url)
    browser.find_element(By.CSS_SELECTOR, '#tabs [data-tab="review"]').click()
    browser.find_element(By.ID, "record-file").send_keys(str(path))
    wait(browser, lambda d: "scopa-solver-game" in d.find_element(By.ID, "record-text").get_attribute("value"))
    fill(browser, ("review-worlds", str(worlds)))
    browser.find_element(By.ID, "review-btn").click()


def test_review_a_record_from_a_file(browser, base_url, tmp_path):
    start = Position.new_round(seed=21)
    result = play_round(start, GreedyBot(), RandomBot(seed=2))
    record = GameRecord(players=("Greedy", "Random"))
    record.add_round(RoundRecord.from_play(start, result.moves))
    path = record.save(tmp_path / "game.json")
    review_record_file(browser, base_url, path, worlds=5)
    wait(browser, lambda d: len(rows(d, "#review-table")) == len(result.moves))
    assert "Greedy" in text(browser, "#review-summary") and "Random" in text(browser, "#review-summary")
    rows(browser, "#review-table")[4].click()
    positions = record.replay()[0].positions
    wait(browser, lambda d: board_notation(d) == positions[4].to_string())


def test_the_reviews_marks_and_colours_follow_the_fair_verdict(browser, base_url, tmp_path):
    """Deal 4, Greedy against Random: moves that lose points by hindsight but not from the
    player's view (move 25: ?? by hindsight, no fair mark) are coloured by the fair verdict in
    the table and the graph; the hindsight column keeps its own mark; the summary splits each
    side's margin into skill and cards."""
    from scopa_solver.play.review import FairReview, review
    start = Position.new_round(seed=4)
    record = GameRecord(players=("Greedy", "Random"))
    record.add_round(RoundRecord.from_play(start, play_round(start, GreedyBot(), RandomBot(seed=4)).moves))
    path = record.save(tmp_path / "game.json")
    lib = review(record, fair=FairReview(worlds=8, seed=0), rounds=[1], progress=False)      # the board's review: seed 0
    colour = {"": "", "?!": "inaccuracy", "?": "mistake", "??": "blunder"}
    disagree = [i for i, d in enumerate(lib.decisions) if colour[d.mark] != colour[d.hindsight_mark]]
    assert disagree and any(lib.decisions[i].hindsight_mark == "??" and not lib.decisions[i].mark for i in disagree)
    review_record_file(browser, base_url, path, worlds=8)
    wait(browser, lambda d: len(rows(d, "#review-table")) == 36)

    def colours(css):
        return [({"inaccuracy", "mistake", "blunder"} & set(e.get_attribute("class").split()) or {""}).pop()
                for e in browser.find_elements(By.CSS_SELECTOR, css)]
    assert colours("#review-table tbody tr") == [colour[d.mark] for d in lib.decisions]
    assert colours("#review-graph .gdec") == [colour[d.mark] for d in lib.decisions]
    assert texts(browser, "#review-table tbody tr .played .mark") == [d.mark for d in lib.decisions]
    assert texts(browser, "#review-table tbody tr .hmark") == [d.hindsight_mark for d in lib.decisions]
    # the graph's curve is the fair value of each move played (for side 0), its points on it;
    # hindsight's is a second curve, and the legend tells them apart
    for_side0 = lambda d, v: None if v is None or d.forced else v if d.side == 0 else -v    # noqa: E731
    graph = browser.execute_script("""return Array.from(document.querySelectorAll('#review-graph .gdec'), (g) =>
        [g.dataset.fair, g.dataset.hindsight, g.querySelector('circle').getAttribute('cx'), g.querySelector('circle').getAttribute('cy')])""")
    for (fair, hind, _, _), d in zip(graph, lib.decisions):
        assert (fair == "") == (for_side0(d, d.fair_played_mean) is None)
        assert fair == "" or abs(float(fair) - for_side0(d, d.fair_played_mean)) < 0.006
        assert hind == ("" if for_side0(d, d.played_value) is None else str(for_side0(d, d.played_value)))
    assert any(abs(float(f) - float(h)) > 0.5 for f, h, _, _ in graph if f and h)      # the two curves differ
    curve = lambda css: re.findall(r"[ML]([-\d.]+),([-\d.]+)", browser.find_element(By.CSS_SELECTOR, css).get_attribute("d"))  # noqa: E731
    assert curve("#review-graph path.curve.fair") == [(cx, cy) for f, _, cx, cy in graph if f]
    assert len(curve("#review-graph path.curve.hindsight")) == len([h for _, h, _, _ in graph if h])
    assert "fair value of each move played" in text(browser, "#graph-legend") and "by hindsight" in text(browser, "#graph-legend")
    browser.execute_script("document.querySelector('#review-graph').scrollIntoView()")
    shot(browser, "review-graph-fair")
    # the summary: the fair figures first, and margin = skill + cards for each player
    splits = {s.name: s for s in lib.summaries().values()}
    shown = browser.execute_script("""return Array.from(document.querySelectorAll('#review-summary tr.player-summary')).map(
        (tr) => [tr.cells[0].textContent, tr.querySelector('.split-skill').textContent, tr.querySelector('.split-cards').textContent])""")
    def signed2(x: float) -> str:
        return ("+" if x > 0 else "−" if x < 0 else "") + f"{abs(x):.2f}"
    assert shown == [[n, signed2(s.skill), signed2(s.cards)] for n, s in splits.items()]
    heads = texts(browser, "#review-summary thead th")
    assert heads.index("fair lost") < heads.index("hindsight lost") and heads[-3:] == ["margin", "skill", "cards"]


# -- the editor and the family ---------------------------------------------------------------------

def late(rules, seed, left):
    """A position of `rules` with `left` cards still to play, reached from a seeded deal by
    playing the middle legal move each time."""
    return helpers.late(rules, seed, left, choose=helpers.middle)


def move_table(driver):
    return list(zip(texts(driver, "#moves tbody tr .move"), texts(driver, "#moves tbody tr .value")))


def shown_values(moves):
    return [(str(m.move), f"{m.value:+d}" if m.value else "0") for m in moves]


def editor_says(driver):
    return driver.find_element(By.ID, "ed-message").text


def put(driver, card, place):
    """Click a card of the palette, then a place."""
    driver.find_element(By.CSS_SELECTOR, f'#palette .ed-card[data-card="{card}"]').click()
    driver.find_element(By.ID, f"place-{place}").click()
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, f'#place-{place} .ed-card[data-card="{card}"]'))


def drag(driver, card, place):
    """Drag a card of the palette onto a place (HTML5 drag and drop, as the browser dispatches it)."""
    driver.execute_script("""
        const [card, place] = arguments;
        const from = document.querySelector(`#palette .ed-card[data-card="${card}"]`);
        const to = document.getElementById(`place-${place}`);
        const data = new DataTransfer();
        for (const [el, type] of [[from, "dragstart"], [to, "dragover"], [to, "drop"]])
          el.dispatchEvent(new DragEvent(type, {dataTransfer: data, bubbles: true, cancelable: true}));
    """, card, place)
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, f'#place-{place} .ed-card[data-card="{card}"]'))


def test_build_a_position_by_putting_cards_into_places_and_analyse_it(browser, base_url):
    target = Position(hands=("7d 2c 5b", "3b 4c Rd"), table="3s 4s Fd", stock="Ad 2d 3d Ac 2s Cb",
                      captured=("Rb 6c", ""), scopas=(1, 0), last_capturer=0, dealer=1)
    open_page(browser, base_url)
    browser.find_element(By.CSS_SELECTOR, '#tabs [data-tab="edit"]').click()
    wait(browser, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#palette .ed-card")) == 40)
    for card in ("7d", "2c"):
        put(browser, card, "hand0")
    drag(browser, "5b", "hand0")
    # the keyboard: Tab to a card, Enter chooses it; Enter on a place puts it there
    browser.find_element(By.CSS_SELECTOR, '#palette .ed-card[data-card="3b"]').send_keys(Keys.ENTER)
    browser.find_element(By.ID, "place-hand1").send_keys(Keys.ENTER)
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, '#place-hand1 .ed-card[data-card="3b"]'))
    browser.find_element(By.CSS_SELECTOR, '#palette .ed-card[data-card="4c"]').send_keys(Keys.ENTER, "1")
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, '#place-hand1 .ed-card[data-card="4c"]'))
    put(browser, "Rd", "hand1")
    for card in ("3s", "4s", "Fd"):
        put(browser, card, "table")
    put(browser, "Ad", "stock")
    # one card in the stock: no deal leaves that, and the page says so in the server's words
    wait(browser, lambda d: "deals" in editor_says(d))
    assert "bad" in browser.find_element(By.ID, "ed-message").get_attribute("class")
    assert not browser.find_element(By.ID, "ed-analyze").is_enabled()
    for card in ("2d", "3d", "Ac", "2s", "Cb"):
        put(browser, card, "stock")
    put(browser, "Rb", "pile0")
    wait(browser, lambda d: "last_capturer" in editor_says(d))
    browser.find_element(By.CSS_SELECTOR, '#palette .ed-card[data-card="6c"]').send_keys(Keys.ENTER, Keys.SHIFT, "0")
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, '#place-pile0 .ed-card[data-card="6c"]'))
    Select(browser.find_element(By.ID, "ed-last")).select_by_value("0")
    box = browser.find_element(By.CSS_SELECTOR, '.ed-scopa[data-seat="0"]')
    box.clear()
    box.send_keys("1")
    wait(browser, lambda d: browser.find_element(By.ID, "ed-notation").text == target.to_string())
    assert "valid position" in editor_says(browser)
    # a card put somewhere else moves there; Unplaced takes it back
    put(browser, "Cd", "table")
    wait(browser, lambda d: "valid position" in editor_says(d) and "Cd" in d.find_element(By.ID, "ed-notation").text)
    browser.find_element(By.CSS_SELECTOR, '#place-table .ed-card[data-card="Cd"]').click()
    browser.find_element(By.ID, "place-none").click()
    wait(browser, lambda d: browser.find_element(By.ID, "ed-notation").text == target.to_string())
    assert "placed" in browser.find_element(By.CSS_SELECTOR, '#palette .ed-card[data-card="7d"]').get_attribute("class")
    browser.execute_script("window.scrollTo(0, 0)")
    shot(browser, "board-editor")

    browser.find_element(By.ID, "ed-analyze").click()
    wait_exact(browser, len(target.legal_moves()))
    assert move_table(browser) == shown_values(analyze(target))
    assert board_notation(browser) == target.to_string()
    assert text(browser, "#pile0 .count") == "2" and text(browser, "#pile0 .scopas") == "1"


def test_a_scopone_position_by_its_link_shows_four_hands_and_the_values(browser, base_url):
    pos = late(Rules(players=4, game="scopone"), 1, 20)
    open_page(browser, f"{base_url}/?pos={urllib.parse.quote(pos.to_string())}")
    wait_exact(browser, len(pos.legal_moves()))
    for seat in range(4):
        shown = [e.get_attribute("data-card") for e in browser.find_elements(By.CSS_SELECTOR, f"#hand{seat} svg.card")]
        assert shown == [str(c) for c in iter_cards(pos.hands[seat])]
        assert text(browser, f"#pile{seat} .count") == str(len(list(iter_cards(pos.piles[seat]))))
    assert "Scopone" in text(browser, "#game-name")
    expected = analyze(pos)
    assert move_table(browser) == shown_values(expected)
    assert len(set(m.value for m in expected)) > 1
    score = pos.round_score()
    for side in (0, 1):
        assert text(browser, f'#side-score tr[data-side="{side}"] .points') == str(score.total[side])
    pv = solve(pos).pv
    browser.find_element(By.CSS_SELECTOR, '#pv-moves li[data-index="1"]').click()
    wait(browser, lambda d: board_notation(d) == pos.play(pv[0]).to_string() and text(d, "#hist-step") == "1 / 1")
    browser.find_element(By.ID, "hist-first").click()
    wait_exact(browser, len(pos.legal_moves()))
    browser.find_element(By.ID, "tree-btn").click()       # two sides: the tree module draws it
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#tree svg"))
    browser.execute_script("window.scrollTo(0, 0)")
    shot(browser, "board-scopone")

    # the editor opens with the position on the board: four hands, four piles, the game's rules
    browser.find_element(By.CSS_SELECTOR, '#tabs [data-tab="edit"]').click()
    wait(browser, lambda d: d.find_element(By.ID, "ed-notation").text == pos.to_string())
    assert len(browser.find_elements(By.CSS_SELECTOR, '[id^="place-hand"]')) == 4
    assert Select(browser.find_element(By.ID, "ed-game")).first_selected_option.get_attribute("value") == "scopone"
    # a card from seat 0's hand onto the table: seat 0 has played, seat 1 is to move
    def cards(mask):
        return [str(c) for c in iter_cards(mask)]
    played = cards(pos.hands[0])[0]
    browser.find_element(By.CSS_SELECTOR, f'#place-hand0 .ed-card[data-card="{played}"]').click()
    browser.find_element(By.ID, "place-table").click()
    moved = Position(hands=[cards(pos.hands[0])[1:]] + [cards(h) for h in pos.hands[1:]],
                     table=cards(pos.table) + [played], captured=[cards(p) for p in pos.piles], scopas=pos.scopas,
                     dealer=pos.dealer, last_capturer=pos.last_capturer, rules=pos.rules)
    wait(browser, lambda d: d.find_element(By.ID, "ed-notation").text == moved.to_string())
    assert "seat 1 to move" in editor_says(browser)


def hand_shown(driver, seat):
    """[face-down cards, the face-up cards' names] of a seat's hand, read at once by the page."""
    return driver.execute_script(
        "const h = document.getElementById('hand' + arguments[0]); if (!h) return null;"
        "return [h.querySelectorAll('svg.back').length,"
        " Array.from(h.querySelectorAll('svg[data-card]')).map(e => e.getAttribute('data-card'))];", seat)


def test_three_players_tree_view_suggestion_play_and_review(browser, base_url):
    pos = late(Rules(players=3), 2, 9)
    open_page(browser, f"{base_url}/?pos={urllib.parse.quote(pos.to_string())}")
    wait_exact(browser, len(pos.legal_moves()))
    assert len(browser.find_elements(By.CSS_SELECTOR, ".fseat")) == 3
    assert move_table(browser) == shown_values(analyze(pos))
    # max^n: every side its own points (a change of objective analyses again)
    Select(browser.find_element(By.ID, "objective")).select_by_value("maxn")
    wait(browser, lambda d: "max^n" in text(d, "#moves-note") and d.find_elements(By.CSS_SELECTOR, "#trust.exact"))
    assert move_table(browser) == shown_values(analyze(pos, objective="maxn"))
    Select(browser.find_element(By.ID, "objective")).select_by_value("value")
    browser.find_element(By.ID, "tree-btn").click()        # three sides: the paranoid value's tree
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#tree svg"))
    assert not browser.find_element(By.ID, "error").is_displayed()

    # the view of the seat to move: the other two hands face down, and the package's suggestion
    seat = pos.to_move
    browser.find_element(By.CSS_SELECTOR, '#tabs [data-tab="hidden"]').click()
    browser.find_element(By.CSS_SELECTOR, f'.view-btn[data-player="{seat}"]').click()
    view = pos.view(seat)
    wait(browser, lambda d: board_notation(d) == view.to_string())
    for p in range(3):          # read in one script: the view's panels may redraw the board meanwhile
        want = [0, [str(c) for c in iter_cards(view.hand)]] if p == seat else [view.hand_sizes()[p], []]
        wait(browser, lambda d: hand_shown(d, p) == want)
    fill(browser, ("worlds", "30"), ("suggest-seed", "5"))
    browser.find_element(By.ID, "suggest-btn").click()
    expected = suggest(view, worlds=30, seed=5, progress=False)
    suggestion_done(browser, expected.worlds)
    shown = [(r.find_element(By.CSS_SELECTOR, ".move").text, r.find_element(By.CSS_SELECTOR, ".mean").text)
             for r in rows(browser, "#suggest-table")]
    assert shown == [(str(m.move), f"{m.mean:+.3f}") for m in expected.moves]
    info = text(browser, "#suggest-info")
    assert f"{expected.exact_worlds} searched to the end" in info and expected.horizon is None
    assert ("every world, exact" if expected.exact else "seed 5") in info

    # a round of three players against the random bot, clicked to its end, then its review
    browser.find_element(By.CSS_SELECTOR, '#tabs [data-tab="play"]').click()
    Select(browser.find_element(By.ID, "play-game")).select_by_value("players=3")
    assert len(Select(browser.find_element(By.ID, "seat")).options) == 3
    Select(browser.find_element(By.ID, "bot")).select_by_value("random")
    Select(browser.find_element(By.ID, "seat")).select_by_value("1")
    browser.find_element(By.ID, "new-game-btn").click()
    played = 0
    while True:
        wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#play-moves .play-move")
             or d.find_element(By.ID, "play-after").is_displayed())
        if browser.find_element(By.ID, "play-after").is_displayed():
            break
        assert len(browser.find_elements(By.CSS_SELECTOR, ".fseat")) == 3
        for other in (0, 2):       # the bots' hands are face down while the round goes on
            assert not browser.find_elements(By.CSS_SELECTOR, f"#hand{other} svg[data-card]")
        if played == 4:
            browser.execute_script("window.scrollTo(0, 0)")
            shot(browser, "board-family-play")
        count = len(browser.find_elements(By.CSS_SELECTOR, "#play-log li"))
        browser.find_element(By.CSS_SELECTOR, "#play-moves .play-move").click()
        wait(browser, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#play-log li")) > count)
        played += 1
        assert played <= 12
    assert played == 12 and len(browser.find_elements(By.CSS_SELECTOR, "#play-log li")) == 36
    assert "Round over" in text(browser, "#play-result")

    browser.find_element(By.CSS_SELECTOR, '#tabs [data-tab="review"]').click()
    fill(browser, ("review-worlds", "3"))
    browser.find_element(By.CSS_SELECTOR, '#tabs [data-tab="play"]').click()
    browser.find_element(By.ID, "review-game-btn").click()
    WebDriverWait(browser, 120, ignored_exceptions=(StaleElementReferenceException,)).until(
        lambda d: len(rows(d, "#review-table")) == 36)
    record = GameRecord.from_json(browser.find_element(By.ID, "record-text").get_attribute("value"))
    assert record.replay()[0].final.is_round_over() and record.rules == Rules(players=3)
    seats = "return Array.from(document.querySelectorAll('#review-summary tbody tr')).length"
    assert browser.execute_script(seats) == 3            # one summary row a seat
    names = browser.execute_script("return Array.from(document.querySelectorAll('#review-summary tbody tr td:first-child'), "
                                   "(td) => td.textContent)")
    assert [n.split(":")[0] for n in names] == ["Seat 0", "Seat 1", "Seat 2"]      # as the board heads them
    assert "undefined" not in text(browser, "#review-table") and "NaN" not in text(browser, "#review-table")
    positions = record.replay()[0].positions
    row = rows(browser, "#review-table")[7]
    row.click()
    wait(browser, lambda d: board_notation(d) == positions[7].to_string())
    browser.set_window_size(1400, 1300)
    browser.execute_script("window.scrollTo(0, 0)")
    shot(browser, "board-family-review")
    browser.set_window_size(1400, 1000)


def test_a_scopone_deal_suggestion_says_its_horizon(browser, base_url):
    """At the first play of Scopone the worlds are searched to a horizon: the page says how far."""
    start = Position.new_round(seed=2, rules=Rules(players=4, game="scopone"))
    view = start.view(start.to_move)
    open_page(browser, f"{base_url}/?pos={urllib.parse.quote(view.to_string())}")
    wait(browser, lambda d: board_notation(d) == view.to_string())
    browser.find_element(By.CSS_SELECTOR, '#tabs [data-tab="hidden"]').click()
    fill(browser, ("worlds", "4"), ("suggest-seed", "1"))
    browser.find_element(By.ID, "suggest-btn").click()
    suggestion_done(browser, 4)
    expected = suggest(view, worlds=4, seed=1, progress=False)
    assert [r.find_element(By.CSS_SELECTOR, ".move").text for r in rows(browser, "#suggest-table")] == \
        [str(m.move) for m in expected.moves]
    assert expected.horizon is not None
    assert f"{expected.exact_worlds} searched to the end, the rest to a horizon of {expected.horizon} plays" \
        in text(browser, "#suggest-info")
    for p in range(4):       # the partner's hand is face down too
        backs = len(browser.find_elements(By.CSS_SELECTOR, f"#hand{p} svg.back"))
        assert backs == (0 if p == view.player else 9)
    # the view's fair values on the Analysis tab say it too
    assert f"{expected.exact_worlds} of them solved exactly, the rest to a horizon of {expected.horizon} plays" \
        in browser.find_element(By.ID, "trust").get_attribute("textContent")


def test_what_the_server_still_refuses_is_a_message(browser, base_url):
    """A position no deal reaches (a card twice) and a tree too big for its node cap: messages."""
    open_page(browser, f"{base_url}/?pos={urllib.parse.quote('7d7d/3c/Rb 3s4s -/-/- - 0/0/0 0 2 - players=3')}")
    wait(browser, lambda d: d.find_element(By.ID, "error").is_displayed())
    assert "7d" in text(browser, "#error") and "Traceback" not in text(browser, "#error")


def unseen_shown(driver):
    """The unseen-cards panel as read at one moment: rank counts, cards by suit, the grid."""
    return driver.execute_script("""
        const q = (s) => Array.from(document.querySelectorAll(s));
        return {ranks: Object.fromEntries(q('#unseen-ranks td').map(e => [e.dataset.rank, Number(e.textContent)])),
                rank_order: q('#unseen-ranks th').map(e => e.textContent),
                suits: Object.fromEntries(q('#unseen-suits .suit-row').map(e => [e.dataset.suit,
                        Array.from(e.querySelectorAll('svg.card'), c => c.dataset.card)])),
                places: q('#unseen-grid th[data-place]').map(e => e.dataset.place),
                grid: q('#unseen-grid tbody tr').map(r => [r.dataset.card, ...Array.from(r.querySelectorAll('td.odds'), c => c.textContent)]),
                info: document.querySelector('#unseen-info').textContent}""")


def open_unseen(driver, url, notation, seat):
    """Open `url` (showing `notation`), stop its analysis, and show seat `seat`'s view with its
    unseen-cards panel."""
    open_page(driver, url)
    wait(driver, lambda d: board_notation(d) == notation)
    driver.execute_script("const b = document.getElementById('an-stop'); if (!b.hidden) b.click();")
    driver.find_element(By.CSS_SELECTOR, '#tabs [data-tab="hidden"]').click()
    driver.find_element(By.CSS_SELECTOR, f'.view-btn[data-player="{seat}"]').click()
    wait(driver, lambda d: d.find_element(By.ID, "unseen").is_displayed())


def weigh_by_the_model(driver, seed):
    fill(driver, ("suggest-seed", str(seed)))
    driver.find_element(By.ID, "unseen-model").click()
    wait(driver, lambda d: "opponent model" in text(d, "#unseen-info"))


def same_unseen(shown, odds):
    """The panel shows `odds` (a `View.where_unseen` answer): every count, card and chance (to
    the 0.1% shown: JavaScript rounds a half up where Python rounds it to even)."""
    assert shown["ranks"] == odds.by_rank and shown["rank_order"] == list(odds.by_rank)     # ace to king
    assert shown["suits"] == {s: [str(c) for c in cs] for s, cs in odds.by_suit.items()}
    assert shown["places"] == list(odds.places)
    assert [row[0] for row in shown["grid"]] == [str(c) for c in odds.cards]
    for row, chances in zip(shown["grid"], odds.odds):
        assert len(row) == len(chances) + 1 and all(cell.endswith("%") for cell in row[1:])
        assert all(abs(float(cell[:-1]) - 100 * p) <= 0.05 + 1e-9 for cell, p in zip(row[1:], chances)), row
    return True


def test_a_players_view_shows_the_unseen_cards_and_where_they_may_be(browser, base_url):
    from scopa_solver import InferenceBot
    # the dealer's first view, the opponent's opening play made: the model reads it
    pos = Position.new_round(seed=0, dealer=1)
    pos = pos.play(GreedyBot()(pos))
    view = pos.view(1)
    open_page(browser, f"{base_url}/?pos={urllib.parse.quote(pos.to_string())}")
    wait(browser, lambda d: board_notation(d) == pos.to_string())
    browser.find_element(By.CSS_SELECTOR, '#tabs [data-tab="hidden"]').click()
    assert not browser.find_element(By.ID, "unseen").is_displayed()       # every card shown: no panel
    browser.find_element(By.CSS_SELECTOR, '.view-btn[data-player="1"]').click()
    wait(browser, lambda d: d.find_element(By.ID, "unseen").is_displayed())
    shown = unseen_shown(browser)
    assert same_unseen(shown, view.where_unseen())
    assert "every world alike" in shown["info"]
    assert len(shown["grid"]) == 32 and shown["grid"][0][1:] == ["6.3%", "93.8%"]     # 2/32 and 30/32
    shot(browser, "unseen-uniform")

    weigh_by_the_model(browser, 3)
    shown = unseen_shown(browser)
    model = view.where_unseen(InferenceBot(worlds=1000, seed=3))
    assert model.method == "model, sampled"
    assert same_unseen(shown, model)
    assert "sampled, 1,000 worlds drawn with seed 3" in shown["info"]
    browser.execute_script("document.querySelector('#unseen').scrollIntoView()")
    shot(browser, "unseen-model")

    # the view given as text (no hidden card anywhere) shows the very same panel
    open_unseen(browser, f"{base_url}/?pos={urllib.parse.quote(view.to_string())}", view.to_string(), 1)
    weigh_by_the_model(browser, 3)          # a new page: the box unticked
    again = unseen_shown(browser)
    assert again == shown
    browser.find_element(By.CSS_SELECTOR, '.view-btn[data-player=""]').click()
    wait(browser, lambda d: not d.find_element(By.ID, "unseen").is_displayed())


def test_a_four_player_view_places_the_unseen_cards_in_every_hidden_hand(browser, base_url):
    pos = Position.new_round(seed=4, rules=Rules(players=4, game="scopone"))
    open_unseen(browser, f"{base_url}/?pos={urllib.parse.quote(pos.to_string())}", pos.to_string(), 2)
    assert not browser.find_element(By.ID, "unseen-model-label").is_displayed()     # two players only
    shown = unseen_shown(browser)
    assert same_unseen(shown, pos.view(2).where_unseen())
    assert shown["places"] == ["player 0", "player 1", "player 3"]      # Scopone: no stock
    assert texts(browser, "#unseen-grid th[data-place]")[0].startswith("Seat 0")


def test_a_family_game_names_every_seat_seat_n(browser, base_url):
    """Four seats: a seat is "Seat N" wherever the board speaks of it (the notes under the board,
    the view's panels, the Play tab), never "player N"."""
    said = lambda d: d.execute_script("return document.body.innerText")     # noqa: E731
    pos = Position.new_round(seed=4, rules=Rules(players=4, game="scopone"))
    open_page(browser, f"{base_url}/?pos={urllib.parse.quote(pos.to_string())}")
    wait(browser, lambda d: board_notation(d) == pos.to_string())
    browser.find_element(By.CSS_SELECTOR, '#tabs [data-tab="hidden"]').click()
    browser.find_element(By.CSS_SELECTOR, '.view-btn[data-player="2"]').click()
    wait(browser, lambda d: d.find_element(By.ID, "unseen").is_displayed())
    assert text(browser, "#board-step") == "Seat 2's view"
    assert text(browser, "#unseen-count").endswith("from Seat 2's view")
    browser.find_element(By.CSS_SELECTOR, '#tabs [data-tab="analysis"]').click()
    wait(browser, lambda d: "Seat 2's view" in text(d, "#lens-who"))
    assert not re.search(r"\bplayer \d", said(browser), re.I), said(browser)
    browser.find_element(By.CSS_SELECTOR, '#tabs [data-tab="play"]').click()
    Select(browser.find_element(By.ID, "play-game")).select_by_value("players=4 game=scopone")
    Select(browser.find_element(By.ID, "bot")).select_by_value("random")
    Select(browser.find_element(By.ID, "seat")).select_by_value("2")
    assert Select(browser.find_element(By.ID, "seat")).first_selected_option.text == "Seat 2"
    browser.find_element(By.ID, "new-game-btn").click()
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#play-moves .play-move"))
    assert text(browser, "#board-step") == "you are Seat 2 (N)"
    assert not re.search(r"\bplayer \d", said(browser), re.I), said(browser)


@pytest.mark.parametrize("rules", [Rules(), Rules(players=6)], ids=["scopa", "6"])
def test_phone_width_the_unseen_panel_has_no_sideways_overflow(phone, base_url, rules):
    pos = Position.new_round(seed=4, rules=rules)
    open_unseen(phone, f"{base_url}/?pos={urllib.parse.quote(pos.to_string())}", pos.to_string(), 1)
    width = phone.execute_script("return [document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert width[0] <= width[1], width
    phone.execute_script("document.querySelector('#unseen').scrollIntoView()")
    shot(phone, f"unseen-phone-{rules.players}")


def test_the_unseen_panels_model_reads_the_opponents_plays_along_the_line(browser, base_url):
    """A position opened with a line (?pos=...&line=...): the model follows player 0's views
    along it and reads the opponent's two plays of the deal, as a bot that played them does."""
    from scopa_solver import InferenceBot, Limit
    root = pos = Position.new_round(seed=6)
    line = []
    bot = InferenceBot(Limit(threads=1), worlds=4, seed=2, exact_limit=40)
    while len(pos.stock) > 24 or pos.hand_sizes() != (1, 1):
        move = bot.choose(pos.view(0)) if pos.to_move == 0 else GreedyBot()(pos)
        line.append(str(move))
        pos = pos.play(move)
    bot.worlds, bot.exact_limit = 1000, 2000
    expected = pos.view(0).where_unseen(bot)
    assert expected.plays == 2
    query = urllib.parse.urlencode({"pos": root.to_string(), "line": "_".join(line)})
    open_unseen(browser, f"{base_url}/?{query}", pos.to_string(), 0)
    weigh_by_the_model(browser, 2)
    shown = unseen_shown(browser)
    assert same_unseen(shown, expected)
    assert "from its 2 plays read: sampled, 1,000 worlds drawn with seed 2" in shown["info"]


# -- a new user's walk (the player's-lens issue): the board's findings ------------------------------

def stop_analysis(driver):
    driver.execute_script("const b = document.getElementById('an-stop'); if (!b.hidden) b.click();")


def test_the_eval_bar_is_empty_and_says_so_with_no_value(browser, base_url):
    open_page(browser, base_url)
    fill = browser.find_element(By.ID, "eval-fill")
    assert fill.size["width"] == 0
    assert "novalue" in browser.find_element(By.ID, "evalbar").get_attribute("class").split()
    assert "no value" in text(browser, "#eval-label")
    # a value fills it; a round over (no value) empties it again
    open_page(browser, f"{base_url}/?pos={urllib.parse.quote(MID.to_string())}")
    wait(browser, lambda d: d.find_element(By.ID, "evalbar").get_attribute("data-value") not in ("", None))
    assert "novalue" not in browser.find_element(By.ID, "evalbar").get_attribute("class").split()
    assert browser.find_element(By.ID, "eval-fill").size["width"] > 0
    over = late(Rules(), 5, 0)
    assert over.is_round_over()
    open_page(browser, f"{base_url}/?pos={urllib.parse.quote(over.to_string())}")
    wait(browser, lambda d: board_notation(d) == over.to_string())
    assert browser.find_element(By.ID, "eval-fill").size["width"] == 0
    assert "no value" in text(browser, "#eval-label")


def hist_step(driver):
    return text(driver, "#hist-step").split(" / ")[0]


def test_the_browsers_back_goes_back_after_arrow_steps(browser, base_url):
    open_page(browser, f"{base_url}/?pos={urllib.parse.quote(START.to_string())}")
    wait(browser, lambda d: len(rows(d, "#moves")) == len(START.legal_moves()))
    body = browser.find_element(By.TAG_NAME, "body")
    # three moves played one at a time, one step back by the arrow: Back goes to the first move
    for ply in (1, 2, 3):
        wait(browser, lambda d: rows(d, "#moves"))
        rows(browser, "#moves")[0].click()
        wait(browser, lambda d: hist_step(d) == str(ply))
    body.send_keys(Keys.ARROW_LEFT)
    wait(browser, lambda d: hist_step(d) == "2")
    browser.back()
    wait(browser, lambda d: hist_step(d) == "1")
    browser.forward()          # Forward walks forward again
    wait(browser, lambda d: hist_step(d) == "2")
    # a line of five played at once, two steps back by the arrow: Back goes to its start
    browser.find_element(By.ID, "hist-first").click()
    wait(browser, lambda d: hist_step(d) == "0" and d.find_elements(By.CSS_SELECTOR, "#pv-moves li"))
    browser.find_element(By.CSS_SELECTOR, '#pv-moves li[data-index="5"]').click()
    wait(browser, lambda d: hist_step(d) == "5")
    body = browser.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.ARROW_LEFT)
    wait(browser, lambda d: hist_step(d) == "4")
    body.send_keys(Keys.ARROW_LEFT)
    wait(browser, lambda d: hist_step(d) == "3")
    browser.back()
    wait(browser, lambda d: hist_step(d) == "0" and board_notation(d) == START.to_string())
    stop_analysis(browser)


def test_the_review_lists_a_records_rounds_before_a_review(browser, base_url, tmp_path):
    record = GameRecord(players=("Greedy", "Random"))
    for seed, dealer in ((21, 1), (22, 0)):      # the deal alternates
        start = Position.new_round(seed=seed, dealer=dealer)
        record.add_round(RoundRecord.from_play(start, play_round(start, GreedyBot(), RandomBot(seed=2)).moves))
    path = record.save(tmp_path / "two.json")
    open_page(browser, base_url)
    browser.find_element(By.CSS_SELECTOR, '#tabs [data-tab="review"]').click()
    rounds = "return Array.from(document.querySelectorAll('#review-round option'), o => o.textContent)"
    browser.find_element(By.ID, "record-file").send_keys(str(path))
    wait(browser, lambda d: d.execute_script(rounds) == ["1", "2"])
    # pasted text too: a one-round record, then text that is no record (the list as it was)
    one = GameRecord(players=("Greedy", "Random"))
    one.add_round(record.rounds[0])
    box = browser.find_element(By.ID, "record-text")
    browser.execute_script("arguments[0].value = arguments[1]; arguments[0].dispatchEvent(new Event('input'))",
                           box, one.to_json())
    wait(browser, lambda d: d.execute_script(rounds) == ["1"])
    browser.execute_script("arguments[0].value = arguments[1]; arguments[0].dispatchEvent(new Event('input'))",
                           box, record.to_json())
    wait(browser, lambda d: d.execute_script(rounds) == ["1", "2"])
    fill(browser, ("review-worlds", "2"))
    Select(browser.find_element(By.ID, "review-round")).select_by_value("2")
    wait(browser, lambda d: len(rows(d, "#review-table")) == len(record.rounds[1].moves)
         and "Round 2 of 2" in text(d, "#review-summary"))


def test_the_header_and_the_play_tab_show_one_game(browser, base_url):
    open_page(browser, base_url)
    header, play = (Select(browser.find_element(By.ID, i)) for i in ("deal-game", "play-game"))
    header.select_by_value("players=3")
    assert play.first_selected_option.get_attribute("value") == "players=3"
    assert len(Select(browser.find_element(By.ID, "seat")).options) == 3
    browser.find_element(By.CSS_SELECTOR, '#tabs [data-tab="play"]').click()
    play.select_by_value("players=4 game=scopone")
    assert header.first_selected_option.get_attribute("value") == "players=4 game=scopone"
    # a position opened by its link sets the game of both
    pos = Position.new_round(seed=2, rules=Rules(players=6))
    open_page(browser, f"{base_url}/?pos={urllib.parse.quote(pos.to_string())}")
    wait(browser, lambda d: board_notation(d) == pos.to_string())
    stop_analysis(browser)
    header, play = (Select(browser.find_element(By.ID, i)) for i in ("deal-game", "play-game"))
    assert header.first_selected_option.get_attribute("value") == "players=6"
    assert play.first_selected_option.get_attribute("value") == "players=6"
    assert len(Select(browser.find_element(By.ID, "seat")).options) == 6


def test_the_board_says_what_a_value_is(browser, base_url):
    open_page(browser, f"{base_url}/?pos={urllib.parse.quote(MID.to_string())}")
    wait(browser, lambda d: len(rows(d, "#moves")) == len(MID.legal_moves()))
    stop_analysis(browser)
    legend = browser.find_element(By.ID, "eval-legend")
    assert legend.is_displayed() and "point margin" in legend.text and "player 0" in legend.text
    head = browser.find_element(By.ID, "value-head")
    assert "point margin" in head.get_attribute("title") and "player 0" in head.get_attribute("title")
    assert "point margin" in browser.find_element(By.ID, "eval-label").get_attribute("title")
    # the other side chosen: the legend names it; max^n: a side's own points
    Select(browser.find_element(By.ID, "eval-side")).select_by_value("1")
    wait(browser, lambda d: "player 1" in text(d, "#eval-legend"))
    Select(browser.find_element(By.ID, "objective")).select_by_value("maxn")
    wait(browser, lambda d: "max^n" in text(d, "#moves-note"))
    stop_analysis(browser)
    assert "points" in browser.find_element(By.ID, "value-head").get_attribute("title")
    assert "margin" not in browser.find_element(By.ID, "value-head").get_attribute("title")
    Select(browser.find_element(By.ID, "objective")).select_by_value("value")
    Select(browser.find_element(By.ID, "eval-side")).select_by_value("0")
    stop_analysis(browser)


def test_phone_width_the_best_moves_are_on_the_first_screen(browser, base_url):
    browser.set_window_size(400, 900)
    try:
        open_page(browser, f"{base_url}/?pos={urllib.parse.quote(MID.to_string())}")
        wait_exact(browser, len(MID.legal_moves()))
        expected = analyze(MID)
        best = [str(m.move) for m in expected if m.value == expected[0].value]
        screen = browser.execute_script("return window.innerHeight")
        shown = browser.find_elements(By.CSS_SELECTOR, "#best-strip .best-move")
        assert shown and [e.get_attribute("data-move") for e in shown] == best[:len(shown)]
        for e in shown:
            r = rect(browser, e)
            assert e.is_displayed() and 0 <= r["top"] and r["bottom"] <= screen, (r, screen)
        assert f"{expected[0].value:+d}" in text(browser, "#best-strip") if expected[0].value else "0" in text(browser, "#best-strip")
        width = browser.execute_script("return [document.documentElement.scrollWidth, document.documentElement.clientWidth]")
        assert width[0] <= width[1], width
        browser.execute_script("window.scrollTo(0, 0)")
        shot(browser, "board-phone-best")
        shown[0].click()          # plays the move, as a row of the table does
        wait(browser, lambda d: board_notation(d) == MID.play(best[0]).to_string())
        stop_analysis(browser)
        # a game against a bot is not analysed: no best moves of another position over its board
        browser.find_element(By.CSS_SELECTOR, '#tabs [data-tab="play"]').click()
        browser.find_element(By.ID, "new-game-btn").click()
        wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#play-moves .play-move"))
        assert not browser.find_elements(By.CSS_SELECTOR, "#best-strip .best-move")
    finally:
        browser.set_window_size(1400, 1000)
    open_page(browser, f"{base_url}/?pos={urllib.parse.quote(MID.to_string())}")
    wait(browser, lambda d: len(rows(d, "#moves")) == len(MID.legal_moves()))
    assert not browser.find_element(By.ID, "best-strip").is_displayed()    # the table is in view there
    stop_analysis(browser)


def test_the_editor_puts_the_rest_of_the_cards_into_a_chosen_place(browser, base_url):
    open_page(browser, base_url)
    browser.find_element(By.CSS_SELECTOR, '#tabs [data-tab="edit"]').click()
    wait(browser, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#palette .ed-card")) == 40)
    browser.find_element(By.ID, "ed-clear").click()
    for card, place in (("7d", "hand0"), ("3b", "hand1"), ("4c", "hand1"), ("Rd", "table")):
        put(browser, card, place)
    Select(browser.find_element(By.ID, "ed-rest-place")).select_by_value("pile1")
    browser.find_element(By.ID, "ed-rest").click()
    wait(browser, lambda d: text(d, "#place-pile1 .n") == "36")
    placed = {"7d", "3b", "4c", "Rd"}
    rest = [c.get_attribute("data-card") for c in browser.find_elements(By.CSS_SELECTOR, "#place-pile1 .ed-card")]
    assert len(set(rest)) == 36 and not placed & set(rest)
    assert "0 unplaced" in text(browser, "#board h3")
    assert text(browser, "#place-hand1 .n") == "2" and text(browser, "#place-table .n") == "1"
    # the server reads the places as for any change: a pile needs a last capturer
    wait(browser, lambda d: "last_capturer" in editor_says(d))
    Select(browser.find_element(By.ID, "ed-last")).select_by_value("1")
    wait(browser, lambda d: "valid position" in editor_says(d))


def test_a_finished_game_opens_in_the_move_list(browser, base_url):
    open_page(browser, base_url)
    browser.find_element(By.CSS_SELECTOR, '#tabs [data-tab="play"]').click()
    Select(browser.find_element(By.ID, "play-game")).select_by_value("")
    Select(browser.find_element(By.ID, "bot")).select_by_value("greedy")
    Select(browser.find_element(By.ID, "seat")).select_by_value("1")
    browser.find_element(By.ID, "new-game-btn").click()
    while True:
        wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#play-moves .play-move")
             or d.find_element(By.ID, "play-after").is_displayed())
        if browser.find_element(By.ID, "play-after").is_displayed():
            break
        count = len(browser.find_elements(By.CSS_SELECTOR, "#play-log li"))
        browser.find_elements(By.CSS_SELECTOR, "#play-moves .play-move")[-1].click()
        wait(browser, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#play-log li")) > count)
    # the record of what was played, as the board keeps it for a review
    browser.find_element(By.ID, "open-game-btn").click()
    wait(browser, lambda d: text(d, "#hist-step") == "36 / 36")
    record = browser.execute_script("return state.game.record")
    played = GameRecord.from_json(record).replay()[0]
    assert [e.get_attribute("data-move") for e in browser.find_elements(By.CSS_SELECTOR, "#history .hmove")] == \
        [str(m) for m in played.moves]
    assert board_notation(browser) == played.final.to_string()
    assert browser.find_element(By.ID, "tab-analysis").is_displayed()
    assert urllib.parse.parse_qs(urllib.parse.urlparse(browser.current_url).query)["pos"] == \
        [played.positions[0].to_string()]
    # step back into the round: every card shown, each position analysed
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_LEFT)
    wait(browser, lambda d: board_notation(d) == played.positions[35].to_string() and len(rows(d, "#moves")) ==
         len(played.positions[35].legal_moves()))
    stop_analysis(browser)


def tree_label_px(driver):
    """The smallest label of the tree as drawn on the screen, in CSS pixels (the SVG's units are
    points: its font sizes scaled by its drawn width over its viewBox's)."""
    return driver.execute_script("""
        const svg = document.querySelector('#tree svg');
        const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
        return scale * Math.min(...Array.from(svg.querySelectorAll('text'), t => Number(t.getAttribute('font-size'))));""")


def test_the_tree_zooms_pans_reads_and_opens_a_nodes_position(browser, base_url):
    open_page(browser, f"{base_url}/?pos={urllib.parse.quote(MID.to_string())}")
    wait(browser, lambda d: len(rows(d, "#moves")) == len(MID.legal_moves()))
    stop_analysis(browser)
    browser.find_element(By.ID, "tree-btn").click()
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#tree svg"))
    assert tree_label_px(browser) >= 10          # readable: at least 10 px
    def width() -> float:
        return rect(browser, browser.find_element(By.CSS_SELECTOR, "#tree svg"))["width"]
    one = width()
    browser.find_element(By.ID, "tree-in").click()
    assert abs(width() / one - 1.25) < 0.01 and text(browser, "#tree-zoom") == "125%"
    browser.find_element(By.ID, "tree-out").click()
    assert abs(width() - one) < 1
    browser.find_element(By.ID, "tree-fit").click()
    assert width() <= browser.find_element(By.ID, "tree").size["width"]
    browser.find_element(By.ID, "tree-one").click()
    # dragging pans the view
    box = browser.find_element(By.ID, "tree")
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", box)
    top = box.get_property("scrollTop")
    ActionChains(browser).move_to_element_with_offset(box, 5, 100).click_and_hold().move_by_offset(0, -40) \
        .move_by_offset(0, -120).release().perform()
    assert box.get_property("scrollTop") > top
    # a node two moves down opens its position, the line in the move list
    path = browser.execute_script("""
        return Array.from(document.querySelectorAll('#tree g.node title'), t => t.textContent)
          .find(p => p.split('/').filter(Boolean).length === 2)""")
    moves = path.split("/")[1:]
    node = browser.execute_script("""
        const g = Array.from(document.querySelectorAll('#tree g.node')).find(g => g.querySelector('title').textContent === arguments[0]);
        g.scrollIntoView({block: 'center', inline: 'center'}); return g.querySelector('text');""", path)
    node.click()
    wait(browser, lambda d: board_notation(d) == MID.play(moves[0]).play(moves[1]).to_string())
    assert [e.get_attribute("data-move") for e in browser.find_elements(By.CSS_SELECTOR, "#history .hmove")][:2] == moves
    stop_analysis(browser)


# -- a player's view: every analysis panel speaks from it ---------------------------------------------

LENS_PANELS = ("#tab-analysis", "#history", "#eval-label", "#tree", "#board")


def lens_text(driver):
    """The text of the analysis panel, the move list, the eval label, the tree and the board."""
    return driver.execute_script("return arguments[0].map(s => document.querySelector(s).textContent).join('\\n')",
                                 list(LENS_PANELS))


def test_a_players_view_names_no_hidden_card_and_shows_the_fair_values(browser, base_url):
    view = START.view(0)
    hidden = {str(c) for c in iter_cards(START.hands[1])} | {str(c) for c in START.stock}
    open_page(browser, f"{base_url}/?pos={urllib.parse.quote(START.to_string())}")
    wait_exact(browser, len(START.legal_moves()))
    # every card: a line to its 4th move in the move list, back to the start, the tree drawn
    browser.find_element(By.CSS_SELECTOR, '#pv-moves li[data-index="4"]').click()
    wait(browser, lambda d: text(d, "#hist-step") == "4 / 4")
    browser.find_element(By.ID, "hist-first").click()
    wait_exact(browser, len(START.legal_moves()))
    browser.find_element(By.ID, "tree-btn").click()
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#tree svg"))
    assert {c for c in hidden if c in lens_text(browser)}      # the check can fail: these panels name them

    browser.find_element(By.CSS_SELECTOR, '#tabs [data-tab="hidden"]').click()
    fill(browser, ("worlds", "40"), ("suggest-seed", "3"), ("suggest-time", "30"))
    browser.find_element(By.CSS_SELECTOR, '.view-btn[data-player="0"]').click()
    suggestion_done(browser, 40)
    browser.find_element(By.CSS_SELECTOR, '#tabs [data-tab="analysis"]').click()
    wait(browser, lambda d: "40 of" in text(d, "#moves-note"))
    told = sorted(c for c in hidden if c in lens_text(browser))
    assert not told, told
    assert board_notation(browser) == view.to_string()
    # the values: the API's suggestion for this view and seed (the package's), labelled fair
    expected = suggest(view, worlds=40, seed=3, progress=False)
    asked = urllib.request.Request(f"{base_url}/api/suggest", headers={"Content-Type": "application/json"},
                                   data=json.dumps({"position": view.to_string(), "worlds": 40, "seed": 3}).encode())
    with urllib.request.urlopen(asked, timeout=WAIT) as answer:
        api_moves = json.load(answer)["moves"]
    assert move_table(browser) == [(m["move"], f"{m['mean']:+.3f}") for m in api_moves] == \
        [(str(m.move), f"{m.mean:+.3f}") for m in expected.moves]
    assert text(browser, "#moves-note").startswith("fair, from player 0's view · 40 of")
    assert text(browser, "#eval-label") == f"{expected.moves[0].mean:+.2f} for player 0 · fair, from player 0's view (40 worlds)"
    assert "not shown" in text(browser, "#pv-value") and not browser.find_elements(By.CSS_SELECTOR, "#pv-moves li")
    assert not browser.find_element(By.ID, "tree-btn").is_enabled() and text(browser, "#tree-off")
    assert [e.text for e in browser.find_elements(By.CSS_SELECTOR, "#history .hmove")] == []
    assert "later moves are not shown" in text(browser, "#history")
    assert "player 0's view" in text(browser, "#lens")
    shot(browser, "board-view")
    # the editor and back: the board is the view again
    browser.find_element(By.CSS_SELECTOR, '#tabs [data-tab="edit"]').click()
    browser.find_element(By.CSS_SELECTOR, '#tabs [data-tab="analysis"]').click()
    assert board_notation(browser) == view.to_string() and not {c for c in hidden if c in lens_text(browser)}

    # hindsight: the exact analysis again, every panel saying that it shows every card
    browser.find_element(By.ID, "hindsight").click()
    wait_exact(browser, len(START.legal_moves()))
    assert move_table(browser) == shown_values(analyze(START))
    for panel in ("#moves-note", "#pv-value", "#eval-label"):
        assert text(browser, panel).endswith("all cards shown (hindsight)"), panel
    assert browser.find_element(By.ID, "tree-btn").is_enabled()
    # and back to the fair values, then every card
    browser.find_element(By.ID, "hindsight").click()
    wait(browser, lambda d: "40 of" in text(d, "#moves-note"))
    assert move_table(browser) == [(str(m.move), f"{m.mean:+.3f}") for m in expected.moves]
    assert not {c for c in hidden if c in lens_text(browser)}
    # player 1's view, player 0 to move: nothing to value, and nothing of player 0's hand named
    browser.find_element(By.CSS_SELECTOR, '#tabs [data-tab="hidden"]').click()
    browser.find_element(By.CSS_SELECTOR, '.view-btn[data-player="1"]').click()
    wait(browser, lambda d: board_notation(d) == START.view(1).to_string())
    assert "no values, it is player 0's turn" in browser.find_element(By.ID, "moves-note").get_attribute("textContent")
    hidden1 = {str(c) for c in iter_cards(START.hands[0])} | {str(c) for c in START.stock}
    assert not {c for c in hidden1 if c in lens_text(browser)} and not rows(browser, "#moves")
    browser.find_element(By.CSS_SELECTOR, '.view-btn[data-player=""]').click()
    browser.find_element(By.CSS_SELECTOR, '#tabs [data-tab="analysis"]').click()
    wait_exact(browser, len(START.legal_moves()))
    assert not browser.find_element(By.ID, "lens").is_displayed()
    assert move_table(browser) == shown_values(analyze(START))


def test_a_views_link_speaks_from_the_view(browser, base_url):
    view = START.view(0)
    open_page(browser, f"{base_url}/?pos={urllib.parse.quote(view.to_string())}")
    wait(browser, lambda d: board_notation(d) == view.to_string() and "fair, from player 0's view" in text(d, "#moves-note"))
    assert not browser.find_element(By.ID, "hindsight").is_enabled()     # a view alone has no hindsight
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#moves tbody tr"))
    assert {m for m, _ in move_table(browser)} == {str(m) for m in view.legal_moves()}
    assert not browser.find_element(By.ID, "error").is_displayed()


def test_a_players_view_carries_on_through_the_moves_played_stepped_to_and_back(browser, base_url):
    best = str(suggest(START.view(0), worlds=40, seed=3, progress=False).moves[0].move)
    after = START.play(best)                            # player 1 to move
    reply = str(after.legal_moves()[0])
    again = after.play(reply)                           # player 0 to move again
    # the line best, reply in the move list (every card), back to its start
    open_page(browser, f"{base_url}/?pos={urllib.parse.quote(START.to_string())}&line={urllib.parse.quote(f'{best}_{reply}')}")
    wait(browser, lambda d: board_notation(d) == again.to_string())
    browser.find_element(By.ID, "hist-first").click()
    wait(browser, lambda d: board_notation(d) == START.to_string())
    browser.find_element(By.CSS_SELECTOR, '#tabs [data-tab="hidden"]').click()
    fill(browser, ("worlds", "40"), ("suggest-seed", "3"), ("suggest-time", "30"))
    browser.find_element(By.CSS_SELECTOR, '.view-btn[data-player="0"]').click()
    browser.find_element(By.CSS_SELECTOR, '#tabs [data-tab="analysis"]').click()

    def in_view(pos, fair):
        """The board is player 0's view of `pos`, no panel names a hidden card; `fair`: its fair values."""
        wait(browser, lambda d: board_notation(d) == pos.view(0).to_string())
        if fair:
            wait(browser, lambda d: "40 of" in text(d, "#moves-note") and not d.find_element(By.ID, "suggest-stop").is_displayed())
            assert {m for m, _ in move_table(browser)} == {str(m) for m in pos.view(0).legal_moves()}
        else:
            wait(browser, lambda d: "no values, it is player 1's turn" in d.find_element(By.ID, "moves-note").get_attribute("textContent"))
            assert not rows(browser, "#moves")
        hidden = {str(c) for c in iter_cards(pos.hands[1])} | {str(c) for c in pos.stock}
        told = sorted(c for c in hidden if c in lens_text(browser))
        assert not told, told
        faces = [e.get_attribute("class") for e in browser.find_elements(By.CSS_SELECTOR, "#hand1 svg.card")]
        assert len(faces) == len(list(iter_cards(pos.hands[1]))) and all("back" in f for f in faces), faces
        assert "player 0's view" in text(browser, "#lens") and "player 0's view" in text(browser, "#board-step")
        assert not browser.find_element(By.ID, "tree-btn").is_enabled()

    in_view(START, fair=True)
    assert move_table(browser)[0][0] == best
    browser.find_element(By.CSS_SELECTOR, "#moves tbody tr.best").click()       # the best fair move
    in_view(after, fair=False)
    browser.find_element(By.ID, "hist-next").click()        # a step in the move list: player 0 to move
    in_view(again, fair=True)
    browser.back()                                           # the browser's Back: the view of each position
    in_view(after, fair=False)
    browser.back()
    in_view(START, fair=True)
    browser.forward()
    in_view(after, fair=False)
    # leaving the view stays a choice: every card again
    browser.find_element(By.CSS_SELECTOR, '#tabs [data-tab="hidden"]').click()
    browser.find_element(By.CSS_SELECTOR, '.view-btn[data-player=""]').click()
    wait(browser, lambda d: board_notation(d) == after.to_string())
    assert browser.execute_script("return document.getElementById('lens').hidden")


def test_a_game_against_a_bot_ends_the_view_and_its_suggestion(browser, base_url):
    open_page(browser, f"{base_url}/?pos={urllib.parse.quote(START.to_string())}")
    wait(browser, lambda d: len(rows(d, "#moves")) == len(START.legal_moves()))
    browser.find_element(By.CSS_SELECTOR, '#tabs [data-tab="hidden"]').click()
    fill(browser, ("worlds", "2000"), ("suggest-time", "30"))
    browser.find_element(By.CSS_SELECTOR, '.view-btn[data-player="0"]').click()
    wait(browser, lambda d: d.find_element(By.ID, "suggest-stop").is_displayed())
    browser.find_element(By.CSS_SELECTOR, '#tabs [data-tab="play"]').click()
    Select(browser.find_element(By.ID, "bot")).select_by_value("random")
    browser.find_element(By.ID, "new-game-btn").click()
    # the suggestion's rounds would redraw the view over the game's board: they stop with the view
    assert not browser.find_element(By.ID, "suggest-stop").is_displayed()
    assert browser.execute_script("return document.getElementById('lens').hidden")
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#play-moves .play-move"))


def address(driver):
    """The page's address, its query read as a dict of lists."""
    return urllib.parse.parse_qs(urllib.parse.urlsplit(driver.current_url).query)


def history_state(driver):
    return json.dumps(driver.execute_script("return history.state"))


def test_a_players_view_holds_the_view_alone_in_its_address_and_link(browser, base_url):
    """In a view the address, the history's entry and the copied link hold the view's notation
    alone (no hidden card, no line, no seed), and reloading it opens the same view; with
    hindsight ticked they hold the whole position, its line and the view, reopened as such."""
    best = str(suggest(START.view(0), worlds=40, seed=3, progress=False).moves[0].move)
    after = START.play(best)
    open_page(browser, f"{base_url}/?pos={urllib.parse.quote(START.to_string())}&seed=5")
    wait(browser, lambda d: board_notation(d) == START.to_string())
    browser.find_element(By.CSS_SELECTOR, '#tabs [data-tab="hidden"]').click()
    fill(browser, ("worlds", "40"), ("suggest-seed", "3"), ("suggest-time", "30"))
    browser.find_element(By.CSS_SELECTOR, '.view-btn[data-player="0"]').click()
    wait(browser, lambda d: address(d) == {"pos": [START.view(0).to_string()]})
    assert START.to_string() not in history_state(browser)
    assert browser.find_element(By.ID, "seed").get_attribute("value") == ""      # the deal's seed would deal it again
    browser.find_element(By.CSS_SELECTOR, '#tabs [data-tab="analysis"]').click()
    wait(browser, lambda d: "40 of" in text(d, "#moves-note") and not d.find_element(By.ID, "suggest-stop").is_displayed())
    browser.find_element(By.CSS_SELECTOR, "#moves tbody tr.best").click()
    wait(browser, lambda d: address(d) == {"pos": [after.view(0).to_string()]})
    assert after.to_string() not in history_state(browser) and START.to_string() not in history_state(browser)
    # the link copied is the address: the view alone
    browser.execute_script("window.copied = null; navigator.clipboard.writeText = (t) => "
                           "{ window.copied = t; return Promise.resolve(); };")
    browser.find_element(By.ID, "link-btn").click()
    copied = wait(browser, lambda d: d.execute_script("return window.copied"))
    assert urllib.parse.parse_qs(urllib.parse.urlsplit(copied).query) == {"pos": [after.view(0).to_string()]}

    # hindsight: the whole position, its line and the view; a reload reopens it so
    browser.find_element(By.ID, "hindsight").click()
    whole = {"pos": [START.to_string()], "line": [best], "seed": ["5"], "view": ["0"]}
    wait(browser, lambda d: address(d) == whole)
    assert browser.find_element(By.ID, "seed").get_attribute("value") == "5"
    browser.refresh()
    open_page(browser, browser.current_url)
    wait(browser, lambda d: board_notation(d) == after.view(0).to_string()
         and d.find_element(By.ID, "hindsight").is_selected()
         and text(d, "#moves-note").endswith("all cards shown (hindsight)"))
    assert "player 0's view" in text(browser, "#lens") and address(browser) == whole
    # hindsight off: the view's address again; reloaded, the same view, no hidden card anywhere
    browser.find_element(By.ID, "hindsight").click()
    wait(browser, lambda d: address(d) == {"pos": [after.view(0).to_string()]})
    browser.refresh()
    open_page(browser, browser.current_url)
    wait(browser, lambda d: board_notation(d) == after.view(0).to_string() and "player 0's view" in text(d, "#lens"))
    hidden = {str(c) for c in iter_cards(after.hands[1])} | {str(c) for c in after.stock}
    told = sorted(c for c in hidden if c in lens_text(browser) or c in browser.current_url)
    assert not told, told
    # an address naming a seat the game has not: the position with every card, and a note
    open_page(browser, f"{base_url}/?pos={urllib.parse.quote(START.to_string())}&view=7")
    wait(browser, lambda d: board_notation(d) == START.to_string() and text(d, "#note").startswith("no view of seat 7"))
    assert not browser.find_element(By.ID, "error").is_displayed()


def test_the_editor_in_a_players_view_shows_what_the_player_knows(browser, base_url):
    """The Edit tab in a view: the editor's earlier places (every card) are not shown; it can
    start from the view (the hidden cards unplaced) or leave the view."""
    hidden = {str(c) for c in iter_cards(START.hands[1])} | {str(c) for c in START.stock}
    open_page(browser, f"{base_url}/?pos={urllib.parse.quote(START.to_string())}")
    wait(browser, lambda d: board_notation(d) == START.to_string())
    browser.find_element(By.CSS_SELECTOR, '#tabs [data-tab="edit"]').click()       # every card: the whole deal
    wait(browser, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#place-hand1 .ed-card")) == 3)
    browser.find_element(By.CSS_SELECTOR, '#tabs [data-tab="hidden"]').click()
    browser.find_element(By.CSS_SELECTOR, '.view-btn[data-player="0"]').click()
    wait(browser, lambda d: board_notation(d) == START.view(0).to_string())
    browser.find_element(By.CSS_SELECTOR, '#tabs [data-tab="edit"]').click()

    def nothing_hidden_shown():
        shown = browser.execute_script(
            "return Array.from(document.querySelectorAll('#board .place .ed-card'), e => e.dataset.card)")
        assert not hidden & set(shown), sorted(hidden & set(shown))
        words = text(browser, "#tab-edit") + "\n" + text(browser, "#board")   # the prose, any notation
        named = {run[k:k + 2] for run in re.findall(r"(?<![A-Za-z0-9])((?:[A2-7FCR][dcsb])+)(?![A-Za-z0-9])", words)
                 for k in range(0, len(run), 2)}
        assert not hidden & named, sorted(hidden & named)

    wait(browser, lambda d: d.find_elements(By.ID, "ed-off"))
    assert "not shown" in text(browser, "#ed-lens") and not browser.find_elements(By.CSS_SELECTOR, "#palette")
    nothing_hidden_shown()
    shot(browser, "board-edit-view-off")
    browser.find_element(By.ID, "ed-lens-start").click()          # the editor from what player 0 knows
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#palette"))
    hand0 = browser.execute_script(
        "return Array.from(document.querySelectorAll('#place-hand0 .ed-card'), e => e.dataset.card)")
    assert sorted(hand0) == sorted(str(c) for c in iter_cards(START.hands[0]))
    assert not browser.find_elements(By.CSS_SELECTOR, "#place-hand1 .ed-card, #place-stock .ed-card")
    unplaced = browser.execute_script("return Array.from(document.querySelectorAll('#palette .ed-card:not(.placed)'), "
                                      "e => e.dataset.card)")
    assert hidden <= set(unplaced)
    assert "Editing player 0's view" in text(browser, "#ed-lens")
    nothing_hidden_shown()
    shot(browser, "board-edit-view")
    # From the board, in the view: the view again, never the whole position
    browser.find_element(By.ID, "ed-from-board").click()
    time.sleep(0.3)
    nothing_hidden_shown()
    # Leave the view: every card again, the editor shown
    browser.find_element(By.CSS_SELECTOR, '#tabs [data-tab="hidden"]').click()
    browser.find_element(By.CSS_SELECTOR, '.view-btn[data-player="1"]').click()      # another view: not shown
    wait(browser, lambda d: board_notation(d) == START.view(1).to_string())
    browser.find_element(By.CSS_SELECTOR, '#tabs [data-tab="edit"]').click()
    wait(browser, lambda d: d.find_elements(By.ID, "ed-off"))
    browser.find_element(By.ID, "ed-lens-leave").click()
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#palette") and not d.find_element(By.ID, "ed-lens").is_displayed())
    assert browser.execute_script("return document.getElementById('lens').hidden")


# -- several lines, why, ties (issue 45) --------------------------------------------------------------

# three moves tie at +1 for player 1; the lines order them by player 1's points at the round's end
TIED = Position.from_string("6s/CsAb 4d3c6c5s 7d4cCcRcAs4s7sFsRs4b5bCb/Ad2d3d6dRdAc2c5cFc2s3s3b6bFbRb "
                            "2bFd7c5d7bCd 0/0 1 1 0")


def three_lines_shown(browser, base_url, pos):
    """Open `pos`, ask for 3 lines, check each one's move, value, line and why against `lines`
    and `explain`; the lines."""
    from scopa_solver.search.lines import explain, lines
    open_page(browser, f"{base_url}/?pos={urllib.parse.quote(pos.to_string())}")
    wait_exact(browser, len(pos.legal_moves()))
    Select(browser.find_element(By.ID, "lines-count")).select_by_value("3")
    browser.find_element(By.ID, "lines-btn").click()
    wait(browser, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#lines li")) == 3)
    expected = lines(pos, count=3)
    assert texts(browser, "#lines .lmove") == [str(ln.move) for ln in expected]
    assert texts(browser, "#lines .lvalue") == [f"{ln.value:+d}" if ln.value else "0" for ln in expected]
    assert texts(browser, "#lines .lpv") == [" ".join(map(str, ln.pv)) for ln in expected]
    assert texts(browser, "#lines .why") == [f"Against line 1: {explain(pos, ln.move)}" for ln in expected[1:]]
    return expected


def test_several_lines_each_with_its_line_and_why_the_first_is_better(browser, base_url):
    expected = three_lines_shown(browser, base_url, MID)
    assert "exact" in text(browser, "#lines-note")
    shot(browser, "board-lines")
    # a move of a line plays the line up to it
    second = expected[1]
    browser.find_elements(By.CSS_SELECTOR, "#lines li")[1].find_element(By.CSS_SELECTOR, '.lpv span[data-index="2"]').click()
    wait(browser, lambda d: board_notation(d) == MID.play(second.pv[0]).play(second.pv[1]).to_string())


def test_three_players_get_paranoid_lines_and_why(browser, base_url):
    from helpers import late
    three = next(p for p in (late(Rules(players=3), seed, 7) for seed in range(20)) if len(p.legal_moves()) >= 3)
    three_lines_shown(browser, base_url, three)
    assert not text(browser, "#lines-note").startswith("error")


def test_equal_best_values_are_ordered_and_the_order_is_said(browser, base_url):
    from scopa_solver.search.lines import lines
    open_page(browser, f"{base_url}/?pos={urllib.parse.quote(TIED.to_string())}")
    wait_exact(browser, len(TIED.legal_moves()))
    expected = [ln for ln in lines(TIED, count=5) if ln.value == lines(TIED, count=1)[0].value]
    assert len(expected) == 3 and len({ln.points for ln in expected}) > 1
    # asked at once: the stars carry the order, the ties are said
    wait(browser, lambda d: text(d, "#lines-ties").startswith("Ties: 3 moves share the best value +1"))
    order = browser.execute_script(
        "return Array.from(document.querySelectorAll('#moves tr.best'), tr => "
        "[tr.dataset.move, tr.querySelector('td.badge').dataset.order])")
    # by player 1's points at each line's end (3, 2, 2): equal counts share their number
    ranks = {p: k + 1 for k, p in enumerate(sorted({ln.points for ln in expected}, reverse=True))}
    assert sorted(order) == sorted([str(ln.move), str(ranks[ln.points])] for ln in expected)
    badge = browser.execute_script("return getComputedStyle(document.querySelector("
                                   "'#moves tr.best td.badge[data-order=\"1\"]'), '::before').content")
    assert badge == '"★ best 1"'
    assert "player 1's points at the round's end" in text(browser, "#lines-ties")
    shot(browser, "board-ties")


def test_a_players_view_shows_no_lines(browser, base_url):
    open_page(browser, f"{base_url}/?pos={urllib.parse.quote(MID.to_string())}")
    wait_exact(browser, len(MID.legal_moves()))
    browser.find_element(By.ID, "lines-btn").click()
    wait(browser, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#lines li")) == 3)
    switch = browser.find_element(By.CSS_SELECTOR, '[data-tab="hidden"]')
    switch.click()
    browser.find_element(By.CSS_SELECTOR, '.view-btn[data-player="0"]').click()
    browser.find_element(By.CSS_SELECTOR, '[data-tab="analysis"]').click()
    wait(browser, lambda d: "hidden cards" in text(d, "#lines-note"))
    assert browser.find_elements(By.CSS_SELECTOR, "#lines li") == []
    assert browser.find_element(By.ID, "lines-btn").get_attribute("disabled")


def test_the_eval_bar_shows_only_depths_whose_last_play_is_by_the_same_side(browser, base_url):
    # six seats alone: depths 4, 8, 12, ... end on different seats' plays; only 4, 16, 28 on the same
    # seat's as depth 4. The depths come faster than the page reads them, so they are handed to the
    # bar as the live analysis would, once it is over.
    six = Position.new_round(seed=1, rules=Rules(players=6, partnerships=False))
    two = MID
    labels = {}
    for pos in (six, two):
        open_page(browser, f"{base_url}/?pos={urllib.parse.quote(pos.to_string())}")
        wait(browser, lambda d: "exact:" in text(d, "#an-status"))
        labels[pos] = browser.execute_script("""
            const a = known.get(`${state.base}|value`).a, out = [];
            for (const [h, v] of [[4, 1], [8, 3], [12, 5], [16, 2]]) {
              evalBar({...a, complete: false, exact: false, horizon: h, value: v});
              out.push(document.querySelector('#eval-label').textContent);
            }
            return out;""")
    s4, s8, s12, s16 = labels[six]
    assert s4.startswith("+1 ") and "depth 4" in s4
    assert s8.startswith("+1 ") and "depth 4 (depth 8 searched: the bar shows depths whose last play" in s8
    assert s12.startswith("+1 ") and "depth 4 (depth 12 searched" in s12
    assert s16.startswith("+2 ") and "depth 16" in s16 and "searched" not in s16
    # two sides: every depth of the search (each side has played as often)
    assert [x.split(" ")[0] for x in labels[two]] == ["+1", "+3", "+5", "+2"]
    assert not any("searched" in x for x in labels[two])


def _fair_view_suggested(browser, base_url, pos, player):
    """`pos` on the board, then `player`'s view suggested (40 worlds, seed 3), back on the Analysis tab."""
    open_page(browser, f"{base_url}/?pos={urllib.parse.quote(pos.to_string())}")
    wait_exact(browser, len(pos.legal_moves()))
    browser.find_element(By.CSS_SELECTOR, '#tabs [data-tab="hidden"]').click()
    fill(browser, ("worlds", "40"), ("suggest-seed", "3"), ("suggest-time", "30"))
    browser.find_element(By.CSS_SELECTOR, f'.view-btn[data-player="{player}"]').click()
    suggestion_done(browser, 40)
    browser.find_element(By.CSS_SELECTOR, '#tabs [data-tab="analysis"]').click()


def test_a_players_view_says_how_equal_fair_values_were_ordered(browser, base_url):
    # player 0's two cavalli both take Cd: the same fair mean in every world
    pos = helpers.late(Rules(), 0, 12)
    view = pos.view(pos.to_move)
    expected = suggest(view, worlds=40, seed=3, progress=False)
    assert expected.ties.startswith("2 moves share the best fair mean")
    hidden = {str(c) for p in range(2) if p != view.player for c in iter_cards(pos.hands[p])} | \
        {str(c) for c in pos.stock}
    _fair_view_suggested(browser, base_url, pos, view.player)
    wait(browser, lambda d: text(d, "#lines-ties") == f"Fair values: {expected.ties}.")
    assert not {c for c in hidden if c in text(browser, "#lines-ties")}
    assert not browser.find_elements(By.CSS_SELECTOR, "#lines li")


def test_a_players_view_says_why_the_fair_best_is_best(browser, base_url):
    from scopa_solver.imperfect.fairwhy import explain_view, why_worlds
    pos = helpers.late(Rules(), 2, 12)
    view = pos.view(pos.to_move)
    fair = suggest(view, worlds=40, seed=3, progress=False)
    worlds, seed = why_worlds(fair)
    expected = explain_view(view, worlds=worlds, seed=seed, suggestion=fair)
    hidden = {str(c) for c in iter_cards(view.unseen)}
    _fair_view_suggested(browser, base_url, pos, view.player)
    wait(browser, lambda d: text(d, "#fair-why") == f"Why (fair): {expected}")
    assert not {c for c in hidden if c in text(browser, "#fair-why")}
    browser.find_element(By.CSS_SELECTOR, '#tabs [data-tab="hidden"]').click()
    browser.find_element(By.CSS_SELECTOR, '.view-btn[data-player=""]').click()     # every card: no fair why
    wait(browser, lambda d: text(d, "#fair-why") == "")


def test_equal_values_at_a_depth_show_the_searchs_finer_order(browser, base_url):
    deal = Position.new_round(seed=3, rules=Rules(players=4, game="scientifico"))
    open_page(browser, f"{base_url}/?pos={urllib.parse.quote(deal.to_string())}")
    wait(browser, lambda d: text(d, "#lines-ties").startswith("Ties: ") and "depth" in text(d, "#moves-note"))
    snap = browser.execute_script("""
        const a = known.get(`${state.base}|value`).a;
        return {ties: document.querySelector('#lines-ties').textContent, aties: a.ties, moves: a.moves,
                rows: Array.from(document.querySelectorAll('#moves tbody tr'),
                                 tr => [tr.dataset.move, tr.querySelector('td.badge').dataset.order || null])};""")
    browser.find_element(By.ID, "an-stop").click()
    shot(browser, "board-depth-ties")
    assert snap["ties"] == f"Ties: {snap['aties']}." and "finer evaluation at the horizon" in snap["ties"]
    top = [m for m in snap["moves"] if m["best"]]
    firsts = [m for m in top if m["order"] == 1]
    assert len(top) > 1 and firsts and all(m["order"] in (1, 2) for m in top)
    want = {m["move"]: ("lower" if m["order"] == 2 else "=" if len(firsts) > 1 else "1") for m in top}
    assert {move: order for move, order in snap["rows"] if order} == want
