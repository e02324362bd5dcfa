"""Notifications: the bell with its unread count, live over ``/ws/me``, and e-mail."""
