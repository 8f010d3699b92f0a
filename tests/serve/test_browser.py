"""The browser table in a real headless Chromium (Debian's chromium and chromium-driver, driven by
Selenium): a whole Gin hand and a Kaluki hand with a meld against bots, every move made on the
page (clicks on the stock, the cards and the buttons); the test reads the seat's view from the
API only to decide what to click."""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from serve_helpers import Server, need_serve

import rummykit as rk
from rummykit.multideck import multi_best_melds, parse_multi

webdriver = pytest.importorskip("selenium.webdriver")
from selenium.webdriver.common.by import By  # noqa: E402

need_serve()


CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
if CHROMIUM is None or DRIVER is None:
    pytest.skip("the browser tests need Debian's chromium and chromium-driver", allow_module_level=True)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from selenium.webdriver.chrome.service import Service

    os.environ["SE_OFFLINE"] = "true"  # Selenium Manager must not fetch anything
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,900"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    driver.set_page_load_timeout(30)
    yield driver
    driver.quit()


def _until(condition: Callable[[], Any], timeout: float = 20.0, what: str | None = "") -> Any:
    """The first true value of ``condition()`` within ``timeout`` seconds (else an error, or
    None when ``what`` is None)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            value = condition()
        except Exception:  # noqa: BLE001 - the page is redrawing: look again
            value = None
        if value:
            return value
        time.sleep(0.05)
    if what is None:
        return None
    raise AssertionError(f"timed out waiting for {what or condition}")


def _enabled(driver: Any, button_id: str) -> Any:
    button = driver.find_element(By.ID, button_id)
    return button if button.is_enabled() else None


def _click_cards(driver: Any, cards: list[str]) -> None:
    """Select these cards of the hand (a card twice: both copies)."""
    used: set[str] = set()
    for card in cards:
        nodes = driver.find_elements(By.CSS_SELECTOR, f'#hand .card[data-card="{card}"]')
        node = next(n for n in nodes if n.get_attribute("data-index") not in used)
        used.add(node.get_attribute("data-index"))
        node.click()


def _click_action(driver: Any, text: str) -> None:
    buttons = driver.find_elements(By.CSS_SELECTOR, "#actions button[data-action]")
    next(b for b in buttons if b.get_attribute("data-action") == text).click()


def _best_discard(view: dict[str, Any]) -> str:
    """The discard that leaves the least deadwood (penalty in Kaluki) among the legal ones."""
    choices = [a["text"].split()[1] for a in view["legal"] if a["text"].startswith("discard ")]
    hand = view["hand"]

    def left(card: str) -> int:
        rest = list(hand)
        rest.remove(card)
        if view["game"] == "kaluki":
            best = multi_best_melds(parse_multi(" ".join(rest)))
            return best.penalty if best is not None else 999
        return rk.deadwood(" ".join(rest))

    return min(choices, key=left)


def _play_hand(server: Server, driver: Any, table: str, token: str) -> list[str]:
    """Play this seat's turns on the page until the hand-end screen shows; the moves made."""
    driver.get(f"{server.url}/#t={table}&k={token}")
    made: list[str] = []
    start = server.view(table, token)
    for _ in range(400):
        if driver.find_element(By.ID, "overlay").is_displayed():
            return made
        view = server.view(table, token)
        if view["match"]["hands_played"] != start["match"]["hands_played"] or not view["legal"]:
            time.sleep(0.1)
            continue
        ids = ",".join(str(a["id"]) for a in view["legal"])
        if not _until(lambda: driver.find_element(By.ID, "table").get_attribute("data-legal") == ids, 5, None):
            continue
        texts = [a["text"] for a in view["legal"]]
        kinds = {t.split()[0] for t in texts}
        if "draw" in kinds or "draw stock" in texts:
            driver.find_element(By.ID, "stock").click()
            made.append("draw")
        elif "pass" in texts:
            _click_action(driver, "pass")
            made.append("pass")
        elif "knock" in kinds:  # select the card to knock with, then Gin (when enabled) or Knock
            card = next(t for t in texts if t.startswith("knock ")).split()[1]
            _click_cards(driver, [card])
            button = _until(lambda: _enabled(driver, "gin-button") or _enabled(driver, "knock-button"), what="knock")
            made.append(button.text.lower())
            button.click()
        elif melds := [t for t in texts if t.startswith(("meld ", "lay off "))]:
            _click_cards(
                driver, [c for c in melds[0].split()[1:] if len(c) == 2 and c not in ("on", "Jk") or c == "Jk"]
            )
            _until(lambda: driver.find_elements(By.CSS_SELECTOR, "#candidates button"), what="meld candidates")
            _click_action(driver, melds[0])
            made.append(melds[0])
        elif "done" in texts:
            _click_action(driver, "done")
            made.append("done")
        else:
            card = _best_discard(view)
            _click_cards(driver, [card])
            _click_action(driver, f"discard {card}")
            made.append(f"discard {card}")
        _until(lambda v=view: server.view(table, token) != v, what=f"the move {made[-1]}")
    raise AssertionError(f"the hand did not end: {made[-20:]}")


def test_gin_hand_in_the_browser(browser: Any, server: Server) -> None:
    table, tokens = server.create("gin", [{"type": "human"}, {"type": "bot", "agent": "greedy"}], seed=21)
    made = _play_hand(server, browser, table, tokens[0])
    assert made and browser.find_element(By.ID, "overlay-title").text in ("The hand is over", "The match is over")
    browser.find_element(By.ID, "overlay-close").click()
    assert not browser.find_element(By.ID, "overlay").is_displayed()
    # a reload finds the table again, and the next hand's view
    browser.refresh()
    _until(lambda: browser.find_elements(By.CSS_SELECTOR, "#hand .card"), what="the hand after a reload")
    assert "connected" in _until(lambda: browser.find_element(By.ID, "connection").text == "connected" and "connected")


def test_kaluki_hand_with_a_meld(browser: Any, server: Server) -> None:
    table, tokens = server.create("kaluki", [{"type": "human"}, {"type": "bot", "agent": "random"}], seed=3)
    made = _play_hand(server, browser, table, tokens[0])
    assert any(m.startswith("meld ") for m in made), made


def test_lobby_creates_a_table(browser: Any, server: Server) -> None:
    browser.get(server.url + "/")
    browser.find_element(By.ID, "game").send_keys("Oklahoma Gin")
    browser.find_element(By.ID, "create").click()
    _until(lambda: "#t=" in browser.current_url, what="the new table")
    _until(lambda: browser.find_elements(By.CSS_SELECTOR, "#hand .card"), what="the hand")
    assert "Oklahoma Gin" in browser.find_element(By.ID, "title").text


def _drag(driver: Any, source: str, target: str) -> None:
    """Drag the element at CSS ``source`` onto CSS ``target`` with the mouse: Selenium's
    ActionChains (press, move, release), which Chromium turns into the HTML5 drag-and-drop
    events the page listens to.  The page redraws on every push (a bot's move, the
    WebSocket's first view), so an element found just before may be gone: find both again."""
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.common.action_chains import ActionChains

    for attempt in range(5):
        try:
            start, end = driver.find_element(By.CSS_SELECTOR, source), driver.find_element(By.CSS_SELECTOR, target)
            ActionChains(driver).drag_and_drop(start, end).perform()
            return
        except StaleElementReferenceException:
            if attempt == 4:
                raise
            time.sleep(0.2)


def _events(server: Server, table: str, token: str, since: int) -> list[dict[str, Any]]:
    status, view = server.request("GET", f"/api/tables/{table}/view?token={token}&since={since}")
    assert status == 200, view
    return list(view["events"])


def test_drag_to_draw_and_to_discard(browser: Any, server: Server) -> None:
    table, tokens = server.create("gin", [{"type": "human"}, {"type": "bot", "agent": "greedy"}], seed=5)
    token = tokens[0]
    browser.get(f"{server.url}/#t={table}&k={token}")
    # count the HTML5 drop events the page gets: the moves below must come from drops, not clicks
    browser.execute_script("window.drops = 0; document.addEventListener('drop', () => window.drops++, true);")
    view = _until(lambda: (v := server.view(table, token))["legal"] and v, what="seat 0's turn")
    texts = [a["text"] for a in view["legal"]]
    if "pass" in texts:  # the upcard: take it by dragging the discard pile's top card to the hand
        _until(lambda: browser.find_element(By.CSS_SELECTOR, "#discard .card[draggable=true]"), what="the upcard")
        _drag(browser, "#discard .card:last-child", "#hand")
        taken = "take"
    else:  # draw by dragging the stock to the hand
        _until(lambda: browser.find_element(By.ID, "stock").get_attribute("draggable") == "true", what="the stock")
        _drag(browser, "#stock", "#hand")
        taken = "draw"
    first = view["action_count"]
    view = _until(lambda: (v := server.view(table, token))["legal"][0]["text"].startswith("discard") and v, 10, "")
    assert _events(server, table, token, first)[0]["text"].startswith(f"seat 0: {taken}")
    card = _best_discard(view)
    node = f'#hand .card[data-card="{card}"][draggable=true]'
    _until(lambda: browser.find_element(By.CSS_SELECTOR, node))
    _drag(browser, node, "#discard")
    _until(lambda: server.view(table, token)["action_count"] > view["action_count"], 10, "the discard")
    assert _events(server, table, token, view["action_count"])[0]["text"] == f"seat 0: discard {card}"
    assert browser.execute_script("return window.drops") == 2


def test_match_end_screen(browser: Any, server: Server) -> None:
    """A one-hand match played on the page ends on the match-end screen with the final standings,
    which stay on the page; the move list numbers the hand's moves."""
    options = {"game_end": "fixed_hands", "num_hands": 1}
    seats = [{"type": "human"}, {"type": "bot", "agent": "greedy"}]
    table, tokens = server.create("gin", seats, options=options, seed=8)
    _play_hand(server, browser, table, tokens[0])
    standing = server.view(table, tokens[0])["match"]
    assert standing["is_over"]
    assert browser.find_element(By.ID, "overlay-title").text == "The match is over"
    winner = "You won the match." if standing["winner"] == 0 else "Seat 2 (greedy) won the match."
    if standing["winner"] is None:
        winner = "The match is drawn."
    for screen in ("#overlay-body", "#match-end"):
        assert winner in browser.find_element(By.CSS_SELECTOR, screen).text
        rows = browser.find_elements(By.CSS_SELECTOR, f"{screen} table.final tr[data-seat]")
        assert [int(r.get_attribute("data-seat")) for r in rows] == list(standing["standings"])
        assert [r.find_elements(By.TAG_NAME, "td")[2].text for r in rows] == [
            str(standing["scores"][s]) for s in standing["standings"]
        ]
        if screen == "#overlay-body":
            browser.find_element(By.ID, "overlay-close").click()
    assert browser.find_element(By.ID, "match-end").is_displayed()
    numbers = [int(li.get_attribute("value")) for li in browser.find_elements(By.CSS_SELECTOR, "#log li")]
    count = server.view(table, tokens[0])["action_count"]
    assert count > 10 and numbers == list(range(count - len(numbers) + 1, count + 1))
