"""The request helpers, for code written against this module: they live in
:mod:`ludoteca.web.kernel.requests`."""

from ludoteca.web.kernel.requests import *  # noqa: F403
from ludoteca.web.kernel.requests import __all__  # noqa: F401
