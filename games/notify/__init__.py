"""What players are told, and how: emails, reminders, Web Push and a calendar feed.

Messages about games come from the outbox path: a service hands its events to the
outbox, the publisher queues a task by name after the commit (``games.tasks``), and
the task calls a function here (``notices``, ``reminders``, ``digests``), which reads
the committed state again, decides who is told (``recipients``), and sends an email
(``messages``, rendered from ``templates/emails/`` in the player's time zone, with
one-click unsubscribe links: ``tokens``) or a push (``push``). The calendar feed
(``calendar``) lists a player's deadlines. ``preferences`` writes a player's choices.

Nothing here writes game state; nothing in ``games.play`` imports this package.
"""
