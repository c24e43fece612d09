"""Window robot: plays cheating-moth in a real window on Xvfb and screenshots every step (see README.md)."""
