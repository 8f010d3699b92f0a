"""Screenshots of the browser table (docs/serve-gin.png, docs/serve-kaluki.png) in headless Chromium.

Needs the serve extra, Selenium and Debian's chromium and chromium-driver::

    pip install ".[serve]" selenium && apt-get install -y chromium chromium-driver
    python examples/serve_screenshots.py docs/

A server on a loopback port and a fresh database; seat 0 (the screenshot's) is played through
the API until the table is worth showing, and the bots answer on the server.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from typing import Any

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests", "serve"))

from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from serve_helpers import Server  # noqa: E402

from rummykit.multideck import multi_best_melds, parse_multi  # noqa: E402


def _wait_turn(server: Server, table: str, token: str) -> dict[str, Any]:
    for _ in range(400):
        view = server.view(table, token)
        if view["legal"] or view["match"]["is_over"]:
            return view
        time.sleep(0.05)
    raise RuntimeError("no turn")


def _move(view: dict[str, Any]) -> int:
    """Seat 0's move: draw, meld or lay off when it can, else the discard keeping the least penalty."""
    legal = view["legal"]
    for word in ("draw", "meld ", "lay off "):
        for action in legal:
            if action["text"].startswith(word):
                return int(action["id"])
    discards = [a for a in legal if a["text"].startswith("discard ")]
    if not discards:
        return int(legal[0]["id"])

    def left(action: dict[str, Any]) -> int:
        rest = list(view["hand"])
        rest.remove(action["text"].split()[1])
        best = multi_best_melds(parse_multi(" ".join(rest)))
        return best.penalty if best is not None else 999

    return int(min(discards, key=left)["id"])


def main(out: str) -> None:
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1300,820"):
        options.add_argument(argument)
    os.environ["SE_OFFLINE"] = "true"
    with tempfile.TemporaryDirectory() as scratch:
        server = Server(os.path.join(scratch, "tables.sqlite3")).start()
        driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
        try:
            table, tokens = server.create("gin", [{"type": "human"}, {"type": "bot", "agent": "greedy"}], seed=8)
            view = _wait_turn(server, table, tokens[0])
            while not any(a["text"].startswith("discard") for a in view["legal"]):
                move = next((a for a in view["legal"] if a["text"] in ("pass", "draw stock")), view["legal"][0])
                server.move(table, tokens[0], move["id"], key="action")
                view = _wait_turn(server, table, tokens[0])
            driver.get(f"{server.url}/#t={table}&k={tokens[0]}")
            time.sleep(1.5)
            driver.save_screenshot(os.path.join(out, "serve-gin.png"))

            seats = [{"type": "human"}] + [{"type": "bot", "agent": "greedy"}] * 2
            table, tokens = server.create("kaluki", seats, seed=14)
            view = _wait_turn(server, table, tokens[0])
            for _ in range(200):
                if len(view["melds"]) >= 3 and view["phase"] != "draw" and view["legal"]:
                    break
                server.move(table, tokens[0], _move(view), key="action")
                view = _wait_turn(server, table, tokens[0])
            driver.get(f"{server.url}/#t={table}&k={tokens[0]}")
            time.sleep(1.5)
            driver.save_screenshot(os.path.join(out, "serve-kaluki.png"))
        finally:
            driver.quit()
            server.stop()


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "docs")
