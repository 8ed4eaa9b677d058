#!/bin/sh
# Lists the bundled components without unpacking them.
echo "web-builder ready"
tar -tzf "$(dirname "$0")/components.tar.gz"
