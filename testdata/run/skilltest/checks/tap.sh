#!/bin/sh
# A TAP stream with a pass, a failure, a skip and a TODO: the test fails.
echo "TAP version 13"
echo "1..4"
echo "ok 1 - catalog loads"
echo "not ok 2 - equipment has a price"
echo "  ---"
echo "  message: price is undefined"
echo "  ..."
echo "ok 3 - network check # SKIP offline"
echo "not ok 4 - localisation # TODO not written yet"
echo "diagnostics on stderr" >&2
