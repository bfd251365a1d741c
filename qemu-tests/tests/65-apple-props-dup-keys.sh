# SPDX-License-Identifier: GPL-2.0
#
# apple_props rejects a blob in which one device node carries the same key
# twice, whether root writes it to /sys/firmware/apple_properties/load or
# plants it in NVRAM as AAPL,PathProperties0000 (root can write both): one
# log line with the reason and the offset of the repeated key, nothing
# attached, -EINVAL for the write, and no "sysfs: cannot create duplicate
# filename" with a Call Trace (which the harness's console scan fails).
#
# The blob: qemu-tests/blobs/dup-key.json (encoded by tools/apple-props,
# which refuses to encode a repeated key), "macsupport,dupA" = 01 and
# "macsupport,dupB" = 02 for PciRoot(0x0)/Pci(0x10,0x0), then patched here
# to "dupA" twice. Layout: header 12 + node header 8 + path 22 = the first
# key length at 42; it holds 4 + 32 bytes, its value 4 + 1, so the second
# key length is at 83, and that key's "B" at 83 + 4 + 2 * 14 = 115.
# Profiles booted through the fake Apple firmware only; the NVRAM part on
# those whose firmware wrote an NVRAM copy (EXPECT_NVRAM_DEV).

[ "${EXPECT_APPLE_EFI:-0}" = 1 ] || skip_test apple_props "no Apple EFI properties on $PROFILE"
LOAD=/sys/firmware/apple_properties/load
DUP_OFFSET=83
DEV=/sys/bus/pci/devices/0000:00:10.0
drom=/sys/bus/pci/devices/$EXPECT_APPLE_DROM_DEV/apple_properties/ThunderboltDROM

cp /etc/macsupport/blobs/dup-key.bin /tmp/dup-key.bin
if [ "$(dd if=/tmp/dup-key.bin bs=1 skip=115 count=1 2>/dev/null)" != B ]; then
	fail apple_props dup-key-blob "dup-key.bin has no 'B' at 115: the layout changed"
	return 0
fi
printf 'A' | dd of=/tmp/dup-key.bin bs=1 seek=115 conv=notrunc 2>/dev/null

# rejected_since MARK SOURCE: the module's rejection line for SOURCE
rejected_since()
{
	dmesg_since "$1" | grep -o "apple_props: $2: rejected: .*; nothing attached" | tail -n 1
}

# no_sysfs_dup MARK: no duplicate-filename complaint and no stack dump since MARK
no_sysfs_dup()
{
	! dmesg_since "$1" | grep -q -e 'cannot create duplicate filename' -e 'Call Trace'
}

# --- through the load file ---------------------------------------------------

modprobe apple_props
all_before=$(md5sum < /sys/firmware/apple_properties/all)
dmesg_mark dup-load
if cat /tmp/dup-key.bin > "$LOAD" 2> /tmp/err; then rc=0; else rc=1; fi
rej=$(rejected_since dup-load sysfs)
if [ "$rc" = 1 ] && grep -q 'Invalid argument' /tmp/err &&
   [ "${rej%at offset "$DUP_OFFSET"; nothing attached}" != "$rej" ] &&
   [ "${rej#*key}" != "$rej" ] && no_sysfs_dup dup-load &&
   [ ! -e "$DEV/apple_properties" ] &&
   [ "$(md5sum < /sys/firmware/apple_properties/all)" = "$all_before" ]; then
	pass apple_props load-dup-key-rejected "${rej#apple_props: }"
else
	fail apple_props load-dup-key-rejected "rc $rc, '$(cat /tmp/err)', log '$rej', \
$(dmesg_since dup-load | grep -c -e 'duplicate filename' -e 'Call Trace') sysfs complaints, \
$(ls "$DEV/apple_properties" 2>&1 | tr '\n' ' ')"
fi
rmmod apple_props

# --- through NVRAM -------------------------------------------------------------

[ -n "${EXPECT_NVRAM_DEV:-}" ] || { skip apple_props dup-keys-nvram "no NVRAM stand-in on $PROFILE"; return 0; }
EFIVARS=/sys/firmware/efi/efivars
GUID=7c436110-ab2a-4bbb-a880-fe41995c9f82
mounted=0
if ! grep -q " $EFIVARS efivarfs " /proc/mounts; then
	modprobe efivarfs 2> /dev/null
	if ! mount -t efivarfs efivarfs "$EFIVARS"; then
		fail apple_props nvram-dup-key-rejected "cannot mount efivarfs on $EFIVARS"
		return 0
	fi
	mounted=1
fi

# Keep the firmware's variables (attributes and data, as efivarfs shows
# them) to put back afterwards, then replace them with the bad blob.
# efivarfs makes variables it does not know immutable: clear-immutable is
# the guest's "chattr -i".
rm -rf /tmp/nvsave
mkdir -p /tmp/nvsave
for f in "$EFIVARS"/AAPL,PathProperties*-"$GUID"; do
	[ -e "$f" ] || continue
	cp "$f" /tmp/nvsave/ && clear-immutable "$f" && rm -f "$f"
done
{ printf '\007\000\000\000'; cat /tmp/dup-key.bin; } > /tmp/dup-key.var
dd if=/tmp/dup-key.var of="$EFIVARS/AAPL,PathProperties0000-$GUID" bs=4096 2> /tmp/err
if [ "$(tail -c +5 "$EFIVARS/AAPL,PathProperties0000-$GUID" 2>/dev/null | md5sum)" != \
     "$(md5sum < /tmp/dup-key.bin)" ]; then
	fail apple_props nvram-dup-key-rejected "cannot write AAPL,PathProperties0000: $(cat /tmp/err)"
else
	dmesg_mark dup-nvram
	modprobe apple_props
	rej=$(rejected_since dup-nvram 'NVRAM AAPL,PathProperties')
	if [ "${rej%at offset "$DUP_OFFSET"; nothing attached}" != "$rej" ] &&
	   no_sysfs_dup dup-nvram && [ ! -e "$DEV/apple_properties" ] && [ -f "$drom" ]; then
		pass apple_props nvram-dup-key-rejected \
			"${rej#apple_props: }; the firmware's properties still shown"
	else
		fail apple_props nvram-dup-key-rejected "log '$rej', \
$(dmesg_since dup-nvram | grep -c -e 'duplicate filename' -e 'Call Trace') sysfs complaints, \
$(ls "$DEV/apple_properties" 2>&1 | tr '\n' ' '), DROM file: $(ls "$drom" 2>&1)"
	fi
	rmmod apple_props
fi

# Put the firmware's copy back; apple_props takes it again.
clear-immutable "$EFIVARS/AAPL,PathProperties0000-$GUID" 2> /dev/null
rm -f "$EFIVARS/AAPL,PathProperties0000-$GUID"
for f in /tmp/nvsave/*; do
	[ -e "$f" ] || continue
	dd if="$f" of="$EFIVARS/${f##*/}" bs=4096 2>/dev/null
done
dmesg_mark nvram-restored
modprobe apple_props
nv=$(dmesg_since nvram-restored | grep -o 'apple_props: NVRAM AAPL,PathProperties: .*')
f=/sys/bus/pci/devices/$EXPECT_NVRAM_DEV/apple_properties/macsupport,nvram
if [ "${nv#*1 attached}" != "$nv" ] && [ -f "$f" ]; then
	pass apple_props nvram-restored "${nv#apple_props: }"
else
	fail apple_props nvram-restored "log '$nv', $(ls "$f" 2>&1)"
fi
rmmod apple_props
[ "$mounted" = 1 ] && umount "$EFIVARS"
return 0
