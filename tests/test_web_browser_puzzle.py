"""The board's puzzles in a real headless browser: the header's game and seed draw a shipped puzzle,
shown without its analysis; a move button says right or not and gives the answer's lines."""
import random

from test_web_browser import base_url, board_notation, browser, open_page, rows, shot, text, wait  # noqa: F401

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from scopa_solver.play.puzzles import shipped


def ask_puzzle(driver, url, rules, game, seed):
    open_page(driver, url)
    Select(driver.find_element(By.ID, "deal-game")).select_by_value(rules)
    box = driver.find_element(By.ID, "seed")
    box.clear()
    box.send_keys(str(seed))
    driver.find_element(By.ID, "puzzle-btn").click()
    p = random.Random(seed).choice(shipped(game))
    wait(driver, lambda d: board_notation(d) == p.position and d.find_element(By.ID, "puzzle").is_displayed())
    return p


def test_a_puzzle_asked_on_the_board_and_answered(browser, base_url):  # noqa: F811
    p = ask_puzzle(browser, base_url, "players=4 game=scopone", "scopone", 3)
    question = text(browser, "#puzzle-question")
    assert f"One move keeps {p.value:+d}" in question and f"gets {p.second:+d} or less" in question
    assert "All cards are shown" in question        # not what seat to move could see
    assert not rows(browser, "#moves")              # no analysis: it would give the answer away
    buttons = [b.get_attribute("data-move") for b in browser.find_elements(By.CSS_SELECTOR, "#puzzle-moves button")]
    assert sorted(buttons) == sorted(str(m) for m in p.to_position().legal_moves())
    wrong = next(m for m in buttons if m != p.best)
    browser.find_element(By.CSS_SELECTOR, f'#puzzle-moves button[data-move="{wrong}"]').click()
    after = p.to_position().play(wrong)
    wait(browser, lambda d: board_notation(d) == after.to_string())
    answer = text(browser, "#puzzle-answer")
    assert answer.startswith(f"Not the one: {wrong}.") and f"The answer: {p.best} keeps {p.value:+d}" in answer
    assert "Best line: " + p.best in answer
    assert browser.find_element(By.CSS_SELECTOR, f'#puzzle-moves button[data-move="{p.best}"]').get_attribute(
        "class") == "mono right"
    shot(browser, "board-puzzle")


def test_the_right_move_in_two_player_scopa(browser, base_url):  # noqa: F811
    p = ask_puzzle(browser, base_url, "", "scopa", 8)
    assert "All cards are shown" not in text(browser, "#puzzle-question")
    browser.find_element(By.CSS_SELECTOR, f'#puzzle-moves button[data-move="{p.best}"]').click()
    wait(browser, lambda d: text(d, "#puzzle-answer").startswith(f"Right: {p.best} keeps {p.value:+d}."))
    tags = text(browser, "#puzzle-answer").split("What decides it: ")[1]
    assert tags.startswith(", ".join(t.replace("-", " ") for t in p.tags))
