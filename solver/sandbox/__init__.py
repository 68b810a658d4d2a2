"""Running an untrusted program isolated: the verifier's answer programs, Chinese poker's
``program:`` strategies, and any game's strategy written by someone else.

* :mod:`.runner`: run one program on some input, with bounded output and time, killing all it
  started (:func:`run`, :class:`Command`, :class:`RunResult`);
* :mod:`.isolation`: choosing the isolation (bubblewrap, kernel namespaces, Landlock, or limits
  only when asked for by name) and setting it up around one run (:class:`Policy`,
  :class:`Limits`, :func:`resolve`);
* :mod:`.namespaces`, :mod:`.landlock`, :mod:`.kernel`: the kernel's own isolation, through
  ctypes, where bubblewrap is not installed.

A game uses this package and the batch runner, and nothing of another game.
"""

from __future__ import annotations

from handsolver.solver.sandbox.isolation import Limits, Policy, resolve
from handsolver.solver.sandbox.runner import Command, RunResult, run

__all__ = ["Command", "Limits", "Policy", "RunResult", "resolve", "run"]
