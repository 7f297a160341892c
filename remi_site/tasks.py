"""Site-wide background tasks."""

from typing import Any

from celery import shared_task
from celery.signals import worker_ready

from remi_site import health


@shared_task(name="remi_site.tasks.heartbeat", ignore_result=True)
def heartbeat() -> None:
    """Record that a worker is alive and consuming; beat sends it every few seconds."""
    health.heartbeat_record()


@worker_ready.connect
def _heartbeat_on_start(**kwargs: Any) -> None:
    # Report at once rather than at the first beat tick, so /healthz is green sooner.
    health.heartbeat_record()
