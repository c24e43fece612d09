"""The table display: screens, console (touch, mouse, keys), sounds, fonts and the main loop.

Only this package (with the ``cmd_*`` shells) imports pygame. Screens draw the controller's
state and never change it; the loop executes the controller's effects."""
