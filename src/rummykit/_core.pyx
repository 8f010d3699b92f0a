# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Private bridge to the C core (csrc/).  Use the public ``rummykit`` API.

Every function takes a :class:`Rules` and int masks in the public layout and
returns plain ints and tuples; the Python layer turns them into cards."""

import sys

from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_FromStringAndSize, PyBytes_GET_SIZE
from cpython.list cimport PyList_Append, PyList_GetSlice
from cpython.object cimport PyTypeObject
from cpython.ref cimport Py_INCREF
from cpython.ref cimport PyObject
from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memcpy, memset

from rummykit._crummykit cimport *
from rummykit.errors import (
    IllegalActionError, InvalidCardError, InvalidMeldError, InvalidOptionError, ReadOnlyError, RummykitError
)

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


cdef extern from "Python.h":
    void Py_SET_TYPE(object, PyTypeObject *)
    int PyType_HasFeature(PyTypeObject *, unsigned long)
    unsigned long Py_TPFLAGS_HEAPTYPE
    int _list_cut "PyList_SetSlice" (object, Py_ssize_t, Py_ssize_t, PyObject *) except -1


def _history_read_only(*args, **kwargs):
    raise ReadOnlyError("a hand's history is read-only: it changes only through the state's verbs "
                        "(play, apply_action, undo); list(state.history) is a copy to change")


cdef class History(list):
    """A hand's action ids, read by callers and changed only by the state's verbs: the
    list methods that change it raise :class:`ReadOnlyError` (``list(history)`` is a
    plain copy).  The state changes it through the C list functions."""

    def append(self, *args):
        _history_read_only()

    def extend(self, *args):
        _history_read_only()

    def insert(self, *args):
        _history_read_only()

    def pop(self, *args):
        _history_read_only()

    def remove(self, *args):
        _history_read_only()

    def clear(self):
        _history_read_only()

    def sort(self, *args, **kwargs):
        _history_read_only()

    def reverse(self):
        _history_read_only()

    def __setitem__(self, key, value):
        _history_read_only()

    def __delitem__(self, key):
        _history_read_only()

    def __iadd__(self, other):
        _history_read_only()

    def __imul__(self, other):
        _history_read_only()

    def __reduce__(self):
        return History, (list(self),)

    def __copy__(self):
        return _history_copy(self)

    def __deepcopy__(self, memo):
        return _history_copy(self)


cdef object _history_copy(object items):
    """A new History holding ``items`` (a list): list's own copy, given History's type (the
    same layout: History adds no fields; the two-step History.__new__ + fill cost twice as much)."""
    cdef object h = PyList_GetSlice(items, 0, len(items))
    if PyType_HasFeature(<PyTypeObject *>History, Py_TPFLAGS_HEAPTYPE):
        Py_INCREF(History)  # an instance holds a reference to a heap type
    Py_SET_TYPE(h, <PyTypeObject *>History)
    return h


cdef inline int _history_append(object history, object action) except -1:
    return PyList_Append(history, action)




cdef inline object _history_pop(object history):
    cdef Py_ssize_t n = len(history)
    last = history[n - 1]
    _list_cut(history, n - 1, n, NULL)  # list's own deletion: History's methods raise
    return last


cdef int _field_writable(bint building) except -1:
    if not building:
        raise ReadOnlyError("a hand's fields are read-only: state.with_fields(...) returns a copy with fields set "
                            "(the state itself changes only through its verbs)")
    return 0


# The bridges, one per C header.
include "_analysis.pxi"
include "_multideck.pxi"
include "_knock.pxi"
include "_knock_state.pxi"
include "_table.pxi"
include "_table_observe.pxi"
include "_table_playouts.pxi"
include "_vector.pxi"
include "_track.pxi"
