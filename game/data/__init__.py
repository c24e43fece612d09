"""Data files shipped with the core (the default deck)."""
