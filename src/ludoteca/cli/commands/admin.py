"""``ludoteca admin``: grant and revoke club roles, back up and restore the club, from the
server's shell.

    ludoteca admin grant NAME moderator [--database URL]
    ludoteca admin revoke NAME moderator [--database URL]
    ludoteca admin roles [--database URL]
    ludoteca admin backup FILE [--force] [--database URL]
    ludoteca admin restore FILE [--force] [--database URL]

A backup is safe while the club runs (SQLite's online backup API; PostgreSQL's ``pg_dump``);
see :mod:`ludoteca.web.ops.backup`. Neither command overwrites anything without ``--force``.

Roles are given on the command line, not in the web pages, so that no web account can make
itself a moderator: whoever runs this can already read the database. Each grant and revoke
is written to the moderators' log. The database is the one ``ludoteca serve`` would use
(``--database``, else ``DATABASE_URL``, else ``sqlite:///var/ludoteca.sqlite3``).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from ludoteca.core.errors import GameError, MalformedError


def register(subparsers) -> None:
    p: argparse.ArgumentParser = subparsers.add_parser(
        "admin",
        help="club roles (moderator), backups and restores",
        description="Grant or revoke roles of the web club's accounts; back up the club's "
        "database or restore a backup.",
    )
    p.add_argument(
        "--database",
        default=None,
        metavar="URL",
        help="SQLAlchemy URL; default $DATABASE_URL or sqlite:///var/ludoteca.sqlite3",
    )
    sub = p.add_subparsers(dest="action", metavar="ACTION", required=True)
    for action, text in (("grant", "give NAME the role"), ("revoke", "take the role from NAME")):
        a = sub.add_parser(action, help=text, description=f"{text.capitalize()}.")
        a.add_argument("name", metavar="NAME", help="the user's name")
        a.add_argument("role", metavar="ROLE", help="the role: moderator")
        a.add_argument("--database", default=argparse.SUPPRESS, metavar="URL", help="as above")
    r = sub.add_parser("roles", help="list who holds which role", description="List roles.")
    r.add_argument("--database", default=argparse.SUPPRESS, metavar="URL", help="as above")
    b = sub.add_parser(
        "backup",
        help="write a backup of the club to FILE (safe while it runs)",
        description="Write a backup of the club's database to FILE: a SQLite copy made with "
        "SQLite's online backup API, or a pg_dump archive for PostgreSQL. Safe while the "
        "club runs.",
    )
    b.add_argument("file", metavar="FILE", help="where to write the backup")
    r2 = sub.add_parser(
        "restore",
        help="restore the backup FILE into the database",
        description="Restore a backup written by 'ludoteca admin backup' into the database "
        "(stop the club first). A database that already holds a club is replaced only with "
        "--force.",
    )
    r2.add_argument("file", metavar="FILE", help="the backup to restore")
    for a in (b, r2):
        a.add_argument("--force", action="store_true", help="replace what is there")
        a.add_argument("--database", default=argparse.SUPPRESS, metavar="URL", help="as above")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from sqlalchemy import select
    from sqlalchemy.exc import SQLAlchemyError

    from ludoteca.web.infra.store import Store, User, database_url
    from ludoteca.web.moderation import service
    from ludoteca.web.moderation.models import UserRole

    from .serve import _check_url, _safe

    url = database_url(args.database)
    _check_url(url)
    if args.action in ("backup", "restore"):
        return _backup_or_restore(args, url)
    _check_club_exists(url)
    try:
        store = Store(url)
    except SQLAlchemyError as exc:
        raise GameError(_safe(url), f"cannot open the database ({type(exc).__name__})") from None
    try:
        with store.session() as db:
            if args.action == "roles":
                rows = db.execute(
                    select(User.name, UserRole.role)
                    .join(UserRole, UserRole.user_id == User.id)
                    .order_by(UserRole.role, User.name_key)
                ).all()
                for name, role in rows:
                    print(f"{role}\t{name}")
                return 0
            if args.role not in service.ROLES:
                raise MalformedError(
                    args.role, f"not a role (the roles: {', '.join(service.ROLES)})"
                )
            user = db.scalar(select(User).where(User.name_key == args.name.strip().lower()[:64]))
            if user is None:
                raise GameError(args.name, "no account has that name")
            if args.action == "grant":
                changed = service.grant(db, user, args.role)
                said = "is now" if changed else "was already"
            else:
                changed = service.revoke(db, user, args.role)
                said = "is no longer" if changed else "was not"
            db.commit()
            print(f"{user.name} {said} a {args.role}")
            return 0
    finally:
        store.dispose()


def _backup_or_restore(args: argparse.Namespace, url: str) -> int:
    from ludoteca.web.ops import backup

    try:
        if args.action == "backup":
            _check_club_exists(url)
            said = backup.backup(url, Path(args.file), force=args.force)
        else:
            said = backup.restore(url, Path(args.file), force=args.force)
    except backup.BackupError as exc:
        raise GameError(args.file, str(exc)) from None
    print(said)
    return 0


def _check_club_exists(url: str) -> None:
    """An admin command works on a club that exists; it never creates one. A SQLite file that
    is not there (a mistyped path) is refused before anything is made, and any database
    without the club's tables (an empty one) is refused without being changed."""
    from sqlalchemy import create_engine, inspect
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import SQLAlchemyError

    from ludoteca.web.infra.store import normalise_url

    from .serve import _safe

    url = normalise_url(url)
    shown = _safe(url)
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        database = parsed.database or ""
        if database in ("", ":memory:") or not Path(database).is_file():
            raise GameError(
                shown, "no club database there (ludoteca serve creates one; check the path)"
            )
        url = f"sqlite:///file:{Path(database).resolve()}?mode=ro&uri=true"
    engine = create_engine(url)
    try:
        tables = set(inspect(engine).get_table_names())
    except SQLAlchemyError as exc:
        raise GameError(shown, f"cannot open the database ({type(exc).__name__})") from None
    finally:
        engine.dispose()
    if "alembic_version" not in tables:
        raise GameError(shown, "not a club database (it has no club tables)")
