# SPDX-License-Identifier: GPL-2.0
#
# Helpers for guest tests (busybox sh). A test calls pass/fail/check with
# the module it is about and a short test name; each call becomes one line
# on the result port, which the host turns into one numbered test line.

# pass MODULE NAME [NOTE]
pass()
{
	echo "ok $1 $2${3:+ # $3}" > "$RESULTS"
	echo "[guest] ok $1 $2${3:+ # $3}"
}

# fail MODULE NAME REASON
fail()
{
	echo "not ok $1 $2 # $3" > "$RESULTS"
	echo "[guest] not ok $1 $2 # $3"
}

# skip MODULE NAME REASON: a test that does not apply to this profile or
# kernel: "ok ... # SKIP REASON", counted as skipped, never as passed
skip()
{
	echo "ok $1 $2 # SKIP $3" > "$RESULTS"
	echo "[guest] ok $1 $2 # SKIP $3"
}

# skip_test MODULE REASON: the whole test file does not apply here: one
# SKIP line named after the file, and the test ends
skip_test()
{
	skip "$1" "${CURRENT_TEST%.sh}" "$2"
	exit 0
}

# rmmod_settled MODULE: rmmod, then wait (at most 5 s) until its drivers and
# its class are gone from sysfs. CONFIG_DEBUG_KOBJECT_RELEASE (the debug
# kernel) delays their removal by up to 4 s, and a modprobe before that
# registers the same names again: the driver core's sysfs_warn_dup dump,
# with our init in its stack (MacBookPro11,3, 2026-12-06:
# '/bus/pnp/drivers/apple_gmux_ng'). Elsewhere they are gone at once.
rmmod_settled()
{
	command rmmod "$@" || return
	_rw=0
	while [ $_rw -lt 50 ] && { [ -e "/sys/module/$1" ] ||
		ls -d /sys/bus/*/drivers/"$1" "/sys/class/$1" > /dev/null 2>&1; }; do
		sleep 0.1
		_rw=$((_rw + 1))
	done
	return 0
}

# check MODULE NAME COMMAND...: pass if COMMAND succeeds
check()
{
	_m=$1 _n=$2
	shift 2
	if "$@" > /tmp/check.out 2>&1; then
		pass "$_m" "$_n"
	else
		fail "$_m" "$_n" "failed: $* ($(head -c 200 /tmp/check.out | tr '\n' ' '))"
	fi
}

# json_check MODULE NAME FILE: have the HOST validate FILE, one JSON document
# (the output of macsupport-report --json), against
# Documentation/macsupport-report.schema.json: the file goes base64-encoded
# on one "json MODULE NAME BASE64" line, which the host turns into one test
# line (ok, or not ok with the validator's first errors; report_json in
# lib/harness.sh). The guest has no Python.
json_check()
{
	if [ ! -s "$3" ]; then
		fail "$1" "$2" "json_check: $3 is missing or empty"
		return 1
	fi
	echo "json $1 $2 $(base64 -w0 < "$3")" > "$RESULTS"
	echo "[guest] json $1 $2 # $(wc -c < "$3") bytes, validated on the host"
}

guest_report_begin()
{
	echo "MACSUPPORT-BEGIN profile=$PROFILE" > "$RESULTS"
}

guest_report_end()
{
	echo "MACSUPPORT-END" > "$RESULTS"
}

# dmesg_since MARK: kernel messages printed after the line holding MARK
dmesg_mark()
{
	echo "macsupport-mark $1" > /dev/kmsg
}

dmesg_since()
{
	dmesg | sed -n "/macsupport-mark $1\$/,\$p"
}

# The bundle's modules.
BUNDLE_MODULES="apple_gmux_ng apple_props tb_macpm mac_quirks"

# --- gmux helpers ----------------------------------------------------------

# gmux_simulated: the profile runs the host-side gmux simulator
gmux_simulated()
{
	case "${EXPECT_GMUX_KIND:-}" in
	classic|indexed|t2) return 0 ;;
	esac
	return 1
}

# gmux_load [PARAM=VALUE...]: load apple_gmux_ng; on a simulated gmux, tell
# it (test-only parameter) to speak the profile's protocol over the window.
gmux_load()
{
	if gmux_simulated; then
		modprobe apple_gmux_ng test_sim_protocol="$EXPECT_GMUX_KIND" "$@"
	else
		modprobe apple_gmux_ng "$@"
	fi
}

# gmux_wire_on: TEST ONLY: for the rest of this test (a subshell), the
# simulated gmux's interrupt line (macsupport_test_gpe_wire): its completion
# interrupts then arrive as on a Mac, instead of each dGPU power change that
# a bind or unbind makes waiting out its 0.5 s timeout. Not for tests that
# count or provoke notifications.
gmux_wire_on()
{
	gmux_simulated && [ -n "${EXPECT_GMUX_GPE:-}" ] || return 0
	grep -q "^macsupport_test_gpe_wire " /proc/modules && return 0
	modprobe macsupport_test_gpe_wire gpe="$EXPECT_GMUX_GPE" || return 0
	trap 'rmmod macsupport_test_gpe_wire 2> /dev/null' EXIT
}

# gmux_absent: the profile's firmware declares no APP000B (EXPECT_GMUX_KIND=none)
gmux_absent()
{
	[ "${EXPECT_GMUX_KIND:-}" = none ]
}

# gmux_own_log MARK: apple_gmux_ng's kernel log lines since MARK, without the
# mark itself and the kernel's own notices about loading an out-of-tree,
# unsigned module
gmux_own_log()
{
	dmesg_since "$1" | grep apple_gmux_ng | grep -v 'macsupport-mark ' |
		grep -v 'loading out-of-tree module taints kernel\|module verification failed'
}

# gmux_pnp: sysfs directory of the gmux PNP device
gmux_pnp()
{
	for d in /sys/bus/pnp/devices/*; do
		[ "$(cat "$d/id" 2>/dev/null)" = APP000b ] && { echo "$d"; return 0; }
	done
	return 1
}

# gmux_debugfs: the driver's debugfs directory for the gmux
gmux_debugfs()
{
	echo "/sys/kernel/debug/apple_gmux_ng/$(basename "$(gmux_pnp)")"
}

# gmux_state KEY: one value from debugfs state
gmux_state()
{
	sed -n "s/^$1: //p" "$(gmux_debugfs)/state"
}

# gmux_transport_note: say which path a gmux test exercised
gmux_transport_note()
{
	case "${EXPECT_GMUX_KIND:-}" in
	t2) echo "T2 protocol carried over the simulator's memory window (real hardware: MMIO at 0xfe0b0200)" ;;
	*) echo "$EXPECT_GMUX_KIND protocol carried over the simulator's memory window (real hardware: port I/O at 0x700)" ;;
	esac
}

BL=/sys/class/backlight/gmux_backlight

# --- the host agent (TEST ONLY) -----------------------------------------------

# host_agent_port: the device node of the "hostagent" virtio-serial port
host_agent_port()
{
	for _p in /sys/class/virtio-ports/vport*; do
		[ "$(cat "$_p/name" 2>/dev/null)" = hostagent ] || continue
		echo "/dev/${_p##*/}"
		return 0
	done
	return 1
}

# host_request JSON [SECONDS]: have the host agent pass one QMP command
# (e.g. {"execute":"device_del","arguments":{"id":"hp1"}}) to QEMU and print
# QMP's answer. Returns 0 if QMP returned, 1 on an error (from QMP, or the
# agent refused the command), 2 without an answer within SECONDS (default 10).
# The agent lets through only device_add (of a few test devices), device_del
# and query-pci; see HOST_AGENT_COMMANDS in lib/harness.sh.
host_request() { _host_send MACSUPPORT-QMP "$1" "${2:-10}"; }

# host_request_repeat COUNT GAP_MS JSON [SECONDS]: the same, COUNT times
# (at most 30) GAP_MS apart, paced by the host; one answer (the first error
# or the last answer). SECONDS defaults to 10 plus the burst's length.
host_request_repeat()
{
	_host_send MACSUPPORT-QMP-REPEAT "$1 $2 $3" "${4:-$((10 + $1 * ($2 + 500) / 1000))}"
}

# _host_ask TAG ARGS SECONDS REPLY [ANY]: one request to the host agent;
# prints the answer after "REPLY <id> ", the id this request's (a late
# answer to an earlier request that timed out is skipped), or any with ANY
# (a guest started from a saved one is answered by an agent that never saw
# its request). Non-zero without an answer within SECONDS.
_host_ask()
{
	_ha_port=$(host_agent_port) || { echo "no hostagent port"; return 2; }
	_ha_id=$(cut -c 1-8 /proc/sys/kernel/random/uuid)
	_ha_end=$(( $(date +%s) + $3 ))
	# One open for both directions: a virtio port opens only once at a time.
	exec 7<>"$_ha_port"
	echo "$1 $_ha_id $2" >&7
	while _ha_left=$((_ha_end - $(date +%s))); [ "$_ha_left" -gt 0 ]; do
		IFS= read -r -t "$_ha_left" _ha_line <&7 || { sleep 0.2; continue; }
		case "$_ha_line" in
		"$4 "*)
			[ -n "${5:-}" ] || [ "${_ha_line#$4 $_ha_id }" != "$_ha_line" ] || continue
			exec 7<&-
			_ha_line=${_ha_line#$4 }
			echo "${_ha_line#* }"
			return 0 ;;
		esac
	done
	exec 7<&-
	echo "no answer from the host agent in $3 s"
	return 2
}

# _host_send TAG ARGS SECONDS: one QMP request to the host agent, its answer
_host_send()
{
	_hr_ans=$(_host_ask "$1" "$2" "$3" MACSUPPORT-QMP-REPLY) || { echo "$_hr_ans"; return 2; }
	echo "$_hr_ans"
	case "$_hr_ans" in
	'{"return"'*) return 0 ;;
	esac
	return 1
}

# host_checkpoint SECONDS: tell the host agent the guest is at its
# checkpoint (guest/init: nothing of a test has run yet); the host may save
# the guest now and start other boots from it (lib/harness.sh,
# snap_checkpoint). Prints the answer's arguments ("tests=a.sh,b.sh
# mode=test"). Non-zero without an answer within SECONDS.
host_checkpoint() { _host_ask MACSUPPORT-CHECKPOINT "" "$1" MACSUPPORT-GO any; }

# uptime_cs: time since boot in centiseconds
uptime_cs()
{
	_up=$(cut -d ' ' -f 1 /proc/uptime)
	echo "${_up%.*}${_up#*.}"
}

# wait_until SECONDS COMMAND...: run COMMAND every 0.2 s until it succeeds,
# for at most SECONDS; prints the time it took ("3.4"). Non-zero if it never did.
wait_until()
{
	_wu_t0=$(uptime_cs)
	_wu_end=$((_wu_t0 + $1 * 100))
	shift
	while :; do
		if "$@"; then
			_wu_rc=0
			break
		fi
		_wu_rc=1
		[ "$(uptime_cs)" -lt "$_wu_end" ] || break
		sleep 0.2
	done
	_wu_d=$(( $(uptime_cs) - _wu_t0 ))
	echo "$((_wu_d / 100)).$((_wu_d % 100 / 10))"
	return $_wu_rc
}

# --- Apple device properties -------------------------------------------------

# blob_has KEY HEX BLOB-HEX: the blob (as hex text) holds KEY with exactly
# the value HEX (key length, UTF-16LE key, value length, value)
blob_has()
{
	_bk=$(printf '%s\0' "$1" | od -An -tx1 | tr -d ' \n' | sed 's/\(..\)/\100/g')
	_bn=$(( ${#2} / 2 + 4 ))
	_bn=$(printf '%02x%02x%02x%02x' $((_bn & 255)) $((_bn >> 8 & 255)) \
		$((_bn >> 16 & 255)) $((_bn >> 24 & 255)))
	case "$3" in
	*"$_bk$_bn$2"*) return 0 ;;
	esac
	return 1
}

# --- the debug kernel (make check-debug) --------------------------------------

KMEMLEAK=/sys/kernel/debug/kmemleak
FAILSLAB=/sys/kernel/debug/failslab

# debug_kernel: the guest runs a kernel with kmemleak and failslab, such as
# the debug kernel of `make check-debug` (qemu-tests/debug-kernel/)
debug_kernel()
{
	[ -e "$KMEMLEAK" ] && [ -d "$FAILSLAB" ]
}

# pciehp_hotadd MODULE TEST...: whether a test may hot-add a device through
# pciehp (QMP device_add below a hotplug port). Not on the debug kernel:
# Debian 6.1.192's pciehp makes lockdep report its own lock order on a
# hot-add (62-pci-hotplug.sh says how), after which lockdep is off for the
# rest of the boot; each TEST is then reported as skipped, saying so.
pciehp_hotadd()
{
	debug_kernel || return 0
	_ph_m=$1
	shift
	for _ph_t in "$@"; do
		skip "$_ph_m" "$_ph_t" "on the debug kernel, pciehp's hot-add makes lockdep report the kernel's own lock order (see 62-pci-hotplug.sh); runs on the other kernels"
	done
	return 1
}

# debug_only MODULE TEST...: succeed on the debug kernel; elsewhere report
# each TEST as skipped, saying why, and fail
debug_only()
{
	debug_kernel && return 0
	_do_m=$1
	shift
	for _do_t in "$@"; do
		skip "$_do_m" "$_do_t" "needs the debug kernel (make check-debug): no kmemleak/failslab here"
	done
	return 1
}

# Leaks of the kernel itself that the tests provoke through in-tree
# interfaces, by a function in the allocation's backtrace. They are left out
# of every report below (and counted in /tmp/kmemleak-kernel-own):
# - efivarfs_callback, efivarfs_create: 6.1's efivarfs_unlink() (and a write
#   that deletes a variable) takes the efivar_entry off the list and never
#   frees it: efivar_entry_delete() leaves that to its caller and
#   efivarfs_evict_inode() frees nothing. Test 64 deletes Apple's NVRAM
#   variables through efivarfs to plant a bad blob and put them back.
KMEMLEAK_KERNEL_OWN='efivarfs_callback|efivarfs_create'

# kmemleak_scan FILE: have kmemleak scan now (twice: an object is reported
# once a scan has found it unreferenced); FILE gets the report without the
# kernel's own leaks (KMEMLEAK_KERNEL_OWN). Prints how many unreferenced
# objects it lists.
kmemleak_scan()
{
	echo scan > "$KMEMLEAK"
	echo scan > "$KMEMLEAK"
	cat "$KMEMLEAK" 2>&1 | awk -v own="$KMEMLEAK_KERNEL_OWN" '
		function flush() { if (obj != "" && obj !~ ("(" own ")")) printf "%s", obj;
				   else if (obj != "") n++; obj = "" }
		/^unreferenced object/ { flush() }
		{ obj = obj $0 "\n" }
		END { flush(); print n + 0 > "/tmp/kmemleak-kernel-own" }' > "$1"
	grep -c '^unreferenced object' "$1"
}

# kmemleak_summary FILE: the first leak of a report on one line
kmemleak_summary()
{
	awk '/^unreferenced object/ { n++ } n == 1 && !/hex dump|^ +[0-9a-f][0-9a-f] [0-9a-f][0-9a-f] / {
		sub(/^ +/, ""); sub(/^\[<[^>]*>\] /, ""); printf "%s | ", $0 }' "$1" | cut -c 1-400
}

# kmemleak_new BEFORE AFTER: the objects that report AFTER lists and report
# BEFORE does not go to /tmp/kmemleak-new; prints how many
kmemleak_new()
{
	rm -f /tmp/kmemleak-new
	awk 'FNR == NR { if (/^unreferenced object/) seen[$3] = 1; next }
	     /^unreferenced object/ { keep = !($3 in seen); if (keep) n++ }
	     keep { print > "/tmp/kmemleak-new" }
	     END { print n + 0 }' "$1" "$2"
}

# --- boot-GPU preference (gpu-power-prefs) ------------------------------------

EFIVARS=/sys/firmware/efi/efivars
PREFS_VAR=gpu-power-prefs-fa4ce28d-b62f-4c99-9cc3-6815686e30f9
CAP_SYS_ADMIN=21

# efivarfs_fresh: (re)mount efivarfs, which lists variables as they were at
# mount time (apple_gmux_ng writes through the efivar API); non-zero if it
# cannot be mounted
efivarfs_fresh()
{
	grep -q " $EFIVARS efivarfs " /proc/mounts && umount "$EFIVARS"
	modprobe efivarfs 2> /dev/null
	mount -t efivarfs efivarfs "$EFIVARS"
}

# prefs_bytes: the variable's efivarfs file as hex (attributes, then data),
# "none" when there is none; remounts efivarfs first
prefs_bytes()
{
	efivarfs_fresh || { echo "no-efivarfs"; return; }
	if [ -e "$EFIVARS/$PREFS_VAR" ]; then
		od -An -tx1 -v "$EFIVARS/$PREFS_VAR" | tr -d ' \n'
	else
		echo none
	fi
}

# boot_gpu_attr: apple_gmux_ng's boot_gpu attribute of the gmux
boot_gpu_attr()
{
	echo "$(gmux_pnp)/boot_gpu"
}

# --- GPU switching (vga_switcheroo) -------------------------------------------

VGASR=/sys/kernel/debug/vgaswitcheroo/switch
TEST_GPU=/sys/kernel/debug/macsupport_test_gpu

# gmux_sw KEY: one value from the driver's debugfs switch file
gmux_sw()
{
	sed -n "s/^$1: //p" "$(gmux_debugfs)/switch" 2>/dev/null
}

# sim_is KEY VALUE: the simulator reports VALUE for KEY within 2 s
sim_is()
{
	wait_until 2 sh -c "[ \"\$(gmux-simctl get $1)\" = '$2' ]" > /dev/null
}

# pci_driver DEV: the driver bound to a PCI device, or nothing
pci_driver()
{
	basename "$(readlink "/sys/bus/pci/devices/$1/driver" 2>/dev/null)" 2>/dev/null
}

# test_gpu_defers DEV: how often the fake GPU driver's probe of DEV deferred
test_gpu_defers()
{
	_d=$(sed -n "s/^$1 //p" "$TEST_GPU/defers" 2>/dev/null)
	echo "${_d:-0}"
}

# vgasr_line IGD|DIS: the vga_switcheroo line of that GPU (not its audio)
vgasr_line()
{
	grep "^[0-9]*:$1:" "$VGASR" 2>/dev/null
}

# The cold device (macsupport_test_gpu cold=1, its default): config accesses
# that met the dGPU unpowered since the module loaded
cold_of() { sed -n "s/^$1: //p" "$TEST_GPU/cold" 2>/dev/null; }
cold_accesses() { echo $(( $(cold_of reads) + $(cold_of writes) )); }

# gpu_cold_check NAME [EXPECTED]: a line NAME saying whether any config
# access met the dGPU unpowered, beyond EXPECTED (default 0) made on purpose
gpu_cold_check()
{
	_gc_n=$(cold_accesses)
	if [ "$(cold_of enabled)" != 1 ]; then
		fail apple_gmux_ng "$1" "the cold device is off: $(tr '\n' ' ' < "$TEST_GPU/cold" 2>&1)"
	elif [ "$_gc_n" = "${2:-0}" ]; then
		pass apple_gmux_ng "$1" "no config access to the dGPU or its audio while unpowered (the cold device; ${2:-0} made on purpose)"
	else
		fail apple_gmux_ng "$1" "$_gc_n config accesses met the dGPU unpowered, ${2:-0} on purpose; last: $(cold_of last) (the console's TEST ONLY lines say which)"
	fi
}

# gpu_modules_out: unload the GPU test modules and apple_gmux_ng, if loaded
gpu_modules_out()
{
	for _m in macsupport_test_gpu apple_gmux_ng macsupport_test_gpe_wire; do
		grep -q "^$_m " /proc/modules && rmmod "$_m"
	done
	return 0
}

# test_module FILE: the module a guest test file is about (as qemu-tests/run
# names it in its lines)
test_module()
{
	case "$1" in
	*-tb-*|*-tb3-*) echo tb_macpm ;;
	*-gmux-*|*-gpu-*) echo apple_gmux_ng ;;
	*-apple-props-*|*-set-os-*) echo apple_props ;;
	*-quirks*) echo mac_quirks ;;
	*) echo harness ;;
	esac
}

# --- the firmware-call trace (FW_TRACE=1: the profile has a replay.map) --------
# The profile's tables record every firmware call (profiles/tables/trace.asl);
# the host replays them on the Mac's real tables (qemu-tests/replay/).

# fw_trace_take NAME [MODULE]: send the host the calls recorded since the
# last take, then a checkpoint NAME ([a-z0-9-]+) at which it reports what the
# firmware did, in test lines of MODULE (default tb_macpm). Without FW_TRACE it does nothing. A trace that cannot be taken is sent
# as such: the host's replay then fails, it does not guess.
fw_trace_take()
{
	[ "${FW_TRACE:-0}" = 1 ] || return 0
	_fm=${2:-tb_macpm}
	modprobe macsupport_test_acpi 2> /dev/null
	# "trace" (read-only: still open to us once a test locked the kernel
	# down) takes it, \ZTRT, as it is opened
	if ! cat /sys/kernel/debug/macsupport_test_acpi/trace > /tmp/fwtrace.chunk 2> /dev/null; then
		echo "error cannot evaluate \\ZTRT (macsupport_test_acpi)" > /tmp/fwtrace.chunk
	fi
	# an error of the helper is one line, a trace never starts with "error"
	sed -i '1s/^error /trace-error /' /tmp/fwtrace.chunk
	echo "mark $1 $_fm" >> /tmp/fwtrace.chunk
	echo "trace $(base64 -w0 < /tmp/fwtrace.chunk)" > "$RESULTS"
}

# fw_trace_peek: the firmware calls recorded since the last take (\ZTRS),
# left for the next take; "error ..." on a profile that records none
fw_trace_peek()
{
	modprobe macsupport_test_acpi 2> /dev/null
	echo '\ZTRS' > /sys/kernel/debug/macsupport_test_acpi/string 2> /dev/null &&
		cat /sys/kernel/debug/macsupport_test_acpi/string 2> /dev/null ||
		echo "error cannot evaluate \\ZTRS (macsupport_test_acpi)"
}

# --- Thunderbolt (tb_macpm) ------------------------------------------------------
# A profile with emulated Thunderbolt controllers lists, in the same order:
# EXPECT_TB_NHI (the stand-in NHIs' PCI addresses), EXPECT_TB_ACPI (their
# ACPI paths, where the SSDT's TEST ONLY state lives), EXPECT_TB_GPE_SOURCE
# (how the host raises each one's plug GPE: vmgenid, cpu or none) and
# EXPECT_TB_DSB (the QEMU ids of each one's first hotplug downstream port).

TB_CLASS=/sys/class/tb_macpm
TB_TEST_ID=1234:11e8

# tb_nth LIST N: the N-th (1-based) word of LIST
tb_nth() { echo "$1" | tr ';' ' ' | awk -v n="$2" '{ print $n }'; }

# tb_votes N: controller N is powered down through the Thunderbolt 3 votes
# and its root port's _PS3 (EXPECT_TB_MECHANISM, ';'-separated)
tb_votes() { [ "$(tb_item "${EXPECT_TB_MECHANISM:-}" "$1")" = "RTPC votes, root port _PS3" ]; }

# tb_gen3 N: controller N is Thunderbolt 3 (Alpine or Titan Ridge: no XRIL,
# no XRIN; the votes, or TRPE alone where RTPC is a stub as on MacPro7,1)
tb_gen3()
{
	case "$(tb_nth "${EXPECT_TB_GEN:-}" "$1")" in
	alpine-ridge|titan-ridge) return 0 ;;
	esac
	return 1
}

# tb_load [PARAM=VALUE...]: the stand-in NHI driver (as thunderbolt.ko binds a
# Mac's NHI at boot), then tb_macpm told about the stand-in (TEST ONLY)
tb_load()
{
	modprobe macsupport_test_acpi
	# thunderbolt.ko's domain autosuspends after 15 s and has no sysfs
	# knob for it (no runtime callbacks): the stand-in takes a parameter,
	# and one for the 15 s of the Thunderbolt 2+ device routers it adds
	# on a plug (they come and go with the plugged device).
	# EXPECT_TB_NHI_DRIVER=none (Eagle Ridge: Debian's thunderbolt.ko has
	# no alias for its NHI): no driver binds the NHI, as on the real Mac;
	# bind=0 only gives the chain the PM flags real ports have (emulation gap)
	# EXPECT_TB_LC_SLEEP=1 (Alpine Ridge): the stand-in's chip reads
	# all-ones from the NHI's suspend_noirq on, and S3 resets it (lc_sleep)
	if [ "${EXPECT_TB_NHI_DRIVER:-}" = none ]; then
		modprobe macsupport_test_nhi bind=0
	else
		modprobe macsupport_test_nhi ${TB_NHI_PARAMS:-domain_autosuspend_ms=$TB_FAST_MS router_autosuspend_ms=$TB_FAST_MS} \
			lc_sleep="${EXPECT_TB_LC_SLEEP:-0}"
	fi
	# loaded by an earlier test of this boot: a controller that test left
	# on after refused power-downs is managed again (as a user's write)
	if grep -q '^tb_macpm ' /proc/modules; then
		echo 1 > /sys/module/tb_macpm/parameters/power_down
	fi
	modprobe tb_macpm test_nhi_id=$TB_TEST_ID "$@"
}

# tb_fw N NAME: the SSDT's integer NAME (ZPWR, ZPLG, ZCON, ...) of controller N
tb_fw() { tb_eval "$(tb_nth "$EXPECT_TB_ACPI" "$1").$2"; }

# tb_eval PATH: the value of the ACPI object PATH (macsupport_test_acpi)
tb_eval()
{
	echo "$1" > /sys/kernel/debug/macsupport_test_acpi/eval
	sed -n 's/^ok //p' /sys/kernel/debug/macsupport_test_acpi/eval
}

# tb_attr N ATTR: tb_macpm's sysfs attribute of controller N
tb_attr() { cat "$TB_CLASS/$(tb_nth "$EXPECT_TB_NHI" "$1")/$2" 2>/dev/null; }

# tb_is N on|off: controller N's power as tb_macpm and the firmware both see it
tb_is()
{
	_want=1
	[ "$2" = off ] && _want=0
	[ "$(tb_attr "$1" power_state)" = "$2" ] && [ "$(tb_fw "$1" ZPWR)" = "$_want" ] || return 1
	# Thunderbolt 3's votes: off is both rails off, the USB one too
	[ "$2" = on ] || ! tb_votes "$1" || [ "$(tb_xfw "$1" ZPWR)" = 0 ]
}

# tb_xfw N NAME: the TEST ONLY integer NAME of controller N's xHCI (Thunderbolt
# 3 profiles: XHC2 or XHC3 in DSB2, beside the NHI's DSB0), e.g. ZPWR, its
# USB rail
tb_xfw()
{
	_a=$(tb_nth "$EXPECT_TB_ACPI" "$1")
	# XHC2, or XHC3 as the second controller's is named on some Macs
	_v=$(tb_eval "${_a%.DSB0.NHI0}.DSB2.XHC2.$2")
	[ -n "$_v" ] || _v=$(tb_eval "${_a%.DSB0.NHI0}.DSB2.XHC3.$2")
	echo "$_v"
}

# tb_rails N: controller N's rails and the firmware's flags (Thunderbolt 3's
# votes), for test lines: "rails TBT/USB 0/0, RTBT/RUSB 0/0, GNHI/GXCI/GPCI 0/0/0"
tb_rails()
{
	_r=$(tb_nth "$EXPECT_TB_ACPI" "$1")
	_r=${_r%.UPSB.DSB0.NHI0}
	echo "rails TBT/USB $(tb_fw "$1" ZPWR)/$(tb_xfw "$1" ZPWR)," \
		"RTBT/RUSB $(tb_eval "$_r.RTBT")/$(tb_eval "$_r.RUSB")," \
		"GNHI/GXCI/GPCI $(tb_eval "$_r.GNHI")/$(tb_eval "$_r.GXCI")/$(tb_eval "$_r.GPCI")"
}

# tb_raise N [COUNT GAP_MS]: have the host raise controller N's plug GPE for
# real, COUNT times GAP_MS apart (paced by the host, host_request_repeat)
tb_raise()
{
	_tr_n=${2:-1}
	case "$(tb_nth "$EXPECT_TB_GPE_SOURCE" "$1")" in
	vmgenid)
		_tr_req='{"execute":"qom-set","arguments":{"path":"/machine/peripheral/vgid","property":"guid","value":"auto"}}' ;;
	cpu)
		# the first raise hot-adds a CPU, each later one asks QEMU to
		# unplug it again: both raise GPE 0x02. XRIN's handler takes the
		# GPE, so the guest neither onlines nor ejects that CPU.
		# (Tests run in subshells of one boot: the mark is a file.)
		if [ ! -e /tmp/tb-cpu-added ]; then
			host_request '{"execute":"device_add","arguments":{"driver":"qemu64-x86_64-cpu","id":"tbcpu1","socket-id":0,"core-id":1,"thread-id":0}}' > /dev/null &&
				: > /tmp/tb-cpu-added || return 1
			_tr_n=$((_tr_n - 1))
			[ "$_tr_n" -gt 0 ] || return 0
			sleep "$(awk -v ms="${3:-0}" 'BEGIN { printf "%.3f", ms / 1000 }')"
		fi
		_tr_req='{"execute":"device_del","arguments":{"id":"tbcpu1"}}' ;;
	*) return 1 ;;
	esac
	if [ "$_tr_n" = 1 ]; then
		host_request "$_tr_req" > /dev/null
	else
		host_request_repeat "$_tr_n" "${3:-0}" "$_tr_req" > /dev/null
	fi
}

# tb_plug N: a plug on controller N as its firmware reports it, where the
# harness can (EXPECT_TB_GPE_SOURCE): a GPE QEMU raises (cpu), or Titan
# Ridge's GPE method, whose notify of the NHI is real ACPICA (method)
tb_plug()
{
	if [ "$(tb_nth "$EXPECT_TB_GPE_SOURCE" "$1")" = method ]; then
		tb_eval "$(tb_attr "$1" plug_source | sed -n 's/.*(\(\\_GPE\._[LE][0-9A-F]*\) in .*/\1/p')" > /dev/null
	else
		tb_raise "$1"
	fi
}

# tb_cuts_name N: what ZCOF counts on controller N, for test lines
tb_cuts_name()
{
	if tb_votes "$1"; then echo "root port _PS3 cuts"; else echo "XRPE/TRPE(0) calls"; fi
}

# tb_state N: one line for failure reports
tb_state()
{
	_n=$(tb_nth "$EXPECT_TB_NHI" "$1")
	# what keeps the chain up: its devices not runtime-suspended (status/control)
	_awake=
	for _p in $(tb_chain "$_n"); do
		_d=/sys/bus/pci/devices/$_p/power
		[ "$(cat "$_d/runtime_status" 2>/dev/null)" = suspended ] ||
			_awake="$_awake $_p:$(cat "$_d/runtime_status" 2>/dev/null)/$(cat "$_d/control" 2>/dev/null)/usage=$(cat "$_d/runtime_usage" 2>/dev/null)/kids=$(cat "$_d/runtime_active_kids" 2>/dev/null)"
	done
	echo "tb_macpm $(tb_attr "$1" power_state) cycles $(tb_attr "$1" power_cycles) reason '$(tb_attr "$1" stay_on_reason)'," \
		"fw ZPWR $(tb_fw "$1" ZPWR) ZCON $(tb_fw "$1" ZCON) ZCOF $(tb_fw "$1" ZCOF)," \
		"$(tb_votes "$1" && echo "$(tb_rails "$1"),")" \
		"NHI $(cat /sys/bus/pci/devices/$_n/power/runtime_status 2>/dev/null), awake below the root port:${_awake:- none}"
}

# tb_vote_devs NHI: the sysfs directories of the controller's Thunderbolt 3
# vote devices (tb_macpm's "NHI-nhi-vote" below DSB0, "NHI-xhci-vote" below
# DSB2); none on other mechanisms
tb_vote_devs()
{
	for _v in /sys/bus/pci/devices/$(tb_upsb "$1")/*/"$1"-*-vote; do
		[ -d "$_v" ] && echo "$_v"
	done
	return 0
}

# tb_item LIST N: the N-th ';'-separated item of LIST (items may hold spaces)
tb_item() { echo "$1" | awk -F';' -v n="$2" '{ print $n }'; }

# tb_fw_set N NAME VALUE: set the SSDT's TEST ONLY integer NAME of controller N
tb_fw_set()
{
	echo "$(tb_nth "$EXPECT_TB_ACPI" "$1").ZSET $(tb_fw_index "$2") $3" \
		> /sys/kernel/debug/macsupport_test_acpi/eval
}

# tb_fw_index NAME: ZSET's index of a TEST ONLY name (tb.asl)
tb_fw_index()
{
	case $1 in
	ZPWR) echo 0 ;; ZPLG) echo 1 ;; ZUPD) echo 2 ;;
	ZFLT) echo 3 ;; ZCON) echo 4 ;; ZCOF) echo 5 ;;
	ZSTK) echo 6 ;; ZSTB) echo 7 ;;	# MacBookPro13,3's and 14,1's tb.asl only
	*) echo 255 ;;
	esac
}

# tb_no_dev VVVV:DDDD NHI: no such device below the controller
tb_no_dev() { ! tb_find_dev "$@" > /dev/null; }

# tb_gpe N: controller N's plug GPE as /sys/firmware/acpi/interrupts names it
tb_gpe() { tb_attr "$1" methods | sed -n 's/.*XRIN=0x\([0-9a-f]*\).*/\1/p' | tr a-f A-F; }

# tb_upsb NHI: the controller's upstream port (two levels above the NHI)
tb_upsb() { basename "$(readlink -f "/sys/bus/pci/devices/$1/../..")"; }

# tb_chain NHI: the upstream port and every PCI device below it
tb_chain()
{
	_u=$(readlink -f "/sys/bus/pci/devices/$(tb_upsb "$1")")
	find "$_u" -name '????:??:??.?' -type d | sed 's|.*/||' | sort -u
}

# tb_find_dev VVVV:DDDD NHI: the address of such a device below the controller
tb_find_dev()
{
	for _p in $(tb_chain "$2"); do
		[ "$(sed 's/^0x//' /sys/bus/pci/devices/$_p/vendor):$(sed 's/^0x//' /sys/bus/pci/devices/$_p/device)" = "$1" ] &&
			{ echo "$_p"; return 0; }
	done
	return 1
}

# tb_fast NHI: short delays, so a test does not wait thunderbolt.ko's 15 s:
# the NHI's and its domain's autosuspend, the power switch's, the plug hold
TB_FAST_MS=200
tb_fast()
{
	for _f in /sys/bus/pci/devices/$1/power/autosuspend_delay_ms \
		  /sys/bus/pci/devices/$1/domain*/power/autosuspend_delay_ms \
		  "$TB_CLASS/$1/power/autosuspend_delay_ms" \
		  $(tb_vote_devs "$1" | sed 's|$|/power/autosuspend_delay_ms|'); do
		[ -e "$_f" ] && echo "$TB_FAST_MS" > "$_f"
	done
	echo 500 > /sys/module/tb_macpm/parameters/plug_hold_ms
	# an NHI without a driver: runtime PM allowed, as a power tool
	# (powertop, TLP, a udev rule) does for devices without a driver
	[ "${EXPECT_TB_NHI_DRIVER:-}" != none ] ||
		echo auto > "/sys/bus/pci/devices/$1/power/control"
	# Thunderbolt 3: the controller's xHCI (qemu-xhci, no driver) idle,
	# as xhci-pci lets the real one runtime-suspend
	_x=$(tb_find_dev 1b36:000d "$1") && echo auto > "/sys/bus/pci/devices/$_x/power/control"
	return 0
}

# tb_pin_ports NHI: keep the controller's hotplug downstream ports (pciehp's
# service below them) resumed across a QMP hot-add: QEMU's hot-add is an
# attention-button press, and one pressed while the port is runtime-
# suspended leaves the button status pending, so that QEMU's later unplug
# press is never seen (an emulation limit, not Mac behaviour). The ports
# pinned go to TB_PINNED; tb_unpin_ports lets them go again.
TB_PINNED=
tb_pin_ports()
{
	for _p in $(tb_chain "$1"); do
		ls -d "/sys/bus/pci/devices/$_p/$_p:pcie"?04 > /dev/null 2>&1 || continue
		[ "$(cat "/sys/bus/pci/devices/$_p/power/control")" = auto ] || continue
		echo on > "/sys/bus/pci/devices/$_p/power/control" && TB_PINNED="$TB_PINNED $_p"
	done
}
tb_unpin_ports()
{
	for _p in $TB_PINNED; do
		echo auto > "/sys/bus/pci/devices/$_p/power/control"
	done
	TB_PINNED=
}

# tb_hold NHI 1|0: hold the NHI resumed (1) or let it go (0): the stand-in
# driver's runtime-PM reference on the NHI itself (an XDomain peer holds one
# on its own device below the root switch: tb_xdomain NHI); without a
# driver, its power/control ("on" forbids runtime suspend)
tb_hold()
{
	if [ "${EXPECT_TB_NHI_DRIVER:-}" = none ]; then
		_c=auto
		[ "$2" = 1 ] && _c=on
		echo "$_c" > "/sys/bus/pci/devices/$1/power/control"
	else
		echo "$2" > "/sys/kernel/debug/macsupport_test_nhi/$1/hold"
	fi
}

# tb_rsw NHI: the sysfs directory of the stand-in's root switch (N-0)
tb_rsw() { ls -d "/sys/bus/pci/devices/$1"/domain*/*-0 2>/dev/null | head -n 1; }

# tb_rsw_children NHI: the devices below the root switch (device routers,
# XDomain peers), by name
tb_rsw_children()
{
	_r=$(tb_rsw "$1")
	[ -n "$_r" ] || return 0
	for _c in "$_r"/*-*; do
		[ -d "$_c" ] && echo "${_c##*/}"
	done
	return 0
}

# tb_xdomain NHI N: an XDomain peer (another Mac) connects on the stand-in's
# hotplug port N (from 1), or disconnects (0)
tb_xdomain() { echo "$2" > "/sys/kernel/debug/macsupport_test_nhi/$1/xdomain"; }

# tb_cable N PORT plug|unplug: the cable into (out of) controller N's hotplug
# port PORT (from 1, in slot order): whether a router answers behind it, as
# the stand-in's chip sees it. The stand-in reports the change to its
# connection manager only while the NHI listens (runtime-active, powered);
# a router found gets its PCIe tunnel, whose device the test then has the
# host add (tb_tunnel_follow). The plug-detect GPIO (ZPLG) and the plug GPE
# stay the firmware's: the test sets and raises them itself.
tb_cable()
{
	echo "$3 $2" > "/sys/kernel/debug/macsupport_test_nhi/$(tb_nth "$EXPECT_TB_NHI" "$1")/cable"
}

# tb_port_info N PORT KEY: the stand-in's view of controller N's hotplug port
# PORT: cable (1 in), router (its name, "-" for none), tunnel (1: its device
# is wanted below the port), present (PCI devices below the port)
tb_port_info()
{
	awk -v p="$2" -v k="$3" '$1 == p { for (i = 2; i <= NF; i++) if (index($i, k "=") == 1)
		print substr($i, length(k) + 2) }' \
		"/sys/kernel/debug/macsupport_test_nhi/$(tb_nth "$EXPECT_TB_NHI" "$1")/ports" 2>/dev/null
}

# tb_port_is N PORT KEY VALUE: tb_port_info says VALUE
tb_port_is() { [ "$(tb_port_info "$1" "$2" "$3")" = "$4" ]; }

# tb_port_line N PORT: that port's line of the stand-in's "ports", for test lines
tb_port_line()
{
	sed -n "s/^$2 //p" "/sys/kernel/debug/macsupport_test_nhi/$(tb_nth "$EXPECT_TB_NHI" "$1")/ports" 2>/dev/null
}

# tb_tunnel_follow N PORT up|down SECONDS: carry out the stand-in's decision
# for the PCIe tunnel through controller N's hotplug port PORT. Waits up to
# SECONDS until its connection manager wants the tunnel up (or down); then
# the host hot-adds the tunnel's device below the port (a pci-testdev, QMP
# device_add) or removes it (device_del), and pciehp's work is waited for
# (at most 15 s for an add, 20 s for a removal). The device is never added
# before the stand-in wants it: what appears below the port is what the
# stand-in tunnelled. Returns 0 once done, 1 if the stand-in did not want
# it within SECONDS, 2 if the host or pciehp failed; TB_WHY says why.
TB_WHY=
tb_tunnel_follow()
{
	TB_WHY=
	_tf_w=1
	[ "$3" = down ] && _tf_w=0
	_tf_state="port $2 of controller $1"
	_tf_want() { [ "$(tb_port_info "$1" "$2" tunnel)" = "$_tf_w" ]; }
	if ! _tf_t=$(wait_until "$4" _tf_want "$1" "$2"); then
		TB_WHY="the stand-in's connection manager did not want the tunnel $3 within $4 s ($_tf_state: $(tb_port_line "$1" "$2"))"
		return 1
	fi
	# the device's QEMU id, kept for its removal (tests are subshells)
	_tf_idf=/tmp/tb-tunnel-$1-$2
	if [ "$_tf_w" = 1 ]; then
		[ "$(tb_port_info "$1" "$2" present)" = 0 ] || return 0
		_tf_n=$(($(cat /tmp/tb-tunnel-seq 2>/dev/null || echo 0) + 1))
		echo "$_tf_n" > /tmp/tb-tunnel-seq
		_tf_id=tbtun$1p$2n$_tf_n
		_tf_bus=
		for _tf_b in $EXPECT_TB_DSB; do
			[ "$_tf_b" = "tb$(($1 - 1))-dsb$2" ] && _tf_bus=$_tf_b
		done
		if [ -z "$_tf_bus" ]; then
			TB_WHY="no QEMU bus for $_tf_state in EXPECT_TB_DSB ($EXPECT_TB_DSB)"
			return 2
		fi
		if ! _tf_ans=$(host_request '{"execute":"device_add","arguments":{"driver":"pci-testdev","id":"'$_tf_id'","bus":"'$_tf_bus'"}}'); then
			TB_WHY="the stand-in wanted the tunnel after $_tf_t s; device_add below $_tf_bus: $_tf_ans"
			return 2
		fi
		echo "$_tf_id" > "$_tf_idf"
		_tf_there() { [ "$(tb_port_info "$1" "$2" present)" != 0 ]; }
		if ! wait_until 15 _tf_there "$1" "$2" > /dev/null; then
			TB_WHY="the stand-in wanted the tunnel after $_tf_t s; nothing below $_tf_bus 15 s after device_add ($_tf_state: $(tb_port_line "$1" "$2"))"
			return 2
		fi
	else
		[ "$(tb_port_info "$1" "$2" present)" != 0 ] || { rm -f "$_tf_idf"; return 0; }
		host_request '{"execute":"device_del","arguments":{"id":"'"$(cat "$_tf_idf" 2>/dev/null)"'"}}' > /dev/null
		_tf_gone() { [ "$(tb_port_info "$1" "$2" present)" = 0 ]; }
		if ! wait_until 20 _tf_gone "$1" "$2" > /dev/null; then
			TB_WHY="still below the port 20 s after device_del ($_tf_state: $(tb_port_line "$1" "$2"))"
			return 2
		fi
		rm -f "$_tf_idf"
	fi
	return 0
}
# tb_standin NHI KEY: the value of KEY in the stand-in NHI's debugfs status
# (rail_tbt, rail_reads, ...), empty where it has none
tb_standin() { sed -n "s/^$2: //p" "/sys/kernel/debug/macsupport_test_nhi/$1/status" 2>/dev/null; }

# tb_cfg PCI OFFSET COUNT: COUNT bytes of a PCI device's config space at
# OFFSET, as hex ("ffff" where the device does not answer)
tb_cfg() { od -An -tx1 -j "$2" -N "$3" "/sys/bus/pci/devices/$1/config" | tr -d ' \n'; }

# tb_unpowered NHI: how often the stand-in driver was called while its
# controller was unpowered (0 without the stand-in: no driver, no calls)
tb_unpowered()
{
	_f=/sys/kernel/debug/macsupport_test_nhi/$1/status
	_x=/sys/kernel/debug/macsupport_test_nhi/xhci_unpowered
	_n=0
	[ -e "$_f" ] && _n=$(sed -n 's/^unpowered: //p' "$_f")
	# and the Thunderbolt 3 xHCIs' stand-in driver (all controllers)
	[ -e "$_x" ] && _n=$((_n + $(cat "$_x")))
	echo "$_n"
}

# --- mac_quirks helpers ----------------------------------------------------------

QUIRKS_DIR=/sys/devices/platform/mac_quirks/quirks
QUIRK_NAMES="gpe_storm wake_sources mbp_poweroff_window bcm4331_reset apple_nvme tb_cactus_ridge_s2idle osi_darwin uefi_skip_cert tb_alpine_ridge_s3"

# quirks_load [PARAM=VALUE...]: mac_quirks with the profile's TEST ONLY
# stand-ins for Apple PCI parts (QUIRKS_TEST_ARGS)
quirks_load() { modprobe mac_quirks ${QUIRKS_TEST_ARGS:-} "$@"; }

# quirk_state NAME: the state word of a quirk (before the first colon)
quirk_state() { sed -n '1s/:.*//p' "$QUIRKS_DIR/$1" 2>/dev/null; }

# quirk_expected NAME: the state the profile expects (EXPECT_QUIRKS)
quirk_expected()
{
	for _qe in ${EXPECT_QUIRKS:-}; do
		[ "${_qe%%=*}" = "$1" ] && { echo "${_qe#*=}"; return; }
	done
	echo not-applicable
}

# gpe_line NN: /sys/firmware/acpi/interrupts/gpeNN (hex digits as the profile writes them)
gpe_line() { cat "/sys/firmware/acpi/interrupts/gpe$(echo "$1" | tr a-f A-F)" 2>/dev/null; }

# wake_lines NAME: the lines of /proc/acpi/wakeup for ACPI device NAME
wake_lines() { awk -v n="$1" '$1 == n { print }' /proc/acpi/wakeup; }
