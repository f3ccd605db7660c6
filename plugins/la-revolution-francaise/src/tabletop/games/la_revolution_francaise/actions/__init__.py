"""Chapter 7.1-7.4, the Action Phase: the segments in their fixed order, each actor's
target, the attempt and its dice (7.1), and each action's outcome."""
