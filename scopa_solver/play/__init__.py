"""Playing: bots, the duplicate arena, rounds and matches, game records, review and the terminal game."""
