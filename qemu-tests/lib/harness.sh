# SPDX-License-Identifier: GPL-2.0
#
# Host side of the QEMU harness: test accounting, initramfs, ACPI tables,
# booting one profile, reading its results. Sourced by qemu-tests/run and
# qemu-tests/demo. Everything here fails closed: a result counts only when
# the guest wrote it and said it finished, and the console is scanned for
# kernel complaints.

HARNESS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
TOP=$(dirname "$HARNESS_DIR")
OUT=${OUT:-$HARNESS_DIR/out}

# Kernel complaints that fail a boot whatever the tests said. The second
# line: reports of the checkers of the debug kernel (make check-debug):
# KASAN, lockdep, kmemleak, debug objects (most also print BUG:/WARNING:).
# kmemleak's "N new suspected memory leaks" is not among them: the guest
# starts every scan itself and its kmemleak tests judge the objects, leaving
# out the kernel's own leaks that a test provokes (KMEMLEAK_KERNEL_OWN in
# guest/guest-lib.sh); the count line cannot tell those apart.
BADNESS='BUG:|WARNING:|Oops|Call Trace|soft lockup|hard LOCKUP|Kernel panic|general protection fault|UBSAN:|list_add corruption|refcount_t:'
BADNESS+='|KASAN:|possible circular locking|inconsistent lock state|possible recursive locking|unreferenced object|ODEBUG:'

KCMDLINE_BASE="console=ttyS0 log_buf_len=4M panic=-1 oops=panic panic_on_warn=1 softlockup_panic=1 loglevel=7"
QEMU_TIMEOUT=${QEMU_TIMEOUT:-300}

# --- test accounting ----------------------------------------------------------

# The stream is TAP (version 13, as kselftest prints it): a version line,
# one "ok N ..." / "not ok N ..." line per test, "ok N ... # SKIP reason"
# for a test that does not apply to the profile or kernel, the plan "1..N"
# at the end, the skips counted, and last "N passed, N failed" (skips are
# neither).
N_TESTS=0
N_PASS=0
N_FAIL=0
N_SKIP=0

# report ok|fail MACHINE MODULE TEST [NOTE]; a NOTE "SKIP reason" on an ok
# makes it a skip. With KLABEL set (qemu-tests/check: the kernel series,
# e.g. 6.12), every line names the kernel before the machine:
# "ok 12 6.12 MacBookPro10,1 ...".
report()
{
	local result=$1 machine=${KLABEL:+$KLABEL }$2 module=$3 name=$4 note=${5:-}

	N_TESTS=$((N_TESTS + 1))
	if [ "$result" = ok ] && [[ "$note" == SKIP* ]]; then
		N_SKIP=$((N_SKIP + 1))
		echo "ok $N_TESTS $machine $module $name # $note"
	elif [ "$result" = ok ]; then
		N_PASS=$((N_PASS + 1))
		echo "ok $N_TESTS $machine $module $name${note:+ # $note}"
	else
		N_FAIL=$((N_FAIL + 1))
		echo "not ok $N_TESTS $machine $module $name${note:+ # $note}"
	fi
}

# report_lines MACHINE MODULE < lines "ok NAME [# note]" / "not ok NAME # reason"
# Returns non-zero if no line was read.
report_lines()
{
	local machine=$1 module=$2 line n=0 rest

	while IFS= read -r line; do
		case "$line" in
		"ok "*)
			rest=${line#ok }
			report ok "$machine" "$module" "${rest%% # *}" \
				"$( [[ "$rest" == *" # "* ]] && echo "${rest#* # }")"
			n=$((n + 1)) ;;
		"not ok "*)
			rest=${line#not ok }
			report fail "$machine" "$module" "${rest%% # *}" \
				"$( [[ "$rest" == *" # "* ]] && echo "${rest#* # }")"
			n=$((n + 1)) ;;
		esac
	done
	[ "$n" -gt 0 ]
}

tap_begin()
{
	echo "TAP version 13"
}

summary()
{
	echo "1..$N_TESTS"
	echo "# $N_SKIP skipped (not applicable to the profile or kernel; not counted as passed)"
	echo "$N_PASS passed, $N_FAIL failed"
}

now() { date +%s.%N; }
# cpu_seconds: the children's CPU seconds in bash's "times" on stdin
cpu_seconds() { awk -f "$HARNESS_DIR/lib/cpu-seconds.awk"; }
elapsed() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

die() { echo "harness: $*" >&2; exit 1; }

# --- kernel and tools ---------------------------------------------------------

harness_find_kernel()
{
	if [ -z "${KVER:-}" ]; then
		KVER=$(ls -d /lib/modules/*-amd64/build 2>/dev/null | sed -e 's|^/lib/modules/||' \
			-e 's|/build$||' | sort -V | tail -n 1)
	fi
	[ -n "$KVER" ] || die "no Debian -amd64 kernel with headers installed (run: make deps)"
	# VMLINUZ and MODDIR (the kernel's modules, installed under some
	# ROOT/lib/modules/$KVER) may name a kernel that is not installed on
	# this machine: `make check-debug` boots its debug kernel so.
	VMLINUZ=${VMLINUZ:-/boot/vmlinuz-$KVER}
	[ -r "$VMLINUZ" ] || die "$VMLINUZ missing: install linux-image-$KVER"
	MODDIR=${MODDIR:-/lib/modules/$KVER}
	MODDIR=${MODDIR%/}
	case "$MODDIR" in
	*/lib/modules/"$KVER") MODROOT=${MODDIR%/lib/modules/"$KVER"} ;;
	*) die "MODDIR=$MODDIR does not end in /lib/modules/$KVER" ;;
	esac
	[ -r "$MODDIR/modules.dep" ] || die "$MODDIR/modules.dep missing"
	for t in qemu-system-x86_64 iasl cpio depmod xxd socat mkfifo; do
		command -v "$t" > /dev/null || die "$t missing (run: make deps)"
	done
	[ -x /bin/busybox ] || die "busybox missing (run: make deps)"
	KDIR=${KDIR:-/lib/modules/$KVER/build}
	OVMF_CODE=/usr/share/OVMF/OVMF_CODE_4M.fd
	OVMF_VARS=/usr/share/OVMF/OVMF_VARS_4M.fd
	export KVER KDIR VMLINUZ MODDIR
}

# kver_at_least MAJOR MINOR: the kernel under test ($KVER) is at least MAJOR.MINOR
kver_at_least()
{
	local maj=${KVER%%.*} rest=${KVER#*.}
	local min=${rest%%[!0-9]*}

	[ "$maj" -gt "$1" ] || { [ "$maj" -eq "$1" ] && [ "$min" -ge "$2" ]; }
}

# --- accelerator ----------------------------------------------------------------

# TCG unless a probe boot proves that KVM runs the guest: on this class of
# machine /dev/kvm opens but a guest under it hangs (reference:
# qemu-harness-facts.md, section 1), so opening /dev/kvm proves nothing.
ACCEL=(-accel tcg -cpu qemu64)
ACCEL_NAME=tcg

# harness_probe_kvm: boot the control machine under KVM with no tests; writes
# "kvm" or "tcg (reason)" to $OUT/accel. Needs the initramfs.
harness_probe_kvm()
{
	if [ "${MACSUPPORT_ACCEL:-}" = tcg ]; then
		echo "tcg (MACSUPPORT_ACCEL=tcg)" > "$OUT/accel"
		return
	fi
	if [ ! -w /dev/kvm ]; then
		echo "tcg (no usable /dev/kvm)" > "$OUT/accel"
		return
	fi
	# (bash's own line for a QEMU killed by a signal, "Aborted" where
	# KVM opens but cannot run a guest, goes to a file, not the stream)
	(
		ACCEL=(-accel kvm -cpu host)
		boot_profile non-apple "" test kvm-probe 20
	) 2> "$OUT/kvm-probe.log"
	if grep -q '^MACSUPPORT-END' "$(boot_dir kvm-probe)/results" 2>/dev/null; then
		echo kvm > "$OUT/accel"
	else
		# timeout's status, or 137 where its -k had to kill QEMU
		case "$(cat "$(boot_dir kvm-probe)/status" 2>/dev/null)" in
		124|137) echo "tcg (a KVM probe boot did not finish in 20 s)" > "$OUT/accel" ;;
		'') echo "tcg (a KVM probe boot did not run: see kvm-probe.log)" > "$OUT/accel" ;;
		*) echo "tcg (a KVM probe boot failed: QEMU exit status $(cat "$(boot_dir kvm-probe)/status"), see kvm-probe.log and kvm-probe/qemu.log)" \
			> "$OUT/accel" ;;
		esac
	fi
}

# harness_use_probed_accel: switch to what harness_probe_kvm found.
harness_use_probed_accel()
{
	ACCEL_NAME=$(cat "$OUT/accel" 2>/dev/null || echo "tcg (no probe)")
	if [ "$ACCEL_NAME" = kvm ]; then
		ACCEL=(-accel kvm -cpu host)
	fi
}

# --- initramfs ----------------------------------------------------------------

# In-tree modules the guest needs for its result channel.
BOOT_MODULES="virtio_pci virtio_console"
# In-tree modules that guest tests load themselves (shipped, not loaded at boot):
# efivarfs (=m in Debian) for the NVRAM check of 60-apple-props-builtin.sh;
# apple_bl, which apple_gmux_ng evicts and gives back (54-gmux-backlight-choice.sh);
# battery and ac for the emulated battery (95-report-measure.sh).
TEST_MODULES="efivarfs apple_bl battery ac"

# harness_build_initramfs: $OUT/initramfs.gz holding busybox, the guest
# scripts and tests, the in-tree modules with their dependencies and the
# bundle's own modules (under extra/), with a modules.dep made by depmod.
harness_build_initramfs()
{
	local root=$OUT/initramfs m ko dep deps hash
	local mods=/lib/modules/$KVER

	rm -rf "$root"
	mkdir -p "$root"/{bin,sbin,dev,proc,sys,tmp,etc/macsupport/tests,lib/modules/$KVER/extra}
	cp /bin/busybox "$root/bin/busybox"
	cp "$HARNESS_DIR/guest/init" "$root/init"
	chmod 0755 "$root/init"
	cp "$HARNESS_DIR/guest/guest-lib.sh" "$HARNESS_DIR/guest/demo.sh" \
		"$HARNESS_DIR/guest/demo-check.sh" "$root/etc/macsupport/"
	cp "$HARNESS_DIR"/tests/*.sh "$root/etc/macsupport/tests/"
	cp "$HARNESS_DIR"/selftest/*.sh "$root/etc/macsupport/tests/"
	# TEST ONLY: the guest's end of the gmux simulator (static binary).
	cp "$HARNESS_DIR/sim/build/gmux-simctl" "$root/bin/gmux-simctl" ||
		die "gmux-simctl not built (make -C qemu-tests/sim)"
	cp "$HARNESS_DIR/guest/build/timed-io" "$root/bin/timed-io" ||
		die "timed-io not built (make -C qemu-tests/guest)"
	cp "$HARNESS_DIR/guest/build/clear-immutable" "$root/bin/clear-immutable" ||
		die "clear-immutable not built (make -C qemu-tests/guest)"
	cp "$HARNESS_DIR/guest/build/drop-cap" "$root/bin/drop-cap" ||
		die "drop-cap not built (make -C qemu-tests/guest)"
	# The bundle's boot-GPU tool, linked statically for busybox.
	cp "$TOP/tools/build/gpu-select-static" "$root/bin/gpu-select" ||
		die "gpu-select not built (make -C tools)"
	cp "$TOP/tools/build/macsupport-report-static" "$root/bin/macsupport-report" ||
		die "macsupport-report not built (make -C tools)"
	# tb_macpm's udev helper for DisplayPort connectors, where udev would
	# have it (the guest has no udev: tests run it as its rule would)
	install -D -m 0755 "$TOP/tools/udev/tb_macpm-dp" "$root/usr/lib/udev/tb_macpm-dp"
	# Test blobs of Apple device properties, encoded by the bundle's own tool.
	mkdir -p "$root/etc/macsupport/blobs"
	for b in "$HARNESS_DIR"/blobs/*.json; do
		"$TOP/tools/build/apple-props" encode "$b" \
			> "$root/etc/macsupport/blobs/$(basename "$b" .json).bin" ||
			die "cannot encode $b"
	done
	for b in "$HARNESS_DIR"/bench/*.sh; do
		cp "$b" "$root/etc/macsupport/tests/bench-${b##*/}"
	done

	# In-tree modules with everything they depend on, as modprobe resolves it:
	# the result channel's, and those the bundle's modules import from (video).
	deps=$(for ko in "$TOP"/src/*/*.ko "$HARNESS_DIR"/helpers/*.ko; do
		[ -e "$ko" ] && modinfo -F depends "$ko"
	done | tr ',' '\n' | sort -u)
	for m in $BOOT_MODULES $TEST_MODULES $deps; do
		modprobe -d "${MODROOT:-/}" -S "$KVER" --show-depends "$m" 2>/dev/null |
			awk '$1 == "insmod" { print $2 }'
	done | sort -u > "$OUT/intree-modules"
	[ -s "$OUT/intree-modules" ] || die "cannot resolve $BOOT_MODULES $TEST_MODULES for $KVER"
	while read -r ko; do
		ko=${ko#"$MODROOT"}
		mkdir -p "$root$(dirname "$ko")"
		cp "$MODROOT$ko" "$root$ko"
	done < "$OUT/intree-modules"
	echo "$BOOT_MODULES" | tr ' ' '\n' > "$root/etc/macsupport/boot-modules"

	# The bundle, and test-only helpers (never installed by DKMS).
	for ko in "$TOP"/src/*/*.ko "$HARNESS_DIR"/helpers/*.ko; do
		[ -e "$ko" ] || die "module $ko not built"
		cp "$ko" "$root$mods/extra/"
	done
	# Without their DWARF (the guest's stack traces need only the symbols,
	# which stay; the tree's own .ko keep everything for decoding): half
	# the initramfs that the firmware reads and the kernel unpacks per boot.
	strip --strip-debug "$root$mods"/extra/*.ko || die "cannot strip the modules"
	cp "$MODDIR"/modules.{order,builtin,builtin.modinfo} "$root$mods/" 2>/dev/null
	depmod -b "$root" "$KVER" || die "depmod failed"

	# A kernel built here (the debug kernel) keeps its module signing key in
	# its build tree; Debian's headers have none. With the key, the guest's
	# unsigned modules (the bundle's, and the kernel's own when it was built
	# without MODULE_SIG_ALL) are signed, so that they load in a guest locked
	# down at boot, and MACSUPPORT_SIGNED_MODULES=1 lets tests that need
	# that run (see run).
	MACSUPPORT_SIGNED_MODULES=0
	if [ -r "$KDIR/certs/signing_key.pem" ] && [ -r "$KDIR/certs/signing_key.x509" ] &&
	   [ -x "$KDIR/scripts/sign-file" ]; then
		hash=$(sed -n 's/^CONFIG_MODULE_SIG_HASH="\(.*\)"$/\1/p' "$KDIR/.config")
		for ko in $(find "$root/lib/modules" -name '*.ko'); do
			tail -c 28 "$ko" | grep -q 'Module signature appended' && continue
			"$KDIR/scripts/sign-file" "${hash:-sha256}" "$KDIR/certs/signing_key.pem" \
				"$KDIR/certs/signing_key.x509" "$ko" || die "cannot sign $ko"
		done
		MACSUPPORT_SIGNED_MODULES=1
	fi
	export MACSUPPORT_SIGNED_MODULES

	(cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) > "$OUT/initramfs.gz" ||
		die "cannot pack initramfs"
}

# harness_prepare: build the test-only helper modules, the simulators and
# the initramfs.
harness_prepare()
{
	make -s -j"$(nproc)" -C "$KDIR" M="$HARNESS_DIR/helpers" modules > "$OUT/helpers.log" 2>&1 ||
		{ cat "$OUT/helpers.log" >&2; die "cannot build the test helpers"; }
	make -s -j"$(nproc)" -C "$HARNESS_DIR/sim" > "$OUT/sim-build.log" 2>&1 ||
		{ cat "$OUT/sim-build.log" >&2; die "cannot build the simulators (qemu-tests/sim)"; }
	make -s -j"$(nproc)" -C "$TOP/tools" > "$OUT/tools-build.log" 2>&1 ||
		{ cat "$OUT/tools-build.log" >&2; die "cannot build tools/"; }
	make -s -j"$(nproc)" -C "$HARNESS_DIR/guest" > "$OUT/guest-build.log" 2>&1 ||
		{ cat "$OUT/guest-build.log" >&2; die "cannot build the guest tools"; }
	make -s -j"$(nproc)" -C "$HARNESS_DIR/efi" > "$OUT/efi-build.log" 2>&1 ||
		{ cat "$OUT/efi-build.log" >&2; die "cannot build the fake Apple firmware (qemu-tests/efi)"; }
	harness_build_initramfs
}

# --- profiles -----------------------------------------------------------------

harness_profiles()
{
	local p

	for p in "$HARNESS_DIR"/profiles/*/profile; do
		basename "$(dirname "$p")"
	done
}

# profile_load NAME: source the profile into PROFILE_* variables (in a subshell's scope)
profile_load()
{
	local dir=$HARNESS_DIR/profiles/$1

	[ -r "$dir/profile" ] || die "no profile '$1' (see qemu-tests/profiles/)"
	DESC= FIRMWARE=ovmf MACHINE=q35 SMBIOS=() ACPI=() QEMU_ARGS=() SIMULATOR=
	APPLE_PROPS= APPLE_NVRAM_PROPS= KCMDLINE_EXTRA= SMP_MAXCPUS=
	CHECK_FULL_ONLY= CHECK_FULL_ONLY_WHY= SPLIT_BOOT=
	# shellcheck source=/dev/null
	. "$dir/profile"
	PROFILE=$1
	PROFILE_DIR=$dir
}

# profile_env FILE: the EXPECT_* variables of the loaded profile, and the TEST
# ONLY module parameters its tests pass (QUIRKS_TEST_ARGS), for the guest
profile_env()
{
	local v

	{
		printf 'PROFILE=%q\n' "$PROFILE"
		printf 'SIMULATOR=%q\n' "$SIMULATOR"
		printf 'QUIRKS_TEST_ARGS=%q\n' "${QUIRKS_TEST_ARGS:-}"
		# the profile's tables record the firmware calls (replay.map)
		printf 'FW_TRACE=%q\n' "$([ -e "$PROFILE_DIR/replay.map" ] && echo 1 || echo 0)"
		for v in $(compgen -v EXPECT_); do
			printf '%s=%q\n' "$v" "${!v}"
		done
		echo "export PROFILE SIMULATOR QUIRKS_TEST_ARGS FW_TRACE $(compgen -v EXPECT_ | tr '\n' ' ')"
	} > "$1"
}

# profile_acpi WORKDIR: compile the profile's ASL; prints -acpitable args
profile_acpi()
{
	local work=$1 asl base

	for asl in "${ACPI[@]}"; do
		base=$(basename "$asl" .asl)
		if ! iasl -p "$work/$base" "$PROFILE_DIR/$asl" > "$work/$base.iasl.log" 2>&1 ||
		   [ ! -s "$work/$base.aml" ]; then
			cat "$work/$base.iasl.log" >&2
			return 1
		fi
		printf '%s\n' -acpitable "file=$work/$base.aml"
	done
}

# --- simulators ---------------------------------------------------------------

# TEST ONLY. A profile with SIMULATOR="gmux <kind>" gets a host-side gmux
# (sim/gmux-sim) behind an ivshmem-plain device at 00:10.0, whose BAR2 is a
# file in /dev/shm; the profile's gmux.asl names a window in that BAR as a
# resource of the gmux (layout: include/macsupport/gmux_sim.h).

sim_const()
{
	sed -n "s/^#define $1[[:space:]]\{1,\}\(0x[0-9a-fA-F]*\).*/\1/p" \
		"$TOP/include/macsupport/gmux_sim.h"
}

# sim_start WORK LABEL: start the profile's simulator and wait (bounded) until
# it has laid out its window. Sets SIM_PID, SIM_SHM and SIM_ARGS (the QEMU
# arguments). Returns non-zero, with the reason in WORK/sim.log, on failure.
sim_start()
{
	local work=$1 label=$2 magic_off want got= i
	local -a words

	read -r -a words <<< "$SIMULATOR"
	if [ "${words[0]:-}" != gmux ] || [ ${#words[@]} -ne 2 ]; then
		echo "harness: unknown SIMULATOR '$SIMULATOR' (want \"gmux classic|indexed|t2\")" \
			> "$work/sim.log"
		return 1
	fi
	# QEMU splits option values at commas: the path must have none.
	label=${label//,/}
	SIM_SHM=/dev/shm/macsupport-${label//[^A-Za-z0-9._-]/_}-$$
	# shellcheck disable=SC2086 # GMUX_SIM_OPTS: extra options, for debugging
	# Above the guests in priority: a gmux that answers late under a
	# loaded host would look like a stuck one to the driver. Root gets the
	# lowest real-time priority (its spins are bounded, --spin-us, and the
	# kernel's RT throttling caps it), others nice -10 where allowed.
	local prio=(nice -n -10)
	if [ "$(id -u)" = 0 ] && chrt -f 1 true 2> /dev/null; then
		prio=(chrt -f 1)
	fi
	"${prio[@]}" "$HARNESS_DIR/sim/build/gmux-sim" --kind "${words[1]}" --shm "$SIM_SHM" \
		${GMUX_SIM_OPTS:-} \
		> "$work/sim.log" 2>&1 &
	SIM_PID=$!

	magic_off=$(( $(sim_const GMUX_SIM_BAR_OFFSET) + $(sim_const GMUX_SIM_MAGIC) ))
	want=$(printf '%08x' "$(sim_const GMUX_SIM_MAGIC_VALUE)")
	for i in $(seq 100); do
		got=$(od -An -tx4 -j "$magic_off" -N 4 "$SIM_SHM" 2>/dev/null | tr -d ' ')
		[ "$got" = "$want" ] && break
		kill -0 "$SIM_PID" 2>/dev/null || break
		sleep 0.05
	done
	if [ "$got" != "$want" ]; then
		sim_stop
		echo "harness: gmux-sim did not lay out $SIM_SHM within 5 s" >> "$work/sim.log"
		return 1
	fi
	# master=on: QEMU may save the guest (snap_checkpoint) with the window's
	# contents; a guest started from it writes them into this simulator's
	# window, which at the checkpoint is as the simulator laid it out.
	SIM_ARGS=(-object "memory-backend-file,id=gmuxsim,size=1M,share=on,mem-path=$SIM_SHM"
		  -device ivshmem-plain,memdev=gmuxsim,master=on,bus=pcie.0,addr=0x10)
}

# stop_process PID: TERM, up to 2 s to go, then KILL; returns its exit status
stop_process()
{
	local i

	kill -TERM "$1" 2>/dev/null
	for i in $(seq 40); do
		kill -0 "$1" 2>/dev/null || break
		sleep 0.05
	done
	kill -KILL "$1" 2>/dev/null
	wait "$1" 2>/dev/null
}

# sim_stop [WORK]: stop the simulator, delete its file; with WORK, leave the
# simulator's exit status in WORK/sim-status (0 unless it died on its own).
sim_stop()
{
	local rc

	if [ -n "${SIM_PID:-}" ]; then
		# A simulator that had died already keeps its own exit status.
		stop_process "$SIM_PID"
		rc=$?
		[ -n "${1:-}" ] && echo "$rc" > "$1/sim-status"
		SIM_PID=
	fi
	[ -n "${SIM_SHM:-}" ] && rm -f "$SIM_SHM"
	SIM_SHM=
}

# --- the fake Apple firmware ---------------------------------------------------

# TEST ONLY. FIRMWARE=apple-efi boots OVMF with a virtual FAT drive holding
# efi/build/apple-fw.efi as \EFI\BOOT\BOOTX64.EFI, the kernel, the initrd,
# the command line and the profile's device-properties blob; the EFI app
# serves the blob through Apple's protocol, says the vendor is "Apple" and
# starts the kernel, whose EFI stub then collects the blob as on a real Mac.
# With APPLE_NVRAM_PROPS the drive also holds \nvram-props.bin, which the app
# writes as the NVRAM variables AAPL,PathProperties0000, 0001, ... (into this
# boot's own copy of OVMF_VARS).

# apple_efi_disk DIR INITRD CMDLINE: fill DIR; prints the QEMU arguments
apple_efi_disk()
{
	local dir=$1 initrd=$2 cmdline=$3

	mkdir -p "$dir/EFI/BOOT" || return 1
	cp "$HARNESS_DIR/efi/build/apple-fw.efi" "$dir/EFI/BOOT/BOOTX64.EFI" || return 1
	# The bundle's set-os app, which apple-fw starts on apple_fw.set_os=... (tests 85-89).
	mkdir -p "$dir/EFI/macsupport" &&
		cp "$TOP/tools/efi/build/set-os.efi" "$dir/EFI/macsupport/set-os.efi" || return 1
	cp "$VMLINUZ" "$dir/vmlinuz" || return 1
	cp "$initrd" "$dir/initrd.img" || return 1
	printf '%s\n' "$cmdline" > "$dir/cmdline.txt" || return 1
	if [ -n "$APPLE_PROPS" ]; then
		xxd -r -p "$PROFILE_DIR/$APPLE_PROPS" > "$dir/apple-props.bin" || return 1
		[ -s "$dir/apple-props.bin" ] || return 1
	fi
	if [ -n "$APPLE_NVRAM_PROPS" ]; then
		xxd -r -p "$PROFILE_DIR/$APPLE_NVRAM_PROPS" > "$dir/nvram-props.bin" || return 1
		[ -s "$dir/nvram-props.bin" ] || return 1
	fi
	# Read-only: nothing the guest firmware does reaches the host directory.
	# 00:1e.0 is free on q35 and keeps the disk off the addresses profiles use.
	printf '%s\n' -drive "file=fat:$dir,format=raw,if=none,id=efidisk,readonly=on" \
		-device virtio-blk-pci,drive=efidisk,bus=pcie.0,addr=0x1e
}

# --- the host agent -----------------------------------------------------------

# TEST ONLY. Every boot gets a QMP socket and a second virtio-serial port,
# "hostagent", whose chardev is a pair of FIFOs (WORK/hostagent.in: host to
# guest, WORK/hostagent.out: guest to host). A guest test (host_request in
# guest-lib.sh) writes "MACSUPPORT-QMP <id> <json>" to the port; host_agent
# passes an allowed command to QEMU's QMP socket and writes back
# "MACSUPPORT-QMP-REPLY <id> <QMP's answer line>". "MACSUPPORT-QMP-REPEAT
# <id> <count> <gap_ms> <json>" passes the same command <count> times (at
# most 30), <gap_ms> (at most 2000) apart, and answers once, with the first
# error or the last answer: a burst paced by the host, whatever the guest's
# speed (the debug kernel's guests take most of a second for each request
# of their own). QMP can run host
# commands (migrate to "exec:"), so only the commands and device models
# listed here pass; anything else is answered with a HostAgentRefused error.
HOST_AGENT_COMMANDS="device_add device_del query-pci qom-set"
HOST_AGENT_DRIVERS="pci-testdev edu"
# device_add of a CPU (a real GPE 0x02 on q35, for profiles with SMP_MAXCPUS)
HOST_AGENT_CPU_DRIVER="qemu64-x86_64-cpu"
# qom-set: only this property of a vmgenid device (a real GPE 0x05 on q35)
HOST_AGENT_QOM_PROP="guid"
HOST_AGENT_QOM_PATHS="vgid /machine/peripheral/vgid"

# qmp_sock_path WORK: where the boot's QMP socket goes. A unix socket path
# holds at most 107 bytes and QEMU splits option values at commas.
qmp_sock_path()
{
	local sock=$1/qmp

	if [ ${#sock} -gt 100 ] || [[ "$sock" == *,* ]]; then
		sock=/tmp/macsupport-qmp-$BASHPID
	fi
	echo "$sock"
}

# qmp_call WORK SOCK JSON [COUNT [GAP_MS]]: one QMP session (greeting,
# qmp_capabilities, then JSON COUNT times, GAP_MS apart, each after the
# previous answer, stopping at the first that fails), bounded in time; prints
# QMP's last answer (events skipped), or an error object of class
# HostAgentNoAnswer, and on a second line how many were answered. One
# session for a repeat: a session each cost hundreds of ms on a loaded host,
# enough to stretch a GPE storm of 14 raises 600 ms apart to 17 s. socat
# talks to QEMU through two FIFOs (a coproc's descriptors vanish when it
# exits early).
qmp_call()
{
	local work=$1 sock=$2 req=$3 count=${4:-1} gap=${5:-0}
	local line ans= step=greeting pid rfd wfd sent=0 limit

	limit=$((10 + count * (gap + 1000) / 1000))
	rm -f "$work/qmp-call.req" "$work/qmp-call.ans"
	mkfifo "$work/qmp-call.req" "$work/qmp-call.ans" || step="mkfifo"
	if [ "$step" = greeting ]; then
		timeout -k 1 "$limit" socat -t 2 - "UNIX-CONNECT:$sock" \
			< "$work/qmp-call.req" > "$work/qmp-call.ans" 2>/dev/null &
		pid=$!
		# In the order socat's redirections open them, so neither side blocks.
		exec {wfd}> "$work/qmp-call.req" {rfd}< "$work/qmp-call.ans"
		while IFS= read -r -t 8 -u "$rfd" line; do
			case "$step:$line" in
			greeting:*'"QMP"'*)
				echo '{"execute":"qmp_capabilities"}' >&"$wfd"
				step=caps ;;
			caps:*'"return"'*)
				printf '%s\n' "$req" >&"$wfd"
				step=cmd ;;
			cmd:*'"event"'*) ;;
			cmd:*'"return"'*)
				ans=$line
				sent=$((sent + 1))
				[ "$sent" -lt "$count" ] || break
				sleep "$(printf '%d.%03d' $((gap / 1000)) $((gap % 1000)))"
				printf '%s\n' "$req" >&"$wfd" ;;
			cmd:*'"error"'*)
				ans=$line
				break ;;
			esac
		done
		# Closing its input ends socat, which closes the session.
		exec {wfd}>&- {rfd}<&-
		wait "$pid" 2>/dev/null
	fi
	rm -f "$work/qmp-call.req" "$work/qmp-call.ans"
	if [ -z "$ans" ]; then
		ans="{\"error\":{\"class\":\"HostAgentNoAnswer\",\"desc\":\"no QMP answer (at $step)\"}}"
	fi
	printf '%s\n%s\n' "${ans%$'\r'}" "$sent"
}

# json_str JSON KEY: the string value of KEY if JSON has exactly one KEY
json_str()
{
	[ "$(grep -o "\"$2\"" <<< "$1" | wc -l)" = 1 ] &&
		[[ "$1" =~ \"$2\"[[:space:]]*:[[:space:]]*\"([^\"]*)\" ]] &&
		echo "${BASH_REMATCH[1]}"
}

# host_agent_check JSON: empty if the agent may pass JSON on, else the reason
host_agent_check()
{
	local json=$1 cmd drv path prop

	[[ "$json" == '{'*'}' ]] || { echo "not a JSON object"; return; }
	cmd=$(json_str "$json" execute) || { echo "want exactly one execute key"; return; }
	[[ " $HOST_AGENT_COMMANDS " == *" $cmd "* ]] ||
		{ echo "command $cmd not allowed (allowed: $HOST_AGENT_COMMANDS)"; return; }
	case $cmd in
	device_add)
		drv=$(json_str "$json" driver) || { echo "device_add without one driver"; return; }
		[[ " $HOST_AGENT_DRIVERS $HOST_AGENT_CPU_DRIVER " == *" $drv "* ]] ||
			echo "driver $drv not allowed (allowed: $HOST_AGENT_DRIVERS $HOST_AGENT_CPU_DRIVER)"
		;;
	qom-set)
		# Only {"path": <the vmgenid device>, "property": "guid", "value": ...}
		path=$(json_str "$json" path) || { echo "qom-set without one path"; return; }
		prop=$(json_str "$json" property) || { echo "qom-set without one property"; return; }
		[[ " $HOST_AGENT_QOM_PATHS " == *" $path "* && "$prop" = "$HOST_AGENT_QOM_PROP" ]] ||
			echo "qom-set only of $HOST_AGENT_QOM_PROP on $HOST_AGENT_QOM_PATHS"
		;;
	esac
}

# host_agent WORK SOCK PARENT: serve the guest's requests until killed or
# until PARENT (the boot's shell) is gone. Log in WORK/hostagent.log.
host_agent()
{
	local work=$1 sock=$2 parent=$3 buf= line tag id json why ans t0 in out
	local count gap i

	trap 'exit 0' TERM
	# Read-write opens of the FIFOs never block, whether QEMU has them open or not.
	exec {in}<>"$work/hostagent.out" {out}<>"$work/hostagent.in"
	# A guest started from a saved one waits at its checkpoint for the
	# answer its first boot's agent did not give it (snap_checkpoint).
	if [ -e "$work/snap.restored" ]; then
		printf 'MACSUPPORT-GO restored %s\n' "$(cat "$work/snap.go")" >&"$out"
		printf '%s restored: the guest goes on with %s\n' "$(date -u +%T.%N | cut -c 1-12)" \
			"$(cat "$work/snap.go")" >> "$work/hostagent.log"
	fi
	while :; do
		if ! IFS= read -r -t 1 -u "$in" line; then
			buf+=$line	# a timeout keeps the partial line
			kill -0 "$parent" 2>/dev/null || break
			continue
		fi
		line=$buf$line
		buf=
		read -r tag id json <<< "${line%$'\r'}"
		count=1
		gap=0
		case "$tag" in
		MACSUPPORT-QMP) ;;
		MACSUPPORT-QMP-REPEAT) read -r count gap json <<< "$json" ;;
		MACSUPPORT-CHECKPOINT)
			[[ "$id" =~ ^[A-Za-z0-9._-]+$ ]] || id=bad-id
			snap_checkpoint "$work" "$sock" "$id" "$out"
			continue ;;
		*) continue ;;
		esac
		[[ "$id" =~ ^[A-Za-z0-9._-]+$ ]] || id=bad-id
		t0=$(now)
		why=$(host_agent_check "$json")
		[[ "$count" =~ ^[1-9][0-9]?$ && "$gap" =~ ^(0|[1-9][0-9]{0,3})$ && $count -le 30 &&
		   $gap -le 2000 ]] || why="a repeat wants 1 to 30 times, 0 to 2000 ms apart"
		if [ -n "$why" ]; then
			ans="{\"error\":{\"class\":\"HostAgentRefused\",\"desc\":\"${why//\"/\\\"}\"}}"
		else
			ans=$(qmp_call "$work" "$sock" "$json" "$count" "$gap")
			i=${ans##*$'\n'}
			ans=${ans%$'\n'*}
			[ "$count" -gt 1 ] && json="$json (x$i of $count, $gap ms apart, one session)"
		fi
		printf 'MACSUPPORT-QMP-REPLY %s %s\n' "$id" "$ans" >&"$out"
		printf '%s %s (%ss)\n  < %s\n  > %s\n' "$(date -u +%T.%N | cut -c 1-12)" "$id" \
			"$(elapsed "$t0")" "$json" "$ans" >> "$work/hostagent.log"
	done
}

# --- saved guests ---------------------------------------------------------------
#
# Boot once, start many (qemu-tests/run): the guest's /init stops at its
# checkpoint, once the kernel has booted, the boot modules are loaded and the
# result port is open, before anything of a test ran, and asks the host
# agent for its tests (MACSUPPORT-CHECKPOINT). In a boot with SNAP_SAVE=FILE
# the agent first saves the whole machine there (QMP migrate to a file: RAM
# and device state; the OVMF variable store beside it as FILE.vars), then
# lets it go on. A boot with SNAP_FROM=FILE starts QEMU from that file
# (-incoming) instead of booting: the same profile, kernel, command line,
# firmware and devices, its own console, result port, simulator and agent;
# its agent answers the checkpoint the saved guest is waiting at. A boot of
# a saved guest costs well under a second of CPU against the 9 or so of
# OVMF, the kernel and /init under TCG (testing.rst, "Where the time goes").
# Not the same as a boot in two ways: every started guest has the same
# random state (the kernel's entropy pool, random UUIDs) and its console
# holds only what came after the checkpoint (the first boot's console has
# the rest, scanned there).

# snap_checkpoint WORK SOCK ID OUTFD: answer the guest's checkpoint: save it
# first when this boot is to (SNAP_SAVE); FILE.failed if that fails, so
# that the boots waiting for it boot instead
snap_checkpoint()
{
	local work=$1 sock=$2 id=$3 out=$4 file=${SNAP_SAVE:-} ans st i t0

	t0=$(now)
	if [ -n "$file" ]; then
		st=failed
		qmp_call "$work" "$sock" \
			'{"execute":"migrate-set-parameters","arguments":{"max-bandwidth":8589934592}}' \
			> /dev/null
		ans=$(qmp_call "$work" "$sock" \
			"{\"execute\":\"migrate\",\"arguments\":{\"uri\":\"exec:cat > '$file.tmp'\"}}" | head -n 1)
		if [[ "$ans" == '{"return"'* ]]; then
			for ((i = 0; i < 600; i++)); do
				ans=$(qmp_call "$work" "$sock" '{"execute":"query-migrate"}' | head -n 1)
				case "$ans" in
				*'"status": "completed"'*|*'"status":"completed"'*) st=completed; break ;;
				*'"status": "failed"'*|*'"status":"failed"'*|*'"error"'*) break ;;
				esac
				sleep 0.1
			done
		fi
		# Stopped now: the variable store is what the saved guest's is.
		if [ "$st" = completed ] && cp "$work/ovmf-vars.fd" "$file.vars" 2>/dev/null &&
		   mv "$file.tmp" "$file"; then
			echo "$(stat -c %s "$file") bytes in $(elapsed "$t0") s" > "$work/snap.saved"
		else
			echo "$st: $ans" > "$file.failed"
			rm -f "$file.tmp"
		fi
		qmp_call "$work" "$sock" '{"execute":"cont"}' > /dev/null
	fi
	printf 'MACSUPPORT-GO %s %s\n' "$id" "$(cat "$work/snap.go")" >&"$out"
	printf '%s %s checkpoint (%ss)%s\n' "$(date -u +%T.%N | cut -c 1-12)" "$id" "$(elapsed "$t0")" \
		"${file:+: saved to $file: $(cat "$work/snap.saved" "$file.failed" 2>/dev/null)}" \
		>> "$work/hostagent.log"
}

# snap_wait FILE SECONDS: wait until the boot that saves FILE has saved it
# (0), or failed to, or ended without (1)
snap_wait()
{
	local file=$1 limit=$2 i

	for ((i = 0; i < limit * 5; i++)); do
		[ -e "$file" ] && return 0
		[ -e "$file.failed" ] && return 1
		[ -e "$file.ended" ] && { [ -e "$file" ]; return; }
		sleep 0.2
	done
	return 1
}

# host_agent_start WORK: make the port's FIFOs and the QMP socket path, start
# the agent. Sets AGENT_PID, AGENT_SOCK and AGENT_ARGS (the QEMU arguments).
host_agent_start()
{
	local work=$1

	AGENT_SOCK=$(qmp_sock_path "$work")
	rm -f "$AGENT_SOCK" "$work/hostagent.in" "$work/hostagent.out"
	mkfifo "$work/hostagent.in" "$work/hostagent.out" || return 1
	: > "$work/hostagent.log"
	host_agent "$work" "$AGENT_SOCK" "$BASHPID" &
	AGENT_PID=$!
	AGENT_ARGS=(-qmp "unix:$AGENT_SOCK,server=on,wait=off"
		    -chardev "pipe,id=hostagent,path=$work/hostagent"
		    -device virtserialport,bus=vser.0,chardev=hostagent,name=hostagent)
}

# host_agent_stop WORK: stop the agent, remove its socket and FIFOs
host_agent_stop()
{
	local work=$1

	if [ -n "${AGENT_PID:-}" ]; then
		stop_process "$AGENT_PID"
		AGENT_PID=
	fi
	[ -n "${AGENT_SOCK:-}" ] && rm -f "$AGENT_SOCK"
	rm -f "$work/hostagent.in" "$work/hostagent.out" "$work/qmp-call.req" "$work/qmp-call.ans"
	AGENT_SOCK=
}

# guest_slot_take: with GUEST_SLOTS=DIR:N, wait for one of N lock files in
# DIR and keep it locked (an open descriptor) until the calling (sub)shell
# ends. qemu-tests/check gives the 6.1 run and the runs beside it one pool,
# so that whichever has guests left uses the machine's CPUs; each run still
# starts its boots in its own order (longest first).
guest_slot_take()
{
	local dir n i fd

	[ -n "${GUEST_SLOTS:-}" ] || return 0
	dir=${GUEST_SLOTS%:*} n=${GUEST_SLOTS##*:}
	while :; do
		for ((i = 1; i <= n; i++)); do
			exec {fd}> "$dir/slot$i" || return 0
			if flock -n "$fd"; then
				GUEST_SLOT_FD=$fd
				return 0
			fi
			exec {fd}>&-
		done
		sleep 0.2
	done
}

# --- one boot -----------------------------------------------------------------

# boot_profile NAME TESTS [MODE [LABEL [TIMEOUT]]]
# Boots the profile, leaves in $OUT/LABEL/ (LABEL defaults to NAME):
# console.log, results, status, time. MODE is "test" (default) or "demo";
# TESTS is a comma-separated list of guest test files.
# make check-image boots a Debian image instead of the harness's initramfs:
# BOOT_INITRD (the initrd to boot), BOOT_CMDLINE (the command line before
# the profile's KCMDLINE_EXTRA), BOOT_DISK (a raw disk image), BOOT_MEM
# (MiB, default 512) and BOOT_SMP (vCPUs, default 1); VMLINUZ the kernel.
boot_profile()
{
	local name=$1 tests=$2 mode=${3:-test} label=${4:-$1} limit=${5:-$QEMU_TIMEOUT}
	local work args=() serial=() fg=() qemu_out= smb rc t0 c0 cmdline vars incoming
	local -a kernel

	work=$(boot_dir "$label")

	rm -rf "$work"
	mkdir -p "$work"
	(
		profile_load "$name"

		# Fail closed: this stays unless the guest writes its own results.
		echo "not ok harness guest-report # the guest never started" > "$work/results"

		profile_env "$work/profile.env"
		mkdir -p "$work/extra/etc/macsupport"
		cp "$work/profile.env" "$work/extra/etc/macsupport/profile.env"
		# The blob the fake Apple firmware serves, for the guest to compare.
		if [ -n "$APPLE_PROPS" ]; then
			cp "$PROFILE_DIR/$APPLE_PROPS" "$work/extra/etc/macsupport/apple-props.hex"
		fi
		# The blob it writes as AAPL,PathProperties variables, likewise.
		if [ -n "$APPLE_NVRAM_PROPS" ]; then
			cp "$PROFILE_DIR/$APPLE_NVRAM_PROPS" \
				"$work/extra/etc/macsupport/nvram-props.hex"
		fi
		# BOOT_INITRD (make check-image): the image's own initrd, as it is.
		initrd=${BOOT_INITRD:-$work/initrd}
		if [ -z "${BOOT_INITRD:-}" ]; then
			(cd "$work/extra" && find . | cpio -o -H newc --quiet | gzip -1) > "$work/profile.cpio.gz"
			cat "$OUT/initramfs.gz" "$work/profile.cpio.gz" > "$initrd"
		fi

		# SNAP_FROM: start from the guest a boot of this profile saved at
		# its checkpoint, once it has; if it could not, boot.
		if [ -n "${SNAP_FROM:-}" ] && [ "$mode" = test ] && [ -z "${BOOT_CMDLINE:-}" ]; then
			if snap_wait "$SNAP_FROM" "$limit"; then
				: > "$work/snap.restored"
			else
				echo "no saved guest: $(cat "$SNAP_FROM.failed" 2>/dev/null ||
					echo "its boot ended without saving")" > "$work/snap.booted"
			fi
		fi
		mapfile -t acpi < <(profile_acpi "$work") || exit 1
		[ ${#acpi[@]} -eq $((2 * ${#ACPI[@]})) ] || {
			echo "not ok harness acpi-tables # iasl failed for $name" > "$work/results"
			exit 1
		}
		for smb in "${SMBIOS[@]}"; do
			args+=(-smbios "$smb")
		done

		# GUEST_SLOTS: at most so many guests at a time across the runs
		# that share it (qemu-tests/check); held until this boot ends.
		guest_slot_take
		SIM_PID= SIM_SHM= SIM_ARGS=()
		AGENT_PID= AGENT_SOCK= AGENT_ARGS=()
		trap 'host_agent_stop "$work"; sim_stop' EXIT
		if [ -n "$SIMULATOR" ] && ! sim_start "$work" "$label"; then
			echo "not ok harness simulator # $(tail -n 1 "$work/sim.log")" > "$work/results"
			exit 1
		fi
		# A test boot's tests come at the guest's checkpoint (snap_checkpoint):
		# every boot of a profile has the same command line, and one saved
		# guest can start them all.
		if [ "$mode" = test ]; then
			cmdline=${BOOT_CMDLINE:-"$KCMDLINE_BASE macsupport.checkpoint=1 macsupport.mode=$mode"}
		else
			cmdline=${BOOT_CMDLINE:-"$KCMDLINE_BASE macsupport.tests=$tests macsupport.mode=$mode"}
		fi
		echo "tests=$tests mode=$mode" > "$work/snap.go"
		cmdline+="${KCMDLINE_EXTRA:+ $KCMDLINE_EXTRA}${BOOT_APPEND:+ $BOOT_APPEND}"
		# TEST ONLY: 6.2 and later choose the gmux backlight only if
		# apple_gmux_detect() finds the chip at its real port or MMIO
		# window, where nothing answers under QEMU (the simulator sits in
		# a shared-memory window): the kernel parameter makes the choice a
		# real Mac's firmware and chip make. 6.1 needs none (it registers
		# the gmux on "vendor", src/compat.h).
		if [ -n "$SIMULATOR" ] && kver_at_least 6 2; then
			cmdline+=" acpi_backlight=apple_gmux"
		fi
		kernel=(-kernel "$VMLINUZ" -initrd "$initrd" -append "$cmdline")
		case "$FIRMWARE" in
		ovmf|apple-efi)
			# OVMF_VARS_FROM: the variable store a previous boot left
			# (a test that boots twice, see run).
			vars=${OVMF_VARS_FROM:-$OVMF_VARS}
			[ -e "$work/snap.restored" ] && vars=$SNAP_FROM.vars
			cp "$vars" "$work/ovmf-vars.fd" || {
				echo "not ok harness ovmf-vars # cannot copy $vars" \
					> "$work/results"
				exit 1
			}
			args+=(-drive "if=pflash,format=raw,unit=0,readonly=on,file=$OVMF_CODE"
			       -drive "if=pflash,format=raw,unit=1,file=$work/ovmf-vars.fd")
			if [ "$FIRMWARE" = apple-efi ]; then
				mapfile -t kernel < <(apple_efi_disk "$work/efidisk" "$initrd" \
					"$cmdline")
				[ ${#kernel[@]} -eq 4 ] || {
					echo "not ok harness apple-efi-disk # cannot fill $work/efidisk" \
						> "$work/results"
					exit 1
				}
			fi ;;
		seabios) ;;
		*) echo "not ok harness firmware # unknown FIRMWARE=$FIRMWARE" > "$work/results"
		   exit 1 ;;
		esac

		if [ "$mode" = demo ]; then
			# Console on the terminal as well as in the log.
			serial=(-chardev "stdio,id=con,logfile=$work/console.log,signal=off"
				-serial chardev:con)
			fg=(--foreground)
			# Our own stdout, shared: reopening /dev/stdout when it is
			# a file would write over what was printed before.
			exec {qemu_out}>&1
		else
			serial=(-serial "file:$work/console.log")
			exec {qemu_out}> "$work/qemu.log"
		fi
		# BOOT_DISK: a root file system image (make check-image), at a
		# slot no profile uses.
		if [ -n "${BOOT_DISK:-}" ]; then
			args+=(-drive "file=$BOOT_DISK,format=raw,if=none,id=rootdisk,cache=unsafe"
			       -device virtio-blk-pci,drive=rootdisk,bus=pcie.0,addr=0x1a)
		fi
		incoming=
		[ -e "$work/snap.restored" ] && incoming="exec:cat '$SNAP_FROM'"
		host_agent_start "$work" || {
			echo "not ok harness host-agent # cannot make $work/hostagent.{in,out}" \
				> "$work/results"
			exit 1
		}
		t0=$(now)
		times > "$work/times"
		c0=$(cpu_seconds < "$work/times")
		timeout "${fg[@]}" -k 5 "$limit" qemu-system-x86_64 \
			-nodefaults -display none -no-reboot -m "${BOOT_MEM:-512}" \
			-smp "${BOOT_SMP:-1}${SMP_MAXCPUS:+,maxcpus=$SMP_MAXCPUS}" \
			-machine "$MACHINE" "${ACCEL[@]}" \
			"${args[@]}" "${acpi[@]}" \
			"${kernel[@]}" \
			"${serial[@]}" \
			-device virtio-serial-pci,id=vser \
			-chardev "file,id=results,path=$work/results" \
			-device virtserialport,bus=vser.0,chardev=results,name=results \
			"${AGENT_ARGS[@]}" "${SIM_ARGS[@]}" "${QEMU_ARGS[@]}" \
			${incoming:+-incoming "$incoming"} >&"$qemu_out" 2>&1
		rc=$?
		[ -n "${SNAP_SAVE:-}" ] && : > "$SNAP_SAVE.ended"
		# (the replay below must not hold the guest slot)
		[ -n "${GUEST_SLOT_FD:-}" ] && exec {GUEST_SLOT_FD}>&-
		exec {qemu_out}>&-
		elapsed "$t0" > "$work/time"
		times > "$work/times"
		awk -v a="$c0" -v b="$(cpu_seconds < "$work/times")" 'BEGIN { printf "%.1f\n", b - a }' > "$work/cpu"
		echo "$rc" > "$work/status"
		host_agent_stop "$work"
		sim_stop "$work"
		# The firmware calls of a profile's shared boot (and of the
		# boots its SPLIT_BOOT splits off), and of an own boot whose
		# test asks for it ("# harness: replay"), replayed on
		# the Mac's real tables while the other boots run (report_boot
		# waits). Not the other own boots: their kernel arguments may
		# take the tables where the replay does not follow
		# (acpi_osi=!Darwin, acpi_no_static_ssdt).
		if [ -e "$PROFILE_DIR/replay.map" ] &&
		   { [ "$label" = "$name" ] || [[ " ${SPLIT_BOOT:-} " == *" $tests "* ]] ||
		     grep -q '^# harness: replay$' "$HARNESS_DIR/tests/$tests" 2>/dev/null; }; then
			: > "$work/replay.wanted"
			replay_boot "$work" "${ACPI[@]}" &
		fi
	)
}

# replay_boot WORK ASL...: the firmware-call trace the guest sent ("trace"
# result lines) replayed on the Mac's real tables (MAC_DUMPS/<Mac>/aml) and
# on the profile's own, compiled ASL (qemu-tests/replay/fw-replay); its
# result lines in WORK/replay.lines, its status in WORK/replay.done.
replay_boot()
{
	local work=$1 aml=() a b64 rc
	shift

	for a in "$@"; do
		aml+=("$work/$(basename "$a" .asl).aml")
	done
	sed -n '/^MACSUPPORT-BEGIN/,/^MACSUPPORT-END/p' "$work/results" 2>/dev/null |
		sed -n 's/^trace //p' | while IFS= read -r b64; do
			printf '%s' "$b64" | base64 -d 2>/dev/null ||
				printf 'trace-error the guest sent a trace that is no base64\n'
		done > "$work/fwtrace"
	"$HARNESS_DIR/replay/fw-replay" --map "$PROFILE_DIR/replay.map" \
		--trace "$work/fwtrace" ${MAC_DUMPS:+--dumps "$MAC_DUMPS"} \
		${KLABEL:+--label "$KLABEL"} --profile-aml "${aml[@]}" \
		> "$work/replay.lines.tmp" 2> "$work/replay.log"
	rc=$?
	mv "$work/replay.lines.tmp" "$work/replay.lines"
	echo "$rc" > "$work/replay.done"
}

# replay_report LABEL: the replay's test lines of a boot that has one
# (replay_boot runs beside the other boots: wait for it, bounded)
replay_report()
{
	local name=$1 work i

	work=$(boot_dir "$name")
	[ -e "$work/replay.wanted" ] || return 0
	for ((i = 0; i < REPLAY_TIMEOUT; i++)); do
		[ -e "$work/replay.done" ] && break
		sleep 1
	done
	if [ ! -e "$work/replay.done" ]; then
		report fail "$name" tb_macpm replay "fw-replay did not finish within ${REPLAY_TIMEOUT}s (log: $work/replay.log)"
		return
	fi
	# "ok MODULE NAME # note": the module whose test named the checkpoint
	local line res rest module n=0
	while IFS= read -r line; do
		case "$line" in
		"ok "*) res=ok rest=${line#ok } ;;
		"not ok "*) res=fail rest=${line#not ok } ;;
		*) continue ;;
		esac
		module=${rest%% *}
		rest=${rest#"$module" }
		report "$res" "$name" "$module" "${rest%% # *}" \
			"$( [[ "$rest" == *" # "* ]] && echo "${rest#* # }")"
		n=$((n + 1))
	done < "$work/replay.lines"
	[ "$n" -gt 0 ] ||
		report fail "$name" tb_macpm replay "fw-replay printed no result (rc $(cat "$work/replay.done"): $(tail -n 2 "$work/replay.log" | tr '\n' ' '))"
}
REPLAY_TIMEOUT=${REPLAY_TIMEOUT:-300}

# boot_dir LABEL: where a boot keeps its files. QEMU's option parser splits
# at commas, and model identifiers have one, so the directory has none.
boot_dir()
{
	echo "$OUT/${1//,/_}"
}

# The schema that json_check (guest-lib.sh) validates against: the one of
# `macsupport-report --json`.
REPORT_SCHEMA=$TOP/Documentation/macsupport-report.schema.json

# json_validate FILE: validate FILE against REPORT_SCHEMA with the host's
# /usr/bin/python3 and python3-jsonschema (qemu-tests/deps); prints a
# one-line summary or the first errors; non-zero if FILE is not valid (or
# cannot be checked).
json_validate()
{
	/usr/bin/python3 - "$REPORT_SCHEMA" "$1" 2>&1 <<'EOF'
import json, sys
try:
    import jsonschema
except ImportError:
    print("cannot validate: python3-jsonschema is not installed on the host (qemu-tests/deps)")
    sys.exit(2)
try:
    schema = json.load(open(sys.argv[1], encoding="utf-8"))
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    raw = open(sys.argv[2], "rb").read()
    doc = json.loads(raw.decode("utf-8"))
except Exception as e:
    print(("not JSON: %s" % e).replace("\n", " ")[:300])
    sys.exit(1)
errors = sorted(cls(schema).iter_errors(doc), key=lambda e: list(e.path))
if errors:
    print("; ".join("/%s: %s" % ("/".join(map(str, e.path)), e.message) for e in errors[:3])[:300])
    sys.exit(1)
print("valid against %s (%d bytes)" % (sys.argv[1].rsplit("/", 1)[-1], len(raw)))
EOF
}

# report_json MACHINE FILE "MODULE NAME BASE64": the test line of one
# json_check of the guest: its document decoded and validated on the host
report_json()
{
	local machine=$1 file=$2 body=$3 module name b64 why

	module=${body%% *}
	body=${body#"$module"}
	body=${body# }
	name=${body%% *}
	b64=${body#"$name"}
	b64=${b64# }
	[ -n "$name" ] || name=json-check
	if [ -z "$b64" ]; then
		report fail "$machine" "$module" "$name" "json_check sent no document"
	elif ! printf '%s' "$b64" | base64 -d > "$file" 2>/dev/null; then
		report fail "$machine" "$module" "$name" "json_check sent no valid base64"
	elif why=$(json_validate "$file"); then
		report ok "$machine" "$module" "$name" "$why"
	else
		report fail "$machine" "$module" "$name" "$why (document: $file)"
	fi
}

# report_boot LABEL: turn the boot's files into test lines; fail closed.
# Result lines: "ok MODULE TEST [# note]", "not ok MODULE TEST # reason" and
# "json MODULE TEST BASE64" (json_check: the host validates the document).
report_boot()
{
	local name=$1 work rc bad t nj=0

	work=$(boot_dir "$1")
	rc=$(cat "$work/status" 2>/dev/null || echo none)
	t=$(cat "$work/time" 2>/dev/null || echo "?")

	sed -n '/^MACSUPPORT-BEGIN/,/^MACSUPPORT-END/p' "$work/results" 2>/dev/null |
		grep -E '^(ok|not ok|json) ' > "$work/lines"
	while IFS= read -r line; do
		if [[ "$line" == "json "* ]]; then
			nj=$((nj + 1))
			report_json "$name" "$work/json-$nj.json" "${line#json }"
			continue
		fi
		# "ok MODULE TEST [# note]"
		local res=ok body module rest
		[[ "$line" == "not ok "* ]] && res=fail
		body=${line#ok }
		body=${body#not ok }
		module=${body%% *}
		rest=${body#* }
		report "$res" "$name" "$module" "${rest%% # *}" \
			"$( [[ "$rest" == *" # "* ]] && echo "${rest#* # }")"
	done < "$work/lines"

	replay_report "$name"

	if ! grep -q '^MACSUPPORT-END' "$work/results" 2>/dev/null; then
		report fail "$name" harness guest-finished \
			"no END marker from the guest (qemu rc $rc, ${t}s; $(grep -v '^MACSUPPORT' \
			"$work/results" 2>/dev/null | head -n 1))"
	elif [ ! -s "$work/lines" ]; then
		report fail "$name" harness guest-finished "the guest ran no test"
	else
		report ok "$name" harness guest-finished "${t}s"
	fi

	# A simulator that died before the harness stopped it failed the boot.
	if [ -e "$work/sim-status" ] && [ "$(cat "$work/sim-status")" != 0 ]; then
		report fail "$name" harness simulator "gmux-sim exited with status $(cat \
			"$work/sim-status"): $(tail -n 1 "$work/sim.log" 2>/dev/null)"
	fi

	# the debug kernel: kernel code's duplicate-name dumps under
	# CONFIG_DEBUG_KOBJECT_RELEASE set aside (lib/console-aside.awk)
	scan=$work/console.log
	aside=
	if [[ "${KVER:-}" == *macsupport-debug* ]]; then
		scan=$work/console.scan
		awk -f "$HARNESS_DIR/lib/console-aside.awk" "$work/console.log" > "$scan" 2>/dev/null
		aside=$(sed -n 's/^MACSUPPORT-SET-ASIDE //p' "$scan" | sort | uniq -c | awk '{ printf "%s%s x%s", (NR > 1 ? ", " : ""), $2, $1 }')
	fi
	bad=$(grep -a -m 1 -E "$BADNESS" "$scan" 2>/dev/null)
	if [ -n "$bad" ]; then
		report fail "$name" harness console-clean "$(echo "$bad" | tr -d '\r' | cut -c 1-160)"
	elif [ ! -s "$work/console.log" ]; then
		report fail "$name" harness console-clean "no console output"
	elif [ -n "$aside" ]; then
		report ok "$name" harness console-clean "set aside: kernel code's sysfs duplicate-name dumps under CONFIG_DEBUG_KOBJECT_RELEASE, none of ours in the stack: $aside"
	else
		report ok "$name" harness console-clean
	fi
}
