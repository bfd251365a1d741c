# SPDX-License-Identifier: GPL-2.0
#
# apple_props takes blobs through /sys/firmware/apple_properties/load and
# attaches them without clobbering: the firmware's own blob again changes
# nothing, a conflicting value is reported and the device keeps its own, a
# device without properties gets them (and shows them in sysfs), and a
# malformed blob is rejected with a log line and nothing attached. Blobs
# are encoded from qemu-tests/blobs/*.json by tools/apple-props. Profiles
# booted through the fake Apple firmware only (the built-in parser's
# properties must be there to collide with).

[ "${EXPECT_APPLE_EFI:-0}" = 1 ] || skip_test apple_props "no Apple EFI properties on $PROFILE"
LOAD=/sys/firmware/apple_properties/load
B=/etc/macsupport/blobs
drom=/sys/bus/pci/devices/$EXPECT_APPLE_DROM_DEV/apple_properties/ThunderboltDROM

modprobe apple_props
drom_before=$(od -An -tx1 -v "$drom" | tr -d ' \n')

# load NAME FILE: write FILE to the load file; sets rc, and line to the
# kernel's summary line
load()
{
	dmesg_mark "load-$1"
	if cat "$2" > "$LOAD" 2>/tmp/err; then rc=0; else rc=1; fi
	line=$(dmesg_since "load-$1" | grep 'apple_props: sysfs' | sed 's/^\[[ 0-9.]*\] //' |
		tail -n 1)
}

xxd -r -p /etc/macsupport/apple-props.hex > /tmp/same.bin
load same /tmp/same.bin
case "$rc|$line" in
"0|"*"0 attached, 2 already present, 0 conflicts, 0 waiting"*)
	pass apple_props load-same-blob-no-change "$line" ;;
*)	fail apple_props load-same-blob-no-change "rc $rc: $line" ;;
esac

load conflict "$B/conflict.bin"
drom_after=$(od -An -tx1 -v "$drom" | tr -d ' \n')
case "$rc|$line" in
"0|"*"0 attached, 0 already present, 1 conflicts"*)
	if [ "$drom_after" = "$drom_before" ] &&
	   dmesg_since load-conflict | grep -q '"ThunderboltDROM" differs from the property the device has; kept'; then
		pass apple_props load-conflict-keeps-existing "$line"
	else
		fail apple_props load-conflict-keeps-existing "DROM changed or no conflict line"
	fi ;;
*)	fail apple_props load-conflict-keeps-existing "rc $rc: $line" ;;
esac

load new "$B/new-device.bin"
f=/sys/bus/pci/devices/0000:00:10.0/apple_properties
if [ "$rc" = 0 ] && [ "${line#*1 attached, 0 already present, 0 conflicts}" != "$line" ] &&
   [ "$(od -An -tx1 -v "$f/macsupport,added" 2>/dev/null | tr -d ' \n')" = 0102030405 ] &&
   [ -f "$f/macsupport,bool" ] && [ ! -s "$f/macsupport,bool" ]; then
	pass apple_props load-attaches-new-device "$line"
else
	fail apple_props load-attaches-new-device "rc $rc: $line; $(ls "$f" 2>&1 | tr '\n' ' ')"
fi

# Malformed: version 2; a key length running past the end; a lying count.
# The write fails with the parser's own error: EOPNOTSUPP for a version it
# does not know, EINVAL for a malformed blob.
cp "$B/new-device.bin" /tmp/bad-version.bin
printf '\002' | dd of=/tmp/bad-version.bin bs=1 seek=4 conv=notrunc 2>/dev/null
cp "$B/new-device.bin" /tmp/bad-count.bin
printf '\011' | dd of=/tmp/bad-count.bin bs=1 seek=16 conv=notrunc 2>/dev/null
all_before=$(cat /sys/firmware/apple_properties/all | md5sum)
for bad in "bad-version:Operation not supported" "bad-count:Invalid argument"; do
	want=${bad#*:}
	bad=${bad%%:*}
	load "$bad" "/tmp/$bad.bin"
	rej=$(dmesg_since "load-$bad" | grep -o 'apple_props: sysfs: rejected: .*; nothing attached')
	if [ "$rc" = 1 ] && grep -q "$want" /tmp/err && [ -n "$rej" ] &&
	   [ "$(cat /sys/firmware/apple_properties/all | md5sum)" = "$all_before" ]; then
		pass apple_props "load-$bad-rejected" "${rej#apple_props: }"
	else
		fail apple_props "load-$bad-rejected" "rc $rc, '$(cat /tmp/err)' (want $want), log '$rej'"
	fi
done

rmmod apple_props
# What the module attached goes with it; what the firmware attached stays.
if [ ! -e /sys/bus/pci/devices/0000:00:10.0/software_node ] &&
   [ -e "/sys/bus/pci/devices/$EXPECT_APPLE_DROM_DEV/software_node" ]; then
	pass apple_props unload-takes-back-own-nodes
else
	fail apple_props unload-takes-back-own-nodes "software_node links: $(ls -d /sys/bus/pci/devices/*/software_node | tr '\n' ' ')"
fi

# The firmware-file source: the file firmware_file= names, at load.
mkdir -p /lib/firmware/apple
cp "$B/fw-file.bin" /lib/firmware/apple/properties.bin
dmesg_mark fw-file
modprobe apple_props firmware_file=apple/properties.bin
fwline=$(dmesg_since fw-file | grep -o 'apple_props: firmware apple/properties.bin: .*')
f=/sys/bus/pci/devices/0000:00:1d.0/apple_properties/macsupport,fw
case "$fwline" in
*"1 attached"*)
	if [ "$(od -An -tx1 -v "$f" 2>/dev/null | tr -d ' \n')" = f1f2 ]; then
		pass apple_props load-firmware-file "${fwline#apple_props: }"
	else
		fail apple_props load-firmware-file "no $f"
	fi ;;
*)	fail apple_props load-firmware-file "log: '$fwline'" ;;
esac
rmmod apple_props

# Without firmware_file= no file is requested, even when one is there.
dmesg_mark fw-none
modprobe apple_props
fwlog=$(dmesg_since fw-none | grep -E 'apple/properties.bin|firmware: ' | tr '\n' ' ')
param=$(cat /sys/module/apple_props/parameters/firmware_file)
if [ -z "$fwlog" ] && [ ! -e "$f" ] && { [ -z "$param" ] || [ "$param" = "(null)" ]; }; then
	pass apple_props firmware-file-only-when-named "file present, parameter empty: not requested"
else
	fail apple_props firmware-file-only-when-named "log: '$fwlog'; parameter '$param'; $(ls "$f" 2>&1)"
fi
rmmod apple_props
rm -f /lib/firmware/apple/properties.bin

# A file that was named but is missing: one line with the error, nothing
# taken. (The kernel's own "failed to load" line for it is expected: the
# name macsupport-test-missing tells 99-log-no-load-failures.sh so.)
dmesg_mark fw-missing
modprobe apple_props firmware_file=apple/macsupport-test-missing.bin
miss=$(dmesg_since fw-missing |
	grep -o 'apple_props: firmware file apple/macsupport-test-missing.bin .*')
case "$miss" in
*"cannot read it (error -2); nothing taken")
	pass apple_props firmware-file-missing-reported "${miss#apple_props: }" ;;
*)	fail apple_props firmware-file-missing-reported "log: '$miss'" ;;
esac
rmmod apple_props
