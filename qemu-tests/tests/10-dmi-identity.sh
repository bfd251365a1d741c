# SPDX-License-Identifier: GPL-2.0
#
# The guest's DMI identity is the profile's: the SMBIOS fields reached the
# kernel, and Linux recognised (or, on the control machine, did not
# recognise) an Apple machine as it does on a real Mac.

dmi=/sys/class/dmi/id
got="$(cat $dmi/sys_vendor)|$(cat $dmi/product_name)|$(cat $dmi/board_name)"
want="$EXPECT_SYS_VENDOR|$EXPECT_PRODUCT|$EXPECT_BOARD"
if [ "$got" = "$want" ]; then
	pass profile dmi-identity "$got"
else
	fail profile dmi-identity "got '$got', want '$want'"
fi

# drivers/acpi/osi.c answers _OSI("Darwin") on Apple hardware only.
if dmesg | grep -q 'Added _OSI(Darwin)'; then darwin=1; else darwin=0; fi
if [ "$darwin" = "$EXPECT_APPLE" ]; then
	pass profile osi-darwin "$([ "$darwin" = 1 ] && echo enabled || echo not enabled)"
else
	fail profile osi-darwin "_OSI(Darwin) enabled=$darwin, expected $EXPECT_APPLE"
fi

if [ -d /sys/firmware/efi ]; then
	pass profile efi-boot
else
	fail profile efi-boot "no /sys/firmware/efi: Macs boot through EFI"
fi
