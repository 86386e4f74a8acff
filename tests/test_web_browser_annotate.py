"""Annotations and learning from one's mistakes on the board, in a real headless browser: after a
review the move list shows the round with each move's mark (coloured as the review's, saying why
on hover and on a click) and the player's comments, saved in the record; "Learn from my mistakes"
asks for a better play at each fair mistake, from the player's view, then shows the best."""
import re

import pytest

from test_web_browser import (base_url, board_notation, browser, review_record_file, rows, shot, text,  # noqa: F401
                              texts, wait)

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from scopa_solver import GameRecord, GreedyBot, Position, RandomBot, RoundRecord, play_round
from scopa_solver.core.cards import iter_cards
from scopa_solver.play.learn import lessons
from scopa_solver.play.review import FairReview, review

WORLDS = 8
COLOUR = {"": "", "?!": "inaccuracy", "?": "mistake", "??": "blunder"}


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    """Deal 2, Greedy against Random (Random makes four fair mistakes), saved; its library review
    as the board's (seed 0)."""
    start = Position.new_round(seed=2)
    record = GameRecord(players=("Greedy", "Random"))
    record.add_round(RoundRecord.from_play(start, play_round(start, GreedyBot(), RandomBot(seed=2)).moves))
    path = record.save(tmp_path_factory.mktemp("annotate") / "game.json")
    return record, path, review(record, fair=FairReview(worlds=WORLDS, seed=0), rounds=[1], progress=False)


def history(driver):
    """Each move of the move list: (its move, its mark, the mark's colour, the mark's title, its comment)."""
    return driver.execute_script("""return Array.from(document.querySelectorAll('#history .hmove'), (el) => {
        const note = el.querySelector('.hnote'), next = el.nextElementSibling;
        const comment = next && next.classList.contains('hcomment') ? next.title : null;
        return [el.dataset.move, note ? note.textContent : '', note ? note.className.replace('hnote', '').trim() : '',
                note ? note.title : '', comment];
    })""")


def click(driver, css, index):
    """Click the `index`th element matching `css` (found and clicked at one moment: the list redraws)."""
    driver.execute_script("document.querySelectorAll(arguments[0])[arguments[1]].click()", css, index)


def test_the_move_list_shows_the_reviews_marks_and_the_players_comments(browser, base_url, game):  # noqa: F811
    record, path, lib = game
    review_record_file(browser, base_url, path, worlds=WORLDS)
    wait(browser, lambda d: len(rows(d, "#review-table")) == 36)
    rows(browser, "#review-table")[1].click()            # move 2: Random's first fair mistake
    positions = record.replay()[0].positions
    wait(browser, lambda d: board_notation(d) == positions[1].to_string())
    # the whole round in the move list, each move with the review's mark, coloured as the review's
    wait(browser, lambda d: len(history(d)) == 36)
    shown = history(browser)
    assert [m for m, *_ in shown] == [str(m) for m in record.rounds[0].moves]
    assert [(mark, colour) for _, mark, colour, _, _ in shown] == \
        [(d.mark, COLOUR[d.mark]) for d in lib.decisions]
    assert any(mark for _, mark, *_ in shown)
    # the mark's title says why: the fair loss and the hindsight one
    k = next(i for i, d in enumerate(lib.decisions) if d.mark == "??")
    d = lib.decisions[k]
    why = shown[k][3]
    assert f"fair: lost {d.fair_loss:.2f}" in why and f"hindsight: lost {d.loss}" in why
    click(browser, "#history .hmove .hnote", [i for i, x in enumerate(shown) if x[1]].index(k))
    wait(browser, lambda d_: f"fair: lost {d.fair_loss:.2f}" in text(d_, "#note"))
    # a comment on the current move (move 1: the move that led here), saved in the record
    click(browser, "#history .hmove", 1)       # move 2
    wait(browser, lambda d_: board_notation(d_) == positions[2].to_string())
    assert "Comment on move 2 (Random played" in text(browser, "#comment-label")
    box = browser.find_element(By.ID, "comment-text")
    box.clear()
    box.send_keys("why not 6cx6b? the 6 was safe")
    browser.find_element(By.ID, "comment-save").click()
    wait(browser, lambda d_: history(d_)[1][4] == "why not 6cx6b? the 6 was safe")
    saved = GameRecord.from_json(browser.find_element(By.ID, "record-text").get_attribute("value"))
    assert saved.rounds[0].comments == {2: "why not 6cx6b? the 6 was safe"}
    assert [str(m) for m in saved.rounds[0].moves] == [str(m) for m in record.rounds[0].moves]
    # reviewed again, the comment comes back from the record, in the list and in its box
    browser.find_element(By.ID, "review-btn").click()
    wait(browser, lambda d_: len(rows(d_, "#review-table")) == 36 and d_.execute_script(
        "return state.review && state.review.decisions[1].comment") == "why not 6cx6b? the 6 was safe")
    click(browser, "#review-table tbody tr", 2)
    wait(browser, lambda d_: board_notation(d_) == positions[2].to_string() and len(history(d_)) == 36)
    assert history(browser)[1][4] == "why not 6cx6b? the 6 was safe"
    assert browser.find_element(By.ID, "comment-text").get_attribute("value") == "why not 6cx6b? the 6 was safe"
    browser.execute_script("window.scrollTo(0, 0)")
    shot(browser, "board-annotations")


def test_learn_from_my_mistakes_asks_for_a_better_play_from_the_players_view(browser, base_url, game):  # noqa: F811
    record, path, lib = game
    found = lessons(lib, "Random")
    assert len(found) == 4
    review_record_file(browser, base_url, path, worlds=WORLDS)
    wait(browser, lambda d: len(rows(d, "#review-table")) == 36 and d.find_element(By.ID, "learn-row").is_displayed())
    Select(browser.find_element(By.ID, "learn-player")).select_by_value("Random")
    browser.find_element(By.ID, "learn-btn").click()
    positions = record.replay()[0].positions
    for k, lesson in enumerate(found):
        wait(browser, lambda d: board_notation(d) == lesson.view.to_string()
             and f"{k + 1} of 4" in text(d, "#learn-step"))
        question = text(browser, "#learn-question")
        assert f"move {lesson.number}: Random played {lesson.played} {lesson.mark}" in question
        # the view: the opponent's hand face down, none of its cards named anywhere on the page;
        # the move list and the review's table (which tell later plays) hidden
        hidden = positions[lesson.number - 1].hands[0]
        assert browser.find_elements(By.CSS_SELECTOR, "#hand0 svg.back")
        assert not browser.find_elements(By.CSS_SELECTOR, "#hand0 svg[data-card]")
        on_board = {e.get_attribute("data-card") for e in browser.find_elements(By.CSS_SELECTOR, "#board svg[data-card]")}
        assert on_board and not on_board & {str(c) for c in iter_cards(hidden)}
        assert not any(str(c) in text(browser, "#learn") for c in iter_cards(hidden))
        assert not browser.find_element(By.ID, "history").is_displayed()
        assert not browser.find_element(By.ID, "review-table").is_displayed()
        assert not browser.find_element(By.ID, "record-text").is_displayed()      # the record holds the deck
        assert "pos=" not in browser.current_url
        buttons = [b.get_attribute("data-move") for b in browser.find_elements(By.CSS_SELECTOR, "#learn-moves button")]
        assert sorted(buttons) == sorted(str(m) for m in lesson.view.legal_moves())
        choice = lesson.played if k % 2 else lesson.best
        browser.find_element(By.CSS_SELECTOR, f'#learn-moves button[data-move="{choice}"]').click()
        wait(browser, lambda d: text(d, "#learn-answer"))
        answer = text(browser, "#learn-answer")
        best = re.search(r"Best: (\S+) \(([+−][\d.]+) fair, over (\d+) worlds?\)", answer)
        assert best and best[1] == str(lesson.best) and int(best[3]) == lesson.worlds, answer
        assert abs(float(best[2].replace("−", "-")) - lesson.best_mean) < 0.006     # (JS rounds halves up)
        if choice == lesson.best:
            assert answer.startswith(f"{lesson.best}: as good as the best fair move")
            assert "good" in browser.find_element(By.ID, "learn-answer").get_attribute("class").split()
        else:
            assert answer.startswith(f"{lesson.played}: the move played in the game")
            loss = re.search(r"([\d.]+) below the best", answer)
            assert loss and abs(float(loss[1]) - lesson.fair_loss) < 0.006
        if k == 1:
            shot(browser, "board-learn")
        if k + 1 < len(found):
            browser.find_element(By.ID, "learn-next").click()
    assert "found 2" in text(browser, "#learn-step")
    browser.find_element(By.ID, "learn-stop").click()
    wait(browser, lambda d: d.find_element(By.ID, "review-table").is_displayed() and not d.find_element(By.ID, "learn").is_displayed())


def test_puzzles_from_the_reviewed_round_are_asked_one_after_another(browser, base_url, game):  # noqa: F811
    from scopa_solver.play.puzzles import puzzles_from_record
    record, path, lib = game
    found = puzzles_from_record(record, "Greedy", rounds=[1])
    assert len(found) >= 2
    review_record_file(browser, base_url, path, worlds=WORLDS)
    wait(browser, lambda d: len(rows(d, "#review-table")) == 36 and d.find_element(By.ID, "learn-row").is_displayed())
    Select(browser.find_element(By.ID, "learn-player")).select_by_value("Greedy")
    browser.find_element(By.ID, "record-puzzles-btn").click()
    for k, p in enumerate(found):
        wait(browser, lambda d: board_notation(d) == p.position and d.find_element(By.ID, "puzzle").is_displayed()
             and f"Puzzle {k + 1} of {len(found)} from your game ({p.where})" in text(d, "#puzzle-question"))
        assert f"One move keeps {p.value:+d}" in text(browser, "#puzzle-question")
        assert not rows(browser, "#moves")          # no analysis: it would give the answer away
        choice = p.best if k % 2 == 0 else next(str(m) for m in p.to_position().legal_moves() if str(m) != p.best)
        browser.find_element(By.CSS_SELECTOR, f'#puzzle-moves button[data-move="{choice}"]').click()
        wait(browser, lambda d: f"In the game: {p.played}" in text(d, "#puzzle-answer"))
        answer = text(browser, "#puzzle-answer")
        assert answer.startswith(f"Right: {p.best}" if choice == p.best else f"Not the one: {choice}.")
        if k == 0:
            shot(browser, "board-record-puzzles")
        if k + 1 < len(found):
            browser.find_element(By.ID, "puzzle-next").click()
    assert f"Found {(len(found) + 1) // 2} of {len(found)}." in text(browser, "#puzzle-answer")
    assert not browser.find_element(By.ID, "puzzle-next").is_displayed()
