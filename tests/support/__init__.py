"""Code the tests share: games written for them, outside the engine."""
