"""The analysis board and computer review of finished games."""
