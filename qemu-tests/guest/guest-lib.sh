# SPDX-License-Identifier: GPL-2.0
#
# Helpers for guest tests (busybox sh). A test calls pass/fail/check with
# the module it is about and a short test name; each call becomes one line
# on the result port, which the host turns into one numbered test line.

# pass MODULE NAME [NOTE]
pass()
{
	echo "ok $1 $2${3:+ # $3}" > "$RESULTS"
	echo "[guest] ok $1 $2${3:+ # $3}"
}

# fail MODULE NAME REASON
fail()
{
	echo "not ok $1 $2 # $3" > "$RESULTS"
	echo "[guest] not ok $1 $2 # $3"
}

# check MODULE NAME COMMAND...: pass if COMMAND succeeds
check()
{
	_m=$1 _n=$2
	shift 2
	if "$@" > /tmp/check.out 2>&1; then
		pass "$_m" "$_n"
	else
		fail "$_m" "$_n" "failed: $* ($(head -c 200 /tmp/check.out | tr '\n' ' '))"
	fi
}

guest_report_begin()
{
	echo "MACSUPPORT-BEGIN profile=$PROFILE" > "$RESULTS"
}

guest_report_end()
{
	echo "MACSUPPORT-END" > "$RESULTS"
}

# dmesg_since MARK: kernel messages printed after the line holding MARK
dmesg_mark()
{
	echo "macsupport-mark $1" > /dev/kmsg
}

dmesg_since()
{
	dmesg | sed -n "/macsupport-mark $1\$/,\$p"
}

# The bundle's modules.
BUNDLE_MODULES="apple_gmux_ng apple_props tb_macpm mac_quirks"

# --- gmux helpers ----------------------------------------------------------

# gmux_simulated: the profile runs the host-side gmux simulator
gmux_simulated()
{
	case "${EXPECT_GMUX_KIND:-}" in
	classic|indexed|t2) return 0 ;;
	esac
	return 1
}

# gmux_load [PARAM=VALUE...]: load apple_gmux_ng; on a simulated gmux, tell
# it (test-only parameter) to speak the profile's protocol over the window.
gmux_load()
{
	if gmux_simulated; then
		modprobe apple_gmux_ng test_sim_protocol="$EXPECT_GMUX_KIND" "$@"
	else
		modprobe apple_gmux_ng "$@"
	fi
}

# gmux_pnp: sysfs directory of the gmux PNP device
gmux_pnp()
{
	for d in /sys/bus/pnp/devices/*; do
		[ "$(cat "$d/id" 2>/dev/null)" = APP000b ] && { echo "$d"; return 0; }
	done
	return 1
}

# gmux_debugfs: the driver's debugfs directory for the gmux
gmux_debugfs()
{
	echo "/sys/kernel/debug/apple_gmux_ng/$(basename "$(gmux_pnp)")"
}

# gmux_state KEY: one value from debugfs state
gmux_state()
{
	sed -n "s/^$1: //p" "$(gmux_debugfs)/state"
}

# gmux_transport_note: say which path a gmux test exercised
gmux_transport_note()
{
	case "${EXPECT_GMUX_KIND:-}" in
	t2) echo "T2 protocol carried over the simulator's memory window (real hardware: MMIO at 0xfe0b0200)" ;;
	*) echo "$EXPECT_GMUX_KIND protocol carried over the simulator's memory window (real hardware: port I/O at 0x700)" ;;
	esac
}

BL=/sys/class/backlight/gmux_backlight
