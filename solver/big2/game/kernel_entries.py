"""The compiled game search's transposition entries (:class:`~.kernel_layout.Entries`): one
open-addressing hash table of two 64-bit keys a slot, in buckets of :data:`BUCKET` slots; a
full bucket gives up an entry, which only repeats work.
"""

from __future__ import annotations

from numba import njit

from handsolver.solver.big2.game.kernel_layout import NO_BOUND

BUCKET = 4
_MIX1 = -7046029254386353131  # odd 64-bit constants for the hash, as signed ints
_MIX2 = -4417276706812531889


@njit(cache=True, inline="always")
def _home(key1, key2, mask):  # type: ignore[no-untyped-def]
    h = key1 * _MIX1 ^ key2 * _MIX2
    h ^= h >> 31
    return h & mask


@njit(cache=True)
def find_entry(t_key1, t_key2, key1, key2):  # type: ignore[no-untyped-def]
    """The slot holding the key, or -1.  Keys fill a bucket from its start and are never
    removed, only replaced, so the first empty slot ends the search."""
    mask = t_key1.shape[0] - 1
    home = _home(key1, key2, mask)
    for j in range(BUCKET):
        slot = (home + j) & mask
        if t_key1[slot] == key1 and t_key2[slot] == key2:
            return slot
        if t_key1[slot] == 0:
            return -1
    return -1


@njit(cache=True)
def entry_for(t_key1, t_key2, t_lo, t_hi, key1, key2):  # type: ignore[no-untyped-def]
    """The slot to write the key to: its own, else an empty one or (the bucket full) a victim,
    set to the key with no bound known (``lo`` 0, ``hi`` :data:`NO_BOUND`)."""
    mask = t_key1.shape[0] - 1
    home = _home(key1, key2, mask)
    slot = (home + (key1 ^ key2) % BUCKET) & mask
    for j in range(BUCKET):
        here = (home + j) & mask
        if t_key1[here] == key1 and t_key2[here] == key2:
            return here
        if t_key1[here] == 0:
            slot = here
            break
    t_key1[slot] = key1
    t_key2[slot] = key2
    t_lo[slot] = 0
    t_hi[slot] = NO_BOUND
    return slot
