# SPDX-License-Identifier: GPL-2.0
#
# The gmux backlight: platform type (as mainline), maximum from register 0x70 (T2: always
# 0xffff, also when the gmux reports 0x3ff as some T2 iMacs do), values round-trip to the gmux register, out-of-range values
# are refused, and the level survives a reload of the driver.
# Protocols carried over the simulator window (see 50-gmux-detect.sh).

gmux_simulated || skip_test apple_gmux_ng "no simulated gmux on $PROFILE"
gmux_wire_on
gmux_load
if [ ! -d "$BL" ]; then
	fail apple_gmux_ng backlight-registered "no $BL"
	rmmod apple_gmux_ng
	exit 0
fi

raw_max=$(grep '^max_brightness' "$(gmux_debugfs)/registers" | awk '{ print $3 }')
raw_max=$((raw_max))
want=$raw_max
[ "$want" -gt 16777215 ] && want=16777215
[ "$EXPECT_GMUX_KIND" = t2 ] && want=65535
max=$(cat "$BL/max_brightness")
if [ "$(cat "$BL/type")" = platform ] && [ "$max" = "$want" ] && [ "$max" -gt 0 ]; then
	pass apple_gmux_ng backlight-registered "type platform, max $max (register $raw_max)"
else
	fail apple_gmux_ng backlight-registered "type $(cat "$BL/type"), max $max, want $want"
fi

ok=1
detail=
gmux-simctl reset-stats > /dev/null 2>&1
for v in 0 1 $((max / 3)) $max; do
	echo "$v" > "$BL/brightness"
	actual=$(cat "$BL/actual_brightness")
	sim=$(gmux-simctl get brightness)
	detail="$detail $v:$actual/$sim"
	[ "$actual" = "$v" ] && [ "$sim" = "$v" ] || ok=0
done
if [ "$ok" = 1 ]; then
	pass apple_gmux_ng backlight-roundtrip "set:actual/gmux$detail; simulator's longest poll gap $(gmux-simctl get max_gap_us) us"
else
	# A handshake timeout while the simulator went unpolled for longer
	# than the driver's 15 ms is the host starving the stand-in, not the
	# driver: the line says which it was.
	fail apple_gmux_ng backlight-roundtrip "set:actual/gmux$detail; driver timeouts $(gmux_state timeouts), simulator's longest poll gap $(gmux-simctl get max_gap_us) us"
fi

echo $((max / 2)) > "$BL/brightness"
before=$(gmux-simctl get brightness)
r1=$(timed-io write "$BL/brightness" "$((max + 1))")
r2=$(timed-io write "$BL/brightness" "-1")
after=$(gmux-simctl get brightness)
case "$r1|$r2" in
error\ EINVAL*\|error\ EINVAL*)
	if [ "$before" = "$after" ]; then
		pass apple_gmux_ng backlight-clamps "max+1 and -1 refused with EINVAL, level kept"
	else
		fail apple_gmux_ng backlight-clamps "level changed $before -> $after"
	fi ;;
*)
	fail apple_gmux_ng backlight-clamps "max+1: $r1; -1: $r2" ;;
esac

level=$((max / 4 + 7))
echo "$level" > "$BL/brightness"
rmmod apple_gmux_ng
gmux_load
if [ "$(cat "$BL/actual_brightness" 2>/dev/null)" = "$level" ] &&
   [ "$(cat "$BL/brightness" 2>/dev/null)" = "$level" ]; then
	pass apple_gmux_ng backlight-survives-reload "level $level"
else
	fail apple_gmux_ng backlight-survives-reload "level $(cat "$BL/actual_brightness" 2>/dev/null), want $level"
fi
rmmod apple_gmux_ng

# A gmux reporting 0x3ff (some T2 iMacs): a T2 gmux still gets 0..0xffff and
# its register takes the top of it; the others trust the register.
dmesg_mark bl-3ff
gmux-simctl max-brightness 0x3ff
gmux_load
max=$(cat "$BL/max_brightness" 2>/dev/null)
if [ "$EXPECT_GMUX_KIND" = t2 ]; then
	echo 65535 > "$BL/brightness" 2>/dev/null
	sim=$(gmux-simctl get brightness)
	if [ "$max" = 65535 ] && [ "$sim" = 65535 ] &&
	   dmesg_since bl-3ff | grep -q 'reports a maximum brightness of 0x3ff; T2 gmux take 0..0xffff'; then
		pass apple_gmux_ng backlight-t2-reports-3ff "max $max, 65535 set reaches the gmux ($sim), logged"
	else
		fail apple_gmux_ng backlight-t2-reports-3ff "max $max, gmux brightness $sim after 65535 (want 65535, 65535 and a log line)"
	fi
elif [ "$max" = 1023 ]; then
	pass apple_gmux_ng backlight-reports-3ff "max $max, as register 0x70 says"
else
	fail apple_gmux_ng backlight-reports-3ff "max $max, want 1023"
fi
rmmod apple_gmux_ng
gmux-simctl max-brightness "$raw_max"

# backlight=0 leaves the panel to another interface and says so.
dmesg_mark bl-deny
gmux_load backlight=0
if [ ! -e "$BL" ] && dmesg_since bl-deny | grep -q "backlight left to another interface (backlight=0)"; then
	pass apple_gmux_ng backlight-param-deny
else
	fail apple_gmux_ng backlight-param-deny "backlight present or no message"
fi
rmmod apple_gmux_ng
