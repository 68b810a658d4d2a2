"""A Big 2 deal with every hand face up: who can force going out first.

One module an idea: :mod:`.state` (a deal in play as a small tuple, and the move that changes
it), :mod:`.positions` (positions as the user gives them, checked, and the answers),
:mod:`.search` (the AND-OR search with its table and bounds), :mod:`.kernel` (the same search
compiled by numba, loaded only when a search runs) and :mod:`.compiled` (its driver).  Import
from the modules: the kernel is heavy, and this package loads none of them.
"""
