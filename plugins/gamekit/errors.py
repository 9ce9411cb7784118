"""The two ways a rule says no."""

from __future__ import annotations


class Rejected(Exception):
    """A command the rules refuse. ``str(exc)`` is the Chinese reply to the sender.

    Raising it means nothing changed: the kernel puts the stored state back and answers.
    """


class Ignored(Exception):
    """Not for this engine (e.g. plain chat while no draft is open): the kernel says and changes nothing."""
