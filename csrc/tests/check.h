/* The CHECK macro of the C tests, counting failures for main's exit status. */
#ifndef RUMMYKIT_TESTS_CHECK_H
#define RUMMYKIT_TESTS_CHECK_H

#include <stdio.h>

static int failures;

#define CHECK(cond)                                                                  \
    do {                                                                             \
        if (!(cond)) {                                                               \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
            failures++;                                                              \
        }                                                                            \
    } while (0)

#endif
