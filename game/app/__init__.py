"""The shell: command line, composition root, and (later) the pygame app."""
