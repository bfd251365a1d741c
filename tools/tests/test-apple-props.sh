#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Tests of tools/apple-props, printed as TAP ("ok N - name"), run by
# "make -C src/lib/tests run". Inputs are the synthetic blobs written by
# src/lib/tests/gen_apple_props (no data from real Macs).
#
#   test-apple-props.sh APPLE-PROPS GEN_APPLE_PROPS

set -u
TOOL=$1
GEN=$2
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
n=0
failed=0

ok() {
	n=$((n + 1))
	echo "ok $n - apple-props $1"
}

not_ok() {
	n=$((n + 1))
	failed=$((failed + 1))
	echo "not ok $n - apple-props $1"
	[ -s "$T/err" ] && sed 's/^/# /' "$T/err" | head -10
}

# check NAME COMMAND...: the command's exit status decides
check() {
	name=$1
	shift
	if "$@" 2> "$T/err"; then ok "$name"; else not_ok "$name"; fi
}

"$GEN" "$T" || { echo "Bail out! gen_apple_props failed"; exit 1; }

# 1. --json output of a small generated blob, exactly
cat > "$T/small.expected" <<'JSON'
[
  {
    "path": "PciRoot(0x0)/Pci(0x1b,0x0)",
    "properties": {
      "ab": "0102",
      "c": ""
    }
  }
]
JSON
check "decode --json small blob" sh -c \
	"'$TOOL' decode --json '$T/small.bin' > '$T/small.json' && cmp '$T/small.json' '$T/small.expected' >&2"

# 2. text output of the same
cat > "$T/small.txt.expected" <<'TXT'
PciRoot(0x0)/Pci(0x1b,0x0)
    ab = 0102
    c (boolean)
TXT
check "decode text small blob" sh -c \
	"'$TOOL' decode '$T/small.bin' > '$T/small.txt' && cmp '$T/small.txt' '$T/small.txt.expected' >&2"

# 3. --json of the Thunderbolt + GPU blob has the chain, the DROM and the booleans
"$TOOL" decode --json "$T/tb_gpu.bin" > "$T/tb_gpu.json" 2> "$T/err"
check "decode --json thunderbolt chain and gpu" sh -c "
	grep -q '\"path\": \"PciRoot(0x0)/Pci(0x1,0x0)/Pci(0x0,0x0)/Pci(0x0,0x0)/Pci(0x0,0x0)\"' '$T/tb_gpu.json' &&
	grep -q '\"ThunderboltDROM\": \"2a01000000000000' '$T/tb_gpu.json' &&
	grep -q '\"power-save\": \"\"' '$T/tb_gpu.json' &&
	grep -q '\"model\": \"4e5649444941204765466f726365204754203635304d00\"' '$T/tb_gpu.json' &&
	grep -q '\"path\": \"PciRoot(0x0)/Pci(0x1,0x1)/Pci(0x0,0x0)\"' '$T/tb_gpu.json' &&
	[ \$(grep -c '\"path\"' '$T/tb_gpu.json') -eq 3 ]"

# 4-8. binary -> JSON -> binary is byte-identical for every generated blob
for b in tb_gpu hda exotic small empty; do
	check "decode|encode round trip $b" sh -c \
		"'$TOOL' decode --json '$T/$b.bin' | '$TOOL' encode - > '$T/$b.re' && cmp '$T/$b.bin' '$T/$b.re' >&2"
done

# 9. encode -> decode -> encode from hand-written JSON
cat > "$T/hand.json" <<'JSON'
[
  {
    "path": "PciRoot(0x0)/Pci(0x1,0x0)/Pci(0x0,0x0)/Pci(0x0,0x0)/Pci(0x0,0x0)",
    "properties": {
      "ThunderboltDROM": "00112233445566778899aabbccddeeff",
      "ThunderboltUUID": "0123456789abcdef0123456789abcdef"
    }
  },
  {
    "path": "VenMsg(4299611B-4CC9-43DF-882B-2A0707A4A95F,0011)/Pci(0x1,0x0)/Pci(0x0,0x0)",
    "properties": {
      "StartupDisplay": "",
      "caf\u00e9": "01"
    }
  },
  {
    "path": "Acpi(PNP0C09,0x0)",
    "properties": {}
  }
]
JSON
check "encode|decode|encode hand-written json" sh -c "
	'$TOOL' encode '$T/hand.json' > '$T/hand.bin' &&
	'$TOOL' decode --json '$T/hand.bin' > '$T/hand2.json' &&
	'$TOOL' encode '$T/hand2.json' > '$T/hand2.bin' &&
	cmp '$T/hand.bin' '$T/hand2.bin' >&2 &&
	sed 's/\\\\u00e9/\\xc3\\xa9/' '$T/hand.json' | cmp - '$T/hand2.json' >&2"

# 10. hex in and out
check "encode --hex-out and decode --hex" sh -c "
	'$TOOL' encode --hex-out '$T/small.expected' > '$T/small.hex' &&
	'$TOOL' decode --hex --json '$T/small.hex' | cmp - '$T/small.expected' >&2 &&
	grep -qx '[0-9a-f]*' '$T/small.hex'"

# 11. validate a good blob
check "validate good blob" sh -c "
	'$TOOL' validate '$T/tb_gpu.bin' > '$T/out' && grep -q 'valid: 700 bytes, 3 devices, 12 properties (3 boolean)' '$T/out'"

# 12. validate a truncated blob: exit 1, error and offset, nothing on stdout from decode
head -c 100 "$T/tb_gpu.bin" > "$T/trunc.bin"
check "validate/decode truncated blob fail with offset" sh -c "
	! '$TOOL' validate '$T/trunc.bin' > '$T/out' &&
	grep -q 'invalid: header length differs from the blob.s size at offset 0' '$T/out' &&
	! '$TOOL' decode '$T/trunc.bin' > '$T/out2' 2> '$T/err2' && [ ! -s '$T/out2' ] &&
	grep -q 'offset' '$T/err2'"

# 13. a lying property count is reported at its offset
cp "$T/small.bin" "$T/lie.bin"
printf '\003' | dd of="$T/lie.bin" bs=1 seek=16 conv=notrunc 2> /dev/null
check "validate lying property count" sh -c "
	! '$TOOL' validate '$T/lie.bin' > '$T/out' &&
	grep -q 'node claims more properties than it holds at offset 16' '$T/out'"

# 14. a key repeated in one device: validate names the second one's offset,
# decode prints nothing (dup_key.bin: "ab", "c", then "ab" again at 70)
check "validate/decode repeated key fail with its offset" sh -c "
	! '$TOOL' validate '$T/dup_key.bin' > '$T/out' &&
	grep -q 'invalid: property key repeats an earlier key of the same device node at offset 70 ' '$T/out' &&
	! '$TOOL' decode --json '$T/dup_key.bin' > '$T/out2' 2> '$T/err2' && [ ! -s '$T/out2' ] &&
	grep -q 'repeats an earlier key.*offset 70' '$T/err2'"

# 15. encode makes only blobs that validate: 256 properties in a device
# are fine, 257 are refused
props_json() {
	awk -v n="$1" 'BEGIN {
		printf "[{\"path\": \"PciRoot(0x0)/Pci(0x1b,0x0)\", \"properties\": {"
		for (i = 0; i < n; i++)
			printf "%s\"key-%d\": \"01\"", i ? ", " : "", i
		print "}}]"
	}'
}
props_json 256 > "$T/256.json"
props_json 257 > "$T/257.json"
check "encode refuses more than 256 properties in a device" sh -c "
	'$TOOL' encode '$T/256.json' | '$TOOL' validate - | grep -q '256 properties' &&
	! '$TOOL' encode '$T/257.json' > '$T/257.bin' 2> '$T/err2' && [ ! -s '$T/257.bin' ] &&
	grep -q 'device node has more than 256 properties' '$T/err2'"

# 16. strict JSON: each of these is rejected
bad=0
for j in '' '[' '[{}]' '[{"path": "PciRoot(0x0)"}]' \
	'[{"path": "PciRoot(0x0)", "properties": {}},]' \
	'[{"path": "PciRoot(0x0)", "properties": {"a": "0"}}]' \
	'[{"path": "PciRoot(0x0)", "properties": {"a": "zz"}}]' \
	'[{"path": "PciRoot(0x0)", "properties": {"": ""}}]' \
	'[{"path": "PciRoot(0x0)", "properties": {"a\n": ""}}]' \
	'[{"path": "PciRoot(0x0)", "properties": {}, "x": 1}]' \
	'[{"path": "PciRoot(0x0)", "path": "PciRoot(0x0)", "properties": {}}]' \
	'[{"path": "Bogus(0)", "properties": {}}]' \
	'[{"path": "PciRoot(0x0)", "properties": {}}] x' \
	'[{"path": "PciRoot(0x0)", "properties": {"\ud800": ""}}]' \
	'[{"path": "PciRoot(0x0)", "properties": {"a": "", "b": "", "a": "01"}}]'; do
	if printf '%s' "$j" | "$TOOL" encode - > /dev/null 2> /dev/null; then
		echo "# accepted: $j"
		bad=1
	fi
done
if [ $bad -eq 0 ]; then
	ok "encode rejects malformed json"
else
	not_ok "encode rejects malformed json"
fi

# 17-18. dump from a fake sysfs tree
D="$T/sys/bus/pci/devices"
mkdir -p "$D/0000:00:01.0" "$D/0000:07:00.0/apple_properties" "$D/0000:00:1b.0/apple_properties"
printf '\001\002' > "$D/0000:07:00.0/apple_properties/ThunderboltDROM"
: > "$D/0000:07:00.0/apple_properties/power-save"
printf '\014\000\000\000' > "$D/0000:00:1b.0/apple_properties/layout-id"
cat > "$T/dump.expected" <<'TXT'
0000:00:1b.0
    layout-id = 0c000000
0000:07:00.0
    ThunderboltDROM = 0102
    power-save (boolean)
TXT
check "dump text from sysfs" sh -c "'$TOOL' dump '$T/sys' | cmp - '$T/dump.expected' >&2"
check "dump --json from sysfs" sh -c "
	'$TOOL' dump --json '$T/sys' > '$T/dump.json' &&
	grep -q '\"path\": \"0000:07:00.0\"' '$T/dump.json' && grep -q '\"ThunderboltDROM\": \"0102\"' '$T/dump.json'"

# 19. --help
check "--help" sh -c "'$TOOL' --help | grep -q 'decode \\[--json\\] \\[--hex\\]'"

# 20. the man page renders without warnings (if groff is installed)
MAN=$(dirname "$0")/../apple-props.1
if command -v groff > /dev/null 2>&1; then
	check "man page renders" sh -c "
		groff -man -Tutf8 -ww -z '$MAN' 2>&1 | tee '$T/manerr' >&2; [ ! -s '$T/manerr' ] && [ -s '$MAN' ]"
else
	check "man page present" test -s "$MAN"
fi

echo "1..$n"
[ $failed -eq 0 ]
