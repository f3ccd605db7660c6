"""Networked play: ``tabletop serve`` holds games, each seat plays from its own client.

``protocol`` is the wire, ``hall`` the games without the network, ``store`` where they
are kept, ``server`` the asyncio WebSocket server, ``client`` the seat's side. See
docs/networked-play.md.
"""
