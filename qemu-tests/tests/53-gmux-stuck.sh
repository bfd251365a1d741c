# SPDX-License-Identifier: GPL-2.0
#
# A stuck gmux cannot hang the machine: with the handshake stuck busy (or a
# completion lost) the operation fails with ETIMEDOUT within 25 ms, and
# the next operation after the gmux recovers works. A slow gmux still
# works. The classic gmux has no handshake, so it is not tested here.
# Carried over the simulator window; timing measured in the guest with
# CLOCK_MONOTONIC around one read()/write() of the sysfs file.

gmux_simulated || exit 0
[ "$EXPECT_GMUX_KIND" = classic ] && exit 0
gmux_load
max=$(cat "$BL/max_brightness")
echo $((max / 2)) > "$BL/brightness"
level=$(cat "$BL/actual_brightness")

for fault in stuck lost; do
	gmux-simctl fault "$fault" > /dev/null
	if [ "$fault" = stuck ]; then
		r=$(timed-io read "$BL/actual_brightness")
	else
		level=$((level + 3))
		r=$(timed-io write "$BL/brightness" "$level")
	fi
	gmux-simctl fault none > /dev/null
	next=$(timed-io read "$BL/actual_brightness")
	set -- $r
	got=$(echo "$next" | awk '$1 == "ok" { print $3 }')
	if [ "$1 $2" != "error ETIMEDOUT" ] || [ "$3" -ge 25000 ]; then
		fail apple_gmux_ng "$fault-handshake-times-out" "got '$r' (want ETIMEDOUT within 25000 us)"
	elif [ "$got" != "$level" ]; then
		fail apple_gmux_ng "$fault-handshake-times-out" "next read '$next', want level $level"
	else
		pass apple_gmux_ng "$fault-handshake-times-out" "failed after $3 us; next read $got"
	fi
done
timeouts=$(gmux_state timeouts)
[ "$timeouts" -ge 2 ] && pass apple_gmux_ng timeouts-counted "$timeouts" ||
	fail apple_gmux_ng timeouts-counted "debugfs timeouts $timeouts"

gmux-simctl slow-us 3000 > /dev/null
gmux-simctl fault slow > /dev/null
r=$(timed-io read "$BL/actual_brightness")
gmux-simctl fault none > /dev/null
set -- $r
if [ "$1" = ok ] && [ "$3" = "$level" ]; then
	pass apple_gmux_ng slow-gmux-works "read took $2 us"
else
	fail apple_gmux_ng slow-gmux-works "got '$r'"
fi
rmmod apple_gmux_ng
