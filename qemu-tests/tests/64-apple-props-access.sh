# SPDX-License-Identifier: GPL-2.0
#
# Who may do what with apple_props' files. Writing a blob to
# /sys/firmware/apple_properties/load steers drivers (device properties are
# read by their probe), so it needs CAP_SYS_ADMIN, as injecting ACPI tables
# does: root without it is refused with EPERM and nothing is attached.
# Property values that identify the machine (ThunderboltDROM carries the
# Thunderbolt controller's UID) are readable by root only (0400), as DMI's
# serial numbers are, and so is the "all" listing that holds them; other
# properties stay world-readable (0444). Profiles booted through the fake
# Apple firmware only.

[ "${EXPECT_APPLE_EFI:-0}" = 1 ] || skip_test apple_props "no Apple EFI properties on $PROFILE"
LOAD=/sys/firmware/apple_properties/load
ALL=/sys/firmware/apple_properties/all
NEW=/sys/bus/pci/devices/0000:00:10.0
CAP_SYS_ADMIN=21

modprobe apple_props

# mode_is FILE MODE: FILE has permission bits MODE (octal, as stat prints)
mode_is() { [ "$(stat -c %a "$1" 2>/dev/null)" = "$2" ]; }

drom=/sys/bus/pci/devices/$EXPECT_APPLE_DROM_DEV/apple_properties/ThunderboltDROM
model=/sys/bus/pci/devices/0000:00:1f.0/apple_properties/model
if mode_is "$drom" 400 && mode_is "$ALL" 400 && mode_is "$model" 444 && mode_is "$LOAD" 200; then
	pass apple_props modes-identifying-root-only \
		"ThunderboltDROM 0400, all 0400, model 0444, load 0200"
else
	fail apple_props modes-identifying-root-only "ThunderboltDROM $(stat -c %a "$drom" 2>&1), \
all $(stat -c %a "$ALL" 2>&1), model $(stat -c %a "$model" 2>&1), load $(stat -c %a "$LOAD" 2>&1) \
(want 400, 400, 444, 200)"
fi

# Root without CAP_SYS_ADMIN (uid 0, every other capability: it can open
# the 0200 file) cannot load a blob.
caps=$(drop-cap $CAP_SYS_ADMIN grep CapEff /proc/self/status | tr -d '\t')
all_before=$(md5sum < "$ALL")
dmesg_mark nocap-load
if drop-cap $CAP_SYS_ADMIN sh -c "cat /etc/macsupport/blobs/new-device.bin > $LOAD" \
	2> /tmp/err; then
	rc=0
else
	rc=1
fi
if [ "$rc" = 1 ] && grep -q 'Operation not permitted' /tmp/err &&
   [ ! -e "$NEW/software_node" ] && [ ! -e "$NEW/apple_properties" ] &&
   [ "$(md5sum < "$ALL")" = "$all_before" ]; then
	pass apple_props load-needs-cap-sys-admin "$caps: $(sed 's/.*: //' /tmp/err), nothing attached"
else
	fail apple_props load-needs-cap-sys-admin "$caps: rc $rc '$(cat /tmp/err)'; \
$(ls -d "$NEW/software_node" "$NEW/apple_properties" 2>/dev/null | tr '\n' ' ')\
$(dmesg_since nocap-load | grep -o 'apple_props: sysfs: .*')"
fi

# The same write with the capability works: the refusal was about it.
if cat /etc/macsupport/blobs/new-device.bin > "$LOAD" 2> /tmp/err &&
   [ -f "$NEW/apple_properties/macsupport,added" ]; then
	pass apple_props load-with-cap-sys-admin
else
	fail apple_props load-with-cap-sys-admin "'$(cat /tmp/err)', $(ls "$NEW/apple_properties" 2>&1)"
fi
rmmod apple_props
