"""Site-wide background tasks."""

from typing import Any

from celery import shared_task
from celery.signals import worker_ready

from remi_site import health


@shared_task(name="remi_site.tasks.heartbeat", ignore_result=True)
def heartbeat() -> None:
    """Record that a worker is alive and consuming; beat sends it every few seconds."""
    health.heartbeat_record()


@shared_task(name="remi_site.tasks.push_heartbeat", ignore_result=True)
def push_heartbeat() -> None:
    """The same for the worker of the ``push`` queue (``CELERY_TASK_ROUTES``)."""
    health.heartbeat_record(process=health.PUSH_WORKER)


@worker_ready.connect
def _heartbeat_on_start(sender: Any = None, **kwargs: Any) -> None:
    # Report at once rather than at the first beat tick, so /healthz is green sooner;
    # only for the queues this worker consumes (a push worker is not the main worker).
    queues = set(sender.app.amqp.queues.consume_from) if sender is not None else {"celery"}
    for queue, process in health.WORKER_OF_QUEUE.items():
        if queue in queues:
            health.heartbeat_record(process=process)
