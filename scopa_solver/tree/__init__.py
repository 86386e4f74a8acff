"""Game trees: networkx graphs of the game or of a search, their files, pictures and outlines."""
