"""The Textual terminal UI (``tabletop play``).

This is the only package that imports Textual, so headless commands and tests of the
core never pay its import cost. Import ``TabletopApp`` from ``.app``.
"""
