# SPDX-License-Identifier: GPL-2.0
# harness: own-boot when EXPECT_STUB_SET_OS append apple_fw.set_os=v2,path
#
# tools/efi/set-os.efi on the fake Apple firmware (qemu-tests/efi,
# set-os-fake.c). With apple_fw.set_os=PROTO,TARGET on the command line the
# fake firmware installs Apple's set_os protocol (PROTO v2 or v1) or not
# (absent), starts set-os.efi as a boot entry would, and records every
# protocol call, every console line (the app's, then the kernel EFI stub's)
# and its own steps in the volatile EFI variable SetOsTrace, read here
# through efivarfs. This file checks the mode v2,path (the app is given
# "\vmlinuz <kernel options>") on every profile booted through the fake
# firmware that says whether the stub lists its model (EXPECT_STUB_SET_OS);
# 86-89 (MacBookPro11,3 only) set SETOS_MODE and source it:
#
#   calls         exactly the calls PROTO asks for, with the exact strings, in
#                 the order of the kernel's EFI stub (6.11): SetOsVendor("Apple
#                 Inc.") if Version >= 2, then SetOsVersion("Mac OS X 10.9");
#                 none and the app's "not present ... chain-loading anyway"
#                 line when absent
#   stub-calls    the kernel's own EFI stub: from 6.11 on, on the models it
#                 lists (EXPECT_STUB_SET_OS=listed: MacBookPro11,3), the same
#                 calls after the app's, before 6.11 none; on a model it does
#                 not list (EXPECT_STUB_SET_OS=unlisted: MacBookPro11,4, the
#                 iGPU-only sibling of the listed MacBookPro11,5) none on any
#                 kernel, although the protocol is there and the stub spoke
#   before-boot   the app's calls came before it started anything
#   chain-load    the app started the kernel: the firmware started the app,
#                 the app said it starts the target, the EFI stub spoke after
#                 that, and the app never returned to the firmware (missing:
#                 the app reported the load failure, started nothing and
#                 returned, and the firmware started the kernel itself)
#   kernel-options the kernel's command line is what the app was handed
#   boot-entries  (entries only) BootNext honoured and deleted, a load failure
#                 reported and the next entry tried, an inactive entry
#                 skipped, the short-form HD() path expanded
#
# Not emulated: a real Mac's firmware acting on the calls (it shows the iGPU
# afterwards); the fake protocol only records them.

[ -n "${EXPECT_STUB_SET_OS:-}" ] || skip_test set-os "no set_os stand-in in the firmware of $PROFILE"

SETOS_MODE=${SETOS_MODE:-v2,path}
SETOS_GUID=6b3c5a2e-6f8d-4a31-9e57-2d1c0b7f4e93
GLOBAL_GUID=8be4df61-93ca-11d2-aa0d-00e098032b8c
EFIVARS=/sys/firmware/efi/efivars
proto=${SETOS_MODE%%,*}
target=${SETOS_MODE#*,}
T=$proto-$target
TRACE=/tmp/setos-trace

# line_of TEXT: number of the first trace line holding TEXT (0: none)
line_of()
{
	n=$(grep -n -F -m 1 -- "$1" "$TRACE" | cut -d: -f1)
	echo "${n:-0}"
}

# in_order N1 N2 ...: every N is non-zero and each is below the next
in_order()
{
	prev=0
	for n in "$@"; do
		[ "$n" -gt "$prev" ] || return 1
		prev=$n
	done
}

case " $(cat /proc/cmdline) " in
*" apple_fw.set_os=$SETOS_MODE "*) ;;
*)
	fail set-os "$T-trace" "apple_fw.set_os=$SETOS_MODE not on the command line: \
$(cat /proc/cmdline | cut -c 1-120)"
	return 0 ;;
esac

mounted=0
if ! grep -q " $EFIVARS efivarfs " /proc/mounts; then
	modprobe efivarfs 2> /dev/null
	mount -t efivarfs efivarfs "$EFIVARS" && mounted=1
fi
f=$EFIVARS/SetOsTrace-$SETOS_GUID
if [ ! -r "$f" ]; then
	fail set-os "$T-trace" "no ${f##*/}: the fake firmware recorded nothing"
	[ "$mounted" = 1 ] && umount "$EFIVARS"
	return 0
fi
tail -c +5 "$f" > "$TRACE"
bootnext_left=$(ls "$EFIVARS/BootNext-$GLOBAL_GUID" 2> /dev/null)
[ "$mounted" = 1 ] && umount "$EFIVARS"
echo "[guest] SetOsTrace:"
sed 's/^/[guest]   /' "$TRACE"
pass set-os "$T-trace" "$(wc -l < "$TRACE") lines in SetOsTrace"

# --- calls ---------------------------------------------------------------------
# The app's calls come before the kernel's EFI stub speaks; from 6.11 on the
# stub itself calls set_os on the dual-GPU models it lists (reference
# gmux.md section 10; apple_match_product_name() in
# drivers/firmware/efi/libstub/x86-stub.c, an exact match of the SMBIOS
# product), and those calls come after. The profile says whether its model
# is on that list (EXPECT_STUB_SET_OS).
stub_at=$(line_of "con: EFI stub: ")
[ "$stub_at" = 0 ] && stub_at=999999
calls=$(grep -n '^call ' "$TRACE" | awk -F: -v s="$stub_at" '$1 < s' | cut -d: -f2-)
stub_calls=$(grep -n '^call ' "$TRACE" | awk -F: -v s="$stub_at" '$1 > s' | cut -d: -f2-)
case $proto in
v2) want='call SetOsVendor "Apple Inc."
call SetOsVersion "Mac OS X 10.9"' ;;
v1) want='call SetOsVersion "Mac OS X 10.9"' ;;
*) want= ;;
esac
kernel=$(uname -r)
stub_lists=0
[ "$EXPECT_STUB_SET_OS" = listed ] && stub_lists=1
major=${kernel%%.*} minor=${kernel#*.}
minor=${minor%%[!0-9]*}
stub_has_call=0
[ "$major" -gt 6 ] || { [ "$major" = 6 ] && [ "$minor" -ge 11 ]; } && stub_has_call=1
want_stub=
[ "$stub_lists" = 1 ] && [ "$stub_has_call" = 1 ] && want_stub=$want
if [ "$EXPECT_STUB_SET_OS" != listed ] && [ "$EXPECT_STUB_SET_OS" != unlisted ]; then
	fail set-os "$T-stub-calls" "EXPECT_STUB_SET_OS='$EXPECT_STUB_SET_OS', want listed or unlisted"
elif [ "$stub_at" = 999999 ]; then
	fail set-os "$T-stub-calls" "premise: the kernel's EFI stub never spoke (no 'con: EFI stub: ' line)"
elif [ "$stub_calls" = "$want_stub" ]; then
	if [ -n "$want_stub" ]; then
		pass set-os "$T-stub-calls" "$kernel's EFI stub called set_os itself for $EXPECT_PRODUCT, after the app: $(echo "$stub_calls" | sed 's/^call //' | tr '\n' ';' | sed 's/;$//')"
	else
		if [ "$proto" = absent ]; then why="no set_os protocol to call"
		elif [ "$stub_has_call" = 0 ]; then why="before 6.11 the stub has no such call"
		else why="$EXPECT_PRODUCT is not on its list"; fi
		pass set-os "$T-stub-calls" "$kernel's EFI stub made no call ($why)"
	fi
else
	fail set-os "$T-stub-calls" "$kernel, $EXPECT_PRODUCT: the stub's calls '$(echo "$stub_calls" | tr '\n' ';')', want '$(echo "$want_stub" | tr '\n' ';')'"
fi
announce=$(line_of "con: set-os: Apple set_os protocol version ${proto#v}")
[ "$proto" = absent ] &&
	announce=$(grep -n 'con: set-os: Apple set_os protocol not present.*chain-loading anyway' \
		"$TRACE" | head -n 1 | cut -d: -f1)
if [ "$calls" != "$want" ]; then
	fail set-os "$T-calls" "calls '$(echo "$calls" | tr '\n' ';')', want \
'$(echo "$want" | tr '\n' ';')'"
elif [ "${announce:-0}" = 0 ]; then
	fail set-os "$T-calls" "the app did not say what it found ($proto)"
elif [ "$proto" = absent ]; then
	pass set-os "$T-calls" "no protocol: no call, the app said so and chain-loaded anyway"
else
	pass set-os "$T-calls" "$(echo "$calls" | sed 's/^call //' | tr '\n' ';' | sed 's/;$//')"
fi

# --- before anything was started ----------------------------------------------
first_start=$(line_of "con: set-os: starting ")
[ "$target" = missing ] && first_start=$(line_of "fw: set-os.efi returned")
last_call=$(grep -n '^call ' "$TRACE" | awk -F: -v s="$stub_at" '$1 < s' | tail -n 1 | cut -d: -f1)
if in_order "${last_call:-$announce}" "$first_start"; then
	pass set-os "$T-before-boot" "calls at line ${last_call:-none}, first start at $first_start"
else
	fail set-os "$T-before-boot" "last call at line ${last_call:-none}, first start at $first_start"
fi

# --- the chain-load -------------------------------------------------------------
fw_app=$(line_of 'fw: starting \EFI\macsupport\set-os.efi')
returned=$(line_of "fw: set-os.efi returned")
stub=$(line_of "con: EFI stub: ")
case $target in
path|shell)
	start=$(line_of 'con: set-os: starting \vmlinuz (')
	if in_order "$fw_app" "$start" "$stub" && [ "$returned" = 0 ]; then
		pass set-os "$T-chain-load" "firmware -> set-os.efi -> \\vmlinuz -> EFI stub \
(trace lines $fw_app, $start, $stub)"
	else
		fail set-os "$T-chain-load" "firmware started the app at line $fw_app, app \
started \\vmlinuz at $start, EFI stub at $stub, app returned at $returned"
	fi ;;
entries)
	start=$(line_of 'con: set-os: starting Boot00A1 (')
	if in_order "$fw_app" "$start" "$stub" && [ "$returned" = 0 ]; then
		pass set-os "$T-chain-load" "firmware -> set-os.efi -> Boot00A1 -> EFI stub \
(trace lines $fw_app, $start, $stub)"
	else
		fail set-os "$T-chain-load" "firmware started the app at line $fw_app, app \
started Boot00A1 at $start, EFI stub at $stub, app returned at $returned"
	fi ;;
missing)
	nostart=$(line_of "con: set-os: starting ")
	cant=$(line_of 'con: set-os: cannot load \EFI\missing\vmlinuz (')
	nothing=$(line_of "con: set-os: nothing started (Not Found)")
	itself=$(line_of 'fw: starting \vmlinuz itself')
	if in_order "$fw_app" "$cant" "$nothing" "$returned" "$itself" "$stub" &&
	   [ "$nostart" = 0 ]; then
		pass set-os "$T-chain-load" "the app reported the load failure, started nothing \
and returned; the firmware booted the kernel itself"
	else
		fail set-os "$T-chain-load" "lines: app $fw_app, cannot load $cant, nothing started \
$nothing, returned $returned, firmware boots kernel $itself, stub $stub, app started \
something $nostart"
	fi ;;
*)
	fail set-os "$T-chain-load" "unknown target '$target'" ;;
esac

# --- the kernel got its options through the app -------------------------------------
handed=$(sed -n 's/^fw: kernel options: //p' "$TRACE" | head -n 1)
got=$(cat /proc/cmdline)
# The kernel may strip or add blanks at the end.
if [ -n "$handed" ] && [ "$(echo $got)" = "$(echo $handed)" ]; then
	pass set-os "$T-kernel-options" "/proc/cmdline = the options the app was handed"
else
	fail set-os "$T-kernel-options" "handed '$(echo "$handed" | cut -c 1-80)', \
/proc/cmdline '$(echo "$got" | cut -c 1-80)'"
fi

# --- boot entries -------------------------------------------------------------------
if [ "$target" = entries ]; then
	next=$(line_of "con: set-os: BootNext is Boot00A2")
	cant=$(line_of 'con: set-os: cannot load Boot00A2 (')
	inactive=$(line_of 'con: set-os: Boot00A3 "inactive (TEST)" is inactive: skipped')
	start=$(line_of 'con: set-os: starting Boot00A1 (')
	path=$(sed -n 's/^con: set-os: starting Boot00A1 (\(.*\))$/\1/p' "$TRACE")
	short=$(line_of "fw: Boot00A1: short form HD(")
	why=
	in_order "$next" "$cant" "$inactive" "$start" ||
		why="lines: BootNext $next, load failure $cant, inactive skipped $inactive, start $start"
	[ -z "$bootnext_left" ] || why="$why; BootNext still set after the boot"
	if [ "$short" != 0 ]; then
		case $path in
		PciRoot*/HD\(*'\vmlinuz') ;;
		*) why="$why; short form not expanded: started '$path'" ;;
		esac
	fi
	if [ -z "$why" ]; then
		pass set-os "$T-boot-entries" "BootNext Boot00A2 tried and deleted, its load \
failure reported, inactive Boot00A3 skipped, Boot00A1 started from $path\
$( [ "$short" = 0 ] && echo ' (the volume is no partition: no short form to expand)')"
	else
		fail set-os "$T-boot-entries" "${why#; }"
	fi
fi
rm -f "$TRACE"
