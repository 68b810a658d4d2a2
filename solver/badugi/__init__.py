"""Badugi as a draw game: exact one-draw counting, Monte Carlo for more draws, the best discard."""
