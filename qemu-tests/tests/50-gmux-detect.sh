# SPDX-License-Identifier: GPL-2.0
#
# apple_gmux_ng finds out which kind of gmux answers and rejects what is
# not a working gmux.
#
# What is real here: the driver's detection, version check and protocol
# code, the ACPI device and its resources, the PNP binding. What is carried:
# on the simulated Macs the classic/indexed port protocol and the T2 MMIO
# protocol run over the simulator's memory window (stock QEMU cannot back
# port I/O with a host process). The real port window at 0x700 and the real
# T2 window at 0xfe0b0200 are empty in QEMU, so loading without the
# test-only parameter exercises the real windows' "nothing answers" path.

[ "$EXPECT_APPLE" = 1 ] || skip_test apple_gmux_ng "$PROFILE is not an Apple machine"
gmux_wire_on
if gmux_absent; then
	# No APP000B (EXPECT_GMUX_KIND=none): loaded by hand, the driver binds
	# nothing, creates no debugfs directory, claims no window and logs
	# nothing at all (it prints only from probe, which never runs).
	dmesg_mark no-gmux
	modprobe apple_gmux_ng
	bound=$(ls /sys/bus/pnp/drivers/apple_gmux_ng 2>/dev/null | grep ':' | tr '\n' ' ')
	dbg=$(ls /sys/kernel/debug/apple_gmux_ng 2>/dev/null | tr '\n' ' ')
	own=$(gmux_own_log no-gmux)
	if [ ! -e /sys/module/apple_gmux_ng ]; then
		fail apple_gmux_ng manual-load-no-gmux "$PROFILE: modprobe apple_gmux_ng failed on a Mac without a gmux"
	elif [ -n "$bound$dbg" ] || grep -q apple_gmux_ng /proc/ioports /proc/iomem; then
		fail apple_gmux_ng manual-load-no-gmux "$PROFILE: bound '$bound', debugfs '$dbg', or a window claimed"
	elif [ -n "$own" ]; then
		fail apple_gmux_ng manual-load-no-gmux "$PROFILE: logged: $(echo "$own" | head -n 2 | tr '\n' ' ')"
	else
		pass apple_gmux_ng manual-load-no-gmux "$PROFILE: modprobe by hand: no device bound, no debugfs entry, no window claimed, no log line"
	fi
	rmmod apple_gmux_ng
	exit 0
fi
pnp=$(gmux_pnp) || { fail apple_gmux_ng detect "no gmux PNP device"; exit 0; }
bound() { [ "$(basename "$(readlink "$pnp/driver" 2>/dev/null)")" = apple_gmux_ng ]; }

# The real window, as the firmware declares it: empty under QEMU.
dmesg_mark real-window
modprobe apple_gmux_ng
if [ "$EXPECT_GMUX_KIND" = fake ]; then
	# The model table knows this Mac has no gmux: refused before the
	# window is claimed or probed.
	if bound; then
		fail apple_gmux_ng fake-refused-unprobed "bound on a Mac without a gmux"
	elif dmesg_since real-window | grep -q "no gmux answers at\|not a working gmux"; then
		fail apple_gmux_ng fake-refused-unprobed "the window was probed: $(dmesg_since real-window | grep -o 'no gmux answers at.*\|reports version.*' | head -n 1)"
	elif dmesg_since real-window | grep -q "has no gmux although its firmware declares"; then
		pass apple_gmux_ng fake-refused-unprobed "$(dmesg_since real-window | grep -o "$EXPECT_PRODUCT has no gmux.*" | head -n 1)"
	else
		fail apple_gmux_ng fake-refused-unprobed "no message"
	fi
	rmmod apple_gmux_ng
	exit 0
fi
if bound; then
	fail apple_gmux_ng real-window-empty-rejected "bound to an empty window"
elif dmesg_since real-window | grep -qE "no gmux answers at|not a working gmux"; then
	pass apple_gmux_ng real-window-empty-rejected \
		"$(dmesg_since real-window | grep -oE '(no gmux answers at|reports version).*' | head -n 1)"
else
	fail apple_gmux_ng real-window-empty-rejected "no clear message"
fi
rmmod apple_gmux_ng

if ! gmux_simulated; then
	# MacBookPro8,1: firmware declares a gmux, the Mac has none.
	exit 0
fi

dmesg_mark detect
gmux_load
if bound && [ "$(gmux_state kind)" = "$EXPECT_GMUX_KIND" ]; then
	pass apple_gmux_ng "detect-$EXPECT_GMUX_KIND" \
		"version $(gmux_state version); $(gmux_transport_note)"
else
	fail apple_gmux_ng "detect-$EXPECT_GMUX_KIND" "kind '$(gmux_state kind 2>/dev/null)': $(dmesg_since detect |
		grep apple_gmux_ng | tail -n 2 | tr '\n' ' ')"
fi
# The window the driver claims is the one it drives: on
# T2 16 bytes (data, port 0x0e, command 0x0f) although ACPI declares 8.
# Claimed as on hardware also when the simulator carries the protocol.
if [ "$EXPECT_GMUX_KIND" = t2 ]; then
	claim=$(grep apple_gmux_ng /proc/iomem | head -n 1 | tr -d ' ')
	want="fe0b0200-fe0b020f:apple_gmux_ng"
else
	claim=$(grep apple_gmux_ng /proc/ioports | head -n 1 | tr -d ' ')
	want="0700-07fe:apple_gmux_ng"
fi
if [ "$claim" = "$want" ]; then
	pass apple_gmux_ng "window-claimed-$EXPECT_GMUX_KIND" "$claim"
else
	fail apple_gmux_ng "window-claimed-$EXPECT_GMUX_KIND" "claimed '$claim', want '$want'"
fi
rmmod apple_gmux_ng

# The parameter names another protocol: what answers is not that kind.
for other in classic indexed t2; do
	[ "$other" = "$EXPECT_GMUX_KIND" ] && continue
	modprobe apple_gmux_ng test_sim_protocol="$other"
	if bound; then
		fail apple_gmux_ng "wrong-protocol-$other-rejected" "bound speaking $other"
	else
		pass apple_gmux_ng "wrong-protocol-$other-rejected"
	fi
	rmmod apple_gmux_ng
done

# Garbage version (every version byte 0xff): the probe fails cleanly and
# the next load works. A classic gmux whose version ports read 0xff looks
# like no gmux at all, which is what the driver then says.
gmux-simctl fault garbage > /dev/null
dmesg_mark garbage
gmux_load
if bound; then
	fail apple_gmux_ng garbage-version-rejected "bound to a gmux reporting garbage"
elif dmesg_since garbage | grep -qE "not a working gmux|no gmux answers"; then
	pass apple_gmux_ng garbage-version-rejected \
		"$(dmesg_since garbage | grep -oE '(reports version|no gmux answers).*' | head -n 1)"
else
	fail apple_gmux_ng garbage-version-rejected "no clear message"
fi
rmmod apple_gmux_ng
gmux-simctl fault none > /dev/null
gmux_load
if bound; then
	pass apple_gmux_ng garbage-version-then-recovers
else
	fail apple_gmux_ng garbage-version-then-recovers "did not bind after the fault cleared"
fi
rmmod apple_gmux_ng
