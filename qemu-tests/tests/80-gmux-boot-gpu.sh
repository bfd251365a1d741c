# SPDX-License-Identifier: GPL-2.0
#
# apple_gmux_ng's boot_gpu attribute reads and writes the firmware's
# gpu-power-prefs variable through the efivar API (OVMF's variable store is
# real): each value written is in NVRAM with the bytes macOS and gpu-switch
# write (attributes 0x7, then 01 or 00 and three zeros), as efivarfs shows
# after a remount; a value written behind the driver's back is read live;
# bad input is refused and changes nothing; "unset" deletes the variable.
# Machines without a gmux (the control PC, MacBookPro8,1) have no attribute.

if ! gmux_simulated; then
	gmux_load 2> /dev/null
	found=$(ls /sys/bus/pnp/devices/*/boot_gpu 2> /dev/null)
	if [ -z "$found" ]; then
		pass apple_gmux_ng no-boot-gpu-attribute "no gmux bound ($PROFILE, EXPECT_GMUX_KIND=${EXPECT_GMUX_KIND:-none}): no boot_gpu"
	else
		fail apple_gmux_ng no-boot-gpu-attribute "found $found"
	fi
	rmmod apple_gmux_ng 2> /dev/null
	return 0
fi

gmux_wire_on
gmux_load
A=$(boot_gpu_attr)
if [ -f "$A" ] && [ "$(stat -c %a "$A")" = 644 ]; then
	pass apple_gmux_ng boot-gpu-attribute "$A, mode 0644"
else
	fail apple_gmux_ng boot-gpu-attribute "$(ls -l "$A" 2>&1)"
	rmmod apple_gmux_ng
	return 0
fi

# A fresh variable store (this boot's copy of OVMF_VARS) has no variable.
v=$(cat "$A" 2>&1)
b=$(prefs_bytes)
if [ "$v" = unset ] && [ "$b" = none ]; then
	pass apple_gmux_ng boot-gpu-reads-unset "no $PREFS_VAR in NVRAM"
else
	fail apple_gmux_ng boot-gpu-reads-unset "attribute '$v', efivarfs '$b'"
fi

# write WORD: write it to the attribute; the attribute and NVRAM afterwards
for w in integrated:integrated:0700000001000000 0:discrete:0700000000000000 \
	 1:integrated:0700000001000000 discrete:discrete:0700000000000000; do
	word=${w%%:*}
	rest=${w#*:}
	want=${rest%%:*}
	bytes=${rest#*:}
	dmesg_mark "boot-gpu-$word"
	if echo "$word" > "$A" 2> /tmp/err; then rc=0; else rc=1; fi
	v=$(cat "$A" 2>&1)
	b=$(prefs_bytes)
	log=$(dmesg_since "boot-gpu-$word" | grep -o "next boot's GPU: .*")
	if [ "$rc" = 0 ] && [ "$v" = "$want" ] && [ "$b" = "$bytes" ]; then
		pass apple_gmux_ng "boot-gpu-write-$word" "reads $v, NVRAM $b${log:+, log: $log}"
	else
		fail apple_gmux_ng "boot-gpu-write-$word" "rc $rc '$(cat /tmp/err)', reads '$v', NVRAM '$b' (want $want, $bytes)"
	fi
done

# Written behind the driver's back (efivarfs): the attribute reads it live.
efivarfs_fresh
clear-immutable "$EFIVARS/$PREFS_VAR"
printf '\007\000\000\000\001\000\000\000' > "$EFIVARS/$PREFS_VAR"
v1=$(cat "$A")
clear-immutable "$EFIVARS/$PREFS_VAR"
printf '\007\000\000\000\002\000\000\000' > "$EFIVARS/$PREFS_VAR"
v2=$(cat "$A")
if [ "$v1" = integrated ] && [ "$v2" = unknown ]; then
	pass apple_gmux_ng boot-gpu-reads-nvram-live "01000000 -> $v1, 02000000 -> $v2"
else
	fail apple_gmux_ng boot-gpu-reads-nvram-live "01000000 -> '$v1', 02000000 -> '$v2'"
fi
echo discrete > "$A"

# Bad input: EINVAL, nothing written.
bad=
for w in sideways 2 "" " integrated" integratedx "discrete discrete" UNSET; do
	if echo "$w" > "$A" 2> /tmp/err || ! grep -q 'Invalid argument' /tmp/err; then
		bad="$bad '$w' ($(cat /tmp/err))"
	fi
done
v=$(cat "$A")
b=$(prefs_bytes)
if [ -z "$bad" ] && [ "$v" = discrete ] && [ "$b" = 0700000000000000 ]; then
	pass apple_gmux_ng boot-gpu-rejects-bad-input "7 bad words: EINVAL, NVRAM unchanged"
else
	fail apple_gmux_ng boot-gpu-rejects-bad-input "accepted or other error:$bad; reads '$v', NVRAM '$b'"
fi

# unset deletes the variable; unset again is no error.
if echo unset > "$A" 2> /tmp/err && echo unset > "$A" 2>> /tmp/err; then rc=0; else rc=1; fi
v=$(cat "$A")
b=$(prefs_bytes)
if [ "$rc" = 0 ] && [ "$v" = unset ] && [ "$b" = none ]; then
	pass apple_gmux_ng boot-gpu-unset-deletes "reads unset, no variable in efivarfs"
else
	fail apple_gmux_ng boot-gpu-unset-deletes "rc $rc '$(cat /tmp/err)', reads '$v', NVRAM '$b'"
fi

rmmod apple_gmux_ng
if [ ! -e "$A" ]; then
	pass apple_gmux_ng boot-gpu-gone-on-unload
else
	fail apple_gmux_ng boot-gpu-gone-on-unload "$A still there"
fi
