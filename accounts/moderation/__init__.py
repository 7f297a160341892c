"""Moderation of accounts: reports, sanctions (bans, chat mutes, playbans), fair-play
marks and the modlog.

- ``services``: what moderators and players do (report, ban, mute, mark, resolve),
  each with its modlog row in the same transaction;
- ``playbans``: the abandonments of rated games a playban escalates from;
- ``selectors``: what is in force for an account, the report queue's context, the
  pairs of accounts that play each other suspiciously;
- ``modlog``: the one writer of the append-only log;
- ``roles``: the moderator group's powers;
- ``targets``, ``forms``, ``views``, ``urls``, ``admin_actions``: the report page,
  and the moderation pages of the admin.

What a sanction does to play (a banned player's games forfeited, a muted player's chat
refused, a playbanned player's rated game refused) is ``games.play.sanctions`` and
``games.play.moderation``: accounts never import ``games.play``.
"""
