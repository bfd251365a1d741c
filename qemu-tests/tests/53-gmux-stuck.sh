# SPDX-License-Identifier: GPL-2.0
#
# A stuck gmux cannot hang the machine: with the handshake stuck busy (or a
# completion lost) the operation fails with ETIMEDOUT after exactly one
# handshake timeout (debugfs "timeouts" goes up by one: one deadline per
# operation, never one per wait), and the next operation after the gmux
# recovers works. A slow gmux still works. The classic gmux has no
# handshake, so it is not tested here. Carried over the simulator window;
# time measured in the guest with CLOCK_MONOTONIC around one read()/write()
# of the sysfs file, and reported. The wall-time bound is loose (200 ms
# against the 15 ms timeout): a TCG vCPU that the loaded host preempts
# adds to it, and the exact deadline is the host unit tests' (fake clock).

gmux_simulated || skip_test apple_gmux_ng "no simulated gmux on $PROFILE"
[ "$EXPECT_GMUX_KIND" = classic ] && skip_test apple_gmux_ng "the classic gmux has no handshake that could stick"
gmux_load
max=$(cat "$BL/max_brightness")
echo $((max / 2)) > "$BL/brightness"
level=$(cat "$BL/actual_brightness")

for fault in stuck lost; do
	gmux-simctl fault "$fault" > /dev/null
	t_before=$(gmux_state timeouts)
	if [ "$fault" = stuck ]; then
		r=$(timed-io read "$BL/actual_brightness")
	else
		level=$((level + 3))
		r=$(timed-io write "$BL/brightness" "$level")
	fi
	t_after=$(gmux_state timeouts)
	gmux-simctl fault none > /dev/null
	next=$(timed-io read "$BL/actual_brightness")
	set -- $r
	got=$(echo "$next" | awk '$1 == "ok" { print $3 }')
	if [ "$1 $2" != "error ETIMEDOUT" ] || [ "$3" -ge 200000 ]; then
		fail apple_gmux_ng "$fault-handshake-times-out" "got '$r' (want ETIMEDOUT within 200000 us)"
	elif [ "$((t_after - t_before))" != 1 ]; then
		fail apple_gmux_ng "$fault-handshake-times-out" "timeouts $t_before -> $t_after for one operation (want one)"
	elif [ "$got" != "$level" ]; then
		fail apple_gmux_ng "$fault-handshake-times-out" "next read '$next', want level $level"
	else
		pass apple_gmux_ng "$fault-handshake-times-out" "failed after $3 us, one timeout; next read $got"
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
