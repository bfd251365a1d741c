# SPDX-License-Identifier: GPL-2.0
#
# Debug kernel only (make check-debug; skipped, and said so, elsewhere):
# every module of the bundle is loaded and unloaded STRESS_CYCLES times
# (default 100) in a row, each load doing what it does on this profile
# (binding the simulated gmux, showing the firmware's properties, ...).
# Every cycle must load and unload; then kmemleak must find nothing new.
# KASAN, lockdep and debug objects report on the console, which fails the
# boot. Apple profiles only (elsewhere the modules refuse to load, which
# 30-modules-load.sh checks). On a profile with emulated Thunderbolt
# controllers tb_macpm is loaded with the TEST ONLY test_nhi_id= of the
# stand-in NHI (QEMU's edu, bound by the stand-in macsupport_test_nhi
# instead of thunderbolt.ko, loaded once before the cycles), so that every
# load takes each controller (power switch, device links, root switch) and
# every unload gives it back; a load that does not take them all fails.

# every unload waits out the debug kernel's delayed sysfs removal (rmmod_settled)
rmmod() { rmmod_settled "$@"; }

[ "${EXPECT_APPLE:-0}" = 1 ] || skip_test harness "$PROFILE is not an Apple machine"
if ! debug_kernel; then
	for m in $BUNDLE_MODULES; do
		debug_only "$m" load-unload-cycles
	done
	return 0
fi

cycles=${STRESS_CYCLES:-100}

for m in $BUNDLE_MODULES; do
	if [ "$m" = apple_props ] && [ -e /tmp/apple-props-left-loaded ]; then
		skip "$m" load-unload-cycles "91-debug-failslab-init.sh left it loaded (see its line): unloading would hit the driver core's refcount bug"
		continue
	fi
	args= nhis= bound=0
	if [ "$m" = tb_macpm ] && [ -n "${EXPECT_TB_NHI:-}" ]; then
		tb_load && rmmod tb_macpm
		args="test_nhi_id=$TB_TEST_ID"
		nhis=$EXPECT_TB_NHI
	fi
	kmemleak_scan "/tmp/cycles-$m-before" > /dev/null
	dmesg_mark "cycles-$m"
	i=0 err=
	t0=$(uptime_cs)
	while [ "$i" -lt "$cycles" ]; do
		i=$((i + 1))
		if [ "$m" = apple_gmux_ng ]; then
			gmux_load 2> /tmp/err
		else
			modprobe "$m" $args 2> /tmp/err
		fi || { err="load $i: $(cat /tmp/err)"; break; }
		for nhi in $nhis; do
			[ -d "$TB_CLASS/$nhi" ] || err="load $i: controller $nhi not taken"
		done
		[ -z "$err" ] || break
		rmmod "$m" 2> /tmp/err || { err="unload $i: $(cat /tmp/err)"; break; }
		bound=$((bound + $(echo $nhis | wc -w)))
	done
	t=$(( $(uptime_cs) - t0 ))
	[ -z "$err" ] && [ -e "/sys/module/$m" ] && err="$m still loaded after $i cycles"
	sleep 6
	kmemleak_scan "/tmp/cycles-$m-after" > /dev/null
	new=$(kmemleak_new "/tmp/cycles-$m-before" "/tmp/cycles-$m-after")
	note="$i load/unload cycles in $((t / 100)).$((t % 100 / 10)) s"
	[ -n "$nhis" ] && note="$note, $bound controller bind/unbind(s) of the stand-in NHI(s) $nhis"
	if [ -n "$err" ]; then
		fail "$m" load-unload-cycles "$err ($note)"
		rmmod "$m" 2>/dev/null
	elif [ "$new" != 0 ]; then
		fail "$m" load-unload-cycles "kmemleak after $note: $new new unreferenced object(s): $(kmemleak_summary /tmp/kmemleak-new)"
	else
		pass "$m" load-unload-cycles "$note; kmemleak: nothing new unreferenced"
	fi
done
