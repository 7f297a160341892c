"""Challenges: one account invites a named account (a person, a bot account, a built-in
bot) or anyone to a game on stated terms; accepting creates and starts that game
through the commands of ``games.play``.

``services`` writes (create, accept, decline, cancel) and ``pairing`` says who may play
a rated game with whom. The reads are ``games.read.challenges`` (one challenge, the
lists) and ``games.read.streams`` (the state a user's event stream starts with).
"""
