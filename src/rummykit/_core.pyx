# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Private bridge to the C core (csrc/).  Use the public ``rummykit`` API.

Every function takes a :class:`Rules` and int masks in the public layout and
returns plain ints and tuples; the Python layer turns them into cards."""

import sys

from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_FromStringAndSize, PyBytes_GET_SIZE
from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memcpy, memset

from rummykit._crummykit cimport *
from rummykit.errors import IllegalActionError, InvalidCardError, InvalidMeldError, InvalidOptionError, RummykitError

ACES_LOW = RK_ACES_LOW
ACES_HIGH = RK_ACES_HIGH
ACES_BOTH = RK_ACES_BOTH
KNOCK_MIN_DEADWOOD_ONLY = RK_KNOCK_MIN_DEADWOOD_ONLY
KNOCK_NO_LAYOFFS = RK_KNOCK_NO_LAYOFFS
MELD_SET = RK_MELD_SET
MELD_RUN = RK_MELD_RUN
JOKER = RK_JOKER
MULTI_PENALTY = RK_MULTI_PENALTY
MULTI_VALUE = RK_MULTI_VALUE


class NoKnockError(RummykitError):
    """The hand has no arrangement within the knock limit."""


cdef class Rules:
    """An initialised rk_rules (ace mode, card values and derived tables)."""

    cdef rk_rules *ptr
    cdef readonly int aces
    cdef readonly tuple values

    def __cinit__(self, int aces, values):
        cdef uint8_t v[13]
        if len(values) != 13:
            raise ValueError("values must have 13 entries")
        for i in range(13):
            v[i] = values[i]
        self.ptr = <rk_rules *>malloc(sizeof(rk_rules))
        if self.ptr == NULL:
            raise MemoryError()
        if rk_rules_init(self.ptr, <rk_aces>aces, v) != RK_OK:
            raise ValueError("invalid rules parameters")
        self.aces = aces
        self.values = tuple(values)

    def __dealloc__(self):
        free(self.ptr)

    def __reduce__(self):
        return Rules, (self.aces, self.values)


cdef rk_mask as_mask(object mask) except? 0:
    cdef rk_mask m
    try:
        m = mask
    except (OverflowError, TypeError):
        raise InvalidCardError(f"not a card mask: {mask!r}") from None
    if m & ~RK_DECK_MASK:
        raise InvalidCardError(f"mask {m:#x} has bits outside the 52-card deck")
    return m


cdef int check(rk_status status) except -1:
    if status == RK_OK:
        return 0
    message = rk_status_message(status).decode()
    if status == RK_ERR_BAD_MASK:
        raise InvalidCardError(message)
    if status == RK_ERR_BAD_MELD or status == RK_ERR_OVERLAP:
        raise InvalidMeldError(message)
    if status == RK_ERR_NO_KNOCK:
        raise NoKnockError(message)
    raise RummykitError(message)


# The bridges, one per C header.
include "_analysis.pxi"
include "_multideck.pxi"
include "_knock.pxi"
include "_knock_state.pxi"
include "_table.pxi"
include "_table_observe.pxi"
include "_table_playouts.pxi"
include "_vector.pxi"
