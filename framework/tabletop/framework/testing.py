"""Pytest plugin (entry point ``pytest11``): the conformance kit for game authors."""
