"""Playing: bots (with the opponent model of inference.py and epimc.py), the bot names, the
duplicate arena, rounds and matches, match equity, game records and their recording, review and
the terminal game."""
