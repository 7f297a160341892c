"""WSGI entry point (the site is served over ASGI: see asgi.py; this is for tools)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "remi_site.settings")

application = get_wsgi_application()
