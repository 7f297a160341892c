"""Play chips: every account's balance, the append-only ledger, and the pots of games
played for a stake.

``services`` writes (the starting grant, the daily top-up, a game's stakes, the split
of its pot, the refund of an aborted game), always the ledger row and the account's
balance together under the account's row lock; ``selectors`` reads. The games'
commands (``games.play``: ``lobby``, ``finish``) call the services inside their own transaction,
after locking the game: the lock order is the game, then the accounts by user id.
"""
