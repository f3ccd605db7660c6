"""Chapter 12, coups (Open scenario): who may attempt one, the offer and the reactions, the
roll and its outcome, and military coups (12.3)."""
