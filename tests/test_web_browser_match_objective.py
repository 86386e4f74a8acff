"""The match objective on the board, in a real headless browser (issue 42): with a match score in
the analysis panel (typed, from the address's &match=, or from a game of match play opened in the
move list) every move gets its chance to win the match beside its round value, and the moves
where the two objectives disagree are marked, their title saying why. The equity is the tests'
stand-in (helpers.RaceEquity), installed as the default in this process, where the server runs."""
from urllib.parse import quote

import pytest

from test_web_browser import base_url, browser, open_page, rows, shot, text, texts, wait  # noqa: F401
from test_web_browser_match import play_round, record_of, start_match

from selenium.webdriver.common.by import By

from scopa_solver import Match, analyze

from helpers import disagreement, race_equity

SCORE = (9, 7)


@pytest.fixture(autouse=True)
def equity():
    with race_equity():
        yield


def marks(driver):
    """(move, the mark's class, its title) of every marked row, read at one moment."""
    return driver.execute_script(
        "return Array.from(document.querySelectorAll('#moves tbody tr')).flatMap((tr) => "
        "Array.from(tr.querySelectorAll('.match-mark')).map((m) => [tr.dataset.move, m.classList[1], m.title]))")


def chances(driver):
    return dict(driver.execute_script(
        "return Array.from(document.querySelectorAll('#moves tbody tr')).map((tr) => "
        "[tr.dataset.move, tr.querySelector('td.chance').textContent])"))


def test_the_chance_per_move_and_the_moves_where_the_objectives_disagree(browser, base_url):  # noqa: F811
    pos, best_margin, best_match = disagreement(SCORE, strict=True)
    want = analyze(pos, objective=Match(SCORE))
    chance = {str(r.move): r.value / 10000 for r in want}
    open_page(browser, f"{base_url}?pos={quote(pos.to_string())}&match=9-7")
    wait(browser, lambda d: marks(d) and len(rows(d, "#moves")) == len(want))
    assert browser.find_element(By.ID, "an-match").get_attribute("value") == "9-7"
    assert chances(browser) == {move: f"{100 * c:.2f}%" for move, c in chance.items()}
    found = marks(browser)
    for_match = {move for move, kind, _ in found if kind == "for-match"}
    for_margin = {move for move, kind, _ in found if kind == "for-margin"}
    assert for_match == best_match - best_margin and for_margin == best_margin - best_match
    assert for_match and for_margin      # no move is best under both
    top = max(best_margin, key=lambda m: chance[m])
    for move, kind, title in found:
        if kind == "for-match":
            assert title.startswith(f"wins the match more often: {100 * chance[move]:.2f}% against "
                                    f"{100 * chance[top]:.2f}% for {top}, the best round margin")
        else:
            assert "the best round margin" in title and "wins the match less often" in title
    note = text(browser, "#match-note")
    assert f"Match 9–7 to 11: player {pos.to_move} wins it {want.value / 100:.2f}%" in note
    assert "The two objectives disagree here" in note
    assert "match=9-7" in browser.current_url
    bar = text(browser, "#eval-label")          # player 0's bar: the value and the chance beside it
    mover = want.value / 100 if pos.to_move == 0 else 100 - want.value / 100
    assert bar.endswith(f" · {mover:.2f}% to win the match"), bar
    browser.execute_script("document.querySelector('#match-note').scrollIntoView({block: 'center'})")
    shot(browser, "match-objective")         # docs/board-match-objective.png is a copy of it

    # no score: no chance column, no marks
    box = browser.find_element(By.ID, "an-match")
    box.clear()
    box.send_keys("\n")
    browser.execute_script("document.querySelector('#an-match').dispatchEvent(new Event('change'))")
    wait(browser, lambda d: not marks(d) and not d.find_element(By.ID, "match-note").is_displayed())
    assert not browser.find_element(By.CSS_SELECTOR, "#moves th.chance").is_displayed()


def test_a_score_typed_in_the_panel_and_a_bad_one(browser, base_url):  # noqa: F811
    pos, _, _ = disagreement(SCORE)
    open_page(browser, f"{base_url}?pos={quote(pos.to_string())}")
    wait(browser, lambda d: len(rows(d, "#moves")) > 0)
    assert not browser.find_element(By.CSS_SELECTOR, "#moves th.chance").is_displayed()
    box = browser.find_element(By.ID, "an-match")
    box.send_keys("12-10\t")
    wait(browser, lambda d: "already won a match to 11" in text(d, "#match-note"))
    box.clear()
    box.send_keys("9-7\t")
    wait(browser, lambda d: marks(d))
    assert browser.find_element(By.CSS_SELECTOR, "#moves th.chance").is_displayed()
    assert all(value.endswith("%") for value in texts(browser, "#moves td.chance"))


def test_a_match_game_opened_in_the_move_list_takes_its_score(browser, base_url):  # noqa: F811
    from helpers import RaceEquity
    equity = RaceEquity(11)
    start_match(browser, base_url, 11)
    wait(browser, lambda d: d.find_element(By.ID, "match-score").is_displayed())
    assert f"your chance to win the match {100 * equity.chance((0, 0), 1, 0):.1f}%" in text(browser, "#match-score")
    play_round(browser)
    totals = record_of(browser).totals
    wait(browser, lambda d: f"your chance to win the match {100 * equity.chance(totals, 0, 0):.1f}%"
         in text(d, "#match-score"))
    shot(browser, "match-play-chance")
    browser.find_element(By.ID, "next-round-btn").click()
    wait(browser, lambda d: "round 2:" in text(d, "#match-score"))
    before = record_of(browser).totals
    play_round(browser)
    browser.find_element(By.ID, "open-game-btn").click()
    wait(browser, lambda d: d.find_element(By.ID, "an-match").get_attribute("value") == "-".join(map(str, before)))
    wait(browser, lambda d: f"match={'-'.join(map(str, before))}" in d.current_url)
    assert browser.find_element(By.ID, "an-target").get_attribute("value") == "11"


def test_a_match_reviewed_by_the_chance_to_win_it(browser, base_url):  # noqa: F811
    from selenium.webdriver.support.ui import Select
    start_match(browser, base_url, 11, seed=6)
    wait(browser, lambda d: d.find_element(By.ID, "match-score").is_displayed())
    play_round(browser)
    browser.find_element(By.ID, "next-round-btn").click()
    wait(browser, lambda d: "round 2:" in text(d, "#match-score"))
    before = record_of(browser).totals
    play_round(browser)
    browser.find_element(By.ID, "review-game-btn").click()
    wait(browser, lambda d: rows(d, "#review-table"))
    assert not browser.find_elements(By.CSS_SELECTOR, ".review-by-match")
    browser.find_element(By.ID, "review-match").click()
    Select(browser.find_element(By.ID, "review-round")).select_by_value("2")
    score = "–".join(map(str, before))
    wait(browser, lambda d: f"from {score} before the round" in text(d, "#review-summary")
         and "Round 2 of 2" in text(d, "#review-summary"))
    best = texts(browser, "#review-table tbody tr td:nth-child(7)")
    assert best and all(b == "" or b.endswith("%") for b in best) and any(best)
    assert "100% for side 0" in text(browser, "#review-graph")
    browser.find_element(By.CSS_SELECTOR, "#review-table tbody tr.decision").click()
    wait(browser, lambda d: d.find_element(By.ID, "an-match").get_attribute("value") == "-".join(map(str, before)))
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#review-moves.match td.chance")
         and all(t.endswith("%") for t in texts(d, "#review-moves td.chance")))
    shot(browser, "match-review")
