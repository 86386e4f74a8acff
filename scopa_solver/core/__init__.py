"""The core: cards, rules, the notation, the round state with Position and Move, a player's View
with its worlds, the score and the flow of a game. Everything else builds on these."""
