"""The screens the browser tests look at a page on, as a person does: a desktop window of
1280 × 800 and a phone of 390 × 844 with a touch screen; each in the light and dark theme."""

from __future__ import annotations

SIZES: dict[str, dict] = {
    "desktop": {"viewport": {"width": 1280, "height": 800}},
    "phone": {
        "viewport": {"width": 390, "height": 844},
        "is_mobile": True,
        "has_touch": True,
        "device_scale_factor": 2,
    },
}
THEMES = ("light", "dark")
LOCALES = {"en": "en-GB", "de": "de-DE", "ja": "ja-JP"}


def context_options(size: str, theme: str = "light", lang: str = "en") -> dict:
    """Playwright's ``new_context`` options for a screen, a theme and a language."""
    return {**SIZES[size], "color_scheme": theme, "locale": LOCALES[lang]}
