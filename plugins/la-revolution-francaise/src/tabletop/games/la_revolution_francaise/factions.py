"""The six Currents by name (4.4), so that the rules say ``MARAIS`` where they mean the
Marais: a misspelt code is then an error when the module loads, not a rule that quietly
never applies. The values are the codes the state, the saves and ``data/`` use."""

from __future__ import annotations

from typing import Final

ROYALIST: Final = "R"
FEUILLANT: Final = "F"
MARAIS: Final = "M"
GIRONDE: Final = "G"
MONTAGNE: Final = "MT"
SANS_CULOTTE: Final = "SC"

#: Every Current, in the order of 4.4 (the Royalist first), as ``data.CURRENTS`` reads
#: them from ``tables.json``.
ALL: Final = (ROYALIST, FEUILLANT, MARAIS, GIRONDE, MONTAGNE, SANS_CULOTTE)
