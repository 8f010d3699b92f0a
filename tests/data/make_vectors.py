"""Writes vectors.csv from the brute-force reference (seeded, reproducible).

    python tests/data/make_vectors.py > tests/data/vectors.csv

See README.md in this folder for the columns.
"""

from __future__ import annotations

import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from reference import deadwood as ref

SEED = 20261202
ROWS_PER_KIND = 200


def rows() -> list[str]:
    rng = random.Random(SEED)
    lines = ["hand,aces,deadwood,discard,discard_deadwood"]
    for aces in ref.ACE_MODES:
        for size in (10, 11):
            for make in (ref.random_hand, ref.dense_hand):
                for _ in range(ROWS_PER_KIND // 2):
                    hand = make(rng, size)
                    dw = ref.min_deadwood(hand, aces)
                    card, after = ref.best_discard(hand, None, aces)
                    lines.append(f"{ref.hand_str(sorted(hand))},{aces},{dw},{ref.card_name(card)},{after}")
    return lines


if __name__ == "__main__":
    sys.stdout.write("\n".join(rows()) + "\n")
