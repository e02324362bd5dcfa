"""The web club: register, find a game, play it in the browser, watch it again.

``create_app`` in :mod:`ludoteca.web.app` builds the ASGI application; ``ludoteca serve``
runs it with uvicorn.
"""

from ludoteca.web.infra import ids as _ids  # noqa: E402, F401 - registers the ``{name:id}`` path convertor
