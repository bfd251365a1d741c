# SPDX-License-Identifier: GPL-2.0
#
# No kernel-log line a user would take for a fault from the bundle: after
# every test of this boot has loaded and unloaded the modules, the whole
# boot log holds no "failed to load" (the firmware loader's line for a file
# that is not there; apple_props once asked for apple/properties.bin on
# every load, although nobody had configured it) and no "Direct firmware
# load". Nothing else in the guest requests firmware. A name holding
# "macsupport-test-missing" is a file that a test names on purpose to see
# the missing file reported (63-apple-props-load.sh); those lines are
# left out. Runs last (after 98-gmux-lockdown.sh, which keeps the log).

lines=$(dmesg | grep -i -E 'failed to load|direct firmware load' | grep -v 'macsupport-test-missing')
if [ -z "$lines" ]; then
	pass bundle log-no-load-failures "$(dmesg | wc -l) lines of this boot's kernel log"
else
	fail bundle log-no-load-failures "$(echo "$lines" | sed 's/^\[[ 0-9.]*\] //' | head -n 3 |
		tr '\n' '|')"
fi
