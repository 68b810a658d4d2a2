"""A Big 2 deal with every hand face up: who can force going out first.

One module an idea: :mod:`.plays` (one hand's plays, listed once by size and strength),
:mod:`.state` (the rules machine: a deal in play, its legal moves and the state after one, for
every search and playout of Big 2), :mod:`.positions` (positions as the user gives them,
checked, and the answers), :mod:`.search` (the AND-OR search with its transposition entries
and bounds), :mod:`.kernel` (the same search compiled by numba, loaded only when a search runs;
its inputs laid out in :mod:`.kernel_layout`, its entries in :mod:`.kernel_entries`) and
:mod:`.compiled` (its driver).  Import from the modules: the kernel is heavy, and this package
loads none of them.
"""
