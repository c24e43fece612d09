"""The shell: command line, the pygame app (ui/), the table log, the kiosk session: the
composition root, and the only place that picks adapters."""
