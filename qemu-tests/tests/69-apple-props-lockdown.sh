# SPDX-License-Identifier: GPL-2.0
# harness: own-boot when EXPECT_APPLE_EFI
#
# Under kernel lockdown (integrity) root cannot steer drivers with device
# properties: a blob written to /sys/firmware/apple_properties/load is
# refused with EPERM and nothing is attached, as ACPI table injection is
# refused. Lockdown cannot be lifted and forbids loading the (unsigned)
# test modules, so apple_props is loaded first and the kernel locked down
# at run time through securityfs, in a boot of its own. Profiles booted
# through the fake Apple firmware only.

[ "${EXPECT_APPLE_EFI:-0}" = 1 ] || skip_test apple_props "no Apple EFI properties on $PROFILE"
LOAD=/sys/firmware/apple_properties/load
ALL=/sys/firmware/apple_properties/all
NEW=/sys/bus/pci/devices/0000:00:10.0

modprobe apple_props
mount -t securityfs securityfs /sys/kernel/security 2>/dev/null
all_before=$(md5sum < "$ALL")
echo integrity > /sys/kernel/security/lockdown
mode=$(cat /sys/kernel/security/lockdown)

dmesg_mark lockdown-load
if cat /etc/macsupport/blobs/new-device.bin > "$LOAD" 2> /tmp/err; then rc=0; else rc=1; fi
why=$(dmesg_since lockdown-load | grep -o 'Lockdown: .*is restricted.*' | head -n 1)
if [ "$rc" = 1 ] && grep -q 'Operation not permitted' /tmp/err && [ -n "$why" ] &&
   [ ! -e "$NEW/software_node" ] && [ ! -e "$NEW/apple_properties" ] &&
   [ "$(md5sum < "$ALL")" = "$all_before" ]; then
	pass apple_props lockdown-refuses-load "$mode: $(sed 's/.*: //' /tmp/err); $why"
else
	fail apple_props lockdown-refuses-load "$mode: rc $rc '$(cat /tmp/err)', log '$why'; \
$(ls -d "$NEW/software_node" "$NEW/apple_properties" 2>/dev/null | tr '\n' ' ')\
$(dmesg_since lockdown-load | grep -o 'apple_props: sysfs: .*')"
fi

if rmmod apple_props && [ ! -e /sys/firmware/apple_properties ]; then
	pass apple_props lockdown-unload
else
	fail apple_props lockdown-unload "$(ls /sys/firmware/apple_properties 2>&1 | tr '\n' ' ')"
fi
