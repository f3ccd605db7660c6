"""``python -m tabletop``: the ``tabletop`` command, for when the script is not on PATH."""

import sys

from tabletop.app.cli import main

if __name__ == "__main__":
    sys.exit(main())
