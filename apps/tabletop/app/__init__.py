"""The Tabletop application: composition root, logging and the ``tabletop`` command."""
