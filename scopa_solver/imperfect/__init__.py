"""Imperfect information: a player's View, its worlds, suggestions by determinization and the
opponent model."""
