"""Each knock variant's sources and its deviations from them (docs/rules.md, Sources, Options, Decisions)."""

from __future__ import annotations

__all__ = ["VARIANT_DOCS"]

VARIANT_DOCS: dict[str, str] = {
    "gin": """Gin Rummy, two players (docs/rules.md, Gin Rummy).

    Sources: S000 (Gin text: knock, undercut +25, gin +25, game to 100, match play), S001
    (undercut on ties, box 25, game bonus 100, shutout), P20-P28 (upcard offer, stock floor,
    knock at 10 or fewer).
    Deviations: knock at deadwood <= 10 (S000 says "less than 10": option knock_compare='lt');
    ties are undercuts (S000 Oklahoma says "lower": undercut_on_tie=False); the stock floor is
    P20's dead_at_2 with the taker of the third-last card allowed to knock; the knocker's
    automatic arrangement follows docs/rules.md, D26 (no source specifies it).""",
    "oklahoma_gin": """Oklahoma Gin, two players (docs/rules.md, Oklahoma Gin).

    Sources: S001 (knock limit from the upcard, ace = gin only, spade upcard doubles, target 200),
    S000 (Oklahoma text), P40-P47.
    Deviations: target 200 (S001) rather than S000's 150 (preset oklahoma_gin_150); the non-dealer
    plays a normal first turn (S001) rather than the upcard offer (P40, P47: option
    first_turn_procedure='upcard_offer'); the refused upcard stays on the pile (P40 sets it aside:
    option refused_upcard_set_aside); spades double hand points and bonuses but not boxes (docs/rules.md, D9).""",
    "oklahoma_rummy": """Oklahoma Rummy, three or four players (docs/rules.md, Oklahoma Rummy).

    Sources: S000 (net scores, knock/undercut bonus 10, gin 20, target 150), S001 (3-4 player note),
    S002 and S003 (lay-offs on the knocker's original melds only; restock by shuffling).
    Deviations: several defenders at or below the knocker: the lowest undercuts, ties to the first
    after the knocker (docs/rules.md, D7, no source); the spade multiplier applies as in two-player Oklahoma
    (D9); S002 and S003 scoring are presets (oklahoma_bonus_penalty, oklahoma_ring).""",
    "gin_classic_pagat": """Classic (pagat-style) Gin Rummy: gin 20, undercut 10, box 20, a 200 game
    bonus on a shutout (P20; docs/rules.md, Presets).  Deviations: as for gin.""",
    "gin_matchplay": """Gin Rummy as rule text S000 words it: knock with less than 10, match play with
    100 per game and 25 per hand won (docs/rules.md, Presets; earlier name gin_seed000).""",
    "gin_eaai": """Gin Rummy as the EAAI-2021 Gin Rummy AI challenge plays it (docs/rules.md, Presets): games
    to 100; gin 25 plus the opponent's deadwood, undercut 25 plus the difference (a tie is an
    undercut); no big gin, no game, box or shutout bonus; the first upcard offered to the
    starting player, then to the other; the hand is cancelled, with no last chance, when a discard
    leaves 2 cards in the stock; the starting player alternates after a scored hand and stays after
    a cancelled one.  Everything but the bonuses is Gin's default.""",
    "gin_multi": """Gin Rummy for 3-4 players (S002's Gin section; docs/rules.md, Oklahoma Rummy, D31): the
    Oklahoma Rummy engine with a fixed knock limit of 10, no spade multiplier, and S002's points
    and penalty points; S002 gives no game end, so the game is fixed_hands (D25).""",
    "oklahoma_gin_150": """Oklahoma Gin to 150 with the upcard offer (S000, P41, P47; docs/rules.md, Presets).""",
    "double_oklahoma": """Double Oklahoma: spade upcards triple the hand (S001; docs/rules.md, Presets).""",
    "oklahoma_bonus_penalty": """Oklahoma with S002's scoring: the winner gets 10 / 20 / 25, losers get
    penalty points, doubled after gin (docs/rules.md, Multi-player scoring models).  S002 gives no game end: fixed_hands
    (D25; earlier name oklahoma_seed002).""",
    "oklahoma_ring": """Oklahoma ring (cash) game of S003: penalty points (gin: deadwood + 25
    each, read per loser, D33; undercut: knocker +10) and the ring payout of docs/rules.md, Ring payout
    (normalized by default, slot_scaled as an option: D24).  S003 gives no game end: fixed_hands (D25;
    earlier name oklahoma_ring_seed003).""",
    "partnership_oklahoma": """Partnership Oklahoma (S001 variation; docs/rules.md, D30): seats 0 and 2
    against 1 and 3, four-player Oklahoma play, each side's deadwood summed and settled as a
    two-player hand, to 200 with the two-player settlement (Two-player settlement) side against side: game
    bonus, boxes and shutout go to sides, and each seat reports its side's total.  No published
    source: this reading is the engine's.  Gin is the knocker's own deadwood 0, as at the table:
    the knocker alone declares it, it bars every lay-off (the partner's too) and cannot be
    undercut; the gin side wins the side difference, not below 0, plus the gin bonus.  A knock
    that is not gin is decided on the side totals (undercut on a tie).  Both partners are
    credited the side's points and box.""",
}
