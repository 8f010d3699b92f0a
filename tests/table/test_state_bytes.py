"""Tampered table-state bytes never crash the process.

A pickled Rummy or Kaluki state is the bytes of its C struct (rk_table_state), its undo
entries (the bytes before each action) and its history.  Every bytes field of the struct,
in the live state and in undo entries, is set to hostile values (out of range, negative,
the C type's extremes, cards twice or outside the deck, meld counts of 32767 or 255, a
meld's kind, key, start, owner and cards) and the pickle loaded.  Each load must either
raise a RummykitError or give a state that a plain Python restatement of rk_table_check
(``consistent`` below) accepts: the two must agree on every tampered copy.  A state that
loads is then driven through its verbs (getters, repr, result, legal actions, actions,
records, observations, clone, undo to the deal), which raise nothing but RummykitError and
keep it consistent.

The tampering runs in a subprocess per game, so that a crash fails the test instead of
ending the run.  ``python tests/table/test_state_bytes.py GAME [RANDOM_COPIES]`` runs one game's
share.  The default run tampers two games (the wraparound and the ace-low geometries);
RUMMYKIT_LONG=1 all four, with ten times the random-byte copies.
"""

from __future__ import annotations

import json
import pickle
import random
import struct
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

if __name__ == "__main__":  # run as a script by the test below: tests/ holds conftest
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from long_runs import LONG  # noqa: E402

#: (label, game name, options): the geometries (aces low, high, high-or-low with wraparound),
#: seat counts, and both Kaluki decks
GAMES: dict[str, tuple[str, dict[str, Any]]] = {
    "rummy 2p": ("rummy", {}),
    "rummy 4p wrap": ("rummy", {"num_players": 4, "ace_rank": "high_or_low", "allow_wraparound": True}),
    "kaluki 3p": ("kaluki", {"num_players": 3}),
    "kalooki-51 2p low aces": ("kalooki-51", {"ace_low_runs": True}),
}

#: the games of the default run (RUMMYKIT_LONG=1: all of them, with more random bytes)
DEFAULT_GAMES = ("rummy 4p wrap", "kalooki-51 2p low aces")

_INT = {(1, True): "b", (1, False): "B", (2, True): "h", (4, True): "i", (8, False): "Q"}


def _layout() -> tuple[dict[str, tuple[int, int, int, bool]], dict[str, int], int]:
    from rummykit import _core

    layout: tuple[dict[str, tuple[int, int, int, bool]], dict[str, int], int] = _core._table_state_layout()
    return layout


def decode(raw: bytes) -> dict[str, Any]:
    """The fields of rk_table_state's bytes, counts as stored (not bounded)."""
    fields, meld, _ = _layout()
    out: dict[str, Any] = {}
    for name, (offset, size, items, signed) in fields.items():
        if name == "table":
            keys = [k for k in meld if k != "cards"]
            out[name] = []
            for i in range(items):
                at = offset + i * size
                m = {k: raw[at + meld[k]] for k in keys}
                m["cards"] = list(raw[at + meld["cards"] : at + meld["cards"] + 14])
                out[name].append(m)
        elif name in ("hands", "known"):
            words = struct.unpack_from(f"<{items}Q", raw, offset)
            out[name] = [words[2 * p] | words[2 * p + 1] << 64 for p in range(items // 2)]
        elif items > 1:
            out[name] = list(raw[offset : offset + items])
        else:
            out[name] = struct.unpack_from("<" + _INT[size, signed], raw, offset)[0]
    return out


def _card_type(card: int) -> int:
    return 52 if card >= 104 else card % 52


def _meld_ok(geo: Any, m: dict[str, Any]) -> bool:
    """table_check.c's meld_valid, restated."""
    n, cards = m["n_cards"], m["cards"]
    if not 3 <= n <= 14 or all(c >= 104 for c in cards[:n]):
        return False
    if m["kind"] == 1:  # RK_MELD_SET
        if m["key"] >= 13 or m["start"] or n > 4:
            return False
        naturals = [c for c in cards[:n] if c < 104]
        suits = [c % 52 // 13 for c in naturals]
        return all(c % 13 == m["key"] for c in naturals) and len(set(suits)) == len(suits)
    if m["kind"] != 2 or m["key"] >= 4 or n > 13:
        return False
    if (m["start"] >= 13) if geo.wrap else (m["start"] + n > geo.npos):
        return False
    for i, c in enumerate(cards[:n]):
        p = (m["start"] + i) % 13 if geo.wrap else m["start"] + i
        if c < 104 and _card_type(c) != geo.type_at(m["key"], p):
            return False
    return True


def consistent(game: Any, f: dict[str, Any], dealer: int | None = None) -> bool:
    """rk_table_check, restated on the decoded fields: what the C check accepts (and, for a
    pickle's live state, the dealer the pickle names)."""
    rules, n, size = game.rules, game.rules.num_players, game.rules.deck_size
    if f["n_players"] != n or not 0 <= f["player"] < n or not 0 <= f["dealer"] < n:
        return False
    if dealer is not None and f["dealer"] != dealer:
        return False
    if not 0 <= f["phase"] <= 2 or not all(0 <= f[k] <= 108 for k in ("n_stock", "n_discards")):
        return False
    if not all(0 <= f[k] <= 40 for k in ("n_table", "n_ends")):
        return False
    taken_card = f["taken_card"]
    if not -1 <= taken_card < size or f["taken"] != (-1 if taken_card < 0 else _card_type(taken_card)):
        return False
    if not -1 <= f["must"] <= 52 or not 0 <= f["pending"] <= 64 or f["turns"] < 0 or f["restocks"] < 0:
        return False
    if (f["opened"] | f["played"]) >> n or f["fresh"] not in (0, 1) or f["built_other"] not in (0, 1):
        return False
    if f["open_value"] < 0 or f["turn_melds"] < 0 or not 0 <= f["outcome"] <= 6 or not -1 <= f["winner"] < n:
        return False
    went_out = f["outcome"] >= 3  # rummy, out, hunt, call_off
    if (f["phase"] == 2) != (f["outcome"] != 0) or went_out != (f["winner"] >= 0):
        return False
    if went_out and (f["outcome"] >= 5) != rules.is_kaluki:
        return False
    absent = f["absent"]  # seats out of the hand: two present at least, never the player, dealer or winner
    if absent >> n or n - absent.bit_count() < 2 or absent >> f["player"] & 1 or absent >> f["dealer"] & 1:
        return False
    if f["winner"] >= 0 and absent >> f["winner"] & 1:
        return False
    seen: list[int] = []
    for p in range(6):
        hand, known = f["hands"][p], f["known"][p]
        if p >= n:
            if hand or known:
                return False
            continue
        if hand >> size or known & ~hand or (rules.is_kaluki and hand.bit_count() > 26) or (absent >> p & 1 and hand):
            return False
        seen += [c for c in range(size) if hand >> c & 1]
    seen += f["stock"][: f["n_stock"]] + f["discards"][: f["n_discards"]]
    for m in f["table"][: f["n_table"]]:
        if m["owner"] >= n or not _meld_ok(game.geo, m):
            return False
        seen += m["cards"][: m["n_cards"]]
    if any(c >= size for c in seen) or len(set(seen)) != len(seen):
        return False
    recent = f["recent"]  # per seat, 3 kinds x 8 moves: types + 1, none for seats past the last
    if any(v > 53 for v in recent) or any(recent[24 * n :]):
        return False
    return not (f["winner"] >= 0 and f["hands"][f["winner"]])


def positions(game: Any, seed: int) -> list[tuple[str, Any]]:
    """A fresh deal, a state mid-hand with melds on the table (an undo stack under it),
    and a finished hand."""
    rng = random.Random(seed)
    out = [("deal", game.new_hand(seed=seed, dealer=0))]
    state = game.new_hand(seed=seed, dealer=1)
    mid = None
    while not state.is_terminal():
        legal = state.legal_actions()
        melds = [a for a in legal if a > 54]  # melds, lay-offs and releases first: a table to tamper with
        state.apply_action(rng.choice(melds) if melds and rng.random() < 0.8 else rng.choice(legal))
        if mid is None and len(state.table) >= 2 and state.phase == 1:
            mid = state.clone()
    out.append(("mid-hand", mid if mid is not None else state.clone()))
    out.append(("finished", state))
    return out


def _scalar_values(name: str, size: int, signed: bool, n: int) -> list[int]:
    """The extremes of the C type, around zero, and each field's edges."""
    lo, hi = (-(1 << (8 * size - 1)), (1 << (8 * size - 1)) - 1) if signed else (0, (1 << (8 * size)) - 1)
    edges = {
        "n_stock": [108, 109, 32767],
        "n_discards": [108, 109, 32767],
        "n_table": [40, 41, 32767],
        "n_ends": [40, 41],
        "phase": [3, 2],
        "player": [n, 6],
        "dealer": [n],
        "n_players": [n + 1, 7],
        "opened": [1 << n],
        "played": [1 << n],
        "absent": [1 << n, 1, 2, (1 << n) - 2],
        "taken": [52, 53, 0],
        "taken_card": [103, 107, 108],
        "must": [52, 53],
        "pending": [64, 65],
        "fresh": [2],
        "built_other": [2],
        "outcome": [1, 3, 5, 7],
        "winner": [0, n],
        "open_value": [32767],
        "turn_melds": [32767],
        "turns": [2**31 - 1],
        "restocks": [2**31 - 1],
    }.get(name, [])
    return [v for v in dict.fromkeys([lo, hi, -1, 0, 1, *edges]) if lo <= v <= hi]


def _put(raw: bytearray, offset: int, size: int, signed: bool, value: int) -> None:
    struct.pack_into("<" + _INT[size, signed], raw, offset, value)


def tampered(raw: bytes, f: dict[str, Any], n: int, rng: random.Random, random_copies: int) -> list[tuple[str, bytes]]:
    """(what, bytes) for every field of raw set to hostile values."""
    fields, meld, _ = _layout()
    out: list[tuple[str, bytes]] = []

    def put(what: str, offset: int, size: int, signed: bool, value: int) -> None:
        copy = bytearray(raw)
        _put(copy, offset, size, signed, value)
        if bytes(copy) != raw:
            out.append((what, bytes(copy)))

    for name, (offset, size, items, signed) in fields.items():
        if items == 1:
            for v in _scalar_values(name, size, signed, n):
                put(f"{name}={v}", offset, size, signed, v)
        elif name in ("hands", "known"):
            for word in (0, 1, 2 * n - 1, 2 * n, 11):  # a seat's low and high words, a seat past the last
                for v in (2**64 - 1, 1 << 63, 1 << 44, rng.getrandbits(64)):
                    put(f"{name} word {word}={v:#x}", offset + 8 * word, 8, False, v)
        elif name == "recent":  # the history: a seat's first and last entry, a seat past the last
            for i in dict.fromkeys([0, 23, 24 * n - 1, 24 * n, items - 1]):
                for v in (0, 1, 53, 54, 255):
                    put(f"recent[{i}]={v}", offset + i, 1, False, v)
        elif name in ("stock", "discards", "ends"):
            count = f["n_" + name]
            for i in dict.fromkeys([0, max(count - 1, 0), count, items - 1]):
                for v in (255, 108, 107, 104, 52, raw[offset] if i else raw[offset + 1]):
                    put(f"{name}[{i}]={v}", offset + i, 1, False, v)
        else:  # the table melds: every field of the first, the last and the next slot
            for slot in dict.fromkeys([0, max(f["n_table"] - 1, 0), f["n_table"]]):
                base = offset + slot * size
                for key, at in meld.items():
                    if key == "cards":
                        for i in (0, 1, 2, 13):
                            for v in (255, 108, 104, raw[base + at + (i + 1) % 14]):
                                put(f"table[{slot}].cards[{i}]={v}", base + at + i, 1, False, v)
                        continue
                    for v in (0, 1, 2, 3, 4, 12, 13, 14, 15, 255, n):
                        put(f"table[{slot}].{key}={v}", base + at, 1, False, v)
    # and random bytes anywhere: 1-6 of them at once
    for _ in range(random_copies):
        copy = bytearray(raw)
        for _ in range(rng.randint(1, 6)):
            copy[rng.randrange(len(copy))] = rng.choice((0, 1, 2, 0x7F, 0x80, 0xFF, rng.randrange(256)))
        if bytes(copy) != raw:
            out.append(("random bytes", bytes(copy)))
    return out


def _exercise(state: Any, game: Any, deep: bool) -> str | None:
    """Drive a loaded state through its verbs; None if nothing but RummykitError came out and
    every state reached stayed consistent."""
    from rummykit.errors import RummykitError

    def check(s: Any, where: str) -> str | None:
        fields = decode(s.__reduce__()[1][4])
        return None if consistent(game, fields) else f"inconsistent after {where}"

    steps: list[tuple[str, Any]] = [
        ("getters", lambda: (state.hands, state.known, state.stock, state.discards, state.ends, state.table)),
        ("repr", lambda: repr(state)),
        ("result", lambda: (state.result, state.returns(), state.phase_name, state.current_player)),
        ("legal_actions", state.legal_actions),
        ("text", lambda: (state.table_text(), state.hand_text(0), state.top_discard)),
    ]
    if deep:
        steps += [
            ("to_json", state.to_json),
            ("observation", lambda: (state.observation(0), state.information_state_string(1))),
        ]
    for what, call in steps:
        try:
            call()
        except RummykitError:
            pass
        except Exception as err:  # noqa: BLE001 - what escapes is the finding
            return f"{what}: {type(err).__name__}: {err}"
    try:
        legal = state.legal_actions()
    except RummykitError:
        return None
    for action in dict.fromkeys([*legal[:2], *legal[-1:]]):
        s = state.clone()
        try:
            s.apply_action(action)
        except Exception as err:  # noqa: BLE001
            return f"apply_action({action}): {type(err).__name__}: {err}"
        if problem := check(s, f"apply_action({action})"):
            return problem
    s = state.clone()
    while s.history:  # every undo entry back to the deal: each one is checked before it is restored
        try:
            s.undo()
            s.legal_actions()
        except RummykitError:
            break
        except Exception as err:  # noqa: BLE001
            return f"undo at {len(s.history)}: {type(err).__name__}: {err}"
    return None


class _Pickled:
    """Pickles as a call of func(*args): a state's pickle with its parts replaced."""

    def __init__(self, func: Any, args: tuple[Any, ...]) -> None:
        self.func, self.args = func, args

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return self.func, self.args


def run_game(label: str, random_copies: int = 40) -> dict[str, Any]:
    """Tamper every field of every position of one game; the counts and the problems found."""
    import rummykit as rk
    from rummykit.errors import RummykitError

    name, options = GAMES[label]
    game = rk.Game(name, **options)
    n = game.rules.num_players
    rng = random.Random(18)
    counts = {"refused": 0, "loaded": 0, "refused entries": 0, "loaded entries": 0}
    problems: list[str] = []
    for where, state in positions(game, seed=5):
        func, args = state.__reduce__()
        raw, stack = args[4], args[5]
        # the live struct, the first and the last undo entry
        entries = dict.fromkeys([0, len(stack) - 1]) if stack else {}
        targets = [("state", -1, raw)] + [(f"undo entry {i}", i, stack[i]) for i in entries]
        for target, index, base in targets:
            for what, bad in tampered(base, decode(base), n, rng, random_copies):
                expected = consistent(game, decode(bad), state.dealer if index < 0 else None)
                new_stack = list(stack)
                if index >= 0:
                    new_stack[index] = bad
                load_args = (*args[:4], bad if index < 0 else raw, new_stack, *args[6:])
                try:
                    if rng.random() < 0.1:  # through pickle itself (slow: each load builds the game anew)
                        copy = pickle.loads(pickle.dumps(_Pickled(func, load_args)))
                    else:
                        copy = func(*load_args)
                except RummykitError:
                    counts["refused" if index < 0 else "refused entries"] += 1
                    if expected:
                        problems.append(f"{where}, {target}, {what}: refused, but consistent")
                    continue
                except Exception as err:  # noqa: BLE001
                    problems.append(f"{where}, {target}, {what}: load raised {type(err).__name__}: {err}")
                    continue
                counts["loaded" if index < 0 else "loaded entries"] += 1
                if not expected:
                    problems.append(f"{where}, {target}, {what}: loaded, but inconsistent")
                    continue
                if problem := _exercise(copy, game, deep=index < 0 and rng.random() < 0.2):
                    problems.append(f"{where}, {target}, {what}: {problem}")
    return {"counts": counts, "problems": problems[:40]}


@pytest.mark.parametrize("label", [g for g in GAMES if LONG or g in DEFAULT_GAMES])
def test_tampered_table_state_bytes(label: str) -> None:
    """Every tampered copy is refused with a RummykitError or loads as a consistent state
    (the C check and the Python restatement agree), and no verb of a loaded one escapes
    with another exception or crashes the (sub)process."""
    command = [sys.executable, str(Path(__file__)), label, "400" if LONG else "40"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, f"the tampering process died ({done.returncode}): {done.stderr[-2000:]}"
    report = json.loads(done.stdout.strip().splitlines()[-1])
    counts = report["counts"]
    assert not report["problems"], "\n".join(report["problems"])
    # both answers happen, for the live struct and for undo entries (a check that refuses all or
    # nothing would not be tested)
    assert all(counts[k] > 50 for k in counts), counts


def test_the_reported_crashes_are_refused() -> None:
    """The issue's cases: an undo entry with a meld count of 32767 (SIGSEGV at the next
    legal list), a stock count of 32767 (a getter read 32,767 bytes past its array), an
    outcome or winner out of range, and out-of-range field values that were truncated."""
    import rummykit as rk
    from rummykit.errors import InvalidOptionError, ReadOnlyError, RummykitError
    from rummykit.table.melds import TableMeld

    fields, meld, _ = _layout()
    state = rk.Game("kaluki").new_hand(seed=3, dealer=0)
    for _ in range(12):
        state.apply_action(state.legal_actions()[-1])
    func, args = state.__reduce__()
    entries = list(args[5])
    entry = bytearray(entries[-1])
    _put(entry, fields["n_table"][0], 2, True, 32767)
    entries[-1] = bytes(entry)
    with pytest.raises(RummykitError, match=f"undo entry {len(entries) - 1} is inconsistent"):
        func(*args[:5], entries, *args[6:])
    for name, value in (("n_stock", 32767), ("outcome", 9), ("winner", 7), ("n_players", 100)):
        offset, size, _, signed = fields[name]
        raw = bytearray(args[4])
        _put(raw, offset, size, signed, value)
        with pytest.raises(RummykitError, match="the state is inconsistent"):
            func(*args[:4], bytes(raw), *args[5:])
    before = state.to_json()
    for name, value, message in (
        ("player", 257, r"player must be an int in 0\.\.1 \(a seat\), got 257"),
        ("phase", 258, r"phase must be an int in 0\.\.2 \(draw, play, end\), got 258"),
        ("pending", 65, r"pending must be an int in 0\.\.64, got 65"),
        ("turns", 2**31, r"turns must be an int in 0\.\.2\*\*31-1"),
        ("shuffle_seed", -1, r"shuffle_seed must be an int in 0\.\.2\*\*64-1"),
        ("taken_card", 108, r"taken_card must be an int in -1\.\.107"),
        ("opened", 4, r"opened must be an int in 0\.\.3 \(a mask of seats\)"),
        ("fresh", 2, "fresh must be True or False"),
        ("stock", [0, 300], r"stock\[1\] must be an int in 0\.\.107, got 300"),
        ("stock", list(range(109)), "stock: at most 108 items, got 109"),
        ("hands", [1, 2, 3], r"hands: one mask per seat \(2\), got 3"),
        ("hands", [1 << 108, 0], r"hands\[0\] must be an int in 0\.\.2\*\*108-1"),
        ("ends", [256], r"ends\[0\] must be an int in 0\.\.255"),
        ("phase", "1", "phase must be an int"),
    ):
        with pytest.raises(InvalidOptionError, match=message):
            state.with_fields(**{name: value})
        with pytest.raises(ReadOnlyError, match="read-only"):
            setattr(state, name, value)
        assert state.to_json() == before
    with pytest.raises(InvalidOptionError, match=r"table\[0\]\.owner must be an int in 0\.\.1 \(a seat\), got 5"):
        state.with_fields(table=(TableMeld(0, 3, 0, (3, 16, 29), 5),))


def test_kaluki_hands_are_bounded() -> None:
    """A Kaluki hand of more than 26 cards (13 are dealt) is refused before the opening search,
    which is exponential in the hand (a hand-edited 50-card hand took a minute)."""
    import rummykit as rk
    from rummykit.errors import RummykitError

    for cards, ok in ((26, True), (27, False), (60, False)):
        state = rk.Game("kalooki-51").new_hand(seed=2, dealer=1)
        state.apply_action(53)  # seat 0 draws
        hands, stock = list(state.hands), list(state.stock)
        while hands[0].bit_count() < cards:
            hands[0] |= 1 << stock.pop()
        state = state.with_fields(stock=stock, hands=hands)
        if ok:
            assert state.legal_actions()
        else:
            with pytest.raises(RummykitError, match="a Kaluki hand over 26 cards"):
                state.legal_actions()


if __name__ == "__main__":
    print(json.dumps(run_game(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 40)))
