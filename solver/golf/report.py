"""What the verifier found: the verdict on every case, counted, and the smallest failing case."""

from __future__ import annotations

import signal
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Counterexample:
    """A failing case: what went in, what should have come out, and what did."""

    id: str
    input: str
    expected: str
    actual: str
    reason: str
    #: The failing case found first, before shrinking (``None`` when it could not shrink).
    shrunk_from: str | None = None
    shrink_steps: int = 0

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "input": self.input,
            "expected": self.expected,
            "actual": self.actual,
            "reason": self.reason,
            "shrunk_from": self.shrunk_from,
            "shrink_steps": self.shrink_steps,
        }


@dataclass(frozen=True)
class Report:
    """The verdict on an answer program over all cases."""

    challenge: str
    command: str
    mode: str
    passed: bool
    cases: int
    failures: int
    not_run: int
    counterexample: Counterexample | None
    failing_ids: tuple[str, ...]
    notes: tuple[str, ...]
    seconds: float
    extra: dict[str, Any] = field(default_factory=dict)
    #: The isolation in force (``bwrap`` or ``none``) and the limits on every run.
    sandbox: str = "none"
    limits: dict[str, Any] = field(default_factory=dict)
    #: The signal (SIGINT, SIGTERM) that interrupted the verifier, else 0.
    interrupted: int = 0

    def to_json(self) -> dict[str, Any]:
        return {
            "challenge": self.challenge,
            "command": self.command,
            "mode": self.mode,
            "passed": self.passed,
            "cases": self.cases,
            "failures": self.failures,
            "not_run": self.not_run,
            "counterexample": None
            if self.counterexample is None
            else self.counterexample.to_json(),
            "failing_ids": list(self.failing_ids),
            "notes": list(self.notes),
            "seconds": round(self.seconds, 3),
            "sandbox": self.sandbox,
            "limits": self.limits,
            "interrupted": signal.Signals(self.interrupted).name if self.interrupted else None,
            **self.extra,
        }
