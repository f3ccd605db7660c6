"""Chapter 6, the Initial Phase, one module per decision or small family: negotiations,
random events and their effects, the turn order, objectives and placement."""
