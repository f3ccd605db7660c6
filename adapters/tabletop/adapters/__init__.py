"""Adapters: implementations of the framework's ports (RNG, dice, saves, headless UI).

The Textual UI lives in ``tabletop.adapters.tui`` and is imported only by ``tabletop play``.
"""
