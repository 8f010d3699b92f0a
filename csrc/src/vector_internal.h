/* Internal to batched play (vector.c, vector_observe.c; not installed). */
#ifndef RK_VECTOR_INTERNAL_H
#define RK_VECTOR_INTERNAL_H

#include "knock_internal.h"
#include "rummykit/vector.h"

/* rk_knock_observe without the argument checks: a position the engine made
 * under rules rk__knock_rules_check accepted, a seat in range. */
rk_status rk__knock_observe(const rk_rules *rules, const rk_knock_rules *pr, const rk_position *pos, int player,
                            float *out);

#endif
