# SPDX-License-Identifier: GPL-2.0
#
# apple_gmux_ng is loaded the way udev would load it, from the gmux's
# modalias, binds to the device and claims its resource; on the control
# machine the same modalias loads nothing that binds.

acpi=$(ls -d /sys/bus/acpi/devices/APP000B:* 2>/dev/null | head -n 1)
alias=$(cat "$acpi/modalias" 2>/dev/null)
pnp=
for d in /sys/bus/pnp/devices/*; do
	[ "$(cat "$d/id" 2>/dev/null)" = APP000b ] && pnp=$d
done
[ -n "$alias" ] && [ -n "$pnp" ] || { fail apple_gmux_ng autoload-bind "no gmux device"; exit 0; }

modprobe "$alias" 2>/dev/null
drv=$(readlink "$pnp/driver" 2>/dev/null)
claimed=$(grep -c apple_gmux_ng /proc/ioports /proc/iomem | awk -F: '{ s += $2 } END { print s }')
if [ "$EXPECT_APPLE" = 1 ]; then
	if [ "${drv##*/}" = apple_gmux_ng ] && [ "$claimed" -ge 1 ]; then
		pass apple_gmux_ng autoload-bind "modalias $alias -> ${drv##*/}, resource claimed"
	else
		fail apple_gmux_ng autoload-bind "driver '${drv##*/}', claimed $claimed, via $alias"
	fi
	rmmod apple_gmux_ng
else
	if [ -z "$drv" ] && [ ! -e /sys/module/apple_gmux_ng ]; then
		pass apple_gmux_ng autoload-inert "modalias $alias binds nothing"
	else
		fail apple_gmux_ng autoload-inert "driver '${drv##*/}' bound on the control machine"
	fi
fi
