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

[ "${EXPECT_APPLE_EFI:-0}" = 1 ] || return 0

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

# props_blob_has KEY HEX: the blob holds KEY with exactly the value HEX
props_blob_has()
{
	local k n

	k=$(printf '%s\0' "$1" | od -An -tx1 | tr -d ' \n' | sed 's/\(..\)/\100/g')
	n=$(( ${#2} / 2 + 4 ))
	n=$(printf '%02x%02x%02x%02x' $((n & 255)) $((n >> 8 & 255)) $((n >> 16 & 255)) \
		$((n >> 24 & 255)))
	case "$BLOB_HEX" in
	*"$k$n$2"*) return 0 ;;
	esac
	return 1
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
	if props_blob_has "$key" "$hex"; then
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
