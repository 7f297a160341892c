"""Live: how events leave the server, and the websocket endpoint.

``outbox`` collects a transaction's events and hands them, once it commits, to the
``publisher``, which sends them to the Channels groups and queues the background work
(by Celery task name). ``presence`` knows who is connected. ``consumers``, ``routing``
and ``limits`` are the websocket endpoint and its limits.
"""
