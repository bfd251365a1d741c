#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Tests of tools/macsupport-report, printed as TAP ("ok N - name"), run by
# "make -C src/lib/tests run". The tool runs against made-up /sys and /proc
# trees under a scratch directory (--root): DMI, /sys/module, the drivers'
# directories, mac_quirks's quirk files, apple_gmux_ng's device, backlight
# and dGPU switch, tb_macpm's class, Apple properties; and once against the
# real machine, which is not a Mac. Every --json output is validated against
# Documentation/macsupport-report.schema.json with python3-jsonschema.
#
#   test-macsupport-report.sh MACSUPPORT-REPORT

set -u
TOOL=$1
TOP=$(cd "$(dirname "$0")/../.." && pwd)
SCHEMA=$TOP/Documentation/macsupport-report.schema.json
PY=/usr/bin/python3
T=${KEEP_T:-$(mktemp -d)}
[ -n "${KEEP_T:-}" ] || trap 'rm -rf "$T"' EXIT
n=0
failed=0

ok() {
	n=$((n + 1))
	echo "ok $n - macsupport-report $1${2:+ # $2}"
}

not_ok() {
	n=$((n + 1))
	failed=$((failed + 1))
	echo "not ok $n - macsupport-report $1"
	[ -s "$T/err" ] && sed 's/^/# /' "$T/err" | head -15
}

# check NAME COMMAND...: the command's exit status decides
check() {
	name=$1
	shift
	if "$@" > "$T/err" 2>&1; then ok "$name"; else not_ok "$name"; fi
}

# validate FILE: FILE is one JSON document the schema accepts
cat > "$T/validate.py" <<'EOF'
import json, sys
import jsonschema
schema = json.load(open(sys.argv[1]))
cls = jsonschema.validators.validator_for(schema)
cls.check_schema(schema)
with open(sys.argv[2], encoding="utf-8") as f:
    doc = json.load(f)
errors = sorted(cls(schema).iter_errors(doc), key=lambda e: list(e.path))
for e in errors:
    print("%s: %s" % ("/".join(map(str, e.path)), e.message))
sys.exit(1 if errors else 0)
EOF
printf '#!/bin/sh\nexec "%s" "%s" "%s" "$1"\n' "$PY" "$T/validate.py" "$SCHEMA" > "$T/validate"

# jq_py FILE EXPR: print a Python expression over the document d
cat > "$T/jq_py.py" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1], encoding="utf-8"))
print(eval(sys.argv[2]))
EOF
printf '#!/bin/sh\nexec "%s" "%s" "$1" "$2"\n' "$PY" "$T/jq_py.py" > "$T/jq_py"
chmod +x "$T/validate" "$T/jq_py"
PATH=$T:$PATH
export PATH

if ! "$PY" -c 'import jsonschema' 2> /dev/null; then
	echo "# python3-jsonschema is missing: apt-get install python3-jsonschema (qemu-tests/deps)"
	echo "not ok 1 - macsupport-report needs /usr/bin/python3 with jsonschema"
	echo "1..1"
	exit 1
fi

# run NAME ROOT [ARGS...]: text and JSON of the tool on a tree; the exit
# statuses land in $T/NAME.rc and $T/NAME.jrc
run() {
	_name=$1 _root=$2
	shift 2
	"$TOOL" --root "$_root" "$@" > "$T/$_name.txt" 2> "$T/$_name.stderr"
	echo $? > "$T/$_name.rc"
	"$TOOL" --root "$_root" --json "$@" > "$T/$_name.json" 2>> "$T/$_name.stderr"
	echo $? > "$T/$_name.jrc"
}

# mac DIR VENDOR PRODUCT BOARD BIOS: a fresh tree with DMI and a kernel
mac() {
	rm -rf "$1"
	mkdir -p "$1/sys/class/dmi/id" "$1/sys/module" "$1/proc/sys/kernel" \
		"$1/sys/bus/pci/devices" "$1/sys/devices/pci0000:00"
	printf '%s\n' "$2" > "$1/sys/class/dmi/id/sys_vendor"
	printf '%s\n' "$3" > "$1/sys/class/dmi/id/product_name"
	printf '%s\n' "$4" > "$1/sys/class/dmi/id/board_name"
	printf '%s\n' "$5" > "$1/sys/class/dmi/id/bios_version"
	echo "6.1.0-test-amd64" > "$1/proc/sys/kernel/osrelease"
}

# module DIR NAME [BUS:DRV [DEVICE-PATH...]]: a loaded module, its driver
# and the devices bound to it (symbolic links, as sysfs has them)
module() {
	_d=$1 _m=$2
	mkdir -p "$_d/sys/module/$_m/parameters"
	[ $# -ge 3 ] || return 0
	_bus=${3%%:*} _drv=${3#*:}
	shift 3
	mkdir -p "$_d/sys/module/$_m/drivers" "$_d/sys/bus/$_bus/drivers/$_drv"
	ln -s "../../../bus/$_bus/drivers/$_drv" "$_d/sys/module/$_m/drivers/$_bus:$_drv"
	ln -s "../../../../module/$_m" "$_d/sys/bus/$_bus/drivers/$_drv/module"
	: > "$_d/sys/bus/$_bus/drivers/$_drv/bind"
	: > "$_d/sys/bus/$_bus/drivers/$_drv/uevent"
	for _p in "$@"; do
		mkdir -p "$_d/sys/devices/$_p"
		ln -s "../../../../devices/$_p" "$_d/sys/bus/$_bus/drivers/$_drv/${_p##*/}"
	done
}

# quirk DIR NAME LINE: one quirk file of mac_quirks
quirk() {
	mkdir -p "$1/sys/devices/platform/mac_quirks/quirks"
	printf '%s\n' "$3" > "$1/sys/devices/platform/mac_quirks/quirks/$2"
}

# full_mac DIR: MacBookPro10,1 with every module loaded and bound
full_mac() {
	mac "$1" "Apple Inc." "MacBookPro10,1" "Mac-C3EC7CD22292981F" "MBP101.88Z.00EE.B03.1212211437"
	module "$1" apple_gmux_ng pnp:apple_gmux_ng pnp0/00:03
	mkdir -p "$1/sys/devices/pnp0/00:03/dgpu_power/power" "$1/sys/class/backlight/gmux_backlight"
	echo integrated > "$1/sys/devices/pnp0/00:03/boot_gpu"
	echo suspended > "$1/sys/devices/pnp0/00:03/dgpu_power/power/runtime_status"
	echo none > "$1/sys/devices/pnp0/00:03/dgpu_power/stay_on_reason"
	echo off > "$1/sys/devices/pnp0/00:03/dgpu_power/state"
	echo runtime_pm > "$1/sys/devices/pnp0/00:03/dgpu_power/off_by"
	echo 50 > "$1/sys/class/backlight/gmux_backlight/brightness"
	echo 1023 > "$1/sys/class/backlight/gmux_backlight/max_brightness"
	module "$1" apple_props
	for dev in 0000:00:02.0 0000:01:00.0; do
		mkdir -p "$1/sys/devices/pci0000:00/$dev/apple_properties"
		ln -s "../../../devices/pci0000:00/$dev" "$1/sys/bus/pci/devices/$dev"
	done
	mkdir -p "$1/sys/devices/pci0000:00/0000:00:1f.0"
	ln -s "../../../devices/pci0000:00/0000:00:1f.0" "$1/sys/bus/pci/devices/0000:00:1f.0"
	: > "$1/sys/devices/pci0000:00/0000:00:02.0/apple_properties/AAPL,backlight-control"
	: > "$1/sys/devices/pci0000:00/0000:00:02.0/apple_properties/built-in"
	: > "$1/sys/devices/pci0000:00/0000:01:00.0/apple_properties/@0,name"
	# the dGPU and its audio, the switch's consumers (device links); nouveau has it
	ln -s "../../../../virtual/devlink/pci:0000:01:00.0--pnp:dgpu_power" \
		"$1/sys/devices/pnp0/00:03/dgpu_power/consumer:pci:0000:01:00.0"
	ln -s "../../../../virtual/devlink/pci:0000:01:00.1--pnp:dgpu_power" \
		"$1/sys/devices/pnp0/00:03/dgpu_power/consumer:pci:0000:01:00.1"
	mkdir -p "$1/sys/bus/pci/drivers/nouveau"
	ln -s "../../../bus/pci/drivers/nouveau" "$1/sys/devices/pci0000:00/0000:01:00.0/driver"
	module "$1" tb_macpm
	mkdir -p "$1/sys/class/tb_macpm/0000:07:00.0"
	echo "Cactus Ridge" > "$1/sys/class/tb_macpm/0000:07:00.0/generation"
	echo off > "$1/sys/class/tb_macpm/0000:07:00.0/power_state"
	echo none > "$1/sys/class/tb_macpm/0000:07:00.0/stay_on_reason"
	echo 3 > "$1/sys/class/tb_macpm/0000:07:00.0/power_cycles"
	echo XRPE > "$1/sys/class/tb_macpm/0000:07:00.0/mechanism"
	echo "GPE 0x14 (XRIN)" > "$1/sys/class/tb_macpm/0000:07:00.0/plug_source"
	module "$1" mac_quirks platform:mac_quirks platform/mac_quirks
	quirk "$1" gpe_storm "applied: GPE 0x06 masked at runtime (storm seen on this model)"
	quirk "$1" osi_darwin "covered: the running kernel answers _OSI(\"Darwin\") on Apple hardware"
	quirk "$1" bcm4331_reset "not-applicable: no BCM4331 on this model"
	quirk "$1" wake_sources "disabled: by mac_quirks.disable=wake_sources"
}

# --- 1. a known Mac, every module loaded, one quirk it cannot apply ----------

M=$T/mbp10
full_mac "$M"
quirk "$M" mbp_poweroff_window "cannot-apply: the root port's window collides with an unreported device; fix: boot with pci=nocrs (the kernel parameter)"
run full "$M"
check "known Mac: exit 4 when a quirk cannot be applied (text and JSON)" \
	sh -c "[ \$(cat '$T/full.rc') = 4 ] && [ \$(cat '$T/full.jrc') = 4 ]"
check "known Mac: text names the model and its marketing name" \
	grep -q '^  model: *MacBookPro10,1, MacBook Pro (Retina, 15-inch, .*2012.*)$' "$T/full.txt"
check "known Mac: text lists the modules and what they are bound to" sh -c "
	grep -q '^  apple_gmux_ng *loaded, driver pnp:apple_gmux_ng bound to 00:03\$' '$T/full.txt' &&
	grep -q '^  mac_quirks *loaded, driver platform:mac_quirks bound to mac_quirks; device platform/mac_quirks\$' '$T/full.txt' &&
	grep -q '^  apple_props *loaded, shows properties of 0000:00:02.0, 0000:01:00.0\$' '$T/full.txt' &&
	grep -q '^  tb_macpm *loaded, powers 0000:07:00.0\$' '$T/full.txt'"
check "known Mac: text gives each quirk's state and reason, and the fix" sh -c "
	grep -q '^  gpe_storm: applied: GPE 0x06 masked at runtime' '$T/full.txt' &&
	grep -q '^  osi_darwin: covered: ' '$T/full.txt' &&
	grep -q '^  bcm4331_reset: not-applicable: no BCM4331' '$T/full.txt' &&
	grep -q '^  wake_sources: disabled: by mac_quirks.disable=wake_sources' '$T/full.txt' &&
	grep -q '^  mbp_poweroff_window: cannot-apply: the root port.s window collides with an unreported device\$' '$T/full.txt' &&
	grep -q '^      fix: boot with pci=nocrs (the kernel parameter)\$' '$T/full.txt' &&
	grep -q 'mbp_poweroff_window (cannot-apply): boot with pci=nocrs' '$T/full.txt'"
check "known Mac: text shows gmux, Thunderbolt and Apple properties" sh -c "
	grep -q '^  kind: *indexed\$' '$T/full.txt' &&
	grep -q '^  next boot GPU: integrated\$' '$T/full.txt' &&
	grep -q '^  discrete GPU: *powered off (runtime PM)\$' '$T/full.txt' &&
	! grep -q 'powered because' '$T/full.txt' &&
	grep -q '^  backlight: *gmux_backlight, 50 of 1023\$' '$T/full.txt' &&
	grep -q '^  0000:07:00.0: Cactus Ridge, power off, 3 power-downs\$' '$T/full.txt' &&
	grep -q '^    power: XRPE; plug: GPE 0x14 (XRIN)\$' '$T/full.txt' &&
	grep -q '^  2 devices with 3 properties\$' '$T/full.txt'"
check "known Mac: --json validates against the schema" validate "$T/full.json"
check "known Mac: GPUs and T2 from the model table (text and JSON)" sh -c "
	grep -q '^  GPUs: *integrated + discrete (muxed: the gmux switches the panel)\$' '$T/full.txt' &&
	grep -q '^  T2: *no\$' '$T/full.txt' &&
	[ \"\$(jq_py '$T/full.json' \"d['model']['gpus'], d['model']['t2']\")\" = \"(['integrated', 'discrete', 'muxed'], False)\" ]"
check "known Mac: --json carries model, quirks, fix, gmux, Thunderbolt, properties" sh -c "
	[ \"\$(jq_py '$T/full.json' \"d['status'], d['exit_code'], d['model']['identifier'], d['model']['known'], d['model']['gmux'], d['model']['thunderbolt']\")\" = \"('action-needed', 4, 'MacBookPro10,1', True, 'indexed', {'generation': 'Cactus Ridge', 'count': 1})\" ] &&
	[ \"\$(jq_py '$T/full.json' \"[(q['name'], q['state'], q['fix']) for q in d['quirks']['list']]\")\" = \"[('bcm4331_reset', 'not-applicable', None), ('gpe_storm', 'applied', None), ('mbp_poweroff_window', 'cannot-apply', 'boot with pci=nocrs (the kernel parameter)'), ('osi_darwin', 'covered', None), ('wake_sources', 'disabled', None)]\" ] &&
	[ \"\$(jq_py '$T/full.json' \"d['quirks']['list'][3]['reason']\")\" = 'the running kernel answers _OSI(\"Darwin\") on Apple hardware' ] &&
	[ \"\$(jq_py '$T/full.json' \"[(m['name'], m['loaded'], m['bound']) for m in d['modules']][0]\")\" = \"('apple_gmux_ng', True, [{'bus': 'pnp', 'driver': 'apple_gmux_ng', 'device_count': 1, 'devices': ['00:03']}])\" ] &&
	[ \"\$(jq_py '$T/full.json' \"[(m['name'], m['attached_count'], m['attached']) for m in d['modules']]\")\" = \"[('apple_gmux_ng', 0, []), ('apple_props', 2, ['0000:00:02.0', '0000:01:00.0']), ('tb_macpm', 1, ['0000:07:00.0']), ('mac_quirks', 1, ['platform/mac_quirks'])]\" ] &&
	[ \"\$(jq_py '$T/full.json' \"d['gmux']\")\" = \"{'kind': 'indexed', 'bound': True, 'device': '00:03', 'boot_gpu': 'integrated', 'dgpu_power': 'suspended', 'dgpu_stay_on_reason': 'none', 'dgpu_power_state': 'off', 'dgpu_off_by': 'runtime_pm', 'dgpu_device': '0000:01:00.0', 'dgpu_driver': 'nouveau', 'backlight': {'brightness': 50, 'max_brightness': 1023}}\" ] &&
	[ \"\$(jq_py '$T/full.json' \"(d['thunderbolt']['controllers'], d['apple_properties'])\")\" = \"([{'nhi': '0000:07:00.0', 'generation': 'Cactus Ridge', 'power_state': 'off', 'stay_on_reason': 'none', 'mechanism': 'XRPE', 'plug_source': 'GPE 0x14 (XRIN)', 'power_cycles': 3}], {'devices': 2, 'properties': 3})\" ]"

# --- 1b. the same Mac with its dGPU powered: the report says why ------------

M=$T/mbp10on
full_mac "$M"
echo active > "$M/sys/devices/pnp0/00:03/dgpu_power/power/runtime_status"
echo "its driver does not let it runtime-suspend" > "$M/sys/devices/pnp0/00:03/dgpu_power/stay_on_reason"
echo on > "$M/sys/devices/pnp0/00:03/dgpu_power/state"
echo none > "$M/sys/devices/pnp0/00:03/dgpu_power/off_by"
run dgpuon "$M"
check "known Mac, dGPU powered: text and JSON say why" sh -c "
	grep -q '^  discrete GPU: *powered\$' '$T/dgpuon.txt' &&
	grep -q '^  powered because: *its driver does not let it runtime-suspend\$' '$T/dgpuon.txt' &&
	[ \"\$(jq_py '$T/dgpuon.json' \"d['gmux']['dgpu_stay_on_reason']\")\" = 'its driver does not let it runtime-suspend' ]"

# The same Mac with its dGPU switched OFF through vga_switcheroo (radeon):
# the switch device is active, the power is off, and the report says who.
echo off > "$M/sys/devices/pnp0/00:03/dgpu_power/state"
echo vga_switcheroo > "$M/sys/devices/pnp0/00:03/dgpu_power/off_by"
echo none > "$M/sys/devices/pnp0/00:03/dgpu_power/stay_on_reason"
run dgpuswoff "$M"
check "known Mac, dGPU switched OFF: text and JSON say it is off and by whom" sh -c "
	grep -q '^  discrete GPU: *powered off (switched OFF through vga_switcheroo)\$' '$T/dgpuswoff.txt' &&
	! grep -q 'powered because' '$T/dgpuswoff.txt' &&
	[ \"\$(jq_py '$T/dgpuswoff.json' \"(d['gmux']['dgpu_power'], d['gmux']['dgpu_power_state'], d['gmux']['dgpu_off_by'])\")\" = \"('active', 'off', 'vga_switcheroo')\" ]"
check "known Mac, dGPU switched OFF: --json validates" validate "$T/dgpuswoff.json"

# The same Mac with its GPU driver blacklisted: no driver on the dGPU; cut,
# or kept on for a reason the report gives.
rm "$M/sys/devices/pci0000:00/0000:01:00.0/driver"
echo runtime_pm > "$M/sys/devices/pnp0/00:03/dgpu_power/off_by"
run nodrv "$M"
echo on > "$M/sys/devices/pnp0/00:03/dgpu_power/state"
echo none > "$M/sys/devices/pnp0/00:03/dgpu_power/off_by"
echo "0000:01:00.1 is active" > "$M/sys/devices/pnp0/00:03/dgpu_power/stay_on_reason"
run nodrvon "$M"
check "known Mac, dGPU without a driver: cut, or kept on and why (text and JSON)" sh -c "
	grep -q '^  dGPU driver: *none: the dGPU has no driver: cut\$' '$T/nodrv.txt' &&
	grep -q '^  dGPU driver: *none: the dGPU has no driver: kept on because 0000:01:00.1 is active\$' '$T/nodrvon.txt' &&
	! grep -q 'powered because' '$T/nodrvon.txt' &&
	[ \"\$(jq_py '$T/nodrv.json' \"(d['gmux']['dgpu_device'], d['gmux']['dgpu_driver'])\")\" = \"('0000:01:00.0', None)\" ]"
check "known Mac, dGPU without a driver: --json validates" validate "$T/nodrvon.json"

# --- 2. the same Mac, every quirk in order -----------------------------------

M=$T/mbp10
rm "$M/sys/devices/platform/mac_quirks/quirks/mbp_poweroff_window"
run fine "$M"
check "known Mac, no quirk needs action: exit 0, JSON status ok" sh -c "
	[ \$(cat '$T/fine.rc') = 0 ] && [ \$(cat '$T/fine.jrc') = 0 ] &&
	[ \"\$(jq_py '$T/fine.json' \"d['status'], d['actions']\")\" = \"('ok', [])\" ] &&
	grep -q 'Everything the bundle knows of is in order' '$T/fine.txt'"
check "known Mac, no quirk needs action: --json validates" validate "$T/fine.json"

# A failed quirk also needs the user (exit 4), with its reason when no fix.
quirk "$M" apple_nvme "failed: pci_enable_device returned -5"
run failq "$M"
check "a failed quirk: exit 4, the reason is the action" sh -c "
	[ \$(cat '$T/failq.rc') = 4 ] &&
	grep -q 'apple_nvme (failed): pci_enable_device returned -5' '$T/failq.txt'"
rm "$M/sys/devices/platform/mac_quirks/quirks/apple_nvme"

# A quirk whose GPE or wake devices the machine lacks cannot occur: not
# applicable with that reason, nothing for the user to do.
quirk "$M" gpe_storm "not-applicable: GPE 0x4e does not exist here (AE_BAD_PARAMETER), so it cannot storm"
quirk "$M" wake_sources "not-applicable: XHC1, LID0: not wake devices here (absent, or no _PRW), so they cannot wake this Mac"
run absent "$M"
check "quirks whose objects are absent: not-applicable with the reason, exit 0, no action" sh -c "
	[ \$(cat '$T/absent.rc') = 0 ] && [ \$(cat '$T/absent.jrc') = 0 ] &&
	grep -q -x '  gpe_storm: not-applicable: GPE 0x4e does not exist here (AE_BAD_PARAMETER), so it cannot storm' '$T/absent.txt' &&
	[ \"\$(jq_py '$T/absent.json' \"d['status'], d['actions']\")\" = \"('ok', [])\" ]"
check "quirks whose objects are absent: --json validates" validate "$T/absent.json"
quirk "$M" gpe_storm "applied: GPE 0x06 masked at runtime (storm seen on this model)"
quirk "$M" wake_sources "disabled: by mac_quirks.disable=wake_sources"

# --- 3. a known Mac without mac_quirks -----------------------------------------

M2=$T/mbp82
mac "$M2" "Apple Inc." "MacBookPro8,2" "Mac-94245A3940C91C80" "   MBP81.88Z.0047.B27.1201241646"
module "$M2" apple_gmux_ng pnp:apple_gmux_ng pnp0/00:06
run noquirks "$M2"
check "Mac without mac_quirks: exit 0, says the quirks are unknown and how to load it" sh -c "
	[ \$(cat '$T/noquirks.rc') = 0 ] && [ \$(cat '$T/noquirks.jrc') = 0 ] &&
	grep -q '^  unknown: mac_quirks is not loaded (load it: sudo modprobe mac_quirks)\$' '$T/noquirks.txt' &&
	grep -q '^  mac_quirks *not loaded\$' '$T/noquirks.txt' &&
	grep -q 'sudo modprobe tb_macpm' '$T/noquirks.txt' &&
	grep -q '^  BIOS: *   MBP81.88Z' '$T/noquirks.txt'"
check "Mac without mac_quirks: --json validates, quirks not available" sh -c "
	validate '$T/noquirks.json' &&
	[ \"\$(jq_py '$T/noquirks.json' \"d['quirks'], [m['loaded'] for m in d['modules']], d['gmux']['boot_gpu']\")\" = \"({'available': False, 'truncated': False, 'list': []}, [True, False, False, False], None)\" ]"

# A PNP driver has no owner module: no /sys/module/<m>/drivers link; the
# driver named like the module is found on its bus.
rm -rf "$M2/sys/module/apple_gmux_ng/drivers"
run noowner "$M2"
check "a driver without an owner (PNP) is found by its name" sh -c "
	grep -q '^  apple_gmux_ng *loaded, driver pnp:apple_gmux_ng bound to 00:06\$' '$T/noowner.txt' &&
	validate '$T/noowner.json'"

# --- 4. Apple machines the model table does not know ----------------------------

U=$T/unknown
mac "$U" "Apple Inc." "MacBookPro99,9" "Mac-0000000000000000" "MBP999.88Z"
run unknown "$U"
check "unknown Apple model: exit 3, says unknown model" sh -c "
	[ \$(cat '$T/unknown.rc') = 3 ] && [ \$(cat '$T/unknown.jrc') = 3 ] &&
	grep -q '^  model: *unknown model: MacBookPro99,9 is not in the bundle.s model table\$' '$T/unknown.txt'"
check "unknown Apple model: --json validates, known false, identifier kept" sh -c "
	validate '$T/unknown.json' &&
	[ \"\$(jq_py '$T/unknown.json' \"d['status'], d['model']['identifier'], d['model']['known'], d['model']['name'], d['model']['gmux']\")\" = \"('unknown-model', 'MacBookPro99,9', False, None, None)\" ]"

mac "$U" "Apple Computer, Inc." "Mac" "" ""
run unparsable "$U"
check "Apple Computer, Inc. with a product that is no model identifier: exit 3" sh -c "
	[ \$(cat '$T/unparsable.rc') = 3 ] && validate '$T/unparsable.json' &&
	grep -q 'unknown model: the product name is not an Apple model identifier' '$T/unparsable.txt' &&
	[ \"\$(jq_py '$T/unparsable.json' \"d['machine']['apple'], d['model']['identifier'], d['machine']['board_name']\")\" = \"(True, None, '')\" ]"

# Precedence: a quirk that needs action (4) before an unknown model (3).
mac "$U" "Apple Inc." "iMac99,1" "Mac-1" "IM991"
module "$U" mac_quirks
quirk "$U" gpe_storm "cannot-apply: GPE 0x17 fires constantly; fix: add acpi_mask_gpe=0x17 to the kernel command line"
run unknown4 "$U"
check "unknown model with a quirk that cannot apply: exit 4 (4 before 3)" sh -c "
	[ \$(cat '$T/unknown4.rc') = 4 ] && validate '$T/unknown4.json' &&
	grep -q 'acpi_mask_gpe=0x17' '$T/unknown4.txt'"

# --- 5. not an Apple machine -------------------------------------------------

P=$T/pc
mac "$P" "QEMU" "Standard PC (Q35 + ICH9, 2009)" "Standard PC (Q35 + ICH9, 2009)" "1.16.2-debian"
run pc "$P"
check "not an Apple machine: exit 2, text says so" sh -c "
	[ \$(cat '$T/pc.rc') = 2 ] && [ \$(cat '$T/pc.jrc') = 2 ] &&
	grep -q 'not an Apple machine' '$T/pc.txt'"
check "not an Apple machine: --json validates, apple false, model null" sh -c "
	validate '$T/pc.json' &&
	[ \"\$(jq_py '$T/pc.json' \"d['status'], d['machine']['apple'], d['model'], d['machine']['sys_vendor']\")\" = \"('not-apple', False, None, 'QEMU')\" ]"

# Precedence: not Apple (2) before a quirk that needs action (4).
quirk "$P" gpe_storm "failed: whatever"
run pc4 "$P"
check "not an Apple machine with a failed quirk file: exit 2 (2 before 4)" sh -c "
	[ \$(cat '$T/pc4.rc') = 2 ] && validate '$T/pc4.json'"

# A near miss of the vendor is not Apple; no DMI at all is not Apple either.
mac "$P" "Apple" "MacBookPro10,1" "" ""
run nearmiss "$P"
rm -rf "$P/sys/class/dmi"
run nodmi "$P"
check "vendor 'Apple' and a tree without DMI: exit 2, JSON validates" sh -c "
	[ \$(cat '$T/nearmiss.rc') = 2 ] && [ \$(cat '$T/nodmi.rc') = 2 ] &&
	validate '$T/nearmiss.json' && validate '$T/nodmi.json' &&
	grep -q 'not an Apple machine (no DMI vendor)' '$T/nodmi.txt' &&
	[ \"\$(jq_py '$T/nodmi.json' \"d['machine']['sys_vendor'], d['machine']['product_name']\")\" = '(None, None)' ]"
run empty "$T/does-not-exist"
check "a root that does not exist: exit 2, JSON validates" sh -c "
	[ \$(cat '$T/empty.rc') = 2 ] && validate '$T/empty.json'"

# --- 6. garbage --------------------------------------------------------------

G=$T/garbage
full_mac "$G"
printf 'Apple Inc.   \r\n' > "$G/sys/class/dmi/id/sys_vendor"
head -c 20000 /dev/zero | tr '\0' 'M' > "$G/sys/class/dmi/id/product_name"
printf 'Mac-"quoted"\\back\tslash\001\033[31m\377\300\257 caf\303\251 \360\237\215\216\n' > "$G/sys/class/dmi/id/board_name"
printf 'BIOS\000hidden\n' > "$G/sys/class/dmi/id/bios_version"
: > "$G/proc/sys/kernel/osrelease"
Q=$G/sys/devices/platform/mac_quirks/quirks
printf 'garbage without a state\n' > "$Q/g1"
printf '\377\376\000\001binary' > "$Q/g2"
: > "$Q/g3"
printf 'applied' > "$Q/g4"
printf 'failed:' > "$Q/g5"
mkdir "$Q/g6"
mkfifo "$Q/g7"
head -c 100000 /dev/zero | tr '\0' 'x' | sed 's/^/cannot-apply: /' > "$Q/g8"
printf 'applied: "quoted" \\ reason\001; fix: \033 \377 ; fix: twice\n' > "$Q/weird \"name\"\\"
printf 'x' > "$Q/.hidden"
echo "on and on and on" > "$G/sys/class/tb_macpm/0000:07:00.0/power_cycles"
echo "-1" > "$G/sys/class/backlight/gmux_backlight/brightness"
echo "99999999999999999999999" > "$G/sys/class/backlight/gmux_backlight/max_brightness"
mkdir "$G/sys/module/mac_quirks/drivers/nocolon" "$G/sys/module/mac_quirks/drivers/:x" \
	"$G/sys/module/mac_quirks/drivers/bus:"
ln -s nowhere "$G/sys/module/mac_quirks/drivers/gone:drv"
if command -v timeout > /dev/null; then TO="timeout 20"; else TO=; fi
$TO "$TOOL" --root "$G" > "$T/garbage.txt" 2> "$T/garbage.stderr"
echo $? > "$T/garbage.rc"
$TO "$TOOL" --root "$G" --json > "$T/garbage.json" 2>> "$T/garbage.stderr"
echo $? > "$T/garbage.jrc"
check "garbage, long and binary files, FIFO, directories: no crash, no hang, exit 4" sh -c "
	[ \$(cat '$T/garbage.rc') = 4 ] && [ \$(cat '$T/garbage.jrc') = 4 ] && [ ! -s '$T/garbage.stderr' ] &&
	grep -q 'g5 (failed): see the kernel log' '$T/garbage.txt'"
check "garbage: --json validates (escaped, valid UTF-8)" validate "$T/garbage.json"
check "garbage: strings escaped and read back, invalid UTF-8 as U+FFFD" sh -c "
	[ \"\$(jq_py '$T/garbage.json' \"d['machine']['board_name'] == 'Mac-\\\"quoted\\\"\\\\\\\\back\\\\tslash\\\\x01\\\\x1b[31m\\\\ufffd\\\\ufffd\\\\ufffd caf\\\\xe9 \\\\U0001f34e'\")\" = True ] &&
	[ \"\$(jq_py '$T/garbage.json' \"(d['machine']['sys_vendor'], d['machine']['bios_version'], d['machine']['kernel'], len(d['machine']['product_name']), d['model']['identifier'])\")\" = \"('Apple Inc.', 'BIOS', '', 255, None)\" ]"
cat > "$T/garbage-quirks.py" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1], encoding="utf-8"))
q = {x["name"]: x for x in d["quirks"]["list"]}
got = [(n, q[n]["state"]) for n in sorted(q) if n.startswith(("g", ".")) and n != "gpe_storm"]
want = [("g1", "unknown"), ("g2", "unknown"), ("g3", "unknown"), ("g4", "applied"),
        ("g5", "failed"), ("g6", "unknown"), ("g7", "unknown"), ("g8", "cannot-apply")]
assert got == want, got
assert q["g1"]["reason"] == "garbage without a state", q["g1"]
assert q["g2"]["reason"] == "\ufffd\ufffd", q["g2"]
assert q["g6"]["reason"].startswith("cannot read it: "), q["g6"]
assert len(q["g8"]["reason"]) == 1023 - len("cannot-apply: "), len(q["g8"]["reason"])
w = q['weird "name"\\']
assert (w["state"], w["reason"], w["fix"]) == \
    ("applied", '"quoted" \\ reason\x01', "\x1b \ufffd ; fix: twice"), w
EOF
check "garbage: unknown states, the quirk the ABI format allows, hidden files skipped" \
	"$PY" "$T/garbage-quirks.py" "$T/garbage.json"
check "garbage: unreadable counters are null, odd driver entries skipped" sh -c "
	[ \"\$(jq_py '$T/garbage.json' \"(d['thunderbolt']['controllers'][0]['power_cycles'], d['gmux']['backlight'], [b['bus'] + ':' + b['driver'] for b in d['modules'][3]['bound']])\")\" = \"(None, {'brightness': None, 'max_brightness': None}, ['gone:drv', 'platform:mac_quirks'])\" ]"
check "garbage: text has no control characters" sh -c "
	! LC_ALL=C tr -d '\n' < '$T/garbage.txt' | LC_ALL=C grep -q '[[:cntrl:]]'"

# --- 7. options --------------------------------------------------------------

check "--help: exit 0, documents the exit statuses" sh -c "
	'$TOOL' --help > '$T/help' && grep -q '^Exit status: 0' '$T/help' && grep -q -- '--root DIR' '$T/help'"
check "--version names the schema version" sh -c "'$TOOL' --version | grep -q 'schema_version 1'"
check "an unknown option: exit 1, usage on stderr" sh -c "
	'$TOOL' --bogus > '$T/o' 2> '$T/e'; [ \$? = 1 ] && [ ! -s '$T/o' ] && grep -q usage '$T/e'"
check "--root without a directory: exit 1" sh -c "'$TOOL' --root > /dev/null 2>&1; [ \$? = 1 ]"
check "--root / is the real tree" sh -c "
	'$TOOL' --root / --json > '$T/slash.json'; a=\$?; '$TOOL' --json > '$T/noroot.json'; b=\$?;
	[ \$a = \$b ] && cmp '$T/slash.json' '$T/noroot.json'"

# --- 8. the validator can fail ------------------------------------------------

"$PY" - "$T/full.json" "$T" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
bad = [
    ("state", lambda d: d["quirks"]["list"][0].__setitem__("state", "bogus")),
    ("missing", lambda d: d.pop("machine")),
    ("version", lambda d: d.__setitem__("schema_version", 2)),
    ("extra", lambda d: d["gmux"].__setitem__("extra", 1)),
    ("modules", lambda d: d["modules"].pop()),
]
for name, f in bad:
    x = json.loads(json.dumps(d))
    f(x)
    json.dump(x, open("%s/bad-%s.json" % (sys.argv[2], name), "w"))
EOF
for b in state missing version extra modules; do
	check "the schema rejects a wrong document ($b)" sh -c "! validate '$T/bad-$b.json'"
done
printf '{"schema_version": 1,' > "$T/bad-truncated.json"
check "the validator rejects truncated JSON" sh -c "! validate '$T/bad-truncated.json'"

# --- 10. --firmware: the table reader and check (made-up tables) -------------
#
# tools/tests/fw-tables.py assembles the tables in the shapes of Apple's; the
# real Macs' are checked by qemu-tests/host/firmware-check (MAC_DUMPS).

cat > "$T/validate_fw.py" <<'EOF'
import json, sys
import jsonschema
schema = json.load(open(sys.argv[1]))
sub = {"$schema": schema["$schema"], "$defs": schema["$defs"],
       "$ref": "#/$defs/firmware_report"}
cls = jsonschema.validators.validator_for(sub)
doc = json.load(open(sys.argv[2], encoding="utf-8"))
errors = list(cls(sub).iter_errors(doc))
for e in errors:
    print("%s: %s" % ("/".join(map(str, e.path)), e.message))
sys.exit(1 if errors else 0)
EOF
printf '#!/bin/sh\nexec "%s" "%s" "%s" "$1"\n' "$PY" "$T/validate_fw.py" "$SCHEMA" > "$T/validate_fw"
chmod +x "$T/validate_fw"
"$PY" "$TOP/tools/tests/fw-tables.py" "$T/fw"

# fw NAME DIR [ARGS...]: text and JSON of --firmware DIR
fw() {
	_name=$1 _dir=$2
	shift 2
	"$TOOL" --firmware "$_dir" "$@" > "$T/$_name.txt" 2> "$T/$_name.stderr"
	echo $? > "$T/$_name.rc"
	"$TOOL" --firmware "$_dir" --json "$@" > "$T/$_name.json" 2>> "$T/$_name.stderr"
	echo $? > "$T/$_name.jrc"
}

fw fw-agree "$T/fw/classic-tb1" --model MacBookPro8,2
check "--firmware: classic gmux and Light Ridge tables agree with MacBookPro8,2, exit 0" sh -c "
	[ \$(cat '$T/fw-agree.rc') = 0 ] && [ \$(cat '$T/fw-agree.jrc') = 0 ] &&
	grep -q 'APP000B \"gmux\", I/O ports at 0x0700, 0xff bytes (classic or indexed); GPE 0x16 (GMGP)' '$T/fw-agree.txt' &&
	grep -q 'power: XRPE; plug: GPE 0x14 (XRIN)' '$T/fw-agree.txt' &&
	grep -q 'differs: *nothing' '$T/fw-agree.txt' && validate_fw '$T/fw-agree.json' &&
	[ \"\$(jq_py '$T/fw-agree.json' \"d['firmware']['status'], d['firmware']['gmux']['resource'], d['firmware']['thunderbolt'][0]['mechanism']\")\" = \"('agrees', 'io', 'XRPE')\" ]"

fw fw-differ "$T/fw/t2-tb3" --model MacBookPro8,2
check "--firmware: T2 tables against MacBookPro8,2: one line per difference, exit 5" sh -c "
	[ \$(cat '$T/fw-differ.rc') = 5 ] && [ \$(cat '$T/fw-differ.jrc') = 5 ] &&
	grep -q 'MacBookPro8,2: gmux: the model table says classic (I/O ports), the firmware declares APP000B at .*GPUC with memory at 0xfe0b0200' '$T/fw-differ.txt' &&
	grep -q 'MacBookPro8,2: thunderbolt: the model table says 1 Light Ridge controller, the firmware declares 2' '$T/fw-differ.txt' &&
	validate_fw '$T/fw-differ.json' &&
	[ \"\$(jq_py '$T/fw-differ.json' \"d['firmware']['status'], len(d['firmware']['differences'])\")\" = \"('differs', 4)\" ]"

fw fw-t2 "$T/fw/t2-tb3" --model MacBookPro15,1
check "--firmware: T2 gmux, Titan Ridge votes and edge plug GPEs agree with MacBookPro15,1" sh -c "
	[ \$(cat '$T/fw-t2.rc') = 0 ] && validate_fw '$T/fw-t2.json' &&
	grep -q 'power: RTPC votes, root port _PS3; plug: GPE 0x4b, edge' '$T/fw-t2.txt' &&
	[ \"\$(jq_py '$T/fw-t2.json' \"d['firmware']['thunderbolt'][1]['plug_gpe']\")\" = \"{'gpe': 76, 'trigger': 'edge', 'pad': None}\" ]"

fw fw-unknown "$T/fw/t2-tb3"
check "--firmware: a folder name that is no model: the firmware alone, exit 3" sh -c "
	[ \$(cat '$T/fw-unknown.rc') = 3 ] && validate_fw '$T/fw-unknown.json' &&
	grep -q 'not compared' '$T/fw-unknown.txt' &&
	[ \"\$(jq_py '$T/fw-unknown.json' \"d['firmware']['status'], d['firmware']['model']\")\" = \"('unknown-model', None)\" ]"

fw fw-quirks "$T/fw/quirks" --model MacBookPro11,3
check "--firmware: the quirk table's GPE and wake devices for MacBookPro11,3" sh -c "
	[ \$(cat '$T/fw-quirks.rc') = 0 ] && validate_fw '$T/fw-quirks.json' &&
	grep -q 'gpe_storm GPE 0x06: a method in' '$T/fw-quirks.txt' &&
	grep -q 'wake_sources ._SB.PCI0.XHC1: _PRW GPE 0x0d' '$T/fw-quirks.txt' &&
	grep -q 'wake_sources ._SB.LID0: _PRW GPE 0x23' '$T/fw-quirks.txt'"

for b in short length checksum aml trailing signature; do
	fw "fw-bad-$b" "$T/fw/bad-$b" --model MacBookPro8,2
	check "--firmware: malformed table ($b): refused with its reason, exit 1, no crash" sh -c "
		[ \$(cat '$T/fw-bad-$b.rc') = 1 ] && [ \$(cat '$T/fw-bad-$b.jrc') = 1 ] &&
		grep -q 'error: *DSDT.aml: ' '$T/fw-bad-$b.txt' && validate_fw '$T/fw-bad-$b.json' &&
		[ \"\$(jq_py '$T/fw-bad-$b.json' \"d['firmware']['status']\")\" = error ]"
done

# past the check's room: refused with the reason, never a silent "agrees"
fw fw-many-tables "$T/fw/many-tables" --model MacBookPro8,2
check "--firmware: one table more than the check has room for (64): refused, exit 1" sh -c "
	[ \$(cat '$T/fw-many-tables.rc') = 1 ] && [ \$(cat '$T/fw-many-tables.jrc') = 1 ] &&
	grep -q 'tables: *65 (1 DSDT, 64 SSDT), 1 refused' '$T/fw-many-tables.txt' &&
	grep -q 'error: *SSDT-64.aml: too many tables: the check has room for 64, this one and those after it were not read' '$T/fw-many-tables.txt' &&
	validate_fw '$T/fw-many-tables.json' &&
	[ \"\$(jq_py '$T/fw-many-tables.json' \"d['firmware']['status'], d['firmware']['tables'][64]['file'], d['firmware']['tables'][64]['offset']\")\" = \"('error', 'SSDT-64.aml', None)\" ]"
fw fw-many-objects "$T/fw/many-objects" --model MacBookPro8,2
check "--firmware: one named object more than the check has room for (4096): refused at its byte, exit 1" sh -c "
	[ \$(cat '$T/fw-many-objects.rc') = 1 ] && [ \$(cat '$T/fw-many-objects.jrc') = 1 ] &&
	grep -q 'error: *DSDT.aml: too many named objects: the check has room for 4096 in all tables (at byte 57387)' '$T/fw-many-objects.txt' &&
	validate_fw '$T/fw-many-objects.json' &&
	[ \"\$(jq_py '$T/fw-many-objects.json' \"d['firmware']['status'], d['firmware']['tables'][0]['offset']\")\" = \"('error', 57387)\" ]"

fw fw-none "$T/fw/nothing-here" --model MacBookPro8,2
check "--firmware: a folder that is not there: an error, exit 1" sh -c "
	[ \$(cat '$T/fw-none.rc') = 1 ] && grep -q 'error: *no such folder' '$T/fw-none.txt' &&
	validate_fw '$T/fw-none.json'"

# this machine's tables under --root: the report with its firmware section
fwroot=$T/fwroot
mac "$fwroot" "Apple Inc." "MacBookPro8,2" "Mac-94245A3940C91C80" "MBP81.88Z.0047.B27.1201241646"
mkdir -p "$fwroot/sys/firmware/acpi/tables/dynamic"
cp "$T/fw/classic-tb1/DSDT.aml" "$fwroot/sys/firmware/acpi/tables/DSDT"
cp "$T/fw/classic-tb1/SSDT-1.aml" "$fwroot/sys/firmware/acpi/tables/SSDT1"
cp "$T/fw/classic-tb1/SSDT-2.aml" "$fwroot/sys/firmware/acpi/tables/dynamic/SSDT3"
run fw-live "$fwroot" --firmware
check "--firmware on this machine (--root): the report gains its firmware section, model from DMI" sh -c "
	grep -q '^Firmware (ACPI tables)' '$T/fw-live.txt' && grep -q 'MacBookPro8,2 (dmi)' '$T/fw-live.txt' &&
	grep -q 'tables: *3 (1 DSDT, 2 SSDT), 0 refused' '$T/fw-live.txt' && validate '$T/fw-live.json' &&
	[ \"\$(jq_py '$T/fw-live.json' \"d['firmware']['status'], d['firmware']['tables'][2]['file']\")\" = \"('agrees', 'dynamic/SSDT3')\" ]"
# a refused table on this machine: the exit status stays the report's, the
# Summary says so
cp "$T/fw/bad-checksum/DSDT.aml" "$fwroot/sys/firmware/acpi/tables/dynamic/SSDT4"
run fw-live-bad "$fwroot" --firmware
rm "$fwroot/sys/firmware/acpi/tables/dynamic/SSDT4"
check "--firmware on this machine, a table refused: the Summary says so, the exit status is the report's" sh -c "
	[ \$(cat '$T/fw-live-bad.rc') = \$(cat '$T/fw-live.rc') ] &&
	grep -q 'dynamic/SSDT4: bad checksum' '$T/fw-live-bad.txt' &&
	sed -n '/^Summary/,\$p' '$T/fw-live-bad.txt' | grep -q '^  The firmware check refused 1 of the 4 tables (see Firmware): it covers the others only.\$' &&
	! sed -n '/^Summary/,\$p' '$T/fw-live.txt' | grep -q 'The firmware' &&
	validate '$T/fw-live-bad.json' &&
	[ \"\$(jq_py '$T/fw-live-bad.json' \"d['firmware']['status']\")\" = error ]"
# a table it may not read: as root the tool runs as nobody (setpriv), who
# must reach the tree through $T
chmod 000 "$fwroot/sys/firmware/acpi/tables/SSDT1"
as=
if [ "$(id -u)" = 0 ] && command -v setpriv > /dev/null; then
	as="setpriv --reuid=65534 --regid=65534 --clear-groups"
	chmod o+x "$T"
fi
if [ -z "$as" ] && [ -r "$fwroot/sys/firmware/acpi/tables/SSDT1" ]; then
	ok "--firmware on this machine, a table it may not read" "SKIP: root without setpriv: every file is readable"
else
	$as "$TOOL" --root "$fwroot" --firmware > "$T/fw-noperm.txt" 2> "$T/fw-noperm.stderr"
	$as "$TOOL" --root "$fwroot" --firmware --json > "$T/fw-noperm.json" 2>> "$T/fw-noperm.stderr"
	check "--firmware on this machine, a table it may not read: says to run as root${as:+ (run as nobody)}" sh -c "
		grep -q 'SSDT1: cannot be read: permission denied (run as root)' '$T/fw-noperm.txt' &&
		grep -q 'tables: *3 (1 DSDT, 2 SSDT), 1 refused' '$T/fw-noperm.txt' &&
		validate '$T/fw-noperm.json' &&
		[ \"\$(jq_py '$T/fw-noperm.json' \"d['firmware']['status'], d['firmware']['tables'][1]['error']\")\" = \"('error', 'cannot be read: permission denied (run as root)')\" ]"
fi
[ -n "$as" ] && chmod o-x "$T"
chmod 644 "$fwroot/sys/firmware/acpi/tables/SSDT1"
run fw-off "$fwroot"
check "without --firmware no firmware section" sh -c "
	! grep -q '^Firmware' '$T/fw-off.txt' && validate '$T/fw-off.json' &&
	[ \"\$(jq_py '$T/fw-off.json' \"'firmware' in d\")\" = False ]"
check "--model without --firmware is a usage error" sh -c "
	'$TOOL' --model MacBookPro8,2 > /dev/null 2>&1; [ \$? = 1 ]"
# --firmware DIR reads a folder alone: --measure and --pairs are refused,
# not ignored (exit 1, nothing on standard output)
for a in "--measure" "--measure 5 --pairs 2" "--pairs 2"; do
	# shellcheck disable=SC2086
	"$TOOL" --firmware "$T/fw/classic-tb1" --model MacBookPro8,2 $a > "$T/fw-meas.txt" 2> "$T/fw-meas.err"
	echo $? > "$T/fw-meas.rc"
	check "--firmware DIR $a is a usage error" sh -c "
		[ \$(cat '$T/fw-meas.rc') = 1 ] && [ ! -s '$T/fw-meas.txt' ] &&
		grep -q -e '--measure measures this machine' -e '--pairs goes with --measure' '$T/fw-meas.err'"
done
# --- 8b. what the bundle saved (residency, estimate) and --measure ----------

# The controller's residency and the dGPU's (tb_macpm's and apple_gmux_ng's
# on_ms/off_ms); the estimate is the published figure times the share off
S=$T/save
full_mac "$S"
echo 25000 > "$S/sys/class/tb_macpm/0000:07:00.0/on_ms"
echo 75000 > "$S/sys/class/tb_macpm/0000:07:00.0/off_ms"
echo 10000 > "$S/sys/devices/pnp0/00:03/dgpu_power/on_ms"
echo 90000 > "$S/sys/devices/pnp0/00:03/dgpu_power/off_ms"
run save "$S"
check "savings: text gives each device's share off and an estimate with its source" sh -c "
	grep -q '^  Thunderbolt 0000:07:00.0: off 75% of 100 s awake\$' '$T/save.txt' &&
	grep -q '^    estimate: about 1.3 W saved on average (not measured here; source: 1.7 W: 12.2 -> 10.5 W, ' '$T/save.txt' &&
	grep -q '^  dGPU 0000:01:00.0: off 90% of 100 s awake\$' '$T/save.txt' &&
	grep -q '^    estimate: about 9.2 W saved on average (not measured here; source: 10.2 W: 23.9 -> 13.7 W, ' '$T/save.txt'"
check "savings: JSON carries the residency and the estimate, labelled so, and validates" sh -c "
	validate '$T/save.json' &&
	[ \"\$(jq_py '$T/save.json' \"[(s['kind'], s['device'], s['on_ms'], s['off_ms'], s['off_share'], s['estimate']['is_estimate'], s['estimate']['saved_watts']) for s in d['savings']]\")\" = \"[('thunderbolt', '0000:07:00.0', 25000, 75000, 0.75, True, 1.275), ('dgpu', '0000:01:00.0', 10000, 90000, 0.9, True, 9.18)]\" ] &&
	[ \"\$(jq_py '$T/save.json' \"d['measurement']\")\" = None ]"
# Thunderbolt 3: no published figure, said so; a controller kept on says why
echo "Alpine Ridge" > "$S/sys/class/tb_macpm/0000:07:00.0/generation"
echo "a Thunderbolt device or peer is connected" > "$S/sys/class/tb_macpm/0000:07:00.0/stay_on_reason"
rm "$S/sys/devices/pnp0/00:03/dgpu_power/off_ms"
run save3 "$S"
check "savings: Thunderbolt 3 has no estimate, a reason to stay on is given, an old module's counters are unknown" sh -c "
	grep -q '^  Thunderbolt 0000:07:00.0: off 75% of 100 s awake; stays on now: a Thunderbolt device or peer is connected\$' '$T/save3.txt' &&
	grep -q '^    estimate: none (none: no published per-controller figure for Thunderbolt 3)\$' '$T/save3.txt' &&
	grep -q '^  dGPU 0000:01:00.0: time off not known' '$T/save3.txt' &&
	validate '$T/save3.json' &&
	[ \"\$(jq_py '$T/save3.json' \"[(s['off_share'], s['estimate']['idle_watts'], s['estimate']['saved_watts']) for s in d['savings']]\")\" = \"[(0.75, None, None), (None, 10.2, None)]\" ]"

# --measure on a made-up tree: the controller's chip (upstream port, DSB0 ->
# NHI, DSB2 -> xHCI), the gmux's switch, a battery. Nothing here reacts to
# the writes, so the devices never change state: what is checked is the
# refusals, what the hold writes, that everything is given back, the output
K=$T/meas
full_mac "$K"
echo 1000 > "$K/sys/class/tb_macpm/0000:07:00.0/on_ms"
echo 1000 > "$K/sys/class/tb_macpm/0000:07:00.0/off_ms"
chip=$K/sys/devices/pci0000:00/0000:00:01.1/0000:05:00.0
for f in 0000:06:00.0/0000:07:00.0:0x088000 0000:06:02.0/0000:08:00.0:0x0c0330 \
	 0000:06:01.0/0000:09:00.0:0x060400; do
	p=$chip/${f%:*}
	mkdir -p "$p/power"
	echo "${f##*:}" > "$p/class"
	ln -s "../../../devices/pci0000:00/0000:00:01.1/0000:05:00.0/${f%:*}" \
		"$K/sys/bus/pci/devices/${p##*/}"
done
# a device's directory has dozens of attribute files besides its devices
for a in aer_dev_correctable ari_enabled broken_parity_status class config consistent_dma_mask_bits \
	 current_link_speed current_link_width d3cold_allowed device dma_mask_bits driver_override \
	 enable irq link local_cpulist local_cpus max_link_speed max_link_width modalias msi_bus \
	 numa_node power_state remove rescan reset resource revision secondary_bus_number \
	 subordinate_bus_number subsystem_device subsystem_vendor uevent vendor; do
	: > "$chip/$a"
	: > "$chip/0000:06:02.0/$a"
done
echo auto > "$chip/0000:06:00.0/0000:07:00.0/power/control"
echo auto > "$chip/0000:06:02.0/0000:08:00.0/power/control"
echo auto > "$chip/0000:06:01.0/0000:09:00.0/power/control"
echo auto > "$K/sys/devices/pnp0/00:03/dgpu_power/power/control"
controls() {
	for _f in "$chip/0000:06:00.0/0000:07:00.0/power/control" "$chip/0000:06:02.0/0000:08:00.0/power/control" \
		"$chip/0000:06:01.0/0000:09:00.0/power/control" "$K/sys/devices/pnp0/00:03/dgpu_power/power/control"; do
		printf '%s ' "$(cat "$_f")"
	done
}
found=$(controls)
"$TOOL" --root "$K" --measure 0.2 --pairs 1 > "$T/m0.txt" 2> "$T/m0.err"
echo $? > "$T/m0.rc"
now=$(controls)
check "--measure: without a battery it refuses, touching nothing" sh -c "
	[ \$(cat '$T/m0.rc') = 1 ] && grep -q -- '--measure: no battery in /sys/class/power_supply' '$T/m0.err' &&
	[ ! -s '$T/m0.txt' ] && [ '$now' = '$found' ]"
mkdir -p "$K/sys/class/power_supply/BAT0" "$K/sys/class/power_supply/ADP1" \
	"$K/sys/class/power_supply/hidpp_battery_0"
echo Battery > "$K/sys/class/power_supply/hidpp_battery_0/type"
echo Device > "$K/sys/class/power_supply/hidpp_battery_0/scope"
echo Battery > "$K/sys/class/power_supply/BAT0/type"
echo Discharging > "$K/sys/class/power_supply/BAT0/status"
echo 12000000 > "$K/sys/class/power_supply/BAT0/power_now"
echo Mains > "$K/sys/class/power_supply/ADP1/type"
echo 1 > "$K/sys/class/power_supply/ADP1/online"
"$TOOL" --root "$K" --measure 0.2 --pairs 1 > "$T/m1.txt" 2> "$T/m1.err"
echo $? > "$T/m1.rc"
now=$(controls)
check "--measure: on AC it refuses (exit 1), touching nothing" sh -c "
	[ \$(cat '$T/m1.rc') = 1 ] && grep -q -- '--measure: on AC power (ADP1 is online)' '$T/m1.err' &&
	[ ! -s '$T/m1.txt' ] && [ '$now' = '$found' ]"
echo 0 > "$K/sys/class/power_supply/ADP1/online"
if [ "$(id -u)" = 0 ] && command -v setpriv > /dev/null; then
	setpriv --reuid=65534 --regid=65534 --clear-groups "$TOOL" --root "$K" --measure 0.2 \
		> "$T/m2.txt" 2> "$T/m2.err"
else
	"$TOOL" --root "$K" --measure 0.2 > "$T/m2.txt" 2> "$T/m2.err"
fi
echo $? > "$T/m2.rc"
check "--measure: without root it refuses" sh -c "
	[ \$(cat '$T/m2.rc') = 1 ] && grep -q -- '--measure needs root' '$T/m2.err' && [ ! -s '$T/m2.txt' ]"
if [ "$(id -u)" = 0 ]; then
	"$TOOL" --root "$K" --json --measure 0.2 --pairs 2 > "$T/m3.json" 2> "$T/m3.err"
	echo $? > "$T/m3.rc"
	now=$(controls)
	check "--measure: a run holds the NHI and the xHCI (not a port's device) and the dGPU's switch, and gives them back" sh -c "
		[ \$(cat '$T/m3.rc') = 0 ] && [ '$now' = '$found' ] &&
		[ \$(grep -c 'pair [12]/2, held on : 12.00 W' '$T/m3.err') = 4 ] &&
		[ \$(grep -c 'pair [12]/2, let go  : 12.00 W' '$T/m3.err') = 4 ] &&
		grep -q 'Thunderbolt 0000:07:00.0, pair 1/2, held on : 12.00 W (.* readings, NOT on after' '$T/m3.err'"
	check "--measure: the JSON carries the measurement and validates" sh -c "
		validate '$T/m3.json' &&
		[ \"\$(jq_py '$T/m3.json' \"[(x['kind'], x['pairs_done'], x['saved_watts_median'], x['on_watts'], x['off_windows_missed'], x['on_windows_missed']) for x in d['measurement']['devices']]\")\" = \"[('thunderbolt', 2, 0.0, [12.0, 12.0], 0, 2), ('dgpu', 2, 0.0, [12.0, 12.0], 0, 2)]\" ]"
	# current x voltage where the battery has no power_now (mA units)
	rm "$K/sys/class/power_supply/BAT0/power_now"
	echo -1500000 > "$K/sys/class/power_supply/BAT0/current_now"
	echo 11400000 > "$K/sys/class/power_supply/BAT0/voltage_now"
	"$TOOL" --root "$K" --measure 0.2 --pairs 1 > "$T/m4.txt" 2> "$T/m4.err"
	now=$(controls)
	check "--measure: current_now x voltage_now (17.10 W), the text reports the median and spread" sh -c "
		grep -q 'held on : 17.10 W (.* readings, current x voltage' '$T/m4.err' &&
		grep -q '^Measured on the battery (BAT0, current_now x voltage_now; 1 pair of 0.2 s windows)\$' '$T/m4.txt' &&
		grep -q '^  Thunderbolt 0000:07:00.0: saves 0.00 W (median of 1; spread 0.00 .. 0.00 W); did not power on in 1 of 1 windows\$' '$T/m4.txt' &&
		[ '$now' = '$found' ]"
	# Ctrl-C in a window: every device given back as found
	"$TOOL" --root "$K" --measure 30 > "$T/m5.txt" 2> "$T/m5.err" &
	pid=$!
	for _ in 1 2 3 4 5 6 7 8 9 10; do
		[ "$(cat "$chip/0000:06:00.0/0000:07:00.0/power/control")" = on ] && sleep 0.2 && break
		sleep 0.2
	done
	held=$(controls)
	kill -INT "$pid"
	wait "$pid"
	echo $? > "$T/m5.rc"
	now=$(controls)
	check "--measure: Ctrl-C gives every device back as found (held: $held)" sh -c "
		[ \$(cat '$T/m5.rc') = 1 ] && [ '$held' = 'on on auto auto ' ] &&
		[ '$now' = '$found' ] && grep -q 'interrupted: every device was given back as found' '$T/m5.err'"
	# Ctrl-\ (SIGQUIT) likewise; a background job of sh starts with SIGINT
	# and SIGQUIT ignored, env gives SIGQUIT back its default (a core dump)
	env --default-signal=QUIT "$TOOL" --root "$K" --measure 30 > "$T/m6.txt" 2> "$T/m6.err" &
	pid=$!
	for _ in 1 2 3 4 5 6 7 8 9 10; do
		[ "$(cat "$chip/0000:06:00.0/0000:07:00.0/power/control")" = on ] && sleep 0.2 && break
		sleep 0.2
	done
	held=$(controls)
	kill -QUIT "$pid"
	# a tool that ignores the signal would measure for minutes: not waited for
	(sleep 10; kill -KILL "$pid" 2> /dev/null) &
	dog=$!
	wait "$pid"
	echo $? > "$T/m6.rc"
	kill "$dog" 2> /dev/null
	now=$(controls)
	check "--measure: SIGQUIT (Ctrl-\\) gives every device back as found (held: $held)" sh -c "
		[ \$(cat '$T/m6.rc') = 1 ] && [ '$held' = 'on on auto auto ' ] &&
		[ '$now' = '$found' ] && grep -q 'interrupted: every device was given back as found' '$T/m6.err'"
	# standard error a pipe whose reader left after the first line: the
	# first window's progress line (the controller held on) cannot be
	# written; SIGPIPE (its default restored) must not kill the tool there
	{
		env --default-signal=PIPE "$TOOL" --root "$K" --measure 0.5 --pairs 1 2>&1 > "$T/m7.txt"
		echo $? > "$T/m7.rc"
	} | head -n 1 > "$T/m7.head"
	now=$(controls)
	check "--measure: standard error closed (2>&1 | head -1): the run stops, every device given back" sh -c "
		[ \$(cat '$T/m7.rc') = 1 ] && grep -q 'measuring on BAT0' '$T/m7.head' &&
		[ '$now' = '$found' ] && [ ! -s '$T/m7.txt' ]"
	# a charger plugged in during a window: Mains online at once, the
	# battery's status still "Discharging" (it follows later, if ever)
	"$TOOL" --root "$K" --measure 1 --pairs 1 > "$T/m8.txt" 2> "$T/m8.err" &
	pid=$!
	for _ in 1 2 3 4 5 6 7 8 9 10; do
		[ "$(cat "$chip/0000:06:00.0/0000:07:00.0/power/control")" = on ] && break
		sleep 0.1
	done
	echo 1 > "$K/sys/class/power_supply/ADP1/online"
	(sleep 20; kill -KILL "$pid" 2> /dev/null) &
	dog=$!
	wait "$pid"
	echo $? > "$T/m8.rc"
	kill "$dog" 2> /dev/null
	echo 0 > "$K/sys/class/power_supply/ADP1/online"
	now=$(controls)
	check "--measure: a charger plugged in during a window (Mains online, battery Discharging): stops, every device given back" sh -c "
		[ \$(cat '$T/m8.rc') = 1 ] && grep -q -- '--measure: on AC power now (ADP1 is online): stopped' '$T/m8.err' &&
		[ '$now' = '$found' ] && [ ! -s '$T/m8.txt' ]"
else
	ok "--measure runs" "SKIP: not root"
fi

# --- 8c. the manual page ------------------------------------------------------

# each option --help names starts an item of OPTIONS (a missing .TP renders
# it inside the option before); rendered with man-db's man -l
if command -v man > /dev/null && MANWIDTH=80 man -l "$TOP/tools/macsupport-report.1" \
	> "$T/man.txt" 2> "$T/man.err" && [ -s "$T/man.txt" ]; then
	missing=
	for o in $("$TOOL" --help | grep -o -- '--[a-z]*' | sort -u); do
		sed -n '/^OPTIONS/,/^EXIT STATUS/p' "$T/man.txt" |
			grep -qE -- "^       (-h, )?$o( |\$)" || missing="$missing $o"
	done
	check "manual page: every option of --help starts an item of OPTIONS${missing:+ (not:$missing)}" \
		test -z "$missing"
else
	ok "manual page: every option of --help starts an item of OPTIONS" "SKIP: no man -l"
fi

# --- 9. the machine this runs on ---------------------------------------------

"$TOOL" > "$T/real.txt" 2> "$T/real.err"
echo $? > "$T/real.rc"
"$TOOL" --json > "$T/real.json" 2>> "$T/real.err"
echo $? > "$T/real.jrc"
vendor=$(cat /sys/class/dmi/id/sys_vendor 2> /dev/null)
case "$vendor" in
"Apple Inc."|"Apple Computer, Inc.")
	ok "this machine: not an Apple machine" "SKIP: this machine is an Apple ($vendor); exit $(cat "$T/real.rc")"
	check "this machine: --json validates" validate "$T/real.json" ;;
*)
	check "this machine (${vendor:-no DMI}): text says not an Apple machine, exit 2" sh -c "
		[ \$(cat '$T/real.rc') = 2 ] && grep -q 'not an Apple machine' '$T/real.txt' && [ ! -s '$T/real.err' ]"
	check "this machine: --json says so, exit 2, validates" sh -c "
		[ \$(cat '$T/real.jrc') = 2 ] && validate '$T/real.json' &&
		[ \"\$(jq_py '$T/real.json' \"d['status'], d['machine']['apple'], d['exit_code']\")\" = \"('not-apple', False, 2)\" ]" ;;
esac

echo "1..$n"
[ "$failed" -eq 0 ]
