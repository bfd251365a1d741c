# SPDX-License-Identifier: GPL-2.0
#
# On an Apple profile every module of the bundle loads, says what it found,
# and unloads leaving nothing behind. On the control machine every module
# refuses to load with a clear message and leaves nothing behind.

# what each module must say when it loads on a Mac (a grep -E pattern)
found_line()
{
	case "$1" in
	apple_gmux_ng)
		path=$(echo "$EXPECT_GMUX_PATH" | sed 's/\\/\\\\/g')
		if gmux_simulated; then
			echo "apple_gmux_ng .*: $EXPECT_PRODUCT: gmux [0-9]+\\.[0-9]+\\.[0-9]+ \\[$EXPECT_GMUX_KIND\\] $path at \\[mem .*\\], GPE $EXPECT_GMUX_GPE, backlight registered"
		elif [ "$EXPECT_GMUX_KIND" = fake ]; then
			# the model table knows: refused before the window is probed
			echo "apple_gmux_ng .*: $EXPECT_PRODUCT has no gmux although its firmware declares $path; ignoring it"
		else
			echo "apple_gmux_ng .*: $EXPECT_PRODUCT: no gmux answers at $path"
		fi ;;
	apple_props)
		echo "apple_props: $EXPECT_PRODUCT: EFI boot, firmware properties on [0-9]+ of [0-9]+ PCI devices" ;;
	tb_macpm)
		echo "tb_macpm: $EXPECT_PRODUCT: [0-9]+ Thunderbolt controller\\(s\\) managed" ;;
	mac_quirks)
		if [ "${EXPECT_MODEL_UNKNOWN:-0}" = 1 ]; then
			echo "mac_quirks: $EXPECT_PRODUCT \\(board .*\\): unknown model, not in the model table"
		else
			echo "mac_quirks: $EXPECT_PRODUCT, .*: gmux [a-z0-9]+, Thunderbolt .* x[0-9]+"
		fi ;;
	esac
}

# A Mac without a gmux (EXPECT_GMUX_KIND=none): with no APP000B the driver
# registers its PNP driver, binds nothing and says nothing at all (the model
# table is consulted only at probe). Called with the module loaded.
gmux_load_without_device()
{
	own=$(gmux_own_log load-apple_gmux_ng)
	drv=$(ls /sys/bus/pnp/drivers/apple_gmux_ng 2>/dev/null | grep -c ':')
	if [ -n "$own" ]; then
		fail apple_gmux_ng load-unload-no-gmux "$PROFILE: the driver logged with no APP000B: $(echo "$own" | head -n 2 | tr '\n' ' ')"
		rmmod apple_gmux_ng
	elif [ "$drv" != 0 ] || grep -q apple_gmux_ng /proc/ioports /proc/iomem; then
		fail apple_gmux_ng load-unload-no-gmux "$PROFILE: $drv devices bound or a window claimed with no APP000B"
		rmmod apple_gmux_ng
	elif ! rmmod apple_gmux_ng 2>/tmp/err; then
		fail apple_gmux_ng load-unload-no-gmux "$PROFILE: rmmod failed: $(cat /tmp/err)"
	elif [ -e /sys/module/apple_gmux_ng ]; then
		fail apple_gmux_ng load-unload-no-gmux "$PROFILE: the module stayed after rmmod"
	else
		pass apple_gmux_ng load-unload-no-gmux "$PROFILE (no APP000B): modprobe loads it silently, binds nothing, claims nothing; rmmod leaves nothing"
	fi
}

for m in $BUNDLE_MODULES; do
	dmesg_mark "load-$m"
	if [ "$EXPECT_APPLE" = 1 ]; then
		if [ "$m" = apple_gmux_ng ]; then
			gmux_load 2>/tmp/err
		else
			modprobe "$m" 2>/tmp/err
		fi
		if [ $? -ne 0 ]; then
			fail "$m" load-unload "modprobe failed: $(cat /tmp/err)"
			continue
		fi
		if [ "$m" = apple_gmux_ng ] && gmux_absent; then
			gmux_load_without_device
			continue
		fi
		log=$(dmesg_since "load-$m" | grep -E "$(found_line "$m")")
		if [ -z "$log" ]; then
			fail "$m" load-unload "no found-line in the kernel log: $(dmesg_since "load-$m" |
				grep "$m" | head -n 2 | tr '\n' ' ')"
			rmmod "$m"
			continue
		fi
		if ! rmmod "$m" 2>/tmp/err; then
			fail "$m" load-unload "rmmod failed: $(cat /tmp/err)"
			continue
		fi
		if [ -e "/sys/module/$m" ] || grep -q "$m" /proc/ioports /proc/iomem; then
			fail "$m" load-unload "something of $m stayed after rmmod"
			continue
		fi
		pass "$m" load-unload "$(echo "$log" | sed 's/^\[[ 0-9.]*\] //' | head -n 1)"
	else
		if modprobe "$m" 2>/tmp/err; then
			fail "$m" inert-on-non-apple "loaded on a non-Apple machine"
			rmmod "$m"
			continue
		fi
		msg=$(dmesg_since "load-$m" | grep "$m: not an Apple Mac (DMI system vendor \"$EXPECT_SYS_VENDOR\"), staying inert")
		if [ -z "$msg" ]; then
			fail "$m" inert-on-non-apple "refused without the clear message"
		elif [ -e "/sys/module/$m" ] || grep -q "$m" /proc/ioports /proc/iomem; then
			fail "$m" inert-on-non-apple "something of $m stayed"
		else
			pass "$m" inert-on-non-apple "$(echo "$msg" | sed 's/^\[[ 0-9.]*\] //')"
		fi
	fi
done
