"""The help and about pages: how to use the club, and what it is."""
