"""Hostile answer programs against the verifier's isolation: bubblewrap, namespaces built by the
verifier itself, Landlock, and limits only (``none``).

Every program here is a small Python script that answers Badugi correctly (its own brute force)
unless its attack works, and then exits with status 5 saying ``escaped: ...``: so a passing
report means the attack was contained.  Each attack is bounded (sleeps of at most 10 s, 50
forks, 512 MiB, 64 MiB of output) so that a failure of the isolation cannot harm the machine.
After every run: no process of the run is left (found by a marker in their command lines, and by
PID where the program can say it), no file was written outside the run's temporary directory.
Each sandbox's tests skip, saying why, where it cannot run here (no bubblewrap, namespaces or
Landlock refused by the kernel); the limits-only path runs everywhere.  The same attacks run
on every path: the three sandboxes must contain all of them, and on the limits-only path the
tests show which ones get through (the documented reason it must be asked for by name).
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from handsolver.models.cards import InputError
from handsolver.solver.cli import app
from handsolver.solver.golf import Command, Settings, make_challenge, verify
from handsolver.solver.sandbox import isolation as sandbox_module
from handsolver.solver.sandbox import kernel, landlock
from handsolver.solver.sandbox.isolation import (
    ISOLATIONS,
    Limits,
    Policy,
    Sandbox,
    isolation_error,
    process_bound,
)
from handsolver.solver.sandbox.runner import run

HOSTILE = r"""
import os, signal, socket, subprocess, sys, time
from itertools import combinations

R = "A23456789TJQK"
MODE, MARKER, ARGS = sys.argv[1], sys.argv[2], sys.argv[3:]

def key(hand):
    for n in range(4, 0, -1):
        found = [sorted((R.index(c[0]) for c in sub), reverse=True)
                 for sub in combinations(hand, n)
                 if len({c[0] for c in sub}) == n and len({c[1] for c in sub}) == n]
        if found:
            return (n, [-r for r in min(found)])

def escaped(what):
    sys.stderr.write("escaped: " + what + "\n")
    sys.exit(5)

if MODE == "write":
    for target in ARGS + [os.path.expanduser("~/escape.txt"), "escape.txt"]:
        try:
            with open(target, "w") as handle:
                handle.write("escaped")
        except OSError:
            pass
elif MODE == "read":
    try:
        with open(os.path.join(*ARGS)) as handle:
            escaped("read " + handle.read())
    except OSError:
        pass
elif MODE == "signal":
    try:
        os.kill(int(ARGS[0]), signal.SIGUSR1)
    except OSError:
        pass
    else:
        escaped("signalled the verifier")
elif MODE == "env":
    if ARGS[0] in os.environ:
        escaped("read " + ARGS[0])
elif MODE == "net":
    try:
        socket.create_connection(("127.0.0.1", int(ARGS[0])), timeout=2).sendall(b"hello")
    except OSError:
        pass
    else:
        escaped("connected")
elif MODE == "memory":
    try:
        block = bytearray(int(ARGS[0]))
    except MemoryError:
        pass
    else:
        escaped("allocated %d bytes" % len(block))
elif MODE == "fork":
    children = []
    for _ in range(int(ARGS[0])):
        try:
            pid = os.fork()
        except OSError:
            break
        if pid == 0:
            time.sleep(2)
            os._exit(0)
        children.append(pid)
    for pid in children:
        os.waitpid(pid, 0)
    if len(children) == int(ARGS[0]):
        escaped("forked %d children" % len(children))
elif MODE == "setsid":
    if os.fork() == 0:
        os.setsid()
        pid = os.fork()
        if pid == 0:
            os.execv(sys.executable, [sys.executable, "-c", "import time; time.sleep(10)", MARKER])
        try:
            with open(ARGS[0], "w") as handle:
                handle.write(str(pid))
        except OSError:
            pass
        os._exit(0)
    os.wait()
elif MODE == "limits":
    import resource
    memory, cpu = int(ARGS[0]), int(ARGS[1])
    if resource.getrlimit(resource.RLIMIT_AS) != (memory, memory):
        escaped("address space %r" % (resource.getrlimit(resource.RLIMIT_AS),))
    if not 0 < resource.getrlimit(resource.RLIMIT_CPU)[1] <= cpu:
        escaped("cpu %r" % (resource.getrlimit(resource.RLIMIT_CPU),))
    if resource.getrlimit(resource.RLIMIT_NOFILE)[1] > 256:
        escaped("open files")
    try:
        resource.setrlimit(resource.RLIMIT_AS, (resource.RLIM_INFINITY,) * 2)
    except (OSError, ValueError):
        pass
    else:
        escaped("raised its address-space limit")
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    try:
        with open("big", "wb") as handle:
            for _ in range(65):
                handle.write(b"x" * (1 << 20))
    except OSError:
        pass
    else:
        escaped("wrote 65 MiB")
elif MODE == "flood":
    chunk = "x" * (1 << 16)
    for _ in range(128):
        sys.stderr.write(chunk)
    for _ in range(1024):
        sys.stdout.write(chunk)
    sys.exit(0)

for number, line in enumerate(sys.stdin):
    if MODE == "hang" and number == int(ARGS[0]):
        subprocess.run([sys.executable, "-c", "import time; time.sleep(10)", "hanging-" + MARKER])
    if MODE == "killparent" and line.startswith(ARGS[0]):
        os.kill(os.getppid(), signal.SIGTERM)
        time.sleep(10)
    if MODE == "utf8":
        sys.stdout.buffer.write(b"\xff\xfeleft\n")
        continue
    left, right = (side.split() for side in line.split(" - "))
    a, b = key(left), key(right)
    print("left" if a > b else "right" if b > a else "both", flush="buffered" not in ARGS)
"""


def _where_it_runs(mode: str) -> object:
    why = isolation_error(mode)  # type: ignore[arg-type]
    return pytest.param(mode, marks=pytest.mark.skipif(bool(why), reason=why or "it runs"))


SANDBOXES = [_where_it_runs(mode) for mode in ISOLATIONS]
MODES = ["none", *SANDBOXES]
# Sandboxes with a PID namespace: the program cannot even name the verifier's processes.
OWN_PIDS = ("bwrap", "namespaces")
SMALL = make_challenge("badugi").seed_cases()
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def marker() -> str:
    return f"hs-hostile-{uuid.uuid4().hex}"


def marked(marker: str) -> list[int]:
    """Live processes whose command line holds ``marker`` (zombies have none)."""
    out = []
    needle = marker.encode()
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            try:
                if needle in Path(entry.path, "cmdline").read_bytes():
                    out.append(int(entry.name))
            except OSError:
                pass
    return out


def programs(marker: str) -> list[int]:
    """Live Python processes whose last argument is ``hanging-MARKER``: the hanging programs
    (the processes that start them hold the marker too, but elsewhere in their command lines;
    bubblewrap's hold the program's arguments after its own)."""
    out = []
    needle = f"hanging-{marker}".encode()
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            try:
                argv = Path(entry.path, "cmdline").read_bytes().split(b"\0")
                if argv[0] == sys.executable.encode() and argv[-2:-1] == [needle]:
                    out.append(int(entry.name))
            except OSError:
                pass
    return out


def alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().split()[2] != "Z"
    except OSError:
        return False


@pytest.fixture
def clean(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, marker: str) -> Iterator[Path]:
    """Run from an empty directory; afterwards nothing of the run is left and nothing written.

    The runs' directories go to a temporary directory of the test's own (here and in the
    verifiers it starts), which must be empty again at the end.
    """
    here = tmp_path / "here"
    here.mkdir()
    monkeypatch.chdir(here)
    runs = tmp_path / "runs"
    runs.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(runs))
    monkeypatch.setenv("TMPDIR", str(runs))
    yield here
    assert marked(marker) == [], "a process of the run outlived the verifier"
    assert list(here.iterdir()) == [], "the program wrote in the verifier's directory"
    assert list(runs.iterdir()) == [], "a run's directory was left behind"
    assert not (Path.home() / "escape.txt").exists()


def script(folder: Path) -> Path:
    path = folder / "hostile.py"
    path.write_text(HOSTILE)
    return path


def run_hostile(
    folder: Path,
    sandbox: Sandbox,
    marker: str,
    mode: str,
    *args: str,
    limits: Limits | None = None,
    env: tuple[str, ...] = (),
    cases: list[object] | None = None,
    **settings: float,
) -> dict[str, object]:
    command = Command((sys.executable, str(script(folder)), mode, marker, *args))
    policy = Policy(sandbox, limits or Limits(), env)
    chosen = SMALL if cases is None else cases
    return verify(
        make_challenge("badugi"),
        Settings(command, policy=policy, **settings),
        chosen,  # type: ignore[arg-type]
    ).to_json()


def reason(report: dict[str, object]) -> str:
    example = report["counterexample"]
    assert isinstance(example, dict), report
    return str(example["reason"])


# --- the attacks --------------------------------------------------------------------------------


@pytest.mark.parametrize("sandbox", MODES)
def test_writes_stay_in_the_temporary_directory(
    tmp_path: Path, clean: Path, sandbox: Sandbox, marker: str
) -> None:
    """Writes by absolute path (beside the script, in the real home, in /etc) and in ~ (the
    run's own directory) leave nothing outside it."""
    targets = [tmp_path / "outside.txt", Path.home() / f"{marker}.txt", Path(f"/etc/{marker}")]
    # Without a sandbox an absolute path is writable (a documented limit): not tried there.
    try:
        report = run_hostile(
            tmp_path, sandbox, marker, "write", *(map(str, targets) if sandbox != "none" else ())
        )
        assert report["passed"] is True and report["sandbox"] == sandbox, report
        assert [target for target in targets if target.exists()] == []
    finally:
        for target in targets[1:]:
            target.unlink(missing_ok=True)


@pytest.mark.parametrize("sandbox", MODES)
def test_home_is_hidden(tmp_path: Path, clean: Path, sandbox: Sandbox, marker: str) -> None:
    secret = Path.home() / f".{marker}"
    secret.write_text("secret")
    try:
        # Named in two words: a file the command line names is shown to the program.
        home, name = str(secret.parent), secret.name
        report = run_hostile(tmp_path, sandbox, marker, "read", home, name, cases=SMALL[:2])
    finally:
        secret.unlink()
    if sandbox == "none":  # limits only: the user's files are readable (documented)
        assert "escaped: read secret" in reason(report)
    else:
        assert report["passed"] is True, report


@pytest.mark.parametrize("sandbox", MODES)
def test_verifier_cannot_be_signalled(
    tmp_path: Path, clean: Path, sandbox: Sandbox, marker: str
) -> None:
    """A harmless signal (SIGUSR1, caught here) sent to the verifier by its PID."""
    got: list[int] = []
    old = signal.signal(signal.SIGUSR1, lambda signum, frame: got.append(signum))
    try:
        report = run_hostile(tmp_path, sandbox, marker, "signal", str(os.getpid()), cases=SMALL[:2])
    finally:
        signal.signal(signal.SIGUSR1, old)
    if sandbox == "none":
        assert got and "escaped: signalled the verifier" in reason(report)
    else:
        assert report["passed"] is True and not got, report


@pytest.mark.parametrize("sandbox", MODES)
def test_environment_is_minimal(
    tmp_path: Path, clean: Path, sandbox: Sandbox, marker: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HANDSOLVER_CANARY", "secret")
    report = run_hostile(tmp_path, sandbox, marker, "env", "HANDSOLVER_CANARY")
    assert report["passed"] is True, report
    passed_through = ("HANDSOLVER_CANARY",)
    report = run_hostile(tmp_path, sandbox, marker, "env", "HANDSOLVER_CANARY", env=passed_through)
    assert "escaped: read HANDSOLVER_CANARY" in reason(report)


@pytest.mark.parametrize("sandbox", MODES)
def test_network(tmp_path: Path, clean: Path, sandbox: Sandbox, marker: str) -> None:
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(5)
        listener.setblocking(False)
        port = str(listener.getsockname()[1])
        report = run_hostile(tmp_path, sandbox, marker, "net", port, cases=SMALL[:2])
        try:
            connection, _ = listener.accept()
        except BlockingIOError:
            accepted = False
        else:
            connection.close()
            accepted = True
    if sandbox != "none":
        assert report["passed"] is True and not accepted, report
    else:  # limits only: the network is open (documented), and the report shows it
        assert accepted and "escaped: connected" in reason(report)


@pytest.mark.parametrize("sandbox", MODES)
def test_memory_limit(tmp_path: Path, clean: Path, sandbox: Sandbox, marker: str) -> None:
    limits = Limits(memory=128 << 20)
    report = run_hostile(tmp_path, sandbox, marker, "memory", str(512 << 20), limits=limits)
    assert report["passed"] is True, report
    assert report["limits"]["memory_bytes"] == 128 << 20  # type: ignore[index]


@pytest.mark.parametrize("sandbox", MODES)
def test_resource_limits(tmp_path: Path, clean: Path, sandbox: Sandbox, marker: str) -> None:
    """Address space, CPU time (the 3 s timeout, rounded up, plus 1 s), open files and file
    size are limited, and the limits cannot be raised."""
    limits = Limits(memory=1 << 30)
    report = run_hostile(
        tmp_path, sandbox, marker, "limits", str(1 << 30), "5", limits=limits,
        cases=SMALL[:2], per_case=True, timeout=3,
    )  # fmt: skip
    assert report["passed"] is True, report


@pytest.mark.parametrize("sandbox", MODES)
def test_process_limit(tmp_path: Path, clean: Path, sandbox: Sandbox, marker: str) -> None:
    if process_bound() == "none":
        pytest.skip("root without a writable pids cgroup: processes are not bounded here")
    report = run_hostile(tmp_path, sandbox, marker, "fork", "50", limits=Limits(processes=20))
    assert report["passed"] is True, report


@pytest.mark.parametrize("sandbox", MODES)
def test_setsid_grandchild_dies_with_the_run(
    tmp_path: Path, clean: Path, sandbox: Sandbox, marker: str
) -> None:
    pid_file = tmp_path / "grandchild.pid"
    report = run_hostile(tmp_path, sandbox, marker, "setsid", str(pid_file))
    assert report["passed"] is True, report
    assert marked(marker) == []
    if sandbox == "none":  # the only path where it can write its PID here
        assert not alive(int(pid_file.read_text()))
    else:
        assert not pid_file.exists()


@pytest.mark.parametrize("sandbox", MODES)
def test_flood_is_capped(tmp_path: Path, clean: Path, sandbox: Sandbox, marker: str) -> None:
    report = run_hostile(tmp_path, sandbox, marker, "flood")
    assert "cap" in reason(report), report


@pytest.mark.parametrize("sandbox", MODES)
def test_invalid_utf8(tmp_path: Path, clean: Path, sandbox: Sandbox, marker: str) -> None:
    report = run_hostile(tmp_path, sandbox, marker, "utf8")
    assert reason(report) == "the answer is not valid UTF-8"


@pytest.mark.parametrize("buffered", [False, True])
@pytest.mark.parametrize("sandbox", MODES)
def test_hang_on_one_case_of_300_is_named(
    tmp_path: Path, clean: Path, sandbox: Sandbox, marker: str, buffered: bool
) -> None:
    """Hung on case 200 of 300: that case is the counterexample and every other is judged.

    Without a deadline per answer the whole run would wait (0.5 s times 300 cases) past the
    60 s budget and leave cases not run; a program that buffers its output is found too.
    """
    cases = make_challenge("badugi").cases(300, 1)[:300]
    extra = ("buffered",) if buffered else ()
    report = run_hostile(
        tmp_path, sandbox, marker, "hang", "200", *extra, cases=cases, timeout=0.5,
        budget=60, startup=0.5,
    )  # fmt: skip
    assert report["failing_ids"] == [cases[200].id], report
    assert report["not_run"] == 0 and report["cases"] == 300
    example = report["counterexample"]
    assert isinstance(example, dict)
    assert example["input"] == make_challenge("badugi").format_input(cases[200].hands)
    assert "timed out" in example["reason"]


# --- signals: the verifier as a user runs it ---------------------------------------------------


# The command line, run as a user would; SIGINT as a terminal leaves it, even when this suite
# was started with it ignored (in the background from a script).
CLI = (
    "import signal; signal.signal(signal.SIGINT, signal.default_int_handler)\n"
    "from handsolver.solver.cli import app; app()"
)


def start_cli(
    folder: Path, sandbox: str, marker: str, *args: str, timeout: float = 30
) -> subprocess.Popen[str]:
    command = f"{sys.executable} {script(folder)}"
    mode_args = " ".join((args[0], marker, *args[1:]))
    return subprocess.Popen(
        [
            sys.executable,
            "-c",
            CLI,
            "verify",
            "badugi",
            "--cmd",
            f"{command} {mode_args}",
            "--sandbox",
            sandbox,
            "--timeout",
            str(timeout),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )


def wait_for(condition: Callable[[], bool], seconds: float = 60) -> None:
    """Poll until ``condition`` holds; the bound only guards against a hang."""
    end = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < end, "hang guard"
        time.sleep(0.02)


@pytest.mark.parametrize(("signum", "code"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
@pytest.mark.parametrize("sandbox", MODES)
def test_user_signal_stops_the_run_and_reports(
    tmp_path: Path, clean: Path, sandbox: str, marker: str, signum: int, code: int
) -> None:
    verifier = start_cli(tmp_path, sandbox, marker, "hang", "4")
    try:
        wait_for(lambda: bool(marked("hanging-" + marker)))
        verifier.send_signal(signum)
        out, err = verifier.communicate(timeout=60)
    finally:
        verifier.kill()
    assert verifier.returncode == code, (out, err)
    assert "4 judged, 0 failed, 1299 not run" in out, out  # 1303 cases by default
    assert f"note: interrupted by {signal.Signals(signum).name}" in out
    assert "Traceback" not in out + err
    assert marked(marker) == []


@pytest.mark.parametrize("sandbox", MODES)
def test_program_killing_its_parent(tmp_path: Path, clean: Path, sandbox: str, marker: str) -> None:
    verifier = start_cli(tmp_path, sandbox, marker, "killparent", "'9c 9h'", timeout=1)
    out, err = verifier.communicate(timeout=120)
    assert "Traceback" not in out + err
    if sandbox == "none":  # it can reach the verifier: a clean stop with what was judged
        assert verifier.returncode == 143, (out, err)
        assert "4 judged, 0 failed, 1299 not run" in out and "interrupted by SIGTERM" in out
    else:  # its parent is its sandbox's init, or (Landlock) out of its reach: case 5 fails
        assert verifier.returncode == 1 and "interrupted" not in out, (out, err)
        assert "1303 judged, 1 failed, 0 not run" in out and "(seed-5" in out, out
    assert marked(marker) == []


@pytest.mark.parametrize("sandbox", [_where_it_runs(mode) for mode in OWN_PIDS])
def test_run_dies_with_a_killed_verifier(
    tmp_path: Path, clean: Path, marker: str, sandbox: str
) -> None:
    """SIGKILL cannot be caught: with a PID namespace the run goes down with the verifier anyway.

    (Its temporary directory stays behind: removing it is the verifier's job.)
    """
    verifier = start_cli(tmp_path, sandbox, marker, "hang", "4")
    try:
        wait_for(lambda: bool(marked("hanging-" + marker)))
        verifier.kill()
        verifier.communicate(timeout=60)
    finally:
        verifier.kill()
    wait_for(lambda: not marked(marker))  # the kernel tears the namespace down asynchronously
    for left in (tmp_path / "runs").iterdir():
        shutil.rmtree(left)


# --- choosing the sandbox -----------------------------------------------------------------------


def test_auto_takes_the_first_sandbox_that_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without bubblewrap, ``auto`` builds the sandbox from the kernel: never limits only."""
    monkeypatch.setattr(sandbox_module, "bwrap_error", lambda: "bwrap is not installed")
    running = [mode for mode in ISOLATIONS[1:] if not isolation_error(mode)]
    if not running:
        pytest.skip("neither namespaces nor Landlock can run here")
    assert sandbox_module.resolve("auto") == running[0]


def test_no_sandbox_at_all_is_refused_in_one_line(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    reasons = {
        "bwrap_error": "bwrap is not installed (Debian package bubblewrap)",
        "namespaces_error": "namespaces cannot run (unshare: Operation not permitted)",
    }
    for name, why in reasons.items():
        monkeypatch.setattr(sandbox_module, name, lambda why=why: why)
    monkeypatch.setattr(landlock, "landlock_error", lambda: "Landlock is not available")
    with pytest.raises(InputError) as caught:
        sandbox_module.resolve("auto")
    message = str(caught.value)
    assert all(why in message for why in reasons.values()) and "Landlock" in message
    assert message.endswith("pass --sandbox none to run the program with resource limits only")
    answer = f"{sys.executable} {ROOT / 'examples' / 'badugi_answer.py'}"
    args = ["verify", "badugi", "--cmd", answer, "--cases", "0"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2 and result.stdout == ""
    (line,) = result.stderr.splitlines()
    assert line == f"error: {message}"
    result = CliRunner().invoke(app, [*args, "--sandbox", "none"])  # the explicit opt-out
    assert result.exit_code == 0 and "sandbox none" in result.stdout
    result = CliRunner().invoke(app, [*args, "--sandbox", "namespaces"])
    assert result.exit_code == 2
    assert result.stderr == f"error: --sandbox namespaces: {reasons['namespaces_error']}\n"


@pytest.mark.parametrize("command", ["settings", "study"])
def test_a_strategy_program_without_a_sandbox_is_refused_before_work(
    monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    """Chinese poker's ``program:`` strategies are untrusted code too: refused in one line where
    no isolation can run, before any deal is dealt, and run with ``--sandbox none`` only."""
    monkeypatch.setattr(sandbox_module, "bwrap_error", lambda: "bwrap is not installed")
    monkeypatch.setattr(sandbox_module, "namespaces_error", lambda: "namespaces cannot run")
    monkeypatch.setattr(landlock, "landlock_error", lambda: "Landlock is not available")
    program = "program:" + sys.executable + " -c 'import sys; sys.stdin.read()'"
    hand = "As Ks Qs Js Ts 9h 9d 9c 2h 2d 5c 6c 7d"
    args = {
        "settings": ["chinese", "settings", hand, "--vs", program, "--samples", "2"],
        "study": ["chinese", "study", "--vs", program, "--hands", "1", "--samples", "2"],
    }[command]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2 and result.stdout == ""
    (line,) = result.stderr.splitlines()
    assert line.startswith("error: --vs: no sandbox can run here: bwrap is not installed")
    assert line.endswith("pass --sandbox none to run the program with resource limits only")
    # The opt-out reaches the program: it runs (and, printing nothing, is judged for that).
    result = CliRunner().invoke(app, [*args, "--sandbox", "none"])
    assert result.exit_code == 2 and "printed 0 settings" in result.stderr


def test_landlock_without_signal_scoping_is_no_sandbox(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(kernel, "landlock_abi", lambda: 4)
    landlock.landlock_error.cache_clear()
    try:
        assert landlock.landlock_error() == (
            "Landlock ABI 4 cannot keep the program from signalling other processes"
            " (needs ABI 6, Linux 6.12)"
        )
    finally:
        monkeypatch.undo()
        landlock.landlock_error.cache_clear()


@pytest.mark.parametrize("sandbox", [_where_it_runs("namespaces")])
def test_a_step_the_kernel_refuses_is_named(monkeypatch: pytest.MonkeyPatch, sandbox: str) -> None:
    def refused(flags: int) -> None:
        raise OSError(1, "unshare: Operation not permitted")

    monkeypatch.setattr(kernel, "unshare", refused)
    sandbox_module.namespaces_error.cache_clear()
    try:
        assert sandbox_module.namespaces_error() == (
            "namespaces cannot run (unshare: Operation not permitted)"
        )
        with pytest.raises(InputError, match=r"\(sandbox namespaces\): unshare: Operation not"):
            run(Command(("true",)), b"", timeout=10, output_cap=10, sandbox="namespaces")
    finally:
        monkeypatch.undo()
        sandbox_module.namespaces_error.cache_clear()


@pytest.mark.parametrize("sandbox", [_where_it_runs("namespaces")])
def test_namespaces_on_a_kernel_without_mount_setattr(
    tmp_path: Path, clean: Path, monkeypatch: pytest.MonkeyPatch, marker: str, sandbox: Sandbox
) -> None:
    """Before Linux 5.12 each mount is made read-only by a remount of its own: an unknown
    system call number takes that path here."""
    monkeypatch.setattr(kernel, "_SYS_MOUNT_SETATTR", 100_000)
    targets = [str(tmp_path / "outside.txt"), f"/etc/{marker}"]
    report = run_hostile(tmp_path, sandbox, marker, "write", *targets, cases=SMALL[:2])
    assert report["passed"] is True and report["sandbox"] == "namespaces", report
    assert not any(Path(target).exists() for target in targets)


# --- runs stopped from outside the verifier: program: strategies, pool workers ------------------

# Runs a program that hangs, outside the verifier (as a ``program:`` strategy does), and says
# when it was interrupted.
STRATEGY = """
import signal, sys
signal.signal(signal.SIGINT, signal.default_int_handler)
from handsolver.solver.sandbox.runner import Command, run
from handsolver.solver.sandbox.isolation import Policy
hang = Command((sys.executable, "-c", "import time; time.sleep(60)", "hanging-" + sys.argv[2]))
try:
    run(hang, b"", timeout=300, output_cap=100, policy=Policy(sys.argv[1]))
except KeyboardInterrupt:
    print("KeyboardInterrupt", flush=True)
    sys.exit(130)
"""


def start_script(text: str, folder: Path, *args: str) -> subprocess.Popen[str]:
    path = folder / "script.py"
    path.write_text(text)
    return subprocess.Popen(
        [sys.executable, str(path), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )


@pytest.mark.parametrize(("signum", "code"), [(signal.SIGINT, 130), (signal.SIGTERM, -15)])
@pytest.mark.parametrize("sandbox", MODES)
def test_a_signal_stops_a_program_run_at_once(
    tmp_path: Path, clean: Path, sandbox: str, marker: str, signum: int, code: int
) -> None:
    """Ctrl-C while a program runs outside the verifier: ``KeyboardInterrupt`` at once (not
    when the program's 300 s timeout comes), the program killed and its directory removed;
    SIGTERM: the same, then the process ends by the signal as it would have."""
    process = start_script(STRATEGY, tmp_path, sandbox, marker)
    try:
        wait_for(lambda: bool(programs(marker)))
        process.send_signal(signum)
        out, err = process.communicate(timeout=60)  # a hang guard: it takes milliseconds
    finally:
        process.kill()
    assert process.returncode == code, (out, err)
    assert ("KeyboardInterrupt" in out) == (signum == signal.SIGINT) and err == ""


# A pool of two workers (as `chinese study --workers 2` has): job 0's program fails at once, job
# 1's hangs; the failure stops the pool (SIGTERM to its workers) while job 1's program runs.
POOL = """
import sys
from handsolver.models.cards import InputError
from handsolver.solver.batch import run_batch
from handsolver.solver.sandbox.runner import Command, run
from handsolver.solver.sandbox.isolation import Policy

def job(number):
    code = "import sys, time; time.sleep(0.3); sys.exit(1)"
    if number:
        code = "import time; time.sleep(60)"
    result = run(Command((sys.executable, "-c", code, sys.argv[2])), b"", timeout=300,
                 output_cap=100, policy=Policy(sys.argv[1]))
    if result.returncode:
        raise InputError(f"job {number}: status {result.returncode}")
    return number

try:
    print(list(run_batch(job, range(2), workers=2, chunksize=1)))
except InputError as error:
    print(error)
    sys.exit(2)
"""


@pytest.mark.parametrize("sandbox", MODES)
def test_a_program_error_in_a_pool_leaves_nothing(
    tmp_path: Path, clean: Path, sandbox: str, marker: str
) -> None:
    process = start_script(POOL, tmp_path, sandbox, marker)
    out, err = process.communicate(timeout=120)  # a hang guard
    assert process.returncode == 2 and out == "job 0: status 1\n", (out, err)
    assert "Traceback" not in err


def chinese(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", CLI, "chinese", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )


def test_ctrl_c_of_a_chinese_study_with_programs_leaves_nothing(
    tmp_path: Path, clean: Path, marker: str
) -> None:
    """Ctrl-C (to the whole process group, as a terminal sends it) while both workers run a
    strategy program."""
    program = f"program:{sys.executable} -c 'import time; time.sleep(60)' hanging-{marker}"
    study = chinese("study", "--vs", program, "--hands", "4", "--samples", "10", "--workers", "2")
    try:
        wait_for(lambda: len(programs(marker)) == 2)
        os.killpg(study.pid, signal.SIGINT)
        out, err = study.communicate(timeout=60)  # a hang guard
    finally:
        study.kill()
    assert study.returncode == 130, (out, err)
    assert "Traceback" not in err


def test_a_program_error_in_a_chinese_study_leaves_nothing(
    tmp_path: Path, clean: Path, marker: str
) -> None:
    """Every program fails, some at once and some after a while: the first failure stops the
    study while the other worker's program may still run."""
    code = (
        "import sys, time, zlib; time.sleep(0.2 if zlib.crc32(sys.stdin.readline().encode()) % 2"
        " else 2); sys.exit(1)"
    )
    program = f'program:{sys.executable} -c "{code}" {marker}'
    study = chinese("study", "--hands", "6", "--samples", "10", "--workers", "2", "--vs", program)
    out, err = study.communicate(timeout=120)  # a hang guard
    assert study.returncode == 2 and out == "", (out, err)
    assert err.startswith("error: strategy program") and len(err.splitlines()) == 1, err


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_while_a_strategy_program_runs_stops_at_once(
    tmp_path: Path, clean: Path, marker: str, signum: int
) -> None:
    """Ctrl-C or SIGTERM to `chinese settings --vs program:...`: it stops within the hang
    guard, not at the program's 60 s timeout, and leaves neither the program nor its
    directory."""
    program = f"program:{sys.executable} -c 'import time; time.sleep(60)' hanging-{marker}"
    hand = "As Ks Qs Js Ts 9h 9d 9c 2h 2d 5c 6c 7d"
    settings = chinese("settings", hand, "--vs", program, "--samples", "10")
    try:
        wait_for(lambda: bool(programs(marker)))
        settings.send_signal(signum)
        out, err = settings.communicate(timeout=30)  # a hang guard, shorter than the timeout
    finally:
        settings.kill()
    assert settings.returncode in (-signum, 128 + signum), (out, err)
    assert "Traceback" not in err


def test_paths_the_command_names_are_shown_one_level_below_their_hidden_folder(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(os.path, "isfile", lambda path: True)  # the paths need not exist here
    named = [
        "/home/me/golf/answer.py",
        "/root/a.py",
        "/tmp/x/y/a.py",
        "/run/user/1000/x/f.py",
        "/run/foo/bar.py",
        "/usr/bin/python3",
    ]
    assert sandbox_module._shown_paths(named) == [
        "/home/me/golf",
        "/root/a.py",
        "/run/foo",
        "/run/user/1000/x",
        "/tmp/x",
    ]
    words = sandbox_module._shown_paths(["/bin/sh", "-c", "python3 /tmp/a/b.py | sort"])
    assert "/tmp/a" in words


def test_every_hop_of_a_link_to_the_program_is_shown(tmp_path: Path) -> None:
    """A program on PATH through links in hidden folders (a folder of links in /tmp to a
    virtual environment's python3 in another hidden folder) is shown hop by hop."""
    real = tmp_path / "real" / "tool"
    real.parent.mkdir()
    real.write_text("#!/bin/sh\n")
    (tmp_path / "venv").mkdir()
    (tmp_path / "venv" / "tool").symlink_to(real)
    (tmp_path / "links").mkdir()
    (tmp_path / "links" / "tool").symlink_to(tmp_path / "venv" / "tool")
    chain = sandbox_module._link_chain(str(tmp_path / "links" / "tool"))
    assert chain == {str(tmp_path / d / "tool") for d in ("links", "venv")} | {str(real)}
