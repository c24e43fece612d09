"""Referee mode (issue 14): the rig judges any reaction game at the table, and runs a quiz.

Pure core, like the rest of ``game/``: presets as data (:mod:`.presets`), judging a race with
the race judge (:mod:`.race`), a session's statistics (:mod:`.stats`) and its HTML report
(:mod:`.report`); the quiz-show lockout lives in the ``quiz*`` modules.
"""
