"""A deal's review: each turn judged by the exact solver after the deal ends
(``analysis``, pure), computed in the background and stored (``compute``); who sees
which turns is ``games.read.reviews``'."""
