# SPDX-License-Identifier: GPL-2.0
#
# tools/gpu-select in the guest: with apple_gmux_ng bound it reads and
# writes through the boot_gpu attribute, without it through efivarfs,
# clearing the immutable flag that efivarfs puts on the variable (a plain
# write is refused); status and --json say which GPU the next boot uses and
# agree with the attribute and NVRAM; the panel's GPU comes from
# vga_switcheroo's debugfs file when it is there. On machines without a
# gmux it says so plainly and refuses to write.

if ! gmux_simulated; then
	gmux_load 2> /dev/null
	efivarfs_fresh
	out=$(gpu-select 2>&1)
	gmux_line=$(echo "$out" | grep '^gmux:')
	if gpu-select integrated > /tmp/out 2> /tmp/err; then rc=0; else rc=$?; fi
	b=$(prefs_bytes)
	if [ "${EXPECT_GMUX_KIND:-}" = unknown ]; then
		# An APP000B the driver probed and rejected, on a model whose gmux
		# the model table does not know (MacPro6,1): the tool cannot tell
		# "no gmux" and says only that nothing is bound; today it then
		# writes the variable through efivarfs, as without the driver.
		if [ "$gmux_line" = "gmux:          not bound: apple_gmux_ng is not loaded or did not bind" ] &&
		   [ "$rc" = 0 ] && grep -qx 'next boot GPU: integrated (was unset; through efivarfs)' /tmp/out; then
			pass apple_gmux_ng gpu-select-gmux-unbound "$PROFILE (model gmux unknown, APP000B rejected): ${gmux_line#gmux:          }; set: $(cat /tmp/out), NVRAM $b"
		else
			fail apple_gmux_ng gpu-select-gmux-unbound "$PROFILE: status '$gmux_line', set rc $rc '$(cat /tmp/out /tmp/err)', NVRAM '$b'"
		fi
		rmmod apple_gmux_ng 2> /dev/null
		return 0
	fi
	case "${EXPECT_APPLE:-0}:${EXPECT_GMUX_KIND:-}" in
	0:*) want="none: this is not a Mac" ;;
	*:fake) want="none: this Mac has one GPU; its firmware declares a gmux that is not there" ;;
	*) want="none" ;;
	esac
	case "$gmux_line" in
	"gmux:          $want"*)
		if [ "$rc" = 3 ] && grep -q '^gpu-select: refused: ' /tmp/err && [ "$b" = none ]; then
			pass apple_gmux_ng gpu-select-no-gmux "${gmux_line#gmux:          }; set: $(cat /tmp/err)"
		else
			fail apple_gmux_ng gpu-select-no-gmux "set rc $rc '$(cat /tmp/err)', NVRAM '$b'"
		fi ;;
	*) fail apple_gmux_ng gpu-select-no-gmux "status: $(echo "$out" | tr '\n' '|')" ;;
	esac
	rmmod apple_gmux_ng 2> /dev/null
	return 0
fi

gmux_wire_on
gmux_load
A=$(boot_gpu_attr)
echo unset > "$A"

# Through the attribute: status, a write, --json.
s1=$(gpu-select 2>&1)
if gpu-select integrated > /tmp/out 2> /tmp/err; then rc=0; else rc=$?; fi
j=$(gpu-select --json 2>&1)
v=$(cat "$A")
b=$(prefs_bytes)
if echo "$s1" | grep -qx "gmux:          $EXPECT_GMUX_KIND, bound by apple_gmux_ng (.*)" &&
   echo "$s1" | grep -q '^next boot GPU: unset, the firmware chooses' &&
   [ "$rc" = 0 ] && grep -qx 'next boot GPU: integrated (was unset; through apple_gmux_ng)' /tmp/out &&
   echo "$j" | grep -qx '  "next_boot_gpu": "integrated",' &&
   echo "$j" | grep -qx '  "source": "apple_gmux_ng",' &&
   echo "$j" | grep -qx "  \"gmux_kind\": \"$EXPECT_GMUX_KIND\"," &&
   [ "$v" = integrated ] && [ "$b" = 0700000001000000 ]; then
	pass apple_gmux_ng gpu-select-via-attribute "$(cat /tmp/out); NVRAM $b"
else
	fail apple_gmux_ng gpu-select-via-attribute "rc $rc '$(cat /tmp/out /tmp/err)', attribute '$v', NVRAM '$b'; status: $(echo "$s1" | tr '\n' '|'); json: $(echo "$j" | tr -d '\n')"
fi

# The panel's GPU as vga_switcheroo shows it, when it shows it.
SW=/sys/kernel/debug/vgaswitcheroo/switch
panel=$(gpu-select | sed -n 's/^panel now: *//p')
if [ -r "$SW" ] && grep -q '^[0-9]*:\(IGD\|DIS\):+:' "$SW"; then
	want=$(sed -n 's/^[0-9]*:\(IGD\|DIS\):+:.*/\1/p' "$SW" | head -n 1)
	case "$want" in IGD) want="integrated (vga_switcheroo IGD)" ;; *) want="discrete (vga_switcheroo DIS)" ;; esac
	if [ "$panel" = "$want" ]; then
		pass apple_gmux_ng gpu-select-panel "$panel"
	else
		fail apple_gmux_ng gpu-select-panel "'$panel', vga_switcheroo: $(tr '\n' '|' < "$SW")"
	fi
elif [ "$panel" = "not known (no vga_switcheroo client is active in debugfs)" ]; then
	skip apple_gmux_ng gpu-select-panel "no vga_switcheroo client in this guest (no handler or GPU driver registered yet): '$panel'"
else
	fail apple_gmux_ng gpu-select-panel "no vga_switcheroo file, yet '$panel'"
fi

# Without the module: efivarfs. The variable apple_gmux_ng created is
# immutable in efivarfs; gpu-select clears the flag as gpu-switch does.
rmmod apple_gmux_ng
efivarfs_fresh
# (2> first: the shell reports a failed redirection on the stderr it has then)
if printf '\007\000\000\000\000\000\000\000' 2> /tmp/err > "$EFIVARS/$PREFS_VAR"; then
	immutable=
else
	immutable="plain write refused: $(sed 's/.*: //' /tmp/err)"
fi
s2=$(gpu-select 2>&1)
if gpu-select discrete > /tmp/out 2> /tmp/err; then rc=0; else rc=$?; fi
b=$(prefs_bytes)
gmux_load
v=$(cat "$A")
if [ -n "$immutable" ] &&
   echo "$s2" | grep -qx 'gmux:          not bound: apple_gmux_ng is not loaded or did not bind' &&
   echo "$s2" | grep -qx 'next boot GPU: integrated (through efivarfs)' &&
   [ "$rc" = 0 ] && grep -qx 'next boot GPU: discrete (was integrated; through efivarfs)' /tmp/out &&
   [ "$b" = 0700000000000000 ] && [ "$v" = discrete ]; then
	pass apple_gmux_ng gpu-select-via-efivarfs "$immutable; $(cat /tmp/out); attribute reads $v"
else
	fail apple_gmux_ng gpu-select-via-efivarfs "${immutable:-a plain write was not refused (not immutable)}; rc $rc '$(cat /tmp/out /tmp/err)', NVRAM '$b', attribute '$v'; status: $(echo "$s2" | tr '\n' '|')"
fi

# unset through efivarfs (--efivarfs although the module is bound) deletes it.
efivarfs_fresh
if gpu-select --efivarfs unset > /tmp/out 2> /tmp/err; then rc=0; else rc=$?; fi
v=$(cat "$A")
b=$(prefs_bytes)
if [ "$rc" = 0 ] && [ "$v" = unset ] && [ "$b" = none ]; then
	pass apple_gmux_ng gpu-select-unset "$(cat /tmp/out)"
else
	fail apple_gmux_ng gpu-select-unset "rc $rc '$(cat /tmp/out /tmp/err)', attribute '$v', NVRAM '$b'"
fi

# Usage errors change nothing.
if gpu-select sideways > /dev/null 2>&1; then rc=0; else rc=$?; fi
if [ "$rc" = 2 ] && [ "$(cat "$A")" = unset ]; then
	pass apple_gmux_ng gpu-select-usage-error "exit 2"
else
	fail apple_gmux_ng gpu-select-usage-error "exit $rc, attribute $(cat "$A")"
fi
rmmod apple_gmux_ng
