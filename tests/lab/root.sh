#!/bin/sh
# root.sh FILE CMD...: write this task's tid to FILE, then become CMD (the oracle's tree root).
f=$1
shift
echo $$ >"$f"
exec "$@"
