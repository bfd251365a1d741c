# SPDX-License-Identifier: GPL-2.0
#
# The gmux ACPI device is there as on the real model: _HID APP000B at the
# model's ACPI path, enumerated as a PNP device with the model's resources
# (and, with a simulator, its window).

acpi=
for d in /sys/bus/acpi/devices/APP000B:*; do
	[ -e "$d/path" ] && acpi=$d
done
if [ -z "$acpi" ]; then
	fail profile gmux-acpi-device "no APP000B device in /sys/bus/acpi/devices"
	exit 0
fi

path=$(cat "$acpi/path")
status=$(cat "$acpi/status" 2>/dev/null)
if [ "$path" = "$EXPECT_GMUX_PATH" ]; then
	pass profile gmux-acpi-device "$path, _STA $status"
else
	fail profile gmux-acpi-device "path '$path', want '$EXPECT_GMUX_PATH'"
fi

pnp=
for d in /sys/bus/pnp/devices/*; do
	[ "$(cat "$d/id" 2>/dev/null)" = APP000b ] && pnp=$d
done
if [ -z "$pnp" ]; then
	fail profile gmux-resources "no PNP device with id APP000b"
	exit 0
fi
# EXPECT_GMUX_RES is a shell pattern: the simulator's window (TEST ONLY) sits
# wherever the firmware put the ivshmem BAR.
res=$(grep -v '^state' "$pnp/resources" | tr '\n' ';' | sed 's/;$//')
# shellcheck disable=SC2254
case "$res" in
$EXPECT_GMUX_RES)
	pass profile gmux-resources "$res" ;;
*)
	fail profile gmux-resources "resources '$res', want '$EXPECT_GMUX_RES'" ;;
esac
