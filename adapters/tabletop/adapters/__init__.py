"""Adapters: implementations of the framework's ports (saves, headless UI, Textual UI).

The reference random source and dice live in ``tabletop.framework.chance`` (they are
part of the save format; see docs/architecture.md). The Textual UI lives in
``tabletop.adapters.tui`` and is imported only by ``tabletop play``.
"""
