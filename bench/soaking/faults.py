"""The faults ``bench/soak.py`` injects (the worker killed, Redis restarted), the time
``/healthz`` takes to be healthy again after each, and the processes watched for an
exit nobody asked for.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp

from bench.kit.processes import (
    RedisServer,
    Service,
    celery_beat,
    celery_push_worker,
    celery_worker,
)
from bench.kit.stack import (
    ROOT,
    Stack,
)
from bench.soaking.limits import HEALTH_POLL_S, HEALTH_WAIT_S, STARTUP_WAIT_S
from bench.soaking.players import pause, transport_kind


@dataclass
class Processes:
    """The stack's processes that faults are injected into, the push worker and beat."""

    redis: RedisServer
    env: dict[str, str]
    logs: Path
    worker: Service | None = None
    beat: Service | None = None
    push_worker: Service | None = None
    worker_restarts: int = 0
    redis_restarts: int = 0
    restarting: str | None = None  # the service being killed and started again

    def services(self) -> list[tuple[str, Service | None]]:
        return [
            ("worker", self.worker),
            ("push worker", self.push_worker),
            ("beat", self.beat),
            ("redis", self.redis),
        ]

    def start_background(self) -> None:
        self.worker = celery_worker(self.env, self.logs)
        self.worker.start()
        self.push_worker = celery_push_worker(self.env, self.logs)
        self.push_worker.start()
        self.beat = celery_beat(self.env, self.logs)
        self.beat.start()

    def restart_worker(self) -> None:
        assert self.worker is not None
        self.restarting = "worker"
        try:
            self.worker.kill()
            self.worker = celery_worker(self.env, self.logs)
            self.worker.start()
        finally:
            self.restarting = None
        self.worker_restarts += 1

    def restart_redis(self) -> None:
        self.restarting = "redis"
        try:
            self.redis.kill()
            self.redis.start()
        finally:
            self.restarting = None
        self.redis_restarts += 1

    def stop_background(self) -> None:
        for service in (self.worker, self.push_worker, self.beat):
            if service is not None:
                service.stop()


def ensure_bots(env: dict[str, str]) -> None:
    subprocess.run(
        [sys.executable, "manage.py", "ensure_bots", "-v", "0"], cwd=ROOT, env=env, check=True
    )


def wait_healthy(url: str) -> None:
    """Until /healthz answers 200 (the worker and beat have reported), bounded."""
    import httpx

    deadline = time.monotonic() + STARTUP_WAIT_S
    body: Any = None
    while time.monotonic() < deadline:
        try:
            response = httpx.get(f"{url}/healthz", timeout=5)
            body = response.json()
            if response.status_code == 200:
                return
        except (httpx.HTTPError, ValueError) as error:
            body = repr(error)
        time.sleep(0.5)
    raise RuntimeError(f"/healthz did not answer 200 in {STARTUP_WAIT_S:.0f} s: {body}")


@dataclass
class Fault:
    kind: str  # "worker" or "redis"
    at: float  # seconds into the soak
    took: float = 0.0  # seconds to kill and start again
    healthy_after: float | None = None  # /healthz 200 again (worker: the new one reported)
    failing: set[str] = field(default_factory=set)  # what /healthz said meanwhile


async def health(session: aiohttp.ClientSession) -> tuple[int, dict[str, Any]]:
    """/healthz's (status, body); status 0 when it did not answer."""
    try:
        async with session.get("/healthz") as response:
            body = await response.json(content_type=None)
            return response.status, body if isinstance(body, dict) else {}
    except (aiohttp.ClientError, TimeoutError, ValueError) as error:
        return 0, {"reasons": [f"no answer: {transport_kind(error)}"]}


async def time_recovery(session: aiohttp.ClientSession, fault: Fault, began: float) -> None:
    """How long after the fault /healthz answered 200 again; after a worker kill, also
    with a heartbeat of the new worker (the old one's stays fresh for a while)."""
    while time.monotonic() - began < HEALTH_WAIT_S:
        status, body = await health(session)
        since = time.monotonic() - began
        if status != 200:
            fault.failing.update(str(reason) for reason in body.get("reasons") or [status])
        else:
            age = body.get("worker_heartbeat_age")
            if fault.kind != "worker" or (age is not None and age < since):
                fault.healthy_after = since
                return
        await asyncio.sleep(HEALTH_POLL_S)


def fault_plan(soak_s: float, kill_every: float, redis_at: float) -> list[tuple[float, str]]:
    plan = []
    if kill_every > 0:
        at = kill_every
        while at < soak_s:
            plan.append((at, "worker"))
            at += kill_every
    if redis_at > 0:
        plan.append((redis_at, "redis"))
    return sorted(plan)


async def inject_faults(
    processes: Processes,
    session: aiohttp.ClientSession,
    plan: list[tuple[float, str]],
    soak_began: float,
    faults: list[Fault],
    stop: asyncio.Event,
) -> None:
    recoveries = []
    try:
        for at, kind in plan:
            if await pause(stop, soak_began + at - time.monotonic()):
                break
            fault = Fault(kind, time.monotonic() - soak_began)
            began = time.monotonic()
            restart = processes.restart_worker if kind == "worker" else processes.restart_redis
            try:
                await asyncio.to_thread(restart)
            except (OSError, RuntimeError, subprocess.SubprocessError) as error:
                fault.failing.add(f"restart failed: {error!r}")
            fault.took = time.monotonic() - began
            faults.append(fault)
            recoveries.append(asyncio.create_task(time_recovery(session, fault, began)))
        if recoveries:
            await asyncio.wait(recoveries, timeout=HEALTH_WAIT_S)
    finally:
        for task in recoveries:
            task.cancel()
        await asyncio.gather(*recoveries, return_exceptions=True)


def exited(stack: Stack, processes: Processes) -> list[tuple[str, int, int]]:
    """(name, pid, exit code) of the processes that exited without being told to."""
    found = []
    if stack.server is not None and stack.server.poll() is not None:
        found.append(("web", stack.server.pid, stack.server.returncode))
    for name, service in processes.services():
        if service is None or service.popen is None or name == processes.restarting:
            continue
        code = service.exit_code()
        if code is not None:
            found.append((name, service.popen.pid, code))
    return found


async def watch_processes(
    stack: Stack, processes: Processes, began: float, exits: list[str], stop: asyncio.Event
) -> None:
    """Note, every second, any process of the stack that has exited on its own (a
    worker that dies is not replaced before its next scheduled kill: the gap shows)."""
    seen: set[tuple[str, int]] = set()
    while not await pause(stop, 1.0):
        for name, pid, code in exited(stack, processes):
            if (name, pid) not in seen:
                seen.add((name, pid))
                exits.append(
                    f"{name} (pid {pid}) exited with {code} at {time.monotonic() - began:.0f} s"
                )
