# SPDX-License-Identifier: GPL-2.0
#
# Load/unload cycles of apple_gmux_ng, each one binding the gmux: no leak
# in /proc/iomem, /proc/ioports or debugfs afterwards. STRESS_CYCLES of
# them (macsupport.stress_cycles=): 10 by default, which a leak of any one
# cycle cannot pass; 100 in make check-kernels, for races that only
# repetition finds; 20 on the debug kernel (make check-debug), where one
# cycle takes about 10 s (KASAN, the delayed kobject releases) and
# kmemleak judges every cycle's objects anyway.

[ "$EXPECT_APPLE" = 1 ] || skip_test apple_gmux_ng "$PROFILE is not an Apple machine"
pnp=$(gmux_pnp) || skip_test apple_gmux_ng "no gmux device on $PROFILE"
snapshot()
{
	cat /proc/iomem /proc/ioports
	ls /sys/kernel/debug /sys/kernel/debug/regmap 2>/dev/null
}
gmux_wire_on
snapshot > /tmp/before
n=10
debug_kernel && n=20
n=${STRESS_CYCLES:-$n}
bound=0
i=0
why=
while [ $i -lt "$n" ]; do
	dmesg_mark "reload-$i"
	gmux_load
	if [ "$(basename "$(readlink "$pnp/driver" 2>/dev/null)")" = apple_gmux_ng ]; then
		bound=$((bound + 1))
	elif gmux_simulated; then
		why="cycle $i: $(dmesg_since "reload-$i" | grep apple_gmux_ng | tail -n 1)"
	fi
	rmmod apple_gmux_ng || break
	i=$((i + 1))
done
snapshot > /tmp/after
if gmux_simulated; then want=$n; else want=0; fi
if [ "$i" = "$n" ] && [ "$bound" = "$want" ] && cmp -s /tmp/before /tmp/after; then
	pass apple_gmux_ng reload-no-leak "$i cycles, bound $bound times, iomem/ioports/debugfs unchanged"
else
	fail apple_gmux_ng reload-no-leak "$i cycles, bound $bound (want $want) $why; $(diff /tmp/before /tmp/after | head -n 4 | tr '\n' ' ')"
fi
