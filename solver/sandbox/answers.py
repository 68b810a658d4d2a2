"""A strategy program's round: one question a line in, one answer a line out, in one isolated
run.  The games' ``program:`` strategies (Chinese poker's settings, Big 2's moves) ask this way.

>>> import shlex, sys
>>> code = "import sys; [print(line.strip().upper()) for line in sys.stdin]"
>>> command = f"{shlex.quote(sys.executable)} -c {shlex.quote(code)}"
>>> answer_lines(command, ["ab", "cd"], timeout=30, sandbox="none", answers="words",
...              questions="words")
['AB', 'CD']
"""

from __future__ import annotations

from handsolver.models.cards import InputError

__all__ = ["answer_lines"]


def answer_lines(
    command: str,
    questions_asked: list[str],
    *,
    timeout: float,
    sandbox: str,
    answers: str,
    questions: str,
    output_cap: int = 1 << 24,
) -> list[str]:
    """The program ``command``'s answer to each line of ``questions_asked`` (blank lines of its
    output skipped), run once for them all, isolated by ``sandbox`` (see
    :func:`handsolver.solver.sandbox.resolve`).  ``answers`` and ``questions`` name what the
    lines are, for the errors.

    :raises InputError: the program timed out, printed too much, failed, or printed a number of
        answers other than the number of questions.
    """
    from handsolver.solver.sandbox.isolation import Policy
    from handsolver.solver.sandbox.runner import Command, run

    data = "".join(line + "\n" for line in questions_asked).encode()
    result = run(
        Command.parse(command),
        data,
        timeout=timeout,
        output_cap=output_cap,
        policy=Policy(sandbox=sandbox),  # type: ignore[arg-type]
    )
    name = f"strategy program {command!r}"
    if result.timed_out:
        raise InputError(f"{name} timed out after {timeout:g} s")
    if result.output_capped:
        raise InputError(f"{name} printed more than {output_cap} bytes")
    if result.returncode != 0:
        raise InputError(
            f"{name} exited with code {result.returncode}: {result.stderr_line}".rstrip(": ")
        )
    lines = result.stdout.decode("utf-8", errors="replace").splitlines()
    lines = [line for line in lines if line.strip()]
    if len(lines) != len(questions_asked):
        raise InputError(
            f"{name} printed {len(lines)} {answers} for {len(questions_asked)} {questions}"
        )
    return lines
