"""The plain Python observation of the table games, the oracle of
rummykit.table.observe: every function walks the whole history (undoing it
on a copy of the state) to find what each seat saw, as the library did
before it kept a step log and filled the tensor in C; and the Python
determinization sampler (``_Places``, ``_sample``, ``_can_act``) that the
C sampler (``rk_table_determinize``) replaced.  tests/table/test_observe_core.py
checks the library against these at every step of random hands, and
tests/table/test_playouts_determinize.py checks that the two samplers give
the same distribution.  The semantics are in rummykit.table.observe's
docstring."""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from rummykit._random import Uniforms, as_generator
from rummykit.errors import IllegalActionError, RummykitError
from rummykit.table.actions import DRAW, MELD_RUN, TAKE, id_pattern
from rummykit.table.cards import FIRST_JOKER, JOKER, card_type, type_counts, type_text, types_of
from rummykit.table.melds import SET
from rummykit.table.observe import OBSERVATION_LAYOUT, OBSERVATION_TENSOR_SIZE, ObservedMeld, TableObservation
from rummykit.table.state import PHASES, TableState

_END = PHASES.index("end")
NUM_TYPES = JOKER + 1
_AT = {name: start for name, start, _ in OBSERVATION_LAYOUT}


def _check_player(state: TableState, player: object) -> int:
    if isinstance(player, (int, np.integer)) and not isinstance(player, bool) and 0 <= int(player) < state.n:
        return int(player)
    raise RummykitError(f"player must be a seat 0..{state.n - 1}, got {player!r}")


def _meld_view(state: TableState) -> tuple[ObservedMeld, ...]:
    geo = state.geo
    return tuple(
        ObservedMeld(
            "set" if m.kind == SET else "run",
            tuple(card_type(c) for c in m.cards),
            tuple(m.represents(geo)),
            m.owner,
            m.text(geo),
        )
        for m in state.table
    )


def _rules_text(state: TableState) -> str:
    given = ", ".join(f"{k}={v!r}" for k, v in state.rules.given)
    return f"{state.rules.name}({given})"


def _types_text(types: Iterable[int]) -> str:
    return " ".join(type_text(t) for t in types) or "-"


# --- the history, step by step ------------------------------------------------


class _Step(NamedTuple):
    """One action: who acted and which cards left and entered their hand.
    ``came`` of a stock draw is hidden from the other seats."""

    seat: int
    action: int
    out: int  # physical cards that left the hand (their types are public)
    came: int  # physical cards that came in (a draw, a take, released jokers)
    pile: tuple[int, ...] | None  # the discard pile a restock just before this draw emptied
    top: int  # the top discard before the action (a physical card), -1 for none
    opened: int  # the seats that had opened before it (bits)
    turns: int  # the turns before it


_View = tuple[int, tuple[int, ...], tuple[int, ...], int, int, int]


def _view(s: TableState) -> _View:
    return s.player, s.hands, s.discards, s.restocks, s.opened, s.turns


def _step(action: int, before: _View, after_hands: tuple[int, ...], after_restocks: int) -> _Step:
    seat, hands, discards, restocks, opened, turns = before
    old, new = hands[seat], after_hands[seat]
    pile = discards if after_restocks > restocks else None
    return _Step(seat, action, old & ~new, new & ~old, pile, discards[-1] if discards else -1, opened, turns)


def _walk(state: TableState) -> list[_Step]:
    """The steps of ``state.history``, read off the undo stack (a state
    without one, e.g. one whose fields were set by hand, is replayed from
    its deck instead)."""
    n = len(state.history)
    s = state.clone()
    steps: list[_Step] = []
    try:
        for i in range(n - 1, -1, -1):
            hands, restocks = s.hands, s.restocks
            s.undo()
            steps.append(_step(state.history[i], _view(s), hands, restocks))
    except IllegalActionError:
        return _walk_forward(state)
    steps.reverse()
    return steps


def _walk_forward(state: TableState) -> list[_Step]:
    s = state.game.new_hand(seed=0, dealer=state.dealer, deck=list(state.deck))
    s.shuffle_seed = state.shuffle_seed
    steps = []
    for action in state.history:
        before = _view(s)
        s.apply_action(action)
        steps.append(_step(action, before, s.hands, s.restocks))
    return steps


def _bit_types(mask: int) -> list[int]:
    """The types of the physical cards in ``mask``, sorted (a few cards:
    faster than ``types_of``)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(card_type(low.bit_length() - 1))
        mask ^= low
    out.sort()  # the order of physical ids is not public
    return out


def _low_type(mask: int) -> int:
    return card_type((mask & -mask).bit_length() - 1)


def _kept_taken(state: TableState, steps: list[_Step]) -> list[int]:
    """Per step: the type of the card its seat took from the pile this turn
    while that card is still held and may not be discarded (docs/rules.md, Turn basics: the
    physical card taken, not its other copy), else -1.  The engine puts the
    taken card on the table before another copy, so it is held until a step
    plays it."""
    out = []
    card = -1
    for st in steps:
        if st.action in (DRAW, TAKE):
            card = _low_card(st.came) if st.action == TAKE and state.rules.forbid_discarding_taken_card else -1
        out.append(card_type(card) if card >= 0 else -1)
        if card >= 0 and st.out >> card & 1:
            card = -1
    return out


def _low_card(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def _public_step(count: list[int], st: _Step, turned: bool, kept: int = -1) -> list[int]:
    """Update ``count`` (how many cards of each type everyone knows the
    acting seat holds) with its step; ``turned``: the stock was turned over
    (its order is public); ``kept``: the type of a taken card still held
    (:func:`_kept_taken`).  Returns the types it played that were not known
    (a played card of a known type may be the known one, but a discard is
    never the taken card)."""
    if st.action == DRAW:
        if turned and st.came:
            count[_low_type(st.came)] += 1
        return []
    if st.action == TAKE:
        count[_low_type(st.came)] += 1
        return []
    unseen = []
    for t in _bit_types(st.out):
        if count[t] > (t == kept and st.action <= JOKER):
            count[t] -= 1
        else:
            unseen.append(t)
    for t in _bit_types(st.came):  # released jokers
        count[t] += 1
    return unseen


def _known(state: TableState, steps: list[_Step]) -> list[list[int]]:
    """Per seat, per type: how many cards of it everyone knows the seat holds
    (see the module docstring)."""
    known = [[0] * NUM_TYPES for _ in range(state.n)]
    turned = False
    for st, kept in zip(steps, _kept_taken(state, steps)):
        if st.pile is not None:
            turned = state.rules.restock_method == "turn_over"
        _public_step(known[st.seat], st, turned, kept)
    return known


def _expand(counts: Iterable[int]) -> tuple[int, ...]:
    return tuple(t for t, k in enumerate(counts) for _ in range(k))


def _deal_order(state: TableState) -> list[int]:
    """The seats dealt to, from the dealer's left (a match's eliminated seats, ``absent``, get nothing)."""
    n = state.n
    return [q for q in ((state.dealer + 1 + i) % n for i in range(n)) if not state.absent >> q & 1]


def _dealt(state: TableState, seat: int) -> list[int]:
    """The physical cards dealt to ``seat``, in deal order."""
    order = _deal_order(state)
    k = len(order)
    if seat not in order:
        return []
    return [state.deck[i] for i in range(order.index(seat), state.rules.hand_size * k, k)]


# --- the observation ---------------------------------------------------------------


def _seen(state: TableState, player: int, known: list[list[int]], seat: int) -> tuple[int, ...]:
    if seat == player or state.phase == _END:
        return tuple(types_of(state.hands[seat]))
    return _expand(known[seat])


def observation(state: TableState, player: int) -> TableObservation:
    """What seat ``player`` may know now (see the module docstring)."""
    player = _check_player(state, player)
    n = state.n
    steps = _walk(state)
    known = _known(state, steps)
    over = state.phase == _END
    return TableObservation(
        player=player,
        num_players=n,
        game=state.rules.name,
        current_player=state.current_player,
        phase=PHASES[state.phase],
        dealer=state.dealer,
        hand=tuple(types_of(state.hands[player])),
        melds=_meld_view(state),
        discard_pile=tuple(card_type(c) for c in state.discards),
        known_cards=tuple(_expand(k) for k in known),
        seen_cards=tuple(_seen(state, player, known, q) for q in range(n)),
        hand_sizes=tuple(h.bit_count() for h in state.hands),
        stock_size=len(state.stock),
        restocks=state.restocks,
        turns=state.turns,
        opened=tuple(bool(state.opened >> q & 1) for q in range(n)),
        played=tuple(bool(state.played >> q & 1) for q in range(n)),
        taken=state.taken if state.taken >= 0 else None,
        must=state.must if state.must >= 0 else None,
        open_value=state.open_value,
        pending=state.pending,
        turn_melds=state.turn_melds,
        built_ends=tuple((e & 15, e >> 4 & 15) for e in state.ends),
        fresh=state.fresh,
        built_other=state.built_other,
        initial_meld_min=state.rules.initial_meld_min if state.rules.is_kaluki else None,
        result=state.result if over else None,
    )


# --- the observation tensor ------------------------------------------------------


def _put_counts(
    out: npt.NDArray[np.float32], start: int, counts: Iterable[int], scale: npt.NDArray[np.float32]
) -> None:
    out[start : start + NUM_TYPES] = np.asarray(list(counts), dtype=np.float32) * scale


def observation_tensor(state: TableState, player: int) -> npt.NDArray[np.float32]:
    """``player``'s observation as a float32 vector of
    :data:`OBSERVATION_TENSOR_SIZE` entries (layout in the module docstring)."""
    player = _check_player(state, player)
    n, rules = state.n, state.rules
    steps = _walk(state)
    known = _known(state, steps)
    over = state.phase == _END
    copies = 2 if rules.is_kaluki else 1
    scale = np.full(NUM_TYPES, 1.0 / copies, dtype=np.float32)
    scale[JOKER] = 1.0 / rules.kaluki_jokers if rules.is_kaluki else 0.0
    out = np.zeros(OBSERVATION_TENSOR_SIZE, dtype=np.float32)

    def rel(seat: int) -> int:
        return (seat - player) % n

    if not over:
        out[_AT["current_player"] + rel(state.player)] = 1.0
    out[_AT["dealer"] + rel(state.dealer)] = 1.0
    out[_AT["num_players"] + n - 2] = 1.0
    out[_AT["game"] + int(rules.is_kaluki)] = 1.0
    out[_AT["phase"] + int(state.phase)] = 1.0
    _put_counts(out, _AT["hand"], type_counts(state.hands[player]), scale)
    if state.discards:
        top = [0] * NUM_TYPES
        top[card_type(state.discards[-1])] = 1
        _put_counts(out, _AT["top_discard"], top, scale)
        rest = [0] * NUM_TYPES
        for c in state.discards[:-1]:
            rest[card_type(c)] += 1
        _put_counts(out, _AT["discard_rest"], rest, scale)
    _put_counts(out, _AT["known_self"], known[player], scale)
    for r in range(1, n):
        q = (player + r) % n
        _put_counts(out, _AT["known_others"] + (r - 1) * NUM_TYPES, known[q], scale)
        seen = type_counts(state.hands[q]) if over else known[q]
        _put_counts(out, _AT["seen_others"] + (r - 1) * NUM_TYPES, seen, scale)
    for q in range(n):
        out[_AT["hand_sizes"] + rel(q)] = state.hands[q].bit_count() / 16.0
        out[_AT["opened"] + rel(q)] = float(state.opened >> q & 1)
        out[_AT["played"] + rel(q)] = float(state.played >> q & 1)
    out[_AT["stock_size"]] = len(state.stock) / rules.deck_size
    out[_AT["restocks"]] = min(state.restocks, 10) / 10.0
    sets, runs, stands = [0] * NUM_TYPES, [0] * NUM_TYPES, [0] * NUM_TYPES
    owned = [[0] * NUM_TYPES for _ in range(n)]
    for m in state.table:
        zone = sets if m.kind == SET else runs
        for c, t in zip(m.cards, m.represents(state.geo)):
            zone[card_type(c)] += 1
            owned[m.owner][card_type(c)] += 1
            if c >= FIRST_JOKER:
                stands[t] += 1
    _put_counts(out, _AT["table_sets"], sets, scale)
    _put_counts(out, _AT["table_runs"], runs, scale)
    _put_counts(out, _AT["joker_stands_for"], stands, scale)
    for q in range(n):
        _put_counts(out, _AT["table_owned"] + rel(q) * NUM_TYPES, owned[q], scale)
    for name, t in (("taken", state.taken), ("must", state.must)):
        if t >= 0:
            out[_AT[name] + t] = 1.0
    out[_AT["open_value"]] = min(state.open_value, 100) / 100.0
    out[_AT["pending"]] = state.pending / 4.0
    out[_AT["turn_melds"]] = min(state.turn_melds, 10) / 10.0
    out[_AT["fresh"]] = float(state.fresh)
    out[_AT["built_other"]] = float(state.built_other)
    out[_AT["initial_meld_min"]] = rules.initial_meld_min / 100.0 if rules.is_kaluki else 0.0
    out[_AT["turns"]] = min(state.turns, 1000) / 1000.0
    result = state.result
    if over and result is not None:
        if result.winner is not None:
            out[_AT["winner"] + rel(result.winner)] = 1.0
        for q, v in enumerate(result.hand_values):
            out[_AT["hand_values"] + rel(q)] = min(v, 200) / 200.0
    recent = _recent_moves(state, steps)
    for kind, name in enumerate(("recent_discards", "recent_takes", "recent_passes")):
        for q in range(n):
            start = _AT[name] + rel(q) * NUM_TYPES
            for j, t in reversed(list(enumerate(recent[q][kind][:8]))):
                out[start + t] = (8 - j) / 8  # the newest of a type's moves writes last
    return out


def _recent_moves(state: TableState, steps: list[_Step]) -> list[list[list[int]]]:
    """Per seat, the types of its discards, takes and passes (a stock draw with a discard
    pile, unless Kaluki's forbidden take for an unopened seat), each newest first."""
    rules = state.rules
    moves: list[list[list[int]]] = [[[], [], []] for _ in range(state.n)]
    for st in steps:
        if st.action <= JOKER:
            moves[st.seat][0].insert(0, st.action)
        elif st.action == TAKE:
            moves[st.seat][1].insert(0, card_type(st.top))
        elif st.action == DRAW and st.top >= 0:
            forbidden = (
                rules.is_kaluki
                and rules.unopened_discard_draw == "forbidden"
                and not st.opened >> st.seat & 1
                and not (rules.first_turn_upcard_free and st.turns == 0)
            )
            if not forbidden:
                moves[st.seat][2].insert(0, card_type(st.top))
    return moves


# --- information-state string ------------------------------------------------


def information_state_string(state: TableState, player: int) -> str:
    """Everything seat ``player`` has seen, with perfect recall, as text:
    the rules, the seat, the dealer, the upcard, its dealt hand (in card
    order), then one line per action (``seat: action``; a restock first
    says how many cards went into the stock), its own draws and every take
    naming the card, then, at the end of the hand, every hand and the
    result.  Two states give the same text exactly when ``player`` cannot
    tell them apart."""
    player = _check_player(state, player)
    size, n = state.rules.hand_size, state.n
    lines = [
        f"{_rules_text(state)} seat {player} of {n}, dealer {state.dealer}, "
        f"upcard {type_text(card_type(state.deck[size * len(_deal_order(state))]))}",
        "dealt " + _types_text(sorted(card_type(c) for c in _dealt(state, player))),
    ]
    turn_over = state.rules.restock_method == "turn_over"
    for st in _walk(state):
        text = state.action_text(st.action)
        if st.action == TAKE or (st.action == DRAW and st.came and st.seat == player):
            text += " " + type_text(_low_type(st.came))
        if st.pile is not None:
            moved = len(st.pile) if turn_over else len(st.pile) - 1
            text = f"restock {moved}{' turned over' if turn_over else ''}; {st.seat}: {text}"
        else:
            text = f"{st.seat}: {text}"
        lines.append(text)
    if state.phase == _END:
        lines.append("hands " + " | ".join(_types_text(types_of(h)) for h in state.hands))
        r = state.result
        if r is not None:
            lines.append(
                f"result {r.outcome}, winner {r.winner}, hand values {list(r.hand_values)}, points {list(r.points)}, "
                f"penalties {list(r.penalties)}, bonuses {list(r.bonuses)}"
            )
    return "\n".join(lines)


# --- determinization ---------------------------------------------------------


class _Plan(NamedTuple):
    """A sampled world: the types dealt to each seat (deal order), the type
    of each stock draw (by history index), the stock left, top first, and
    the types each seat holds now."""

    dealt: list[list[int]]
    drawn: dict[int, int]
    stock: list[int]
    held: list[list[int]]


#: how many samples determinize draws before it keeps the other seats' real places
_MAX_TRIES = 500


class _Places:
    """The places (dealt cards and stock draws) of the other seats' unseen
    cards, filled as the public history shows what they held.  A run laid
    with a joker standing for a card says its owner held no such card then
    (the engine puts jokers only where the hand lacks the natural card):
    ``banned`` keeps (time, type) per seat."""

    def __init__(self, draw: Uniforms) -> None:
        self.draw = draw
        self.seat: list[int] = []
        self.time: list[int] = []
        self.group: list[int] = []
        self.card: list[int] = []
        self.open: dict[int, list[int]] = {}
        self.banned: dict[int, list[tuple[int, int]]] = {}

    def add(self, seat: int, time: int, group: int) -> int:
        self.seat.append(seat)
        self.time.append(time)
        self.group.append(group)
        self.card.append(-1)
        self.open.setdefault(seat, []).append(len(self.card) - 1)
        return len(self.card) - 1

    def allowed(self, i: int, t: int, until: int) -> bool:
        """Whether place ``i`` may hold type ``t`` from its time to ``until``."""
        return not any(x == t and self.time[i] < when < until for when, x in self.banned.get(self.seat[i], ()))

    def fill(self, seat: int, t: int, time: int, pools: list[list[int]]) -> bool:
        """Put type ``t`` in an open place of ``seat`` from before ``time``
        whose group still has a copy of it; False if there is none."""
        free = self.open.get(seat, [])
        fits = [i for i in free if self.time[i] < time and pools[self.group[i]][t] > 0 and self.allowed(i, t, time)]
        if not fits:
            return False
        i = fits[self.draw.below(len(fits))]
        self.card[i] = t
        pools[self.group[i]][t] -= 1
        free.remove(i)
        return True

    def fill_rest(self, group: int, pool: list[int], stock_size: int) -> list[int] | None:
        """Deal the cards of ``pool`` to the open places of ``group`` at
        random, the rest to the stock (returned, top first); None if some
        place can take none of the cards left."""
        cards = self.draw.shuffled(_expand(pool))
        free = [i for i, c in enumerate(self.card) if c < 0 and self.group[i] == group]
        if len(cards) != len(free) + stock_size:
            raise RummykitError(
                f"inconsistent state: {len(cards)} hidden cards of group {group}, places for {len(free) + stock_size}"
            )
        never = 1 << 62
        for i in self.draw.shuffled(free):
            j = next((j for j, t in enumerate(cards) if self.allowed(i, t, never)), -1)
            if j < 0:
                return None
            self.card[i] = cards.pop(j)
            self.open[self.seat[i]].remove(i)
        return cards


def _sample(state: TableState, player: int, steps: list[_Step], draw: Uniforms) -> _Plan | None:
    """A world ``player`` cannot tell from ``state`` (None: this sample ran
    out of places for a played card; see the module docstring)."""
    rules, n, size = state.rules, state.n, state.rules.hand_size
    full = [2 if rules.is_kaluki else 1] * 52 + [rules.kaluki_jokers if rules.is_kaluki else 0]
    turn_over = rules.restock_method == "turn_over"
    # each group's cards less those player holds or drew (known from the start: they pin copies)
    pools = [list(full)]
    pools[0][card_type(state.deck[size * n])] -= 1
    for c in _dealt(state, player):
        pools[0][card_type(c)] -= 1
    restocked = False
    for st in steps:
        if st.pile is not None:
            restocked = True
            if not turn_over:
                pools.append([0] * NUM_TYPES)
                for c in st.pile[:-1]:
                    pools[-1][card_type(c)] += 1
        if st.action == DRAW and st.seat == player and st.came and not (turn_over and restocked):
            pools[-1][_low_type(st.came)] -= 1
    places = _Places(draw)
    dealt = {q: [places.add(q, -1, 0) for _ in range(size)] for q in range(n) if q != player}
    drawn: dict[int, int] = {}  # history index -> type (fixed) or ~place
    known = [[0] * NUM_TYPES for _ in range(n)]
    group, turned = 0, False
    for time, (st, kept) in enumerate(zip(steps, _kept_taken(state, steps))):
        q = st.seat
        if st.pile is not None:
            turned = turn_over
            group += not turn_over
        unseen = _public_step(known[q], st, turned, kept)
        if st.action == DRAW:
            if st.came:
                drawn[time] = _low_type(st.came) if turned or q == player else ~places.add(q, time, group)
        elif q != player:
            if st.action >= MELD_RUN:
                pattern = id_pattern(st.action)
                places.banned.setdefault(q, []).extend(
                    (time, x) for t, x in zip(pattern.types(state.geo), pattern.represents(state.geo)) if t == JOKER
                )
            for t in unseen:
                if not places.fill(q, t, time, pools):
                    return None
    if state.phase == _END:  # every hand is shown
        for q in dealt:
            shown = type_counts(state.hands[q])
            for t in _expand(max(0, a - b) for a, b in zip(shown, known[q])):
                if not places.fill(q, t, len(steps), pools):
                    return None
    # the open places and the stock take the rest of each group's cards
    holding = {q: list(free) for q, free in places.open.items()}
    stock = [card_type(c) for c in reversed(state.stock)]
    for g, pool in enumerate(pools):
        rest = places.fill_rest(g, pool, len(stock) if g == group and not turned else 0)
        if rest is None:
            return None
        if g == group and not turned:
            stock = rest
    held = [list(_expand(k)) for k in known]
    for q, free in holding.items():
        held[q].extend(places.card[i] for i in free)
    hands = [
        [card_type(c) for c in _dealt(state, q)] if q == player else draw.shuffled(places.card[i] for i in dealt[q])
        for q in range(n)
    ]
    return _Plan(hands, {time: places.card[~d] if d < 0 else d for time, d in drawn.items()}, stock, held)


def _real(state: TableState, steps: list[_Step], draw: Uniforms) -> _Plan:
    """The world as it is, the stock order resampled (the last resort)."""
    hands = [[card_type(c) for c in _dealt(state, q)] for q in range(state.n)]
    drawn = {time: _low_type(st.came) for time, st in enumerate(steps) if st.action == DRAW and st.came}
    stock = [card_type(c) for c in reversed(state.stock)]
    if state.rules.restock_method != "turn_over" or not state.restocks:
        stock = draw.shuffled(stock)
    return _Plan(hands, drawn, stock, [types_of(h) for h in state.hands])


def _can_act(state: TableState, seat: int, types: list[int]) -> bool:
    """Whether ``seat``, to move, would have a legal action holding ``types``:
    a copy of the state where it holds copies of those types taken from the
    hands and the stock (its own first), the cards it gives up put in the
    stock, so that every card is still in one place."""
    trial = state.clone()
    hands = list(trial.hands)
    stock = trial.stock
    loose = sum(hands) | _to_mask(stock)  # hands are disjoint, so the sum is their union
    new = 0
    for t in types:
        copies = range(FIRST_JOKER, state.rules.deck_size) if t == JOKER else (t, t + 52)
        free = [c for c in copies if loose >> c & 1 and not new >> c & 1]
        if not free:
            return False  # not a sample of this state's unseen cards
        new |= 1 << min(free, key=lambda c: (not hands[seat] >> c & 1, c))
    given_up = hands[seat] & ~new
    hands = [h & ~new for h in hands]
    hands[seat] = new
    trial.hands = tuple(hands)
    trial.known = tuple(k & h for k, h in zip(trial.known, hands))
    trial.stock = tuple(c for c in stock if not new >> c & 1) + tuple(_bit_cards(given_up))
    return bool(trial.legal_actions())


def _bit_cards(mask: int) -> list[int]:
    return [c for c in range(mask.bit_length()) if mask >> c & 1]


def _to_mask(cards: Iterable[int]) -> int:
    mask = 0
    for c in cards:
        mask |= 1 << c
    return mask


def _physical(types: list[int]) -> list[int]:
    """Physical ids for a deck of types (the k-th copy of a type is deck k's)."""
    seen = [0] * NUM_TYPES
    out = []
    for t in types:
        k = seen[t]
        seen[t] += 1
        out.append(FIRST_JOKER + k if t == JOKER else t + 52 * k)
    return out


def determinize(state: TableState, player: int, rng: object = None) -> TableState:
    """A full state that seat ``player`` cannot tell from ``state``, the
    cards hidden from it resampled with ``rng`` (a numpy ``Generator``, an
    int seed or None); see the module docstring."""
    player = _check_player(state, player)
    gen = as_generator(rng, "rng")
    draw = Uniforms(gen)
    steps = _walk(state)
    # the other seat to move, mid-turn, must be able to finish its turn (an opening under way,
    # a released joker, a taken card that must be melded: conditions on its hidden cards)
    mover = state.player if state.phase_name == "play" and state.player != player else -1
    for _ in range(_MAX_TRIES):
        plan = _sample(state, player, steps, draw)
        if plan is not None and (mover < 0 or _can_act(state, mover, plan.held[mover])):
            break
    else:
        plan = _real(state, steps, draw)
    rules, n, size = state.rules, state.n, state.rules.hand_size
    reshuffles = [time for time, st in enumerate(steps) if st.pile is not None and rules.restock_method != "turn_over"]
    # the draws from each stock, in order: the first stock's go into the deck
    stocks: list[list[int]] = [[]]
    for time, st in enumerate(steps):
        if st.action == DRAW and st.pile is not None:
            stocks.append([])
        if time in plan.drawn:
            stocks[-1].append(plan.drawn[time])
    stocks[-1].extend(plan.stock)
    deck = [plan.dealt[(state.dealer + 1 + i) % n][i // n] for i in range(size * n)]
    deck.append(card_type(state.deck[size * n]))
    deck.extend(stocks[0])
    if len(deck) != rules.deck_size:
        raise RummykitError(f"inconsistent state: the rebuilt deck has {len(deck)} cards, not {rules.deck_size}")
    other = state.game.new_hand(seed=gen, dealer=state.dealer, deck=_physical(deck))
    for time, action in enumerate(state.history):
        if time not in reshuffles:
            other.apply_action(action)
            continue
        # a reshuffle: the sampled order of this group, whatever the new seed would shuffle
        pile: dict[int, list[int]] = {}
        for c in other.discards[:-1]:
            pile.setdefault(card_type(c), []).append(c)
        order = [pile[t].pop() for t in stocks[reshuffles.index(time) + 1]]
        seat = other.player
        hand = other.hands[seat]
        other.apply_action(action)
        other.hands = other.hands[:seat] + (hand | 1 << order[0],) + other.hands[seat + 1 :]
        other.stock = tuple(reversed(order[1:]))
    return other


# --- the C determinization's bookkeeping -------------------------------------


_Triples = list[tuple[int, int, int]]
#: (pools, places, fills, bans, known, stock_group, now)
HiddenLists = tuple[list[list[int]], _Triples, _Triples, _Triples, list[list[int]], int, int]


def hidden_lists(state: TableState, player: int) -> HiddenLists:
    """rummykit.table.playouts.hidden_lists read off the history: (pools, places, fills,
    bans, known, stock_group, now)."""
    steps = _walk(state)
    rules, n, size = state.rules, state.n, state.rules.hand_size
    order = _deal_order(state)
    full = [2 if rules.is_kaluki else 1] * 52 + [rules.kaluki_jokers if rules.is_kaluki else 0]
    turn_over = rules.restock_method == "turn_over"
    # each group's cards less those the player was dealt or drew, and the upcard
    pools = [list(full)]
    pools[0][card_type(state.deck[size * len(order)])] -= 1
    for c in _dealt(state, player):
        pools[0][card_type(c)] -= 1
    restocked = False
    for st in steps:
        if st.pile is not None:
            restocked = True
            if not turn_over:
                pools.append([0] * NUM_TYPES)
                for c in st.pile[:-1]:
                    pools[-1][card_type(c)] += 1
        if st.action == DRAW and st.seat == player and st.came and not (turn_over and restocked):
            pools[-1][_low_type(st.came)] -= 1
    places = [(q, 0, -1) for q in range(n) if q != player and q in order for _ in range(size)]
    fills: list[tuple[int, int, int]] = []
    bans: list[tuple[int, int, int]] = []
    known = [[0] * NUM_TYPES for _ in range(n)]
    group, turned = 0, False
    for time, (st, kept) in enumerate(zip(steps, _kept_taken(state, steps))):
        q = st.seat
        if st.pile is not None:
            turned = turn_over
            group += not turn_over
        unseen = _public_step(known[q], st, turned, kept)
        if st.action == DRAW:
            if st.came and not turned and q != player:
                places.append((q, group, time))
        elif q != player:
            if st.action >= MELD_RUN:  # a joker in a run: its owner held no such card then
                pattern = id_pattern(st.action)
                geo = state.geo
                bans.extend((q, x, time) for t, x in zip(pattern.types(geo), pattern.represents(geo)) if t == JOKER)
            fills.extend((q, t, time) for t in unseen)
    if state.phase == _END:  # every hand is shown
        for q in range(n):
            if q != player:
                shown = type_counts(state.hands[q])
                extra = _expand(max(0, a - b) for a, b in zip(shown, known[q]))
                fills.extend((q, t, len(steps)) for t in extra)
    if any(c < 0 for pool in pools for c in pool):
        raise RummykitError("inconsistent state for determinization")
    return pools, places, fills, bans, known, -1 if turned else group, len(steps)
