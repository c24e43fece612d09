"""The rig doctor: checks a wired rig's lights, buttons and timing (``cheating-moth doctor``).

``core`` holds the checks and the report, ``gpio`` and ``board`` the two builds, ``sim`` the
simulated people and faults, ``run`` the whole procedure."""
