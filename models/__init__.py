"""Game rules as plain Python: cards, parsing, enumeration and key functions.

Nothing here imports a solver; ``solver`` builds on these modules.
"""
