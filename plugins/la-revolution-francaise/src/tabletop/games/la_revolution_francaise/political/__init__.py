"""Chapter 7.5, the Political Phase (with chapter 11's King and chapter 13's laws), one
module per decision or small family of decisions."""
