"""The golf-answer verifier: run someone's program on seed, adversarial and random cases of a
challenge, accept every answer form the challenge allows, and report the smallest failure.

Challenges are looked up by name; each lives in its own module, imported only when asked for.
"""

from __future__ import annotations

from importlib import import_module

from handsolver.models.cards import InputError
from handsolver.solver.golf.challenge import Case, Challenge, parse_answer_map
from handsolver.solver.golf.report import Counterexample, Report
from handsolver.solver.golf.verify import Settings, verify
from handsolver.solver.sandbox.runner import Command

__all__ = [
    "CHALLENGES",
    "Case",
    "Challenge",
    "Command",
    "Counterexample",
    "Report",
    "Settings",
    "make_challenge",
    "parse_answer_map",
    "verify",
]

#: Challenge name -> (module, class) of its verifier adapter.
CHALLENGES = {
    "badugi": ("handsolver.solver.golf.badugi", "BadugiChallenge"),
    "big2": ("handsolver.solver.golf.big2", "Big2Challenge"),
    "poker": ("handsolver.solver.golf.poker", "PokerChallenge"),
    "sixcard": ("handsolver.solver.golf.sixcard", "SixCardChallenge"),
}


def make_challenge(
    name: str,
    *,
    input_format: str = "seed",
    answer_map: str | None = None,
    rules: str | None = None,
) -> Challenge:
    """The named challenge, configured.

    >>> make_challenge("badugi").format_input(((0, 4, 8, 12), (1, 5, 9, 13)))
    '2c 3c 4c 5c - 2d 3d 4d 5d'
    >>> try:
    ...     make_challenge("chess")
    ... except InputError as error:
    ...     print(error)
    unknown challenge 'chess'; choose from badugi, big2, poker, sixcard

    ``rules`` (big2 only) names the Big 2 rules to judge by, e.g. ``"hk --no-triples"``.

    :raises InputError: for an unknown name, format or map, or a map on a one-sided challenge.
    """
    if name not in CHALLENGES:
        raise InputError(f"unknown challenge {name!r}; choose from {', '.join(CHALLENGES)}")
    if rules is not None and name != "big2":
        raise InputError(f"--rules does not apply to {name}")
    module, attribute = CHALLENGES[name]
    cls = getattr(import_module(module), attribute)
    from handsolver.solver.golf.challenge import Showdown

    if issubclass(cls, Showdown):
        mapping = parse_answer_map(answer_map) if answer_map is not None else None
        if name == "badugi" and mapping is not None and len(mapping) != 3:
            raise InputError("--map must name three tokens for left, right and both")
        challenge: Challenge = cls(input_format, mapping)
        return challenge
    if answer_map is not None:
        raise InputError(f"--map does not apply to {name}")
    if name == "big2":
        challenge = cls(input_format, rules)
        return challenge
    challenge = cls(input_format)
    return challenge
