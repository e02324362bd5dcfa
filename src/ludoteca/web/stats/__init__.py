"""The club's statistics page and the tallies behind it."""
