"""Referee mode on screen: the quiz-show lockout and the race presets, on the same inputs,
screen and sounds as the Cheating Moth table."""
