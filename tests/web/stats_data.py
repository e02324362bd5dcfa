"""Numbers put straight into a club's database for the stats and rating plots' tests: tally
rows as finished games leave them, and rating histories, without playing the games."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import create_engine, delete, select
from sqlalchemy.orm import Session

from ludoteca.web.infra.store import GameRow, RatingHistory, User, normalise_url, utcnow
from ludoteca.web.stats.models import GameTally
from ludoteca.web.stats.tallies import COUNTS


def put_tallies(url: str, rows: list[dict]) -> None:
    """Replace every tally row with ``rows`` (each: game, players, month and counts)."""
    engine = create_engine(normalise_url(url))
    with Session(engine) as db, db.begin():
        db.execute(delete(GameTally))
        for row in rows:
            counts = {name: row.get(name, 0) for name in COUNTS}
            db.add(
                GameTally(game=row["game"], players=row["players"], month=row["month"], **counts)
            )
    engine.dispose()


def put_rating_history(url: str, name: str, series: dict[str, list[tuple[float, float]]]) -> None:
    """Give the member ``name`` the rating ``series`` (by pool) after as many rated games."""
    engine = create_engine(normalise_url(url))
    with Session(engine) as db, db.begin():
        user = db.scalar(select(User).where(User.name_key == name.lower()))
        assert user is not None, name
        db.execute(delete(RatingHistory).where(RatingHistory.user_id == user.id))
        start = utcnow() - timedelta(days=30)
        for pool, points in series.items():
            for i, (rating, deviation) in enumerate(points):
                game = GameRow(
                    game=pool.split("-")[0],
                    rules_version="1",
                    options={},
                    seed=i,
                    status="aborted",
                    ply=0,
                )
                db.add(game)
                db.flush()
                db.add(
                    RatingHistory(
                        user_id=user.id,
                        pool=pool,
                        game_id=game.id,
                        rating=rating,
                        deviation=deviation,
                        created=start + timedelta(minutes=i),
                    )
                )
    engine.dispose()
