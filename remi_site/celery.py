"""The Celery app, configured from Django settings (the ``CELERY_`` names).

Start a worker with ``celery -A remi_site worker``, a worker for the browsers' pushes
with ``celery -A remi_site worker -Q push`` (the ``push`` queue, CELERY_TASK_ROUTES in
settings: a push service that hangs holds up only that worker) and the one beat with
``celery -A remi_site beat``; the embedded run command starts all three.
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "remi_site.settings")

app = Celery("remi_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
# tasks.py of every installed app (accounts, games); the site's own come from
# CELERY_IMPORTS.
app.autodiscover_tasks()
