"""Chapter 9, the Military Phase (with 11.3's kidnapping), one module per decision or
small family: reinforcements, movement, the Vendée's armies, the Government's moves,
the provisional capital, combat and control."""
