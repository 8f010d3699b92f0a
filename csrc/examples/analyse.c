/* Plain C use of the rummykit core: the best melds and discard of a hand. */
#include "rummykit/rummykit.h"

#include <stdio.h>

static void print_cards(rk_mask m) {
    static const char RANKS[] = "A23456789TJQK", SUITS[] = "CDHS";
    for (; m; m &= m - 1) {
        int id = __builtin_ctzll(m);
        printf(" %c%c", RANKS[id % 13], SUITS[id / 13]);
    }
}

int main(void) {
    rk_rules rules;
    if (rk_rules_init(&rules, RK_ACES_LOW, NULL) != RK_OK) return 1;
    /* AS 2S 3S 7H 7D 7C 9S TS JS KD 5C */
    int ids[] = {39, 40, 41, 32, 19, 6, 47, 48, 49, 25, 4};
    rk_mask hand = 0;
    for (int i = 0; i < 11; i++) hand |= (rk_mask)1 << ids[i];

    int card, deadwood;
    if (rk_best_discard(&rules, hand, -1, &card, &deadwood, NULL) != RK_OK) return 1;
    rk_arrangement best;
    if (rk_best_arrangement(&rules, hand & ~((rk_mask)1 << card), &best) != RK_OK) return 1;
    printf("discard");
    print_cards((rk_mask)1 << card);
    printf(", deadwood %d\n", best.deadwood);
    for (int i = 0; i < best.n_melds; i++) {
        printf("meld:");
        print_cards(best.melds[i]);
        printf("\n");
    }
    return best.deadwood == deadwood ? 0 : 1;
}
