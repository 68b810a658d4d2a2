"""Big 2 at a real table, where the other hands are hidden.

One module an idea: :mod:`.views` (what a seat sees, the strategy interface, a deal played),
:mod:`.sampling` (the unseen cards dealt consistently), :mod:`.reading` (the hands that fit the
opponents' turns), :mod:`.playout` (a deal played to its end fast, the greedy and shed
policies), :mod:`.line_search` (one seat's own lines against opponents on a fixed policy),
:mod:`.tree_search` (a tree of one seat's own turns over the sampled deals), the playouts and
line search compiled by numba (:mod:`.playout_kernel`, loaded only when a tree is searched,
and its driver :mod:`.playout_compiled`), :mod:`.advise` (moves ranked over sampled deals),
:mod:`.learned` (a player learned by self-play, its network run in numpy), :mod:`.strategies`
(random, greedy, fewest, shed, advise, learned, program:) and the tournament
(:mod:`.tournament`, :mod:`.tournament_games`, :mod:`.tournament_saves`).  Import from the
modules: this package loads none of them.
"""
