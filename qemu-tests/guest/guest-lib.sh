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
