#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Tests of tools/gpu-select, printed as TAP ("ok N - name"), run by
# "make -C src/lib/tests run". The tool runs against a made-up /sys under
# a scratch directory (--root): DMI, efivarfs (plain files: 4 bytes of
# attributes, then the data), apple_gmux_ng's boot_gpu attribute (a plain
# file), vga_switcheroo's debugfs file and securityfs's lockdown file.
#
#   test-gpu-select.sh GPU-SELECT

set -u
TOOL=$1
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
n=0
failed=0
VAR=gpu-power-prefs-fa4ce28d-b62f-4c99-9cc3-6815686e30f9

ok() {
	n=$((n + 1))
	echo "ok $n - gpu-select $1"
}

not_ok() {
	n=$((n + 1))
	failed=$((failed + 1))
	echo "not ok $n - gpu-select $1"
	[ -s "$T/err" ] && sed 's/^/# /' "$T/err" | head -10
}

# check NAME COMMAND...: the command's exit status decides
check() {
	name=$1
	shift
	if "$@" 2> "$T/err"; then ok "$name"; else not_ok "$name"; fi
}

# machine DIR VENDOR PRODUCT: a fresh /sys with DMI and a few variables
machine() {
	rm -rf "$1"
	mkdir -p "$1/sys/class/dmi/id" "$1/sys/firmware/efi/efivars" \
		"$1/sys/kernel/debug/vgaswitcheroo" "$1/sys/kernel/security"
	echo "$2" > "$1/sys/class/dmi/id/sys_vendor"
	echo "$3" > "$1/sys/class/dmi/id/product_name"
	printf '\007\000\000\000\001' > "$1/sys/firmware/efi/efivars/Boot0000-8be4df61-93ca-11d2-aa0d-00e098032b8c"
	echo "[none] integrity confidentiality" > "$1/sys/kernel/security/lockdown"
}

# var DIR HEX: the variable's efivarfs file (attributes 0x7 + HEX)
var() {
	printf "\\007\\000\\000\\000$2" > "$1/sys/firmware/efi/efivars/$VAR"
}

# bytes FILE: the file as hex (a script, for the sh -c of the checks)
printf '#!/bin/sh\nod -An -tx1 -v "$1" | tr -d " \\n"\n' > "$T/bytes"
chmod +x "$T/bytes"
PATH=$T:$PATH
export PATH

M=$T/mbp10
machine "$M" "Apple Inc." "MacBookPro10,1"
var "$M" '\001\000\000\000'
cat > "$M/sys/kernel/debug/vgaswitcheroo/switch" <<'EOF'
0:IGD:+:Pwr:0000:00:02.0
1:DIS: :Off:0000:01:00.0
2:DIS-Audio: :Off:0000:01:00.1
EOF

# 1. text status through efivarfs, exactly
cat > "$T/s1.expected" <<EOF
machine:       MacBookPro10,1 (Apple Inc.)
gmux:          not bound: apple_gmux_ng is not loaded or did not bind
next boot GPU: integrated (through efivarfs)
panel now:     integrated (vga_switcheroo IGD)
lockdown:      none
EOF
check "status text via efivarfs" sh -c "'$TOOL' --root '$M' > '$T/s1' && cmp '$T/s1' '$T/s1.expected' >&2"

# 2. --json, exactly
cat > "$T/j1.expected" <<EOF
{
  "vendor": "Apple Inc.",
  "product": "MacBookPro10,1",
  "gmux_kind": "indexed",
  "gmux": "not bound",
  "no_gmux_reason": null,
  "next_boot_gpu": "integrated",
  "source": "efivarfs",
  "read_error": null,
  "panel": "integrated",
  "dgpu_power": null,
  "dgpu_off_by": null,
  "dgpu_stay_on_reason": null,
  "lockdown": "none"
}
EOF
check "status --json via efivarfs" sh -c "'$TOOL' --root '$M' --json > '$T/j1' && cmp '$T/j1' '$T/j1.expected' >&2"

# 3-6. what the variable's bytes mean
for c in 'discrete:\000\000\000\000' 'unknown:\002\000\000\000' 'unknown:\001\000' \
	 'unknown:\001\000\000\000\000'; do
	want=${c%%:*}
	var "$M" "${c#*:}"
	check "variable $(bytes "$M/sys/firmware/efi/efivars/$VAR" | cut -c 9-) reads as $want" \
		sh -c "'$TOOL' --root '$M' --json | grep -qx '  \"next_boot_gpu\": \"$want\",'"
done
rm -f "$M/sys/firmware/efi/efivars/$VAR"
check "no variable reads as unset" sh -c "'$TOOL' --root '$M' | grep -qx 'next boot GPU: unset, the firmware chooses (no $VAR; through efivarfs)'"

# 8-10. the panel owner from vga_switcheroo
printf '0:IGD: :Off:0000:00:02.0\n1:DIS:+:Pwr:0000:01:00.0\n' > "$M/sys/kernel/debug/vgaswitcheroo/switch"
check "panel on the discrete GPU" sh -c "'$TOOL' --root '$M' | grep -qx 'panel now:     discrete (vga_switcheroo DIS)'"
printf '0:IGD: :Off:0000:00:02.0\n1:DIS-Audio:+:Pwr:0000:01:00.1\n1:DIS: :DynOff:0000:01:00.0\n' \
	> "$M/sys/kernel/debug/vgaswitcheroo/switch"
check "an active audio client is not the panel" sh -c "'$TOOL' --root '$M' --json | grep -qx '  \"panel\": null,'"
rm "$M/sys/kernel/debug/vgaswitcheroo/switch"
check "no vga_switcheroo: panel not known" sh -c "'$TOOL' --root '$M' | grep -qx 'panel now:     not known (no vga_switcheroo client is active in debugfs)'"

# 11-13. writes through efivarfs: the bytes, read back, the deletion
check "set integrated via efivarfs" sh -c "'$TOOL' --root '$M' integrated > '$T/out' &&
	[ \$(bytes '$M/sys/firmware/efi/efivars/$VAR') = 0700000001000000 ] &&
	grep -qx 'next boot GPU: integrated (was unset; through efivarfs)' '$T/out'"
check "set discrete via efivarfs" sh -c "'$TOOL' --root '$M' discrete > '$T/out' &&
	[ \$(bytes '$M/sys/firmware/efi/efivars/$VAR') = 0700000000000000 ] &&
	grep -qx 'next boot GPU: discrete (was integrated; through efivarfs)' '$T/out'"
check "unset deletes the variable" sh -c "'$TOOL' --root '$M' unset > /dev/null &&
	[ ! -e '$M/sys/firmware/efi/efivars/$VAR' ]"

# 14-15. through apple_gmux_ng's attribute when it is bound
G=$M/sys/bus/pnp/drivers/apple_gmux_ng/00:05
mkdir -p "$G"
echo discrete > "$G/boot_gpu"
var "$M" '\001\000\000\000'	# efivarfs says otherwise: the attribute wins
check "status through the attribute" sh -c "'$TOOL' --root '$M' > '$T/out' &&
	grep -qx 'gmux:          indexed, bound by apple_gmux_ng (/sys/bus/pnp/drivers/apple_gmux_ng/00:05)' '$T/out' &&
	grep -qx 'next boot GPU: discrete (through apple_gmux_ng)' '$T/out'"
mkdir -p "$G/dgpu_power"
echo off > "$G/dgpu_power/state"
echo vga_switcheroo > "$G/dgpu_power/off_by"
echo none > "$G/dgpu_power/stay_on_reason"
check "status: the dGPU switched OFF, and by whom" sh -c "'$TOOL' --root '$M' > '$T/out' &&
	grep -qx 'dGPU power:    off (switched OFF through vga_switcheroo)' '$T/out' &&
	'$TOOL' --root '$M' --json | grep -qx '  \"dgpu_off_by\": \"vga_switcheroo\",'"
echo on > "$G/dgpu_power/state"
echo none > "$G/dgpu_power/off_by"
echo "its driver does not let it runtime-suspend" > "$G/dgpu_power/stay_on_reason"
check "status: the dGPU powered, and why" sh -c "'$TOOL' --root '$M' > '$T/out' &&
	grep -qx 'dGPU power:    on: its driver does not let it runtime-suspend' '$T/out' &&
	'$TOOL' --root '$M' --json | grep -qx '  \"dgpu_stay_on_reason\": \"its driver does not let it runtime-suspend\",'"
check "set through the attribute" sh -c "'$TOOL' --root '$M' unset > '$T/out' &&
	[ \"\$(cat '$G/boot_gpu')\" = unset ] && [ \$(bytes '$M/sys/firmware/efi/efivars/$VAR') = 0700000001000000 ]"
check "--efivarfs reads efivarfs although bound" sh -c "'$TOOL' --root '$M' --efivarfs --json |
	grep -qx '  \"next_boot_gpu\": \"integrated\",'"
echo garbage > "$G/boot_gpu"
check "unexpected attribute text is an error" sh -c "! '$TOOL' --root '$M' > '$T/out' &&
	grep -q \"next boot GPU: cannot tell (.*boot_gpu: unexpected 'garbage')\" '$T/out'"
rm -rf "$M/sys/bus/pnp"

# 18-19. locked down: refused, nothing written
echo "none [integrity] confidentiality" > "$M/sys/kernel/security/lockdown"
var "$M" '\001\000\000\000'
check "locked down: set refused" sh -c "'$TOOL' --root '$M' discrete; rc=\$?; [ \$rc = 3 ] &&
	[ \$(bytes '$M/sys/firmware/efi/efivars/$VAR') = 0700000001000000 ]"
check "locked down: the reason" sh -c "'$TOOL' --root '$M' discrete 2>&1 | grep -q 'refused: the kernel is locked down (integrity)'"
echo "[none] integrity confidentiality" > "$M/sys/kernel/security/lockdown"

# 20. without CAP_SYS_ADMIN (root keeps the others): refused, nothing written
if [ "$(id -u)" = 0 ] && command -v setpriv > /dev/null &&
   setpriv --bounding-set -sys_admin --inh-caps -sys_admin true 2> /dev/null; then
	check "without CAP_SYS_ADMIN: refused" sh -c "setpriv --bounding-set -sys_admin \
		--inh-caps -sys_admin '$TOOL' --root '$M' discrete 2> '$T/e2'; rc=\$?;
		[ \$rc = 3 ] && grep -q 'needs CAP_SYS_ADMIN' '$T/e2' &&
		[ \$(bytes '$M/sys/firmware/efi/efivars/$VAR') = 0700000001000000 ]"
elif [ "$(id -u)" != 0 ]; then
	check "without CAP_SYS_ADMIN: refused" sh -c "'$TOOL' --root '$M' discrete 2> '$T/e2'; [ \$? = 3 ] &&
		grep -q 'needs CAP_SYS_ADMIN' '$T/e2'"
else
	n=$((n + 1))
	echo "ok $n - gpu-select without CAP_SYS_ADMIN: refused # SKIP setpriv cannot drop it here"
fi

# 21-23. machines without a gmux say so and refuse
N=$T/pc
machine "$N" "QEMU" "Standard PC (Q35 + ICH9, 2009)"
check "not a Mac: status says so" sh -c "'$TOOL' --root '$N' > '$T/out' &&
	grep -qx 'gmux:          none: this is not a Mac: the boot-GPU preference exists only on dual-GPU MacBook Pros' '$T/out'"
check "not a Mac: set refused" sh -c "'$TOOL' --root '$N' integrated 2> '$T/e3'; [ \$? = 3 ] &&
	grep -q 'refused: this is not a Mac' '$T/e3' && [ ! -e '$N/sys/firmware/efi/efivars/$VAR' ]"
F=$T/mbp81
machine "$F" "Apple Inc." "MacBookPro8,1"
check "MacBookPro8,1: one GPU, set refused" sh -c "'$TOOL' --root '$F' --json > '$T/out' &&
	grep -qx '  \"gmux\": \"none\",' '$T/out' &&
	grep -q 'declares a gmux that is not there' '$T/out' &&
	'$TOOL' --root '$F' discrete 2> /dev/null; [ \$? = 3 ] && [ ! -e '$F/sys/firmware/efi/efivars/$VAR' ]"
U=$T/unknown
machine "$U" "Apple Inc." "Macmini10,1"
check "unknown model, no APP000B: no gmux, set refused" sh -c "'$TOOL' --root '$U' > '$T/out' &&
	grep -qx 'gmux:          none: this Mac is not in the model table and its firmware declares no gmux' '$T/out' &&
	'$TOOL' --root '$U' discrete 2> /dev/null; [ \$? = 3 ] && [ ! -e '$U/sys/firmware/efi/efivars/$VAR' ]"
mkdir -p "$U/sys/bus/acpi/devices/APP000B:00"
check "unknown model with an APP000B: not refused for lack of a gmux" sh -c "'$TOOL' --root '$U' > '$T/out'; ! grep -q 'none: this Mac is not in the model table' '$T/out'"

# 24-25. efivarfs not mounted (empty directory) on a Mac without the module
rm -f "$M/sys/firmware/efi/efivars/"*
check "efivarfs not mounted: status says so" sh -c "! '$TOOL' --root '$M' > '$T/out' &&
	grep -qx 'next boot GPU: cannot tell (efivarfs is not mounted at /sys/firmware/efi/efivars)' '$T/out'"
check "efivarfs not mounted: set fails" sh -c "'$TOOL' --root '$M' integrated 2> '$T/e4'; [ \$? = 1 ] &&
	grep -q 'mount -t efivarfs' '$T/e4'"

# 26-28. usage
check "unknown command: usage error" sh -c "'$TOOL' --root '$M' sideways 2> /dev/null; [ \$? = 2 ]"
check "--json with a write: usage error" sh -c "'$TOOL' --root '$M' --json integrated 2> /dev/null; [ \$? = 2 ]"
check "--help" sh -c "'$TOOL' --help | grep -q 'integrated|discrete|unset'"

# 29. the man page renders without warnings (if groff is installed)
MAN=$(dirname "$0")/../gpu-select.1
if command -v groff > /dev/null 2>&1; then
	check "man page renders" sh -c "
		groff -man -Tutf8 -ww -z '$MAN' 2>&1 | tee '$T/manerr' >&2; [ ! -s '$T/manerr' ] && [ -s '$MAN' ]"
else
	check "man page present" test -s "$MAN"
fi

echo "1..$n"
[ $failed -eq 0 ]
