"""Imperfect information: suggestions by determinization over a View's worlds (pimc.py) and the
equilibrium of the last deals (equilibrium.py on endgame_game.py). The View itself is core; the
bots that play from it, the opponent model's among them, are play's."""
