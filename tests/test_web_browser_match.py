"""Match play and hints on the board, in a real headless browser (issue 45): the Play tab starts a
match to 11 or 21, the running score stays above the prompt, "Next round" deals the next round
(the deal passing on) until the match is won; "Hint" (your turn only) shows the fair suggestion
from your view and marks the move, and the record keeps it as help."""
import pytest

from test_web_browser import base_url, browser, fill, open_page, shot, text, wait  # noqa: F401

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from scopa_solver import GameRecord
from scopa_solver.play import hints


@pytest.fixture(autouse=True)
def short_hints(monkeypatch):
    monkeypatch.setattr(hints, "HINT_SECONDS", 0.3)      # the server runs in this process


def start_match(driver, url, target, seat="0", bot="greedy", seed=5):
    open_page(driver, url)
    driver.find_element(By.CSS_SELECTOR, '#tabs [data-tab="play"]').click()
    Select(driver.find_element(By.ID, "bot")).select_by_value(bot)
    Select(driver.find_element(By.ID, "seat")).select_by_value(seat)
    Select(driver.find_element(By.ID, "play-match")).select_by_value(str(target))
    box = driver.find_element(By.ID, "play-seed")
    box.clear()
    box.send_keys(str(seed))
    driver.find_element(By.ID, "new-game-btn").click()


def my_turn_or_over(d):
    return (d.find_elements(By.CSS_SELECTOR, "#play-moves .play-move")
            or d.find_element(By.ID, "play-after").is_displayed())


def play_round(driver):
    """Click the first move button at each turn until the round is over."""
    while True:
        wait(driver, my_turn_or_over)
        if driver.find_element(By.ID, "play-after").is_displayed():
            return
        count = len(driver.find_elements(By.CSS_SELECTOR, "#play-log li"))
        driver.find_element(By.CSS_SELECTOR, "#play-moves .play-move").click()
        wait(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#play-log li")) > count)


def record_of(driver):
    return GameRecord.from_json(driver.execute_script("return state.game.record"))


def test_a_match_to_11_round_after_round_to_its_winner(browser, base_url):  # noqa: F811
    start_match(browser, base_url, 11)
    wait(browser, lambda d: d.find_element(By.ID, "match-score").is_displayed())
    assert text(browser, "#match-score").startswith("Match to 11, round 1: you 0, Greedy 0")
    rounds = 0
    while True:
        play_round(browser)
        rounds += 1
        rec = record_of(browser)
        score = text(browser, "#match-score")
        assert f"round {rounds}: you {rec.totals[0]}, Greedy {rec.totals[1]}" in score
        if rec.winner is not None:
            break
        assert browser.find_element(By.ID, "next-round-btn").is_displayed()
        assert "Deal the next round" in text(browser, "#play-result")
        assert not browser.find_element(By.ID, "hint-btn").is_displayed()
        browser.find_element(By.ID, "next-round-btn").click()
        wait(browser, lambda d: f"round {rounds + 1}:" in text(d, "#match-score"))
        assert rounds < 12
    assert rec.kind == "match" and max(rec.totals) >= 11 and rounds == len(rec.rounds) >= 2
    assert [r.dealer for r in rec.rounds] == [(1 + k) % 2 for k in range(rounds)]     # the deal alternates
    won = "You win the match" if rec.winner == 0 else "Greedy wins the match"
    assert f"{won} {rec.totals[rec.winner]}–{rec.totals[1 - rec.winner]}" in text(browser, "#match-score")
    assert not browser.find_element(By.ID, "next-round-btn").is_displayed()
    assert "The match is over" in text(browser, "#play-result")


def test_a_hint_on_your_turn_marks_the_move_and_is_recorded(browser, base_url):  # noqa: F811
    start_match(browser, base_url, 21, seed=8)
    wait(browser, my_turn_or_over)
    assert browser.find_element(By.ID, "hint-btn").is_displayed()
    browser.find_element(By.ID, "hint-btn").click()
    wait(browser, lambda d: text(d, "#play-hint").startswith("Hint: play "))
    hint = text(browser, "#play-hint")
    suggested = hint.split("Hint: play ")[1].split(" ")[0]
    assert "from your view" in hint and "recorded as help" in hint and "fair value" in hint
    marked = [b.get_attribute("data-move") for b in browser.find_elements(By.CSS_SELECTOR, "#play-moves .play-move.hinted")]
    assert marked == [suggested]
    assert browser.find_elements(By.CSS_SELECTOR, f'#hand0 svg.card.hinted[data-card="{suggested.split("x")[0]}"]')
    assert "1 hint used" in text(browser, "#match-score")
    rec = record_of(browser)
    assert [(h.move, h.seat, h.suggested) for h in rec.rounds[0].help] == [(len(rec.rounds[0].moves) + 1, 0, suggested)]
    browser.execute_script("window.scrollTo(0, 0)")
    shot(browser, "board-match-hint")
    # the hinted move played: the hint is gone until asked again, the help stays in the record
    count = len(browser.find_elements(By.CSS_SELECTOR, "#play-log li"))
    browser.find_element(By.CSS_SELECTOR, f'#play-moves .play-move[data-move="{suggested}"]').click()
    wait(browser, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#play-log li")) > count)
    wait(browser, my_turn_or_over)
    assert text(browser, "#play-hint") == ""
    assert record_of(browser).hints_used() == {"you": 1}
    # the round played out, its review says how many hints were used
    play_round(browser)
    browser.find_element(By.CSS_SELECTOR, '#tabs [data-tab="review"]').click()
    fill(browser, ("review-worlds", "5"))
    browser.find_element(By.CSS_SELECTOR, '#tabs [data-tab="play"]').click()
    browser.find_element(By.ID, "review-game-btn").click()
    wait(browser, lambda d: d.find_elements(By.ID, "review-hints"))
    assert text(browser, "#review-hints") == "Hints asked for in play (recorded as help): you 1."
