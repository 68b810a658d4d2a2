"""Run an answer program over cases, judge every answer, and shrink the smallest failure.

Batch mode (the default) writes one case per line to a single process and reads one answer
per line.  When that process stops early (crash, non-zero exit, timeout, output cap) the case
at the first missing line is blamed and the rest are run again in a new process, so one bad
case does not hide the others.  The timeout is a deadline per answer: each line must come
within ``timeout`` of the one before (the first gets a start-up allowance more), so a program
that hangs on one case is caught on that case within a few timeouts.  When it prints more lines
than cases, the first case that makes the count go wrong is found by bisection.
``--per-case`` starts one process per case, and then the whole of stdout is the answer.
"""

from __future__ import annotations

import signal
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Literal, NamedTuple

from handsolver.solver.golf.challenge import Case, Challenge, Hands
from handsolver.solver.golf.report import Counterexample, Report
from handsolver.solver.sandbox.isolation import Policy, process_bound, resolve
from handsolver.solver.sandbox.runner import Command, RunResult, run, stop_signal

# Hears, while a batch or per-case loop runs: cases answered so far, failures so far, seconds
# of budget left (the CLI's progress line).
OnProgress = Callable[[int, int, float], None]

Status = Literal["pass", "fail", "unknown"]
Kind = Literal["", "wrong", "crash", "error", "timeout"]
"""Why a case failed: a wrong answer, a crash (non-zero exit or signal), a protocol error
(missing, extra or unreadable output), or a timeout.  Only wrong answers and crashes are
shrunk: the others say little about the case itself."""

# A batch that keeps failing is not worth restarting case by case for ever, and one that
# times out before its first answer several times running (each costing a long wait) even less.
MAX_RESTARTS = 20
MAX_IDLE_RESTARTS = 2
BASE_OUTPUT_CAP = 1 << 16
OUTPUT_CAP_PER_CASE = 1 << 12
# A report shows at most this much of a wrong answer: a flood of output is not worth reading.
SHOWN_ANSWER = 500
# In batch mode the first answer may come this much later than the others: interpreters and
# virtual machines take a while to start.
STARTUP = 5.0


class Outcome(NamedTuple):
    """The verdict on one case: its status, the answer read (if any) and why it failed."""

    status: Status
    answer: str | None = None
    reason: str = ""
    kind: Kind = ""


NOT_RUN = Outcome("unknown", None, "not run: the time budget ran out")
INTERRUPTED = Outcome("unknown", None, "not run: the verifier was interrupted")


@dataclass(frozen=True)
class Settings:
    """How to run the answer: per case or in one batch, and the time limits (seconds)."""

    command: Command
    per_case: bool = False
    timeout: float = 10.0
    budget: float = 300.0
    #: At most this many candidate cases are tried while shrinking.
    shrink_limit: int = 3000
    #: The isolation and limits of every run (see :mod:`handsolver.solver.sandbox`).
    policy: Policy = field(default_factory=Policy)
    #: Extra seconds for the first answer of a batch.
    startup: float = STARTUP


def _stop_reason(
    result: RunResult, answered: int, total: int, waited: float = 0.0
) -> tuple[str, Kind]:
    """Why a run ended before answering every case, blamed on the first unanswered one.

    ``waited`` is how long a stalled run was given for this answer.
    """
    if result.stalled:
        since = "of the previous one" if answered else "of the start"
        return f"timed out: no answer within {waited:g} s {since}; killed", "timeout"
    if result.timed_out:
        return f"timed out with no answer after {result.seconds:.1f} s", "timeout"
    if result.output_capped:
        return f"output passed the {len(result.stdout)}-byte cap; the program was killed", "error"
    said = f": {result.stderr_line}" if result.stderr_line else ""
    if result.returncode < 0:
        return f"killed by signal {-result.returncode} before answering{said}", "crash"
    if result.returncode != 0:
        return f"exited with status {result.returncode} before answering{said}", "crash"
    return (
        f"no answer: the program printed {answered} line(s) for {total} case(s) and exited"
        " (a program that reads one case per run needs --per-case)",
        "error",
    )


def _held_back(result: RunResult) -> bool:
    """Whether a stalled run's output may be held back in its buffer: none, or half a line."""
    return not result.stdout.endswith(b"\n")


def _shorten(answer: str) -> str:
    """The answer as a report shows it: cut after :data:`SHOWN_ANSWER` characters.

    >>> _shorten("x" * 600)[-30:]
    'x... (600 characters in all)'
    """
    if len(answer) <= SHOWN_ANSWER:
        return answer
    return f"{answer[:SHOWN_ANSWER]}... ({len(answer)} characters in all)"


class Verifier:
    """Runs the answer program for one challenge under one set of settings and a deadline."""

    def __init__(
        self,
        challenge: Challenge,
        settings: Settings,
        *,
        began: float | None = None,
        on_progress: OnProgress | None = None,
    ) -> None:
        self.challenge = challenge
        self.settings = settings
        self.sandbox = resolve(settings.policy.sandbox)
        self.deadline = (time.monotonic() if began is None else began) + settings.budget
        self.notes: list[str] = []
        self.on_progress = on_progress
        self.failed = 0

    def remaining(self) -> float:
        """Seconds of budget left: none once a signal asked the verifier to stop."""
        if stop_signal():
            return 0.0
        return self.deadline - time.monotonic()

    def _progress(self, answered: int) -> None:
        if self.on_progress is not None:
            self.on_progress(answered, self.failed, max(0.0, self.deadline - time.monotonic()))

    # Judging --------------------------------------------------------------------------------

    def judge_bytes(self, hands: Hands, raw: bytes) -> Outcome:
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            return Outcome("fail", repr(raw[:80]), "the answer is not valid UTF-8", "error")
        text = text.replace("\r", "").strip()
        reason = self.challenge.judge(hands, text)
        if reason is None:
            return Outcome("pass", text)
        return Outcome("fail", text, reason, "wrong")

    # Running --------------------------------------------------------------------------------

    def answer_all(
        self, cases: Sequence[Hands], *, until_failure: bool = False, live: bool = False
    ) -> list[Outcome]:
        """A verdict for every case (``unknown`` for those the budget left unrun).

        With ``until_failure`` it stops at the first failing case and leaves the rest
        ``unknown``: while shrinking, candidates come smallest first, so the first failure is
        the smallest and a crashing program need not be restarted for the others.  With
        ``live`` it reports progress (not while shrinking).
        """
        if self.settings.per_case:
            outcomes = [NOT_RUN] * len(cases)
            for i in range(len(cases)):
                if self.remaining() <= 0:
                    if stop_signal():
                        outcomes[i:] = [INTERRUPTED] * (len(cases) - i)
                    break
                outcomes[i] = self._one(cases[i])
                self.failed += outcomes[i].status == "fail"
                if live:
                    self._progress(i + 1)
                if until_failure and outcomes[i].status == "fail":
                    break
            return outcomes
        return self._batch(cases, until_failure, live)

    def _run(
        self, cases: Sequence[Hands], timeout: float, answered: int | None = None
    ) -> RunResult:
        """One run on ``cases``; in batch mode (``answered`` = cases before these, for the
        progress line) with a deadline per answer."""
        data = "".join(self.challenge.format_input(hands) + "\n" for hands in cases)
        batch = not self.settings.per_case
        return run(
            self.settings.command,
            data.encode("utf-8"),
            timeout=max(0.0, min(timeout, self.remaining())),
            output_cap=BASE_OUTPUT_CAP + OUTPUT_CAP_PER_CASE * len(cases),
            policy=self.settings.policy,
            sandbox=self.sandbox,
            line_timeout=self.settings.timeout if batch else None,
            startup=self.settings.startup if batch else 0.0,
            on_lines=None
            if answered is None or self.on_progress is None
            else lambda lines: self._progress(answered + min(lines, len(cases))),
        )

    def _one(self, hands: Hands) -> Outcome:
        result = self._run([hands], self.settings.timeout)
        if result.interrupted:
            return INTERRUPTED
        if result.timed_out and self.remaining() <= 0:
            return NOT_RUN
        if result.timed_out:
            return Outcome("fail", None, f"timed out after {result.seconds:.1f} s", "timeout")
        if result.output_capped or result.returncode != 0:
            reason, kind = _stop_reason(result, 0, 1)
            if result.stdout.strip():
                reason = reason.replace("before answering", "after its answer")
            outcome = self.judge_bytes(hands, result.stdout)
            return Outcome("fail", outcome.answer, reason, kind)
        lines = [line for line in result.stdout.splitlines() if line.strip()]
        if not lines:
            return Outcome("fail", "", "no output", "error")
        if len(lines) > 1 and not self.challenge.multiline:
            shown = result.stdout.decode("utf-8", "replace").strip()[:200]
            return Outcome("fail", shown, f"printed {len(lines)} lines for one case", "error")
        return self.judge_bytes(hands, result.stdout)

    @staticmethod
    def _lines(result: RunResult, expected: int) -> list[bytes]:
        """Complete answer lines; a last line without newline counts if the program ended."""
        lines = result.stdout.split(b"\n")
        tail = lines.pop()
        if tail and not (result.timed_out or result.output_capped):
            lines.append(tail)
        while len(lines) > expected and not lines[-1].strip():
            lines.pop()
        return lines

    def _batch(self, cases: Sequence[Hands], until_failure: bool, live: bool) -> list[Outcome]:
        outcomes: list[Outcome] = [NOT_RUN] * len(cases)
        # Spans of cases still to run, the next one last.
        spans = [(0, len(cases))]
        restarts = idle = 0
        while spans and self.remaining() > 0:
            start, end = spans.pop()
            chunk = cases[start:end]
            timeout = self.settings.timeout * len(chunk) + self.settings.startup
            result = self._run(chunk, timeout, start if live else None)
            lines = self._lines(result, len(chunk))
            blamed = len(lines)  # the case (in ``chunk``) that ``stopped`` is about
            if len(lines) > len(chunk):
                found = self._first_extra(chunk)
                if found is None:
                    break
                lines, count, result = found
                reason, kind = (
                    _stop_reason(result, count, count)
                    if result.output_capped
                    else (
                        f"printed {len(lines) - count + 1} lines for one case (batch mode "
                        "reads one line per case)",
                        "error",
                    )
                )
                answer = b" / ".join(lines[count - 1 :]).decode("utf-8", "replace")[:200]
                lines = lines[: count - 1]
                blamed = len(lines)
                stopped = Outcome("fail", answer, reason, kind)
            elif len(lines) < len(chunk):
                if result.interrupted:
                    stopped = INTERRUPTED
                elif result.timed_out and not result.stalled and self.remaining() <= 0:
                    # Its own timeout (per case times cases) had not come: say where it stuck.
                    self.notes.append(
                        f"the program had answered {start + len(lines)} of {end}"
                        f" case(s) when the time budget ran out {result.seconds:.1f} s into"
                        " its run; it was killed"
                    )
                    stopped = NOT_RUN
                else:
                    waited = self.settings.timeout + (0 if lines else self.settings.startup)
                    reason, kind = _stop_reason(result, len(lines), len(chunk), waited)
                    stopped = Outcome("fail", None, reason, kind)
                    if result.stalled and _held_back(result) and len(lines) + 1 < len(chunk):
                        found_at = self._first_hang(chunk, len(lines))
                        if found_at is None:
                            stopped = NOT_RUN
                        else:
                            blamed = found_at
                            reason = f"{reason} (found by running shorter batches)"
                            stopped = Outcome("fail", None, reason, kind)
            else:
                stopped = None
            for i, raw in enumerate(lines):
                outcomes[start + i] = self.judge_bytes(chunk[i], raw)
                if outcomes[start + i].status == "fail":
                    self.failed += 1
                    if until_failure:
                        return outcomes
            if stopped is None:
                last = end - 1
                if result.returncode != 0 and outcomes[last].status == "pass":
                    reason, kind = _stop_reason(result, len(lines), len(chunk))
                    reason = reason.replace("before answering", "after its last answer")
                    outcomes[last] = Outcome("fail", outcomes[last].answer, reason, kind)
                    self.failed += 1
                continue
            outcomes[start + blamed] = stopped
            self.failed += stopped.status == "fail"
            if stopped is INTERRUPTED:
                outcomes[start + len(lines) :] = [INTERRUPTED] * (len(cases) - start - len(lines))
            if until_failure or stopped.status == "unknown":
                break
            idle = idle + 1 if result.timed_out and not lines else 0
            spans.append((start + blamed + 1, end))
            if blamed > len(lines):
                spans.append((start + len(lines), start + blamed))
            spans = [(a, b) for a, b in spans if a < b]
            restarts += 1
            if (restarts > MAX_RESTARTS or idle > MAX_IDLE_RESTARTS) and spans:
                left = sum(b - a for a, b in spans)
                self.notes.append(
                    f"gave up after {restarts} runs that stopped early; {left} case(s) not run"
                )
                for a, b in spans:
                    outcomes[a:b] = [Outcome("unknown", None, "not run: too many restarts")] * (
                        b - a
                    )
                break
        return outcomes

    def _first_hang(self, cases: Sequence[Hands], answered: int) -> int | None:
        """The first case at or after ``answered`` on which the program hangs.

        The run stalled with output held back (nothing, or half a line: a program that
        buffers its output), so the case it stuck on is not the first unanswered one.  Shorter
        batches ending in end-of-input tell: the suspect alone first, then by bisection.
        ``None`` if the budget ran out first.
        """
        low, high = answered, len(cases)  # cases[answered:low] finish, cases[answered:high] hang
        middle = answered + 1
        while high - low > 1:
            if self.remaining() <= 0:
                return None
            part = cases[answered:middle]
            timeout = self.settings.timeout * len(part) + self.settings.startup
            result = self._run(part, timeout)
            if result.interrupted:
                return None
            if result.timed_out:
                high = middle
            else:
                low = middle
            middle = (low + high) // 2
        return high - 1

    def _first_extra(self, cases: Sequence[Hands]) -> tuple[list[bytes], int, RunResult] | None:
        """The shortest prefix of ``cases`` answered with too many lines.

        Returns its lines, its length and the run; ``None`` if the budget ran out first.
        """
        low, high = 0, len(cases)  # prefix ``low`` is known fine, prefix ``high`` is not
        found: tuple[list[bytes], RunResult] | None = None
        while high - low > 1 and self.remaining() > 0:
            middle = (low + high) // 2
            result = self._run(cases[:middle], self.settings.timeout * middle)
            lines = self._lines(result, middle)
            if len(lines) > middle:
                high, found = middle, (lines, result)
            else:
                low = middle
        if high - low > 1:
            return None
        if found is None:
            result = self._run(cases[:high], self.settings.timeout * high)
            found = (self._lines(result, high), result)
        return found[0], high, found[1]

    # Shrinking -----------------------------------------------------------------------------

    def shrink(self, hands: Hands, outcome: Outcome) -> tuple[Hands, Outcome, int]:
        """Walk to simpler failing cases while any neighbour still fails: the smallest found."""
        measure = self.challenge.measure
        seen = {hands}
        steps = 0
        budget = self.settings.shrink_limit
        while budget > 0 and self.remaining() > 0:
            here = measure(hands)
            candidates = sorted(
                {
                    n
                    for n in self.challenge.neighbours(hands)
                    if n not in seen and measure(n) < here
                },
                key=measure,
            )[:budget]
            if not candidates:
                break
            results = self.answer_all(candidates, until_failure=True)
            if stop_signal():
                break
            tried = [c for c, o in zip(candidates, results, strict=True) if o.status != "unknown"]
            seen.update(tried)
            budget -= len(tried)
            failing = [
                (c, o) for c, o in zip(candidates, results, strict=True) if o.status == "fail"
            ]
            # A timeout is a failure, but chasing it would spend the budget on waiting.
            if not failing or failing[0][1].kind == "timeout":
                break
            hands, outcome = failing[0]
            steps += 1
        return hands, outcome, steps


def verify(
    challenge: Challenge,
    settings: Settings,
    cases: Sequence[Case],
    *,
    shrink: bool = True,
    began: float | None = None,
    on_progress: OnProgress | None = None,
) -> Report:
    """Judge the answer on ``cases``; on failure, report the smallest failing case found.

    The budget counts from ``began`` (a :func:`time.monotonic` reading: when case generation
    started) or from now.  ``on_progress`` hears how far the run is (the CLI's progress line).
    A timeout is named as the counterexample only when nothing else failed: the first one.
    """
    began = time.monotonic() if began is None else began
    verifier = Verifier(challenge, settings, began=began, on_progress=on_progress)
    outcomes = verifier.answer_all([case.hands for case in cases], live=True)
    failing = [(case, o) for case, o in zip(cases, outcomes, strict=True) if o.status == "fail"]
    not_run = sum(o.status == "unknown" for o in outcomes)
    counterexample = None
    if failing:
        telling = [pair for pair in failing if pair[1].kind != "timeout"]
        first, outcome = (
            min(telling, key=lambda pair: challenge.measure(pair[0].hands))
            if telling
            else failing[0]
        )
        hands, steps = first.hands, 0
        # A program that answered nothing right gives shrinking no signal to follow.
        answered = any(o.status == "pass" for o in outcomes)
        if shrink and challenge.shrinkable and answered and outcome.kind in ("wrong", "crash"):
            hands, outcome, steps = verifier.shrink(first.hands, outcome)
        counterexample = Counterexample(
            id=first.id,
            input=challenge.format_input(hands),
            expected=challenge.explain(hands),
            actual=_shorten(outcome.answer or ""),
            reason=outcome.reason,
            shrunk_from=challenge.format_input(first.hands) if steps else None,
            shrink_steps=steps,
        )
    notes = challenge.notes() + verifier.notes
    interrupted = stop_signal()
    if interrupted:
        notes.append(
            f"interrupted by {signal.Signals(interrupted).name}: the run was killed and this"
            f" report covers the {len(cases) - not_run} case(s) judged before"
        )
    elif not_run and verifier.remaining() <= 0:
        notes.append(f"the time budget ({settings.budget:g} s) ran out")
    extra = challenge.settings_json()
    if not failing:
        extra |= challenge.report_extra(cases, [o.answer for o in outcomes])
    return Report(
        challenge=challenge.name,
        command=str(settings.command),
        mode="per-case" if settings.per_case else "batch",
        passed=not failing and not not_run,
        cases=len(cases) - not_run,
        failures=len(failing),
        not_run=not_run,
        counterexample=counterexample,
        failing_ids=tuple(case.id for case, _ in failing[:20]),
        notes=tuple(notes),
        seconds=time.monotonic() - began,
        extra=extra,
        sandbox=verifier.sandbox,
        limits={
            **settings.policy.limits.to_json(),
            "processes_bounded_by": process_bound(),
            "timeout_seconds": settings.timeout,
        },
        interrupted=interrupted,
    )
