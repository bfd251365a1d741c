# SPDX-License-Identifier: GPL-2.0
#
# Apple EFI device properties through the kernel's own path, on profiles
# booted through the fake Apple firmware (FIRMWARE=apple-efi): the EFI stub
# saw the vendor "Apple", fetched the blob with get_all, and the built-in
# parser (drivers/firmware/efi/apple-properties.c, CONFIG_APPLE_PROPERTIES=y)
# attached every property of the profile's blob to its PCI device. With
# dump_apple_properties on the command line the parser prints each property
# and a hex dump of its value; every one must be byte-identical to the blob
# the firmware served (/etc/macsupport/apple-props.hex). Other profiles: silent.
#
# Profiles with EXPECT_NVRAM_DEV also had the firmware write a second blob
# (/etc/macsupport/nvram-props.hex, naming that device) as Apple's NVRAM
# copy, AAPL,PathProperties0000, 0001, ...: through efivarfs, the parts
# concatenated must be that blob byte for byte.

[ "${EXPECT_APPLE_EFI:-0}" = 1 ] || skip_test apple_props "no Apple EFI properties on $PROFILE"

BLOB_HEX=$(tr -d ' \n' < /etc/macsupport/apple-props.hex 2>/dev/null)

# props_dumped DEV KEY: the value of KEY as the parser dumped it, as hex
props_dumped()
{
	dmesg | awk -v want="$1: property: $2" '
		found && /apple-properties: [0-9a-f]+: / {
			sub(/.*apple-properties: [0-9a-f]+: /, "")
			print substr($0, 1, 47)
			next
		}
		found { exit }
		{
			i = index($0, want)
			if (i && i + length(want) - 1 == length($0))
				found = 1
		}' | tr -d ' \n'
}

# props_has DEV KEY: the parser printed KEY for DEV
props_has()
{
	dmesg | grep -q -F "$1: property: $2"
}

# check_prop DEV KEY TESTNAME: KEY reached DEV with the blob's value
check_prop()
{
	local dev="$1" key="$2" name="$3" hex

	if ! props_has "$dev" "$key"; then
		fail apple_props "$name" "no 'property: $key' for $dev in dmesg"
		return
	fi
	hex=$(props_dumped "$dev" "$key")
	if blob_has "$key" "$hex" "$BLOB_HEX"; then
		pass apple_props "$name" "$dev $key, $(( ${#hex} / 2 )) bytes as served"
	else
		fail apple_props "$name" "$dev $key dumped as '$(echo "$hex" | cut -c 1-64)', \
not the blob's value"
	fi
}

v=$(dmesg | grep -o 'efi: EFI v[0-9.]* by .*' | head -n 1)
case "$v" in
*" by Apple") pass apple_props efi-vendor-apple "$v" ;;
*) fail apple_props efi-vendor-apple "got '${v:-no efi: line}', want 'by Apple'" ;;
esac

# The fake firmware drove get, set, del and get_all itself before starting
# the kernel (the kernel only calls get_all) and put the verdict on the
# command line.
st=$(sed -n 's/.*apple_fw\.selftest=\([^ ]*\).*/\1/p' /proc/cmdline)
if [ "$st" = ok ]; then
	pass apple_props firmware-protocol-selftest "get, set, del, get_all in the fake firmware"
else
	fail apple_props firmware-protocol-selftest "apple_fw.selftest=${st:-missing}"
fi

# nvram_check: AAPL,PathProperties%04X under Apple's NVRAM GUID, read through
# efivarfs (each file: 4 bytes of attributes, then the data), hold the blob.
nvram_check()
{
	local dir=/sys/firmware/efi/efivars guid=7c436110-ab2a-4bbb-a880-fe41995c9f82
	local want got= f i=0 n attrs mounted=0 bad=

	want=$(tr -d ' \n' < /etc/macsupport/nvram-props.hex 2>/dev/null)
	if [ -z "$want" ]; then
		fail apple_props nvram-variables "no /etc/macsupport/nvram-props.hex in the guest"
		return
	fi
	if ! grep -q " $dir efivarfs " /proc/mounts; then
		# =m in Debian: the harness ships it (TEST_MODULES), not loaded at boot.
		modprobe efivarfs 2> /dev/null
		if ! mount -t efivarfs efivarfs "$dir"; then
			fail apple_props nvram-variables "cannot mount efivarfs on $dir"
			return
		fi
		mounted=1
	fi
	while :; do
		f=$dir/AAPL,PathProperties$(printf '%04X' "$i")-$guid
		[ -e "$f" ] || break
		attrs=$(head -c 4 "$f" | od -An -tx1 | tr -d ' \n')
		n=$(( $(wc -c < "$f") - 4 ))
		if [ "$attrs" != 07000000 ] || [ "$n" -lt 1 ] || [ "$n" -gt 64 ]; then
			bad="${f##*/}: attributes $attrs, $n bytes (want 07000000, 1..64)"
			break
		fi
		got=$got$(tail -c +5 "$f" | od -An -tx1 -v | tr -d ' \n')
		i=$((i + 1))
	done
	[ "$mounted" = 1 ] && umount "$dir"

	if [ -n "$bad" ]; then
		fail apple_props nvram-variables "$bad"
	elif [ "$i" = 0 ]; then
		fail apple_props nvram-variables "no AAPL,PathProperties0000-$guid in efivarfs"
	elif [ "$got" != "$want" ]; then
		fail apple_props nvram-variables "$i variables, $(( ${#got} / 2 )) bytes, \
not the blob's $(( ${#want} / 2 )) bytes"
	elif [ "$i" -lt 2 ]; then
		fail apple_props nvram-variables "the blob fits one variable: test it with a longer one"
	else
		pass apple_props nvram-variables \
			"$(( ${#got} / 2 )) bytes in $i variables = nvram-props.hex (for $EXPECT_NVRAM_DEV)"
	fi
}

if [ -n "${EXPECT_NVRAM_DEV:-}" ]; then
	nvram_check
fi

if [ -z "$BLOB_HEX" ]; then
	fail apple_props builtin-blob "no /etc/macsupport/apple-props.hex in the guest"
	return 0
fi

if dmesg | grep -q 'apple-properties:.*\(error\|parse\|Unsupported\)'; then
	fail apple_props builtin-parse-clean "$(dmesg | grep 'apple-properties:' | head -n 1)"
else
	pass apple_props builtin-parse-clean
fi

# The q35 LPC bridge carries one boolean, one string and one binary property.
check_prop 0000:00:1f.0 macsupport,flag builtin-bool
check_prop 0000:00:1f.0 model builtin-string
check_prop 0000:00:1f.0 macsupport,bytes builtin-binary

# The endpoint at the end of the Thunderbolt-like chain carries the DROM.
check_prop "$EXPECT_APPLE_DROM_DEV" ThunderboltDROM builtin-drom

# The parser attached a software node (secondary fwnode) to the endpoint.
if [ -e "/sys/bus/pci/devices/$EXPECT_APPLE_DROM_DEV/software_node" ]; then
	pass apple_props builtin-swnode \
		"$(basename "$(readlink "/sys/bus/pci/devices/$EXPECT_APPLE_DROM_DEV/software_node")")"
else
	fail apple_props builtin-swnode "no software_node link on $EXPECT_APPLE_DROM_DEV"
fi
