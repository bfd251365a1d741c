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

# Kernel complaints that fail a boot whatever the tests said.
BADNESS='BUG:|WARNING:|Oops|Call Trace|soft lockup|hard LOCKUP|Kernel panic|general protection fault|UBSAN:|list_add corruption|refcount_t:'

KCMDLINE_BASE="console=ttyS0 panic=-1 oops=panic panic_on_warn=1 softlockup_panic=1 loglevel=7"
QEMU_TIMEOUT=${QEMU_TIMEOUT:-180}

# --- test accounting ----------------------------------------------------------

N_TESTS=0
N_PASS=0
N_FAIL=0

# report ok|fail MACHINE MODULE TEST [NOTE]
report()
{
	local result=$1 machine=$2 module=$3 name=$4 note=${5:-}

	N_TESTS=$((N_TESTS + 1))
	if [ "$result" = ok ]; then
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

summary()
{
	echo "$N_PASS passed, $N_FAIL failed"
}

now() { date +%s.%N; }
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
	VMLINUZ=/boot/vmlinuz-$KVER
	[ -r "$VMLINUZ" ] || die "$VMLINUZ missing: install linux-image-$KVER"
	for t in qemu-system-x86_64 iasl cpio depmod; do
		command -v "$t" > /dev/null || die "$t missing (run: make deps)"
	done
	[ -x /bin/busybox ] || die "busybox missing (run: make deps)"
	KDIR=${KDIR:-/lib/modules/$KVER/build}
	OVMF_CODE=/usr/share/OVMF/OVMF_CODE_4M.fd
	OVMF_VARS=/usr/share/OVMF/OVMF_VARS_4M.fd
	export KVER KDIR
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
	(
		ACCEL=(-accel kvm -cpu host)
		boot_profile non-apple "" test kvm-probe 20
	)
	if grep -q '^MACSUPPORT-END' "$(boot_dir kvm-probe)/results" 2>/dev/null; then
		echo kvm > "$OUT/accel"
	else
		echo "tcg (a KVM probe boot did not finish in 20 s)" > "$OUT/accel"
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

# harness_build_initramfs: $OUT/initramfs.gz holding busybox, the guest
# scripts and tests, the in-tree modules with their dependencies and the
# bundle's own modules (under extra/), with a modules.dep made by depmod.
harness_build_initramfs()
{
	local root=$OUT/initramfs m ko dep
	local mods=/lib/modules/$KVER

	rm -rf "$root"
	mkdir -p "$root"/{bin,sbin,dev,proc,sys,tmp,etc/macsupport/tests,lib/modules/$KVER/extra}
	cp /bin/busybox "$root/bin/busybox"
	cp "$HARNESS_DIR/guest/init" "$root/init"
	chmod 0755 "$root/init"
	cp "$HARNESS_DIR/guest/guest-lib.sh" "$HARNESS_DIR/guest/demo.sh" "$root/etc/macsupport/"
	cp "$HARNESS_DIR"/tests/*.sh "$root/etc/macsupport/tests/"
	cp "$HARNESS_DIR"/selftest/*.sh "$root/etc/macsupport/tests/"

	# In-tree modules with everything they depend on, as modprobe resolves it.
	for m in $BOOT_MODULES; do
		modprobe -S "$KVER" --show-depends "$m" 2>/dev/null | awk '$1 == "insmod" { print $2 }'
	done | sort -u > "$OUT/intree-modules"
	[ -s "$OUT/intree-modules" ] || die "cannot resolve $BOOT_MODULES for $KVER"
	while read -r ko; do
		mkdir -p "$root$(dirname "$ko")"
		cp "$ko" "$root$ko"
	done < "$OUT/intree-modules"
	echo "$BOOT_MODULES" | tr ' ' '\n' > "$root/etc/macsupport/boot-modules"

	# The bundle, and test-only helpers (never installed by DKMS).
	for ko in "$TOP"/src/*/*.ko "$HARNESS_DIR"/helpers/*.ko; do
		[ -e "$ko" ] || die "module $ko not built"
		cp "$ko" "$root$mods/extra/"
	done
	cp "$mods"/modules.{order,builtin,builtin.modinfo} "$root$mods/" 2>/dev/null
	depmod -b "$root" "$KVER" || die "depmod failed"

	(cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) > "$OUT/initramfs.gz" ||
		die "cannot pack initramfs"
}

# harness_prepare: build the test-only helper modules and the initramfs.
harness_prepare()
{
	make -s -C "$KDIR" M="$HARNESS_DIR/helpers" modules > "$OUT/helpers.log" 2>&1 ||
		{ cat "$OUT/helpers.log" >&2; die "cannot build the test helpers"; }
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
	DESC= FIRMWARE=ovmf MACHINE=q35 SMBIOS=() ACPI=() QEMU_ARGS=()
	# shellcheck source=/dev/null
	. "$dir/profile"
	PROFILE=$1
	PROFILE_DIR=$dir
}

# profile_env FILE: the EXPECT_* variables of the loaded profile, for the guest
profile_env()
{
	local v

	{
		printf 'PROFILE=%q\n' "$PROFILE"
		for v in $(compgen -v EXPECT_); do
			printf '%s=%q\n' "$v" "${!v}"
		done
		echo "export PROFILE $(compgen -v EXPECT_ | tr '\n' ' ')"
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

# --- one boot -----------------------------------------------------------------

# boot_profile NAME TESTS [MODE [LABEL [TIMEOUT]]]
# Boots the profile, leaves in $OUT/LABEL/ (LABEL defaults to NAME):
# console.log, results, status, time. MODE is "test" (default) or "demo";
# TESTS is a comma-separated list of guest test files.
boot_profile()
{
	local name=$1 tests=$2 mode=${3:-test} label=${4:-$1} limit=${5:-$QEMU_TIMEOUT}
	local work args=() serial=() fg=() qemu_out= smb rc t0

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
		(cd "$work/extra" && find . | cpio -o -H newc --quiet | gzip -1) > "$work/profile.cpio.gz"
		cat "$OUT/initramfs.gz" "$work/profile.cpio.gz" > "$work/initrd"

		mapfile -t acpi < <(profile_acpi "$work") || exit 1
		[ ${#acpi[@]} -eq $((2 * ${#ACPI[@]})) ] || {
			echo "not ok harness acpi-tables # iasl failed for $name" > "$work/results"
			exit 1
		}
		for smb in "${SMBIOS[@]}"; do
			args+=(-smbios "$smb")
		done
		case "$FIRMWARE" in
		ovmf)
			cp "$OVMF_VARS" "$work/ovmf-vars.fd"
			args+=(-drive "if=pflash,format=raw,unit=0,readonly=on,file=$OVMF_CODE"
			       -drive "if=pflash,format=raw,unit=1,file=$work/ovmf-vars.fd") ;;
		seabios) ;;
		*) echo "not ok harness firmware # unknown FIRMWARE=$FIRMWARE" > "$work/results"
		   exit 1 ;;
		esac

		if [ "$mode" = demo ]; then
			# Console on the terminal as well as in the log.
			serial=(-chardev "stdio,id=con,logfile=$work/console.log,signal=off"
				-serial chardev:con)
			fg=(--foreground)
			qemu_out=/dev/stdout
		else
			serial=(-serial "file:$work/console.log")
		fi
		t0=$(now)
		timeout "${fg[@]}" -k 5 "$limit" qemu-system-x86_64 \
			-nodefaults -display none -no-reboot -m 512 -smp 1 \
			-machine "$MACHINE" "${ACCEL[@]}" \
			"${args[@]}" "${acpi[@]}" \
			-kernel "$VMLINUZ" -initrd "$work/initrd" \
			-append "$KCMDLINE_BASE macsupport.tests=$tests macsupport.mode=$mode ${BOOT_APPEND:-}" \
			"${serial[@]}" \
			-device virtio-serial-pci,id=vser \
			-chardev "file,id=results,path=$work/results" \
			-device virtserialport,bus=vser.0,chardev=results,name=results \
			"${QEMU_ARGS[@]}" > "${qemu_out:-$work/qemu.log}" 2>&1
		rc=$?
		elapsed "$t0" > "$work/time"
		echo "$rc" > "$work/status"
	)
}

# boot_dir LABEL: where a boot keeps its files. QEMU's option parser splits
# at commas, and model identifiers have one, so the directory has none.
boot_dir()
{
	echo "$OUT/${1//,/_}"
}

# report_boot LABEL: turn the boot's files into test lines; fail closed.
report_boot()
{
	local name=$1 work rc bad t

	work=$(boot_dir "$1")
	rc=$(cat "$work/status" 2>/dev/null || echo none)
	t=$(cat "$work/time" 2>/dev/null || echo "?")

	sed -n '/^MACSUPPORT-BEGIN/,/^MACSUPPORT-END/p' "$work/results" 2>/dev/null |
		grep -E '^(ok|not ok) ' > "$work/lines"
	while IFS= read -r line; do
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

	if ! grep -q '^MACSUPPORT-END' "$work/results" 2>/dev/null; then
		report fail "$name" harness guest-finished \
			"no END marker from the guest (qemu rc $rc, ${t}s; $(grep -v '^MACSUPPORT' \
			"$work/results" 2>/dev/null | head -n 1))"
	elif [ ! -s "$work/lines" ]; then
		report fail "$name" harness guest-finished "the guest ran no test"
	else
		report ok "$name" harness guest-finished "${t}s"
	fi

	bad=$(grep -a -m 1 -E "$BADNESS" "$work/console.log" 2>/dev/null)
	if [ -n "$bad" ]; then
		report fail "$name" harness console-clean "$(echo "$bad" | tr -d '\r' | cut -c 1-160)"
	elif [ ! -s "$work/console.log" ]; then
		report fail "$name" harness console-clean "no console output"
	else
		report ok "$name" harness console-clean
	fi
}
