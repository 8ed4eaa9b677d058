#!/bin/sh
# A browser stand-in for the suite's authorization server, which approves
# at once: fetch the page and follow its redirect to the loopback callback.
exec node -e 'fetch(process.argv[1]).then(r => r.text()).then(() => {}, e => { console.error(String(e)); process.exit(1) })' "$1"
