"""Imported by the forkserver as it starts (see :mod:`ludoteca.web.infra.orphans`): from then
on it ends when the server that started it ends, and takes its workers with it."""

from ludoteca.web.infra.orphans import die_with_parent

die_with_parent()
