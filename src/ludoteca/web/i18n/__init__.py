"""The club in three languages: English, German and Japanese.

Every text a person reads goes through gettext catalogs (``locale/<lang>/LC_MESSAGES``),
written as ``.po`` and compiled to ``.mo`` by ``make catalogs`` (which ``make run`` and
``make test`` call). :mod:`.languages` chooses a request's language, :mod:`.catalogs` holds
the translations and Babel's date and number formats, :mod:`.templates` puts them into the
page templates, and :mod:`.scripts` sends the page scripts their own messages.
"""
