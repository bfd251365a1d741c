#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# TEST ONLY: writes apple-props.hex, the device-properties blob that the fake
# Apple firmware (qemu-tests/efi) serves on this profile. The harness turns the
# hex text back into bytes with `xxd -r -p`, so it needs no python; run this
# only after changing the content below, and commit both files.
#
# Invented test data, not a real Mac's blob. Format: Apple's v1 buffer, all
# little-endian: header {len, 1, node count}, nodes {len, property count,
# device path, properties {key len, UTF-16LE key with NUL, value len, value}},
# lengths including their own 4 bytes.

import struct
import sys


def pci_root(uid=0):
	# ACPI node: type 2, subtype 1, len 12, _HID PNP0A03 (EISA 0x0a0341d0), _UID
	return struct.pack('<BBHII', 2, 1, 12, 0x0a0341d0, uid)


def pci(dev, fn):
	# hardware PCI node: type 1, subtype 1, len 6, function, device
	return struct.pack('<BBHBB', 1, 1, 6, fn, dev)


END = struct.pack('<BBH', 0x7f, 0xff, 4)


def prop(key, value):
	k = (key + '\0').encode('utf-16-le')
	return struct.pack('<I', 4 + len(k)) + k + struct.pack('<I', 4 + len(value)) + value


def node(path, props):
	body = path + END + b''.join(prop(k, v) for k, v in props)
	return struct.pack('<II', 8 + len(body), len(props)) + body


# 100 recognisable bytes: a tag, then 0x00..0x4f.
DROM = b'MACSUPPORT-TEST-DROM' + bytes(range(80))

NODES = [
	# 00:1f.0, q35's ICH9 LPC bridge: present in every q35 guest.
	node(pci_root() + pci(0x1f, 0), [
		('macsupport,flag', b''),				# boolean
		('model', b'macsupport test LPC\0'),			# string
		('macsupport,bytes', bytes([0xde, 0xad, 0xbe, 0xef, 0, 1, 2, 3])),	# binary
	]),
	# Thunderbolt-like chain of the profile's QEMU_ARGS: root port 00:1c.0 ->
	# x3130-upstream -> xio3130-downstream -> pci-testdev (in the NHI's place).
	node(pci_root() + pci(0x1c, 0) + pci(0, 0) + pci(0, 0) + pci(0, 0), [
		('ThunderboltDROM', DROM),
	]),
]

blob = b''.join(NODES)
blob = struct.pack('<III', 12 + len(blob), 1, len(NODES)) + blob
out = sys.argv[1] if len(sys.argv) > 1 else 'apple-props.hex'
with open(out, 'w') as f:
	for i in range(0, len(blob), 32):
		f.write(blob[i:i + 32].hex() + '\n')
