"""The app's screens: home, new game, game, hand-off, game over, rules, errors."""
