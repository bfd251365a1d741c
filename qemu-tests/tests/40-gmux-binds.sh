# SPDX-License-Identifier: GPL-2.0
#
# apple_gmux_ng is loaded the way udev would load it, from the gmux's
# modalias. On a Mac with a (simulated) gmux it binds and claims the
# window; on a Mac whose firmware declares a gmux that is not there
# (MacBookPro8,1) and on the control machine, nothing binds. On a Mac
# without a gmux (EXPECT_GMUX_KIND=none) no device's modalias matches any
# of the module's aliases, so udev never loads it.

if gmux_absent; then
	aliases=$(sed -n 's/^alias \([^ ]*\) apple_gmux_ng$/\1/p' /lib/modules/*/modules.alias)
	hits=
	n=0
	for f in $(find /sys/devices -name modalias 2>/dev/null); do
		ma=$(cat "$f" 2>/dev/null) || continue
		n=$((n + 1))
		for a in $aliases; do
			# shellcheck disable=SC2254
			case "$ma" in $a) hits="$hits $ma" ;; esac
		done
	done
	if [ -z "$aliases" ]; then
		fail apple_gmux_ng not-autoloaded "$PROFILE: no alias of apple_gmux_ng in modules.alias: the check would prove nothing"
	elif [ -n "$hits" ] || [ -e /sys/module/apple_gmux_ng ]; then
		fail apple_gmux_ng not-autoloaded "$PROFILE: modaliases matching the module:$hits; loaded: $([ -e /sys/module/apple_gmux_ng ] && echo yes || echo no)"
	else
		pass apple_gmux_ng not-autoloaded "$PROFILE: none of $n device modaliases matches its aliases ($(echo $aliases)); not loaded"
	fi
	exit 0
fi

acpi=$(ls -d /sys/bus/acpi/devices/APP000B:* 2>/dev/null | head -n 1)
alias=$(cat "$acpi/modalias" 2>/dev/null)
pnp=$(gmux_pnp)
[ -n "$alias" ] && [ -n "$pnp" ] || { fail apple_gmux_ng autoload "no gmux device"; exit 0; }

if gmux_simulated; then
	# udev passes no parameter; the test-only one comes from the command line
	modprobe "$alias" test_sim_protocol="$EXPECT_GMUX_KIND" 2>/dev/null
else
	modprobe "$alias" 2>/dev/null
fi
drv=$(readlink "$pnp/driver" 2>/dev/null)
drv=${drv##*/}
claimed=$(cat /proc/ioports /proc/iomem | grep -c apple_gmux_ng)

if [ "$EXPECT_APPLE" = 1 ] && gmux_simulated; then
	if [ "$drv" = apple_gmux_ng ] && [ "$claimed" -ge 1 ]; then
		pass apple_gmux_ng autoload-bind "modalias $alias -> $drv, window claimed"
	else
		fail apple_gmux_ng autoload-bind "driver '$drv', claimed $claimed, via $alias"
	fi
elif [ "$EXPECT_APPLE" = 1 ]; then
	if [ -e /sys/module/apple_gmux_ng ] && [ -z "$drv" ] && [ "$claimed" = 0 ]; then
		pass apple_gmux_ng autoload-fake-unbound "modalias $alias loads the driver, which binds nothing"
	else
		fail apple_gmux_ng autoload-fake-unbound "driver '$drv', claimed $claimed"
	fi
else
	if [ -z "$drv" ] && [ ! -e /sys/module/apple_gmux_ng ]; then
		pass apple_gmux_ng autoload-inert "modalias $alias binds nothing"
	else
		fail apple_gmux_ng autoload-inert "driver '$drv' bound on the control machine"
	fi
fi
rmmod apple_gmux_ng 2>/dev/null || true
