"""Exact search of fully known positions: solve, analyze and their batch twins."""
