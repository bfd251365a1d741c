# SPDX-License-Identifier: GPL-2.0
#
# Debug kernel only (make check-debug; skipped, and said so, elsewhere):
# module init under failslab. For each module, the slab allocations of one
# modprobe are measured (failslab's byte budget "space", with task-filter
# and make-it-fail set for the modprobe only), then modprobe runs
# STRESS_FAILSLAB times (default 150) with one allocation failed at points
# spread evenly over the last quarter of that budget, where load_module()
# ends and the module's init runs. Each load must fail cleanly (no module, no files, nothing
# left attached) or succeed and unload. Then a normal load must work as on
# a fresh boot, unloading must leave nothing behind, and kmemleak must find
# nothing new. KASAN, lockdep and debug objects report on the console,
# which fails the boot. (busybox modprobe retries a failed finit_module()
# with init_module(), which runs without a failure: a failed init shows as
# a load whose first attempt left something behind, not as a failed load.)

if ! debug_kernel; then
	[ "${EXPECT_APPLE:-0}" = 1 ] && debug_only apple_props failslab-init failslab-init-leaks
	gmux_simulated && debug_only apple_gmux_ng failslab-init failslab-init-leaks
	return 0
fi

FS=$FAILSLAB
iterations=${STRESS_FAILSLAB:-150}

echo N > "$FS/ignore-gfp-wait"
echo N > "$FS/cache-filter" 2>/dev/null
echo Y > "$FS/task-filter"
echo 0 > "$FS/verbose"
echo 100 > "$FS/probability"
echo 1 > "$FS/interval"
echo 0 > "$FS/times"

# every unload waits out the debug kernel's delayed sysfs removal (rmmod_settled)
rmmod() { rmmod_settled "$@"; }

# failing_modprobe SPACE MODULE [ARGS...]: modprobe with at most one slab
# allocation failed, once SPACE bytes have been allocated; prints what is
# left of SPACE and whether the failure was injected ("left fired|unfired")
failing_modprobe()
{
	_fm_space=$1
	shift
	echo "$_fm_space" > "$FS/space"
	echo 1 > "$FS/times"
	sh -c 'echo 1 > /proc/self/make-it-fail && exec modprobe "$@"' modprobe "$@" \
		> /dev/null 2> /tmp/failslab-err
	_fm_rc=$?
	_fm_times=$(cat "$FS/times")
	echo 0 > "$FS/times"
	_fm_fired=unfired
	[ "$_fm_times" = 0 ] && _fm_fired=fired
	echo "$(cat "$FS/space") $_fm_fired"
	return $_fm_rc
}

# props_gone, gmux_gone: nothing of the module is left
props_gone()
{
	[ ! -e /sys/module/apple_props ] && [ ! -e /sys/firmware/apple_properties ] &&
		! ls -d /sys/bus/pci/devices/*/apple_properties/macsupport,* > /dev/null 2>&1 &&
		{ [ -z "${EXPECT_NVRAM_DEV:-}" ] ||
		  [ ! -e "/sys/bus/pci/devices/$EXPECT_NVRAM_DEV/software_node" ]; }
}
gmux_gone()
{
	[ ! -e /sys/module/apple_gmux_ng ] && [ ! -e "$BL" ] &&
		[ ! -e /sys/kernel/debug/apple_gmux_ng ]
}

# A load under failslab may leave out what the failed allocation was for,
# but not be in a half state: apple_props has its files; apple_gmux_ng has
# bound the gmux with a backlight, or has not bound it and left nothing.
props_sane()
{
	cat /sys/firmware/apple_properties/all > /dev/null
}
gmux_sane()
{
	[ -e "$BL/brightness" ] ||
		{ [ ! -e "$(gmux_pnp)/driver" ] && [ ! -e "$BL" ] && [ ! -e "$(gmux_debugfs)" ]; }
}

# swnode_link_lost: a device shows properties this module attached (its
# apple_properties directory) but has no software_node link; sets _lost
swnode_link_lost()
{
	for _d in /sys/bus/pci/devices/*; do
		ls "$_d"/apple_properties/macsupport,* > /dev/null 2>&1 || continue
		[ -e "$_d/software_node" ] && continue
		_lost=${_d##*/}
		return 0
	done
	return 1
}

# what a normal load gives: properties from NVRAM when the profile has
# them; a backlight when the gmux is simulated
props_works()
{
	[ -e /sys/firmware/apple_properties/all ] &&
		{ [ -z "${EXPECT_NVRAM_DEV:-}" ] ||
		  [ -e "/sys/bus/pci/devices/$EXPECT_NVRAM_DEV/apple_properties/macsupport,nvram" ]; }
}
gmux_works()
{
	[ -e "$BL/brightness" ]
}

# sweep MODULE PREFIX [ARGS...]: the whole test for one module
sweep()
{
	_m=$1 _p=$2
	shift 2
	# The modules it depends on stay loaded: only its own load is measured.
	modprobe "$_m" "$@" && rmmod "$_m"
	# What is already unreferenced before the measured loads is not the
	# module's (the comparison below leaves it out), but it is said on the
	# console so that a leak of the kernel or an earlier test can be found
	# (without kmemleak's own words, which would fail the boot).
	_base=$(kmemleak_scan "/tmp/failslab-$_m-before")
	[ "$_base" -eq 0 ] ||
		echo "[guest] $_m: $_base object(s) already unreferenced before the loads, left out: $(kmemleak_summary "/tmp/failslab-$_m-before" | sed 's/^unreferenced //')"
	[ "$(cat /tmp/kmemleak-kernel-own)" -eq 0 ] ||
		echo "[guest] $_m: $(cat /tmp/kmemleak-kernel-own) object(s) of the kernel's own known leaks (KMEMLEAK_KERNEL_OWN) before the loads"
	dmesg_mark "failslab-$_m"
	_big=100000000
	if ! _r=$(failing_modprobe $_big "$_m" "$@"); then
		fail "$_m" failslab-init "a load under failslab with nothing failed did not work: $(cat /tmp/failslab-err)"
		fail "$_m" failslab-init-leaks "not tried"
		return
	fi
	rmmod "$_m"
	_total=$((_big - ${_r%% *}))
	_ok=0 _failed=0 _unfired=0 _bad='' _kbug=''
	_k=0
	while [ "$_k" -lt "$iterations" ]; do
		_k=$((_k + 1))
		_space=$((_total - _total * _k / (4 * iterations)))
		if _r=$(failing_modprobe "$_space" "$_m" "$@"); then
			_ok=$((_ok + 1))
			if ! "${_p}_sane"; then
				_bad="${_bad:-load with space $_space ($_r) succeeded but is in a half state; }"
			fi
			if [ "$_m" = apple_props ] && swnode_link_lost; then
				_kbug="load with space $_space: the one failure hit the driver core's software_node_notify() for $_lost: its sysfs link failed, so it took no reference on the node, but software_node_notify_remove() will drop one: unloading would free the node early (a KASAN use-after-free in fwnode_remove_software_node() on this kernel, not the module's doing); module left loaded, sweep stopped"
				touch /tmp/apple-props-left-loaded
				break
			fi
			rmmod "$_m" 2>/dev/null || _bad="${_bad:-rmmod after load with space $_space failed; }"
		else
			_failed=$((_failed + 1))
		fi
		[ "${_r#* }" = unfired ] && _unfired=$((_unfired + 1))
		if ! "${_p}_gone"; then
			_bad="${_bad:-load with space $_space ($_r, $(head -c 100 /tmp/failslab-err)) left something behind: $(ls -d /sys/module/"$_m" /sys/firmware/apple_properties /sys/bus/pci/devices/*/software_node "$BL" 2>/dev/null | tr '\n' ' '); }"
			rmmod "$_m" 2>/dev/null
		fi
	done
	_note="$_k loads, one slab allocation failed after $((_total - _total / 4))..$_total of $_total bytes: $_failed failed, $_ok loaded ($_unfired without a failure)"
	if [ -n "$_kbug" ]; then
		_after="${_kbug}"
	elif modprobe "$_m" "$@" 2> /tmp/failslab-err && "${_p}_works" && rmmod "$_m" && "${_p}_gone"; then
		_after="a normal load afterwards works"
	else
		_bad="${_bad}a normal load afterwards: $(cat /tmp/failslab-err) works=$("${_p}_works" && echo y || echo n) gone=$("${_p}_gone" && echo y || echo n)"
		rmmod "$_m" 2>/dev/null
	fi
	if [ -z "$_bad" ]; then
		pass "$_m" failslab-init "$_note; $_after"
	else
		fail "$_m" failslab-init "$_bad ($_note)"
	fi

	sleep 6
	kmemleak_scan "/tmp/failslab-$_m-after" > /dev/null
	_new=$(kmemleak_new "/tmp/failslab-$_m-before" "/tmp/failslab-$_m-after")
	if [ "$_new" = 0 ]; then
		pass "$_m" failslab-init-leaks "kmemleak: nothing new unreferenced"
	else
		fail "$_m" failslab-init-leaks "kmemleak: $_new new unreferenced object(s): $(kmemleak_summary /tmp/kmemleak-new)"
	fi
}

# apple_props loads on Apple machines only
[ "${EXPECT_APPLE:-0}" = 1 ] && sweep apple_props props
if gmux_simulated; then
	sweep apple_gmux_ng gmux test_sim_protocol="$EXPECT_GMUX_KIND"
fi
echo 0 > "$FS/times"
echo N > "$FS/task-filter"
