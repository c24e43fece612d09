#!/bin/sh
# Install (or with --uninstall remove) the rig as a kiosk service: see deploy/install.py.
exec python3 "$(dirname "$0")/install.py" "$@"
