"""The rules by decision: each module holds one decision's prompt, the handler that
applies the answer, and the automatic steps around it, as Rally the Troops modules keep
each state together.

``tasks`` types what the state's decision stack holds; ``table`` is the one table of
decisions and steps (a framework ``Stack``) that runs everything needing no decision;
``round_sequence`` is the fixed order of a round and of the Final Crisis. This package
imports nothing at import time, so that ``board`` and ``events`` may use
``rules.tasks`` without a cycle.
"""
