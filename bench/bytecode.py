"""What the test suite's Python processes pay to compile their modules when no bytecode
is kept (``PYTHONDONTWRITEBYTECODE=1`` in the environment, and virtualenvs installed
with ``pip install --no-compile``), against the same processes keeping it.

    .venv/bin/python bench/bytecode.py [--rounds 3] [--checks 4]

Each round starts from no bytecode at all (a new, empty ``PYTHONPYCACHEPREFIX``, so the
``__pycache__`` folders of the checkout and the virtualenvs are neither read nor
written) and runs what one worker of ``make test`` starts: ``pytest --collect-only``
(every test module and what it imports), then ``--checks`` times ``manage.py check``
(the site's processes: a migrate, a Celery worker, the ASGI server each import about as
much). The two ways alternate, round by round; it prints the CPU seconds (user and
system) of each process, and each way's medians: the first process, which finds no
bytecode either way, and each later one.

A benchmark, not a test: it asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYTHON = ROOT / ".venv" / "bin" / "python"
WAYS = {
    "nothing kept (PYTHONDONTWRITEBYTECODE=1)": {"PYTHONDONTWRITEBYTECODE": "1"},
    "bytecode kept": {},
}


def commands(checks: int) -> list[list[str]]:
    collect = [str(PYTHON), "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider"]
    check = [str(PYTHON), "manage.py", "check"]
    return [collect, *([check] * checks)]


def children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def one_round(extra: dict[str, str], checks: int) -> list[float]:
    """CPU seconds of each of the round's processes, from no bytecode at all."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    spent = []
    with tempfile.TemporaryDirectory(prefix="remi-pycache-") as prefix:
        env.update(extra, PYTHONPYCACHEPREFIX=prefix)
        for command in commands(checks):
            cpu = children_cpu()
            subprocess.run(command, cwd=ROOT, env=env, check=True, capture_output=True)
            spent.append(children_cpu() - cpu)
    return spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--checks", type=int, default=4)
    args = parser.parse_args()
    print(
        f"bench/bytecode.py: {args.rounds} rounds of pytest --collect-only and "
        f"{args.checks} x manage.py check; load average {os.getloadavg()[0]:.1f}"
    )
    seen: dict[str, list[list[float]]] = {way: [] for way in WAYS}
    for number in range(args.rounds):
        for way, extra in WAYS.items():
            spent = one_round(extra, args.checks)
            seen[way].append(spent)
            later = " ".join(f"{cpu:4.1f}" for cpu in spent[1:])
            print(f"  round {number + 1}  {way:<42} collect {spent[0]:5.1f} s, checks {later}")
    for way, rounds in seen.items():
        collect = statistics.median(spent[0] for spent in rounds)
        check = statistics.median(cpu for spent in rounds for cpu in spent[1:])
        print(
            f"median  {way:<42} collect {collect:5.1f} s CPU, each later process {check:4.1f} s CPU"
        )
    print(f"load average at the end {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
