"""Test settings shared by every test module."""

from hypothesis import settings

# CI machines are shared and their speed varies; a property test fails on a wrong answer, never
# on a slow example.
settings.register_profile("handsolver", deadline=None, print_blob=True)
settings.load_profile("handsolver")
