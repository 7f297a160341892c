"""Playing: the only code that changes a game's persisted state.

One command per intention of a player or of the server, a module each: ``create``,
``lobby`` (join, leave, abort, start), ``act``, ``resign`` (and the system's seat out),
``timeout_turn``, ``pause`` (between the deals of a live table); below them
``finish`` (a deal's and a game's end), ``turns``, ``moves`` (the move log), ``store``
(locking, snapshots, the fast-path SQL), ``events`` and ``shuffle``; ``timeouts``: the
timeout policy and the absent-player rule; ``bot_turns``: a built-in bot's turn and "play
now"; ``vacation``: vacations and play settings; ``chat``: the table chat). Each one
is a transaction: lock the game, check, call the engine, append to the move log,
save, and hand its events to the outbox (``games.live.outbox``), which sends them
once the transaction commits.
"""
