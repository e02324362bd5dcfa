"""The club's tournaments (``/tournaments``): arena, Swiss and round-robin for members."""
