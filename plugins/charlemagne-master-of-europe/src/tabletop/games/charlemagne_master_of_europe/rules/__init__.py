"""The rules of Charlemagne, Master of Europe, one module per decision or small family
of decisions; ``table.py`` lists them all in the framework's decision stack.

Sections (§) are those of the rules summary (docs/games/charlemagne-master-of-europe/
rules-summary.md). Modules import one another only downwards (``common`` and ``army``
at the bottom, ``table`` at the top), so there is no import cycle.
"""
