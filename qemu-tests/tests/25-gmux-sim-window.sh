# SPDX-License-Identifier: GPL-2.0
#
# TEST ONLY: the gmux simulator's window reaches the guest. With a simulator
# (SIMULATOR in the profile), the gmux's last PNP resource is the 4 KiB window
# at BAR2 + 0x10000 of the ivshmem-plain device, computed by the profile's
# _CRS method; gmux-simctl maps it through sysfs, finds the simulator of the
# profile's kind and makes it show a fault and take it back. Without one
# there is no ivshmem device. Runs before any driver binds the gmux.

ivshmem=
for d in /sys/bus/pci/devices/*; do
	[ "$(cat "$d/vendor")" = 0x1af4 ] && [ "$(cat "$d/device")" = 0x1110 ] && ivshmem=$d
done

if [ -z "$SIMULATOR" ]; then
	if [ -n "$ivshmem" ]; then
		fail gmux-sim no-simulator "an ivshmem device (${ivshmem##*/}) without a simulator"
	else
		pass gmux-sim no-simulator "profile without a simulator, no ivshmem device"
	fi
	exit 0
fi

if [ -z "$ivshmem" ]; then
	fail gmux-sim window-resource "no ivshmem-plain device (1af4:1110)"
	exit 0
fi
pnp=
for d in /sys/bus/pnp/devices/*; do
	[ "$(cat "$d/id" 2>/dev/null)" = APP000b ] && pnp=$d
done
# resource line 3 is BAR2: start end flags
set -- $(sed -n 3p "$ivshmem/resource")
bar=$1
want_lo=$(printf '0x%x' $(( bar + 0x10000 )))
want_hi=$(printf '0x%x' $(( bar + 0x10fff )))
win=$(grep '^mem' "$pnp/resources" 2>/dev/null | tail -n 1)
if [ "$win" = "mem $want_lo-$want_hi" ]; then
	pass gmux-sim window-resource "$win = BAR2 of ${ivshmem##*/} + 0x10000"
else
	fail gmux-sim window-resource "gmux resource '$win', want 'mem $want_lo-$want_hi' (BAR2 $bar)"
fi

if ! gmux-simctl stats > /tmp/simstats 2>&1; then
	fail gmux-sim simctl-stats "$(tr '\n' ' ' < /tmp/simstats)"
	exit 0
fi
kind=$(sed -n 's/^kind=//p' /tmp/simstats)
if [ "$kind" = "$EXPECT_GMUX_KIND" ] && [ "gmux $kind" = "$SIMULATOR" ]; then
	pass gmux-sim simctl-stats "$(tr '\n' ' ' < /tmp/simstats)"
else
	fail gmux-sim simctl-stats "simulator kind '$kind', profile $SIMULATOR, want $EXPECT_GMUX_KIND"
fi

# A fault shows in the register the protocol polls, and goes away again.
case "$kind" in
classic) fault=garbage reg=0x04 faulty=0xff ;;
indexed) fault=stuck reg=0xd4 faulty=0x01 ;;
t2) fault=stuck reg=0x0f faulty=0x01 ;;
esac
before=$(gmux-simctl peek $reg)
gmux-simctl fault $fault && during=$(gmux-simctl peek $reg) && f=$(gmux-simctl get fault)
gmux-simctl fault none && after=$(gmux-simctl peek $reg)
if [ "$during" = "$faulty" ] && [ "$f" = "$fault" ] && [ "$after" = "$before" ] &&
   [ "$(gmux-simctl get fault)" = none ]; then
	pass gmux-sim control-roundtrip "fault $fault: $reg $before -> $during -> $after"
else
	fail gmux-sim control-roundtrip "fault $fault: $reg $before -> '$during' ($f) -> '$after'"
fi

# The round trip a driver sees, measured while none is bound.
if gmux-simctl bench 200 > /tmp/bench 2>&1; then
	pass gmux-sim journal-roundtrip "$(grep -v errors /tmp/bench | sed 's/ mean=.*//' | tr '\n' ' ')"
else
	fail gmux-sim journal-roundtrip "$(tr '\n' ' ' < /tmp/bench)"
fi
gmux-simctl reset-stats || fail gmux-sim reset-stats "reset-stats failed"
