# SPDX-License-Identifier: GPL-2.0
# harness: own-boot when EXPECT_BATTERY
#
# macsupport-report --measure end to end, on the profile's emulated battery
# (../profiles/tables/battery.asl): its _BST present rate is 6 W plus
# 1.7 W while the Thunderbolt controller's Thunderbolt rail is on, 0.3 W
# while its USB rail is, 10.2 W while the simulated gmux powers the dGPU,
# plus noise (+-0.2 W); its AC adapter is plugged in by the test.
#  - On AC it refuses (exit 1, "on AC power") and touches nothing.
#  - On battery, every device the bundle powers down is held on, then let
#    go, MEASURE_PAIRS times: the Thunderbolt controller must come out at
#    2.0 +- 0.2 W saved (both rails) and the dGPU at 10.2 +- 0.4 W, each
#    positive and each its own (a mix-up of devices or windows fails);
#    every power/control it wrote is as found afterwards.
#  - With the power-offs disabled (tb_macpm.power_down=0,
#    apple_gmux_ng.dgpu_runtime_off=0) a device saves nothing: about 0 W,
#    and the tool says it did not power off; its JSON is validated on the
#    host.
# Real: the tool, tb_macpm's and apple_gmux_ng's runtime PM, power/control,
# Linux's ACPI battery and AC drivers reading _BST and _PSR. Emulated: the
# battery and its figures (the published ones the estimate uses, not a
# Mac's), the rails (tb.asl's pads), the dGPU (QEMU's secondary-vga, the
# fake GPU driver with runtime PM, the host's gmux simulator). Short
# windows (MEASURE_WINDOW seconds, a parameter), not a Mac's 30 s.

[ -n "${EXPECT_BATTERY:-}" ] || skip_test macsupport-report "no emulated battery on $PROFILE"
WIN=${MEASURE_WINDOW:-3}
PAIRS=${MEASURE_PAIRS:-3}
ACPI_EVAL=/sys/kernel/debug/macsupport_test_acpi/eval
BAT=/sys/class/power_supply/BAT0

modprobe macsupport_test_acpi
modprobe battery
modprobe ac
# bat_set INDEX VALUE: the battery's TEST ONLY ZSET (0: AC online)
bat_set() { echo "\\_SB.BAT0.ZSET $1 $2" > "$ACPI_EVAL"; }
if [ ! -r "$BAT/power_now" ] || [ ! -d /sys/class/power_supply/ADP1 ]; then
	fail macsupport-report measure-battery "no emulated battery: $(ls /sys/class/power_supply 2>&1 | tr '\n' ' ')"
	exit 0
fi

# The devices: the Thunderbolt controller idle (as 42-tb3-power.sh has it),
# the dGPU with a driver that runtime-suspends it (as 74-gmux-runpm.sh)
ctl_files=
nhi= dgpu=
if [ -n "${EXPECT_TB_NHI:-}" ]; then
	tb_load
	nhi=$(tb_nth "$EXPECT_TB_NHI" 1)
	tb_fast "$nhi"
	ctl_files="/sys/bus/pci/devices/$nhi/power/control"
	_x=$(tb_find_dev 1b36:000d "$nhi") && ctl_files="$ctl_files /sys/bus/pci/devices/$_x/power/control"
fi
if [ -n "${EXPECT_DGPU_DEV:-}" ] && gmux_simulated; then
	modprobe macsupport_test_gpe_wire gpe="$EXPECT_GMUX_GPE"
	gmux_load
	modprobe macsupport_test_gpu runpm=1 autosuspend_ms=500
	dgpu=$EXPECT_DGPU_DEV
	wait_until 10 sh -c "[ -e '$(gmux_pnp)/dgpu_power/power/control' ]" > /dev/null
	ctl_files="$ctl_files $(gmux_pnp)/dgpu_power/power/control"
fi
idle()
{
	{ [ -z "$nhi" ] || tb_is 1 off; } &&
	{ [ -z "$dgpu" ] || [ "$(gmux-simctl get dgpu_on)" = 0 ]; }
}
controls() { for _f in $ctl_files; do printf '%s=%s ' "${_f#/sys/}" "$(cat "$_f")"; done; }
if ! t=$(wait_until 30 idle); then
	fail macsupport-report measure-setup "not idle after 30 s: TB $(tb_attr 1 power_state), dGPU $(gmux-simctl get dgpu_on 2>&1)"
	exit 0
fi
found=$(controls)
rate() { awk '{ printf "%.2f", $1 / 1e6 }' "$BAT/power_now"; }
pass macsupport-report measure-setup "idle after $t s: battery $(cat "$BAT/status"), $(rate) W; ${nhi:+Thunderbolt $nhi off; }${dgpu:+dGPU $dgpu cut; }power/control: $found"

# What it saved so far: the modules' residency counters, in the report
sleep 1
macsupport-report > /tmp/m-r.txt 2> /dev/null
bad= got=
if [ -n "$nhi" ]; then
	off=$(tb_attr 1 off_ms) on=$(tb_attr 1 on_ms)
	line=$(grep "^  Thunderbolt $nhi: off " /tmp/m-r.txt)
	got="$got TB on_ms $on off_ms $off: '$line';"
	[ "${off:-0}" -gt 0 ] && [ -n "$on" ] && echo "$line" | grep -q ': off [1-9][0-9]*% of ' ||
		bad="$bad Thunderbolt;"
	grep -A1 "^  Thunderbolt $nhi: off " /tmp/m-r.txt | grep -q '^    estimate: none (none: no published per-controller figure for Thunderbolt 3)$' ||
		bad="$bad Thunderbolt 3 estimate;"
fi
if [ -n "$dgpu" ]; then
	off=$(cat "$(gmux_pnp)/dgpu_power/off_ms") on=$(cat "$(gmux_pnp)/dgpu_power/on_ms")
	line=$(grep "^  dGPU $dgpu: off " /tmp/m-r.txt)
	got="$got dGPU on_ms $on off_ms $off: '$line';"
	[ "${off:-0}" -gt 0 ] && [ -n "$on" ] && echo "$line" | grep -q ': off [1-9][0-9]*% of ' ||
		bad="$bad dGPU;"
	grep -A1 "^  dGPU $dgpu: off " /tmp/m-r.txt | grep -q '^    estimate: about [0-9.]* W saved on average (not measured here; source: 10.2 W: ' ||
		bad="$bad dGPU estimate;"
fi
if [ -z "$bad" ]; then
	pass macsupport-report report-residency "$got"
else
	fail macsupport-report report-residency "wrong:$bad$got"
fi

# On AC: refused, nothing touched
bat_set 0 1
sleep 1.2		# the battery driver's cache (cache_time, 1 s)
if macsupport-report --measure 1 --pairs 1 > /tmp/m-ac.txt 2> /tmp/m-ac.err; then rc=0; else rc=$?; fi
if [ "$rc" = 1 ] && grep -q -F -- '--measure: on AC power (ADP1 is online)' /tmp/m-ac.err && [ ! -s /tmp/m-ac.txt ] &&
   [ "$(controls)" = "$found" ]; then
	pass macsupport-report measure-refuses-on-ac "exit 1: $(head -n 1 /tmp/m-ac.err)"
else
	fail macsupport-report measure-refuses-on-ac "exit $rc, stderr '$(head -c 300 /tmp/m-ac.err | tr '\n' ' ')', power/control now $(controls)"
fi
bat_set 0 0
sleep 1.2

# between LO HI X: LO <= X <= HI
between() { awk -v lo="$1" -v hi="$2" -v x="$3" 'BEGIN { exit !(x != "" && x + 0 >= lo && x + 0 <= hi) }'; }
# saved KIND FILE: the median a text report gives for the device of KIND
saved() { sed -n "s/^  $1 [^ ]*: saves \\([-0-9.]*\\) W .*/\\1/p" "$2"; }

# On battery: each device's own saving, positive
t0=$(uptime_cs)
if macsupport-report --measure "$WIN" --pairs "$PAIRS" > /tmp/m-a.txt 2> /tmp/m-a.err; then rc=0; else rc=$?; fi
secs=$(( ($(uptime_cs) - t0) / 100 ))
sed -n '/^What the bundle saved/,/^Summary$/p' /tmp/m-a.txt | sed 's/^/[guest] /'
sed 's/^/[guest] /' /tmp/m-a.err
windows=$(grep -c 'pair [0-9]*/[0-9]*, \(held on\|let go\) *:' /tmp/m-a.err)
want=0
[ -n "$nhi" ] && want=$((want + 2 * PAIRS))
[ -n "$dgpu" ] && want=$((want + 2 * PAIRS))
tb=$(saved Thunderbolt /tmp/m-a.txt) gpu=$(saved dGPU /tmp/m-a.txt)
bad=
[ "$rc" -le 4 ] && [ "$rc" != 1 ] || bad="$bad exit $rc;"
[ "$windows" = "$want" ] || bad="$bad $windows progress lines, want $want;"
[ -z "$nhi" ] || between 1.8 2.2 "$tb" || bad="$bad Thunderbolt saves '$tb' W, want 1.8..2.2;"
[ -z "$dgpu" ] || between 9.8 10.6 "$gpu" || bad="$bad dGPU saves '$gpu' W, want 9.8..10.6;"
grep -q 'did not power off' /tmp/m-a.txt && bad="$bad a device did not power off;"
[ "$(controls)" = "$found" ] || bad="$bad power/control now $(controls);"
if [ -z "$bad" ]; then
	pass macsupport-report measure-right-device-and-sign "${nhi:+Thunderbolt $nhi saves $tb W (rails: 2.0 W), }${dgpu:+dGPU $dgpu saves $gpu W (10.2 W), }$PAIRS pairs of $WIN s in $secs s, $windows progress lines, every power/control as found"
else
	fail macsupport-report measure-right-device-and-sign "$bad $(sed -n '/^Measured/,/^$/p' /tmp/m-a.txt | tr '\n' '|')"
fi

# The power-offs disabled: nothing saved, said so
[ -z "$nhi" ] || echo 0 > /sys/module/tb_macpm/parameters/power_down
[ -z "$dgpu" ] || echo 0 > /sys/module/apple_gmux_ng/parameters/dgpu_runtime_off
if macsupport-report --json --measure "$WIN" --pairs 2 > /tmp/m-b.json 2> /tmp/m-b.err; then rc=0; else rc=$?; fi
# jsaved KIND FIELD: a field of the device of KIND in the JSON's measurement
jsaved()
{
	tr -d ' \n' < /tmp/m-b.json | sed 's/.*"measurement"://' |
		sed -n "s/.*{\"kind\":\"$1\",[^}]*\"$2\":\\([^,}]*\\).*/\\1/p"
}
bad= got=
for k in ${nhi:+thunderbolt} ${dgpu:+dgpu}; do
	m=$(jsaved "$k" saved_watts_median) miss=$(jsaved "$k" off_windows_missed)
	got="$got $k: $m W, off windows missed $miss;"
	between -0.4 0.4 "$m" || bad="$bad $k saves '$m' W, want about 0;"
	[ "$miss" = 2 ] || bad="$bad $k: off windows missed '$miss', want 2;"
done
[ "$rc" -le 4 ] && [ "$rc" != 1 ] || bad="$bad exit $rc ($(head -c 200 /tmp/m-b.err | tr '\n' ' '));"
[ "$(controls)" = "$found" ] || bad="$bad power/control now $(controls);"
if [ -z "$bad" ]; then
	pass macsupport-report measure-saves-nothing "${nhi:+tb_macpm.power_down=0, }${dgpu:+dgpu_runtime_off=0, }then$got every power/control as found"
else
	fail macsupport-report measure-saves-nothing "$bad$got"
fi
json_check macsupport-report measure-json /tmp/m-b.json
[ -z "$nhi" ] || echo 1 > /sys/module/tb_macpm/parameters/power_down
[ -z "$dgpu" ] || echo 1 > /sys/module/apple_gmux_ng/parameters/dgpu_runtime_off
return 0
