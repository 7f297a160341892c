"""Reading: queries and the one shape of each answer.

``selectors`` builds what a viewer may see of games (always through the engine's
per-seat view), their lists and move logs; ``replay`` rebuilds a deal from its deck
and its log; ``chat`` the visible lines of a table; ``moderation`` the hidden cards a
moderator may look at, each look recorded. The API's serializers and the pages
render what these build.
"""
