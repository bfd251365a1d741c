# SPDX-License-Identifier: GPL-2.0
#
# What "make demo" shows: the emulated Mac, the bundle loaded the way udev
# would load it (from modaliases), and what each module found.

echo
echo "=== macsupport demo on an emulated $PROFILE ==="
d=/sys/class/dmi/id
echo "DMI: $(cat $d/sys_vendor) $(cat $d/product_name), board $(cat $d/board_name)," \
	"firmware $(cat $d/bios_vendor) $(cat $d/bios_version)"
echo

dmesg_mark demo
# udev loads modules by the modaliases of devices: the DMI identity and the
# ACPI devices.
for a in $(cat /sys/class/dmi/id/modalias) $(cat /sys/bus/acpi/devices/*/modalias 2>/dev/null); do
	modprobe -q "$a" 2>/dev/null
done
for m in $BUNDLE_MODULES; do
	[ -e "/sys/module/$m" ] || modprobe "$m"
done

echo "--- modules of the bundle ---"
for m in $BUNDLE_MODULES; do
	if [ -e "/sys/module/$m" ]; then
		echo "$m $(cat /sys/module/$m/version 2>/dev/null) loaded"
	else
		echo "$m not loaded"
	fi
done
echo
echo "--- devices bound to the bundle ---"
for l in /sys/bus/*/drivers/apple_gmux_ng/*; do
	[ -L "$l" ] && [ "${l##*/}" != module ] &&
		echo "${l##*/} -> apple_gmux_ng ($(cat "$l/firmware_node/path" 2>/dev/null))"
done
grep -h apple_gmux_ng /proc/ioports /proc/iomem | sed 's/^ */claimed: /'
echo
echo "--- what each module found ---"
dmesg_since demo | grep -E "apple_gmux_ng|apple_props|tb_macpm|mac_quirks" | sed 's/^\[[ 0-9.]*\] //'
echo
guest_report_ok=1
pass demo shown
