#!/bin/bash
# Usage: with_xvfb.sh WIDTHxHEIGHTxDEPTH COMMAND [ARGS...]
# Runs COMMAND with DISPLAY set to a private Xvfb and exits with COMMAND's status. The server
# picks its own free display number (-displayfd), so two runs never share one, and it is waited
# for after COMMAND: the next run never meets a server that is still shutting down (xvfb-run -a
# can pick a number whose old server is exiting, and the test then loses its X server mid-run).
# -noreset: by default an X server resets when its last client disconnects, and refuses
# connections meanwhile; a test that ends its GLFW session and starts the next one at once then
# fails to open the display (seen on a loaded 2-core machine).
set -u
screen=$1
shift
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
Xvfb -displayfd 3 -screen 0 "$screen" -nolisten tcp -noreset 3>"$dir/display" 2>"$dir/xvfb.log" &
server=$!
for _ in $(seq 200); do
    [ -s "$dir/display" ] && break
    kill -0 "$server" 2>/dev/null || break
    sleep 0.05
done
number=$(tr -dc 0-9 <"$dir/display")
if [ -z "$number" ]; then
    echo "with_xvfb.sh: Xvfb did not start: $(tail -n 1 "$dir/xvfb.log")" >&2
    kill "$server" 2>/dev/null
    wait "$server" 2>/dev/null
    exit 1
fi
DISPLAY=":$number" "$@"
status=$?
kill "$server" 2>/dev/null
wait "$server" 2>/dev/null
exit "$status"
