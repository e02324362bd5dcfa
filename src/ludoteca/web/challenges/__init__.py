"""Challenges between users and rematches after a game."""
