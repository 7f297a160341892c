"""The soak's report: the ramp, a progress line every ``PROGRESS_EVERY_S``, the faults and
the final table of moves, errors and checks.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import TYPE_CHECKING

from bench.kit.measure import memory_summary, percentile
from bench.kit.stack import (
    Stack,
)
from bench.soaking.checks import Checks, count_lines, log_problems
from bench.soaking.faults import Fault, Processes
from bench.soaking.limits import (
    HEALTH_WAIT_S,
    MEMORY_GROWTH,
    RETRY_FOR_S,
    SLEEPER_ABSENT_WAIT_S,
    SLEEPER_SECONDS_PER_TURN,
)
from bench.soaking.players import Tally

if TYPE_CHECKING:  # the run imports this report
    from bench.soaking.run import Outcome


def print_ramp(outcome: Outcome) -> None:
    print(
        f"ramp: {outcome.max_rate:.0f} accepted moves/s at most; soaking at {outcome.target:.0f}/s",
        flush=True,
    )


def print_progress(
    elapsed: float,
    last: tuple[float, int],
    tally: Tally,
    outcome: Outcome,
    processes: Processes,
) -> None:
    rate = (tally.accepted - last[1]) / max(elapsed - last[0], 1e-9)
    watch = outcome.watch
    assert watch is not None
    line = (
        f"[{elapsed:4.0f} s] moves {tally.accepted} ({rate:.0f}/s, target "
        f"{outcome.target:.0f}/s) | errors {dict(tally.move_errors + tally.other_errors)} "
        f"transport {dict(tally.transport)} | overdue worst {watch.worst_overdue:.1f} s, "
        f"late {len(watch.late)} | bot wait worst {watch.worst_bot_wait:.1f} s, stalled "
        f"{len(watch.stalled)} | restarts: worker {processes.worker_restarts}, redis "
        f"{processes.redis_restarts} | load {os.getloadavg()[0]:.1f}"
    )
    if outcome.exits:
        line += f" | EXITED: {'; '.join(outcome.exits)}"
    print(line, flush=True)


def describe_fault(fault: Fault) -> str:
    what = "worker killed" if fault.kind == "worker" else "Redis restarted"
    if fault.healthy_after is None:
        back = f"not healthy again within {HEALTH_WAIT_S:.0f} s"
    elif fault.kind == "worker":
        back = f"new worker's heartbeat after {fault.healthy_after:.1f} s"
    else:
        back = f"/healthz 200 again after {fault.healthy_after:.1f} s"
    failing = "; ".join(sorted(fault.failing)) or "/healthz 200 throughout"
    return f"{what} at {fault.at:.0f} s (took {fault.took:.1f} s): {back} ({failing})"


def print_report(
    args: argparse.Namespace,
    outcome: Outcome,
    checks: Checks,
    stack: Stack,
    logs: Path,
) -> int:
    soak, watch = outcome.soak, outcome.watch
    assert watch is not None
    seconds = max(outcome.soak_seconds, 1e-9)
    rate = soak.accepted / seconds
    latency = sorted(soak.latency)
    saw_500 = soak.move_errors[500] + soak.other_errors[500] + outcome.ramp.move_errors[500]
    saw_500 += outcome.ramp.other_errors[500]
    missed, stalled = len(watch.late), len(watch.stalled)
    grown = outcome.memory_grown()
    games, finished = outcome.ramp.games + soak.games, outcome.ramp.finished + soak.finished
    print(
        f"\nbench/soak.py: {seconds / 60:.1f} min at {args.fraction:.0%} of "
        f"{outcome.max_rate:.0f} moves/s, uvicorn x{args.web_workers}, 1 Celery worker "
        f"(concurrency 2) + push worker + beat, PostgreSQL + Redis, production settings"
    )
    rows = [
        ("moves accepted", f"{soak.accepted} ({rate:.0f}/s, target {outcome.target:.0f}/s: "
         f"{rate / max(outcome.target, 1e-9):.0%})"),
        ("move latency", f"p50 {percentile(latency, 0.5):.0f} ms, p99 "
         f"{percentile(latency, 0.99):.0f} ms, max {percentile(latency, 1.0):.0f} ms "
         "(retries included)"),
        ("retries replayed", f"{soak.replayed} (answered with the first result)"),
        ("moves given up", f"{soak.given_up} (no answer in {RETRY_FOR_S:.0f} s of retries; "
         f"{checks.unconfirmed_logged} of all unanswered were logged)"),
        ("move errors", f"{dict(sorted(soak.move_errors.items())) or 'none'}"),
        ("other errors", f"{dict(sorted(soak.other_errors.items())) or 'none'} "
         "(reads, creates, joins, starts)"),
        ("transport errors", f"{dict(soak.transport) or 'none'}"),
        ("moves lost", f"{len(checks.lost)}"),
        ("moves doubled", f"{checks.doubled}"),
        ("deadlines missed", f"{missed} (more than {args.late_after:.0f} s late; worst "
         f"overdue {watch.worst_overdue:.1f} s)"),
        ("bot turns stalled", f"{stalled} (more than {watch.stall_after:.0f} s; worst wait "
         f"{watch.worst_bot_wait:.1f} s; {count_lines(logs / 'worker.log', 'queued again')} "
         "rescued by the sweep)"),
        ("worker restarts", f"{sum(f.kind == 'worker' for f in outcome.faults)}"),
        ("Redis restarts", f"{sum(f.kind == 'redis' for f in outcome.faults)}"),
        ("games (whole run)", ", ".join(f"{kind} {n} ({finished[kind]} finished)"
                                        for kind, n in sorted(games.items())) or "none"),
        ("server's own moves", f"{checks.server_moves} (timeouts, seats out), bots "
         f"{checks.bot_moves} (whole run)"),
        ("websocket reconnects", f"{soak.ws_reconnects}"),
        ("web workers' memory", memory_summary(outcome.memory)),
        ("memory still growing", f"{len(grown)} web workers (a peak in the second half over "
         f"{MEMORY_GROWTH:g}x the first half's)"),
        ("samples", f"{watch.samples} ({watch.sample_errors} failed)"),
        ("unexpected exits", "; ".join(outcome.exits) or "none"),
        ("player errors", f"{dict(soak.crashes + outcome.ramp.crashes) or 'none'}"),
        ("ramp", f"{outcome.max_rate:.0f} moves/s over {args.ramp_seconds:.0f} s; errors "
         f"{dict(outcome.ramp.move_errors + outcome.ramp.other_errors) or 'none'}, "
         f"transport {dict(outcome.ramp.transport) or 'none'}"),
    ]  # fmt: skip
    for name, value in rows:
        print(f"  {name:<21} {value}")
    for fault in outcome.faults:
        print(f"    {describe_fault(fault)}")
    for name, messages in log_problems(logs).items():
        if messages:
            print(f"  {name}: {sum(messages.values())} ERROR/CRITICAL lines:")
            for message, count in messages.most_common(6):
                print(f"    {count} x {message}")
    for game, user, key, ply in checks.lost[:10]:
        print(f"  LOST: game {game}, user {user}, ply {ply}, key {key}")
    for (game, user), extra in list(checks.over_accepted.items())[:10]:
        print(f"  DOUBLED: game {game}, user {user}: {extra} more logged than accepted")
    print(
        f"  settings              --minutes {args.minutes:g} --fraction {args.fraction:g} "
        f"--kill-every {args.kill_every:g} --redis-restart-at {args.redis_restart_at:g} "
        f"--ramp-seconds {args.ramp_seconds:g} --games {args.games} --bot-games "
        f"{args.bot_games} --sleeper-games {args.sleeper_games} --late-after "
        f"{args.late_after:g}; BOT_STALL_S {stack.env['BOT_STALL_S']}, DEADLINE_SWEEP_S "
        f"{stack.env.get('DEADLINE_SWEEP_S', '1.0')}, WEB_THREADS "
        f"{stack.env.get('WEB_THREADS', '16')}, DB_POOL_SIZE "
        f"{stack.env.get('DB_POOL_SIZE', '8')}; sleepers: {SLEEPER_SECONDS_PER_TURN} s a "
        f"turn, absent wait {SLEEPER_ABSENT_WAIT_S} s; {os.cpu_count()} cores, load "
        f"average {os.getloadavg()[0]:.1f}"
    )
    print(f"  logs                  {logs}")
    ok = not (checks.lost or checks.doubled or missed or stalled or saw_500 or grown)
    print(f"  result                {'PASS' if ok else 'FAIL'}")
    return 0 if ok else 1
