# SPDX-License-Identifier: GPL-2.0
#
# The gmux ACPI device is there as on the real model: _HID APP000B at the
# model's ACPI path, enumerated as a PNP device with the model's resources
# (and, with a simulator, its window). On a Mac whose firmware declares no
# gmux (EXPECT_GMUX_KIND=none) there is neither an ACPI nor a PNP APP000B.

if gmux_absent; then
	acpi=$(ls -d /sys/bus/acpi/devices/APP000B:* 2>/dev/null | tr '\n' ' ')
	if [ -z "$acpi" ]; then
		pass profile gmux-acpi-absent "$PROFILE: no APP000B in /sys/bus/acpi/devices, as its firmware declares none (apple_gmux_ng has nothing to bind)"
	else
		fail profile gmux-acpi-absent "$PROFILE: its firmware declares no gmux, yet ACPI has $acpi"
	fi
	if pnp=$(gmux_pnp); then
		fail profile gmux-pnp-absent "$PROFILE: a PNP device with id APP000b exists: $pnp"
	else
		pass profile gmux-pnp-absent "$PROFILE: no PNP device with id APP000b for apple_gmux_ng"
	fi
	exit 0
fi

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
