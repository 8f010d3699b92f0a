"""Each knock variant's sources and its deviations from them (RULES.md §0.1, §2, §4)."""

from __future__ import annotations

__all__ = ["VARIANT_DOCS"]

VARIANT_DOCS: dict[str, str] = {
    "gin": """Gin Rummy, two players (RULES.md §1.1).

    Sources: S000 (Gin text: knock, undercut +25, gin +25, game to 100, match play), S001
    (undercut on ties, box 25, game bonus 100, shutout), P20-P28 (upcard offer, stock floor,
    knock at 10 or fewer).
    Deviations: knock at deadwood <= 10 (S000 says "less than 10": option knock_compare='lt');
    ties are undercuts (S000 Oklahoma says "lower": undercut_on_tie=False); the stock floor is
    P20's dead_at_2 with the taker of the third-last card allowed to knock; the knocker's
    automatic arrangement follows §4 Q26 (no source specifies it).""",
    "oklahoma_gin": """Oklahoma Gin, two players (RULES.md §1.2).

    Sources: S001 (knock limit from the upcard, ace = gin only, spade upcard doubles, target 200),
    S000 (Oklahoma text), P40-P47.
    Deviations: target 200 (S001) rather than S000's 150 (preset oklahoma_gin_150); the non-dealer
    plays a normal first turn (S001) rather than the upcard offer (P40, P47: option
    first_turn_procedure='upcard_offer'); the refused upcard stays on the pile (P40 sets it aside:
    option refused_upcard_set_aside); spades double hand points and bonuses but not boxes (§4 Q9).""",
    "oklahoma_rummy": """Oklahoma Rummy, three or four players (RULES.md §1.3).

    Sources: S000 (net scores, knock/undercut bonus 10, gin 20, target 150), S001 (3-4 player note),
    S002 and S003 (lay-offs on the knocker's original melds only; restock by shuffling).
    Deviations: several defenders at or below the knocker: the lowest undercuts, ties to the first
    after the knocker (§4 Q7, no source); the spade multiplier applies as in two-player Oklahoma
    (§4 Q9); S002 and S003 scoring are presets (oklahoma_seed002, oklahoma_ring_seed003).""",
    "gin_classic_pagat": """Classic (pagat-style) Gin Rummy: gin 20, undercut 10, box 20, a 200 game
    bonus on a shutout (P20; RULES.md §2.7).  Deviations: as for gin.""",
    "gin_seed000": """Gin Rummy as seed S000 words it: knock with less than 10, match play with 100
    per game and 25 per hand won (RULES.md §2.7).""",
    "gin_multi": """Gin Rummy for 3-4 players (S002's Gin section; RULES.md §1.3, §4 Q31): the
    Oklahoma Rummy engine with a fixed knock limit of 10, no spade multiplier, and S002's points
    and penalty points; S002 gives no game end, so the game is fixed_hands (§4 Q25).""",
    "oklahoma_gin_150": """Oklahoma Gin to 150 with the upcard offer (S000, P41, P47; RULES.md §2.7).""",
    "double_oklahoma": """Double Oklahoma: spade upcards triple the hand (S001; RULES.md §2.7).""",
    "oklahoma_seed002": """Oklahoma with S002's scoring: the winner gets 10 / 20 / 25, losers get
    penalty points, doubled after gin (RULES.md §1.6.4).  S002 gives no game end: fixed_hands
    (§4 Q25).""",
    "oklahoma_ring_seed003": """Oklahoma ring (cash) game of S003: penalty points (gin: deadwood + 25
    each, read per loser, §4 Q33; undercut: knocker +10) and the ring payout of RULES.md §1.6.5
    (normalized by default, slot_scaled as an option: §4 Q24).  S003 gives no game end: fixed_hands (§4 Q25).""",
    "partnership_oklahoma": """Partnership Oklahoma (S001 variation; RULES.md §4 Q30): seats 0 and 2
    against 1 and 3, four-player Oklahoma play, each side's deadwood summed and settled as a
    two-player hand, to 200 with the two-player settlement (§1.6.1) side against side: game
    bonus, boxes and shutout go to sides, and each seat reports its side's total.  No published
    source: this reading is the engine's.  Gin is the knocker's own deadwood 0, as at the table:
    the knocker alone declares it, it bars every lay-off (the partner's too) and cannot be
    undercut; the gin side wins the side difference, not below 0, plus the gin bonus.  A knock
    that is not gin is decided on the side totals (undercut on a tie).  Both partners are
    credited the side's points and box.""",
}
