# SPDX-License-Identifier: GPL-2.0
#
# What "make demo" shows: the emulated Mac, the bundle loaded the way udev
# would load it (from modaliases), and each module at work: the gmux bound,
# the backlight set and read back, GPU switching when the build has it,
# Thunderbolt and quirk state, Apple's device properties, and the bundle's
# kernel log. Sourced by the guest's init (make demo) and by the guest test
# 96-demo.sh, which checks what it prints with demo-check.sh; keep the
# lines that demo-check.sh reads (marked "checked") stable.

# demo_section TITLE
demo_section()
{
	echo
	echo "--- $1 ---"
}

echo
echo "=== macsupport demo on an emulated $PROFILE ==="
d=/sys/class/dmi/id
echo "DMI: $(cat $d/sys_vendor) $(cat $d/product_name), board $(cat $d/board_name)," \
	"firmware $(cat $d/bios_vendor) $(cat $d/bios_version)"
echo "This is QEMU pretending to be that Mac. TEST ONLY stand-ins of the harness:"
if gmux_simulated; then
	echo "  - the gmux is the harness's simulator (qemu-tests/sim/gmux-sim, a process on the"
	echo "    host behind a shared-memory window), not a real gmux chip"
fi
if [ "${EXPECT_APPLE_EFI:-0}" = 1 ]; then
	echo "  - the EFI firmware is OVMF with the harness's fake Apple firmware layer"
	echo "    (qemu-tests/efi), which serves invented device properties through Apple's protocol"
fi

dmesg_mark demo
# udev loads modules by the modaliases of devices: the DMI identity and the
# ACPI devices. The simulated gmux is reached through a memory window instead
# of the real machine's port I/O: the test-only parameter test_sim_protocol
# tells apple_gmux_ng so (udev passes no parameter on a real Mac).
for a in $(cat /sys/class/dmi/id/modalias) $(cat /sys/bus/acpi/devices/*/modalias 2>/dev/null); do
	case "$a" in
	acpi*:APP000B:*)
		if gmux_simulated; then
			modprobe -q "$a" test_sim_protocol="$EXPECT_GMUX_KIND" 2>/dev/null
		else
			modprobe -q "$a" 2>/dev/null
		fi ;;
	*)	modprobe -q "$a" 2>/dev/null ;;
	esac
done
for m in $BUNDLE_MODULES; do
	[ -e "/sys/module/$m" ] || modprobe "$m"
done
if gmux_simulated; then
	echo "Loaded from modaliases; apple_gmux_ng with test_sim_protocol=$EXPECT_GMUX_KIND (TEST ONLY)."
fi

demo_section "modules of the bundle"
for m in $BUNDLE_MODULES; do
	if [ -e "/sys/module/$m" ]; then
		echo "$m $(cat "/sys/module/$m/version" 2>/dev/null) loaded"
	else
		echo "$m not loaded"
	fi
done

# --- the gmux -----------------------------------------------------------------
demo_section "gmux (apple_gmux_ng)"
pnp=$(gmux_pnp)
drv=$(readlink "$pnp/driver" 2>/dev/null)
drv=${drv##*/}
if [ -n "$pnp" ] && [ -n "$drv" ]; then
	# checked: "gmux: DEVICE (PATH) bound to DRIVER"
	echo "gmux: ${pnp##*/} ($(cat "$pnp/firmware_node/path" 2>/dev/null)) bound to $drv"
	gmux_simulated && echo "  (the harness's simulated $EXPECT_GMUX_KIND gmux, TEST ONLY)"
	grep -h apple_gmux_ng /proc/ioports /proc/iomem | sed 's/^ */  claimed: /'
	st=$(gmux_debugfs)/state
	[ -r "$st" ] && grep -E '^(kind|version|transport|gpe|gpe_state|notifications|timeouts):' "$st" |
		sed 's/^/  /'
elif [ -n "$pnp" ]; then
	echo "gmux: ${pnp##*/} ($(cat "$pnp/firmware_node/path" 2>/dev/null)) not bound"
else
	echo "gmux: none declared by the firmware"
fi

# --- the backlight ------------------------------------------------------------
demo_section "backlight"
if [ -d "$BL" ]; then
	max=$(cat "$BL/max_brightness")
	old=$(cat "$BL/brightness")
	level=$((max * 3 / 5 + 1))
	echo "$level" > "$BL/brightness"
	got=$(cat "$BL/actual_brightness")
	if gmux_simulated; then
		reg=$(gmux-simctl get brightness 2>/dev/null)
	else
		reg="(no simulator)"
	fi
	echo "${BL##*/}: type $(cat "$BL/type"), max $max"
	# checked: "backlight: set N, read back N, gmux register N"
	echo "backlight: set $level, read back $got, gmux register $reg (the simulator's brightness register)"
	echo "$old" > "$BL/brightness"
	echo "  level $old put back: read back $(cat "$BL/actual_brightness")," \
		"gmux register $(gmux-simctl get brightness 2>/dev/null)"
else
	echo "backlight: no gmux backlight ($BL missing)"
fi

# ===== BEGIN GPU switching (vga_switcheroo) ===================================
# Shows /sys/kernel/debug/vgaswitcheroo/switch, switches the panel to the
# discrete GPU and back, then powers the inactive GPU off, as vga_switcheroo
# reports it. The file exists once apple_gmux_ng has registered its
# vga_switcheroo handler and both GPUs are clients; on the emulated Macs the
# clients are the stand-in displays of the harness's test-only fake GPU
# driver (a helper module whose name holds "gpu"), loaded here when the build
# has one. Without the file it says so in one line (checked).
demo_section "GPU switching (vga_switcheroo)"
VGS=/sys/kernel/debug/vgaswitcheroo/switch

# demo_vgs_show: the switch file, indented
demo_vgs_show()
{
	sed 's/^/  /' "$VGS"
}

# demo_vgs_dis_off: the discrete GPU's client reads as powered off
demo_vgs_dis_off()
{
	grep -q -E '^[0-9]+:DIS:.:(Off|DynOff):' "$VGS"
}

for ko in $(sed -n 's|^[^:]*/\(macsupport_test_[a-z0-9_]*gpu[a-z0-9_]*\)\.ko:.*|\1|p' \
	"/lib/modules/$(uname -r)/modules.dep"); do
	[ -e "/sys/module/$ko" ] || modprobe "$ko"
done
if [ -e "$VGS" ]; then
	echo "$VGS (client:GPU:active:power:device):"
	demo_vgs_show
	for cmd in DIS IGD OFF; do
		echo "$cmd" > "$VGS"
		echo "echo $cmd > switch:"
		[ "$cmd" = OFF ] && wait_until 10 demo_vgs_dis_off > /dev/null
		demo_vgs_show
	done
	if gmux_simulated; then
		echo "  the simulator: $(gmux-simctl stats 2>/dev/null |
			grep -i -E 'switch|power|gpu|ddc' | tr '\n' ' ')"
	fi
else
	# checked
	echo "GPU switching: not available in this build"
fi
# ===== END GPU switching ======================================================

# --- Thunderbolt and quirks ---------------------------------------------------
demo_section "Thunderbolt (tb_macpm) and quirks (mac_quirks)"
dmesg_since demo | sed -n 's/^\[[ 0-9.]*\] //; /^\(tb_macpm\|mac_quirks\): /p'
if [ -n "${EXPECT_TB_NHI:-}" ] && [ "${EXPECT_APPLE:-0}" = 1 ]; then
	# TEST ONLY: the controller is QEMU's switch ports with an edu device as
	# its NHI, which tb_macpm takes only through test_nhi_id=, and the
	# stand-in driver does to it what thunderbolt.ko does to a real NHI
	nhi=$(tb_nth "$EXPECT_TB_NHI" 1)
	rmmod tb_macpm
	tb_load
	tb_fast "$nhi"
	echo "The Thunderbolt controller is a TEST ONLY stand-in: QEMU's PCIe switch ports and an"
	echo "edu device as its NHI ($nhi), taken with tb_macpm test_nhi_id=$TB_TEST_ID; the SSDT's"
	echo "power methods only flip a variable. tb_macpm's view, /sys/class/tb_macpm/$nhi:"
	echo "  methods $(tb_attr 1 methods), $(tb_attr 1 generation)"
	if t=$(wait_until 20 tb_is 1 off); then
		echo "  idle: powered off $t s after load (delays shortened to $TB_FAST_MS ms for the demo)"
	else
		echo "  idle: still on: $(tb_attr 1 stay_on_reason)"
	fi
	if [ "$(tb_nth "$EXPECT_TB_GPE_SOURCE" 1)" = cpu ] && tb_is 1 off; then
		tb_fw_set 1 ZPLG 1 > /dev/null
		tb_raise 1
		wait_until 15 tb_is 1 on > /dev/null &&
			echo "  plug (GPE 0x$(tb_gpe 1), raised by a QMP CPU hot-add): on in $(tb_attr 1 last_wake_ms) ms"
		tb_fw_set 1 ZPLG 0 > /dev/null
		t=$(wait_until 20 tb_is 1 off) && echo "  unplugged: off again $t s later"
	fi
	# checked
	echo "  power_state $(tb_attr 1 power_state), power_cycles $(tb_attr 1 power_cycles)," \
		"on_ms $(tb_attr 1 on_ms), off_ms $(tb_attr 1 off_ms), stay_on_reason $(tb_attr 1 stay_on_reason)"
elif dmesg_since demo | grep -q 'tb_macpm: .*: 0 Thunderbolt controller(s)'; then
	echo "(no ACPI node in this emulated Mac's tables carries Apple's XRPE/TRPE Thunderbolt power methods)"
fi
if [ -d "$QUIRKS_DIR" ]; then
	echo "mac_quirks' decisions ($QUIRKS_DIR/; the not-applicable ones left out):"
	for f in "$QUIRKS_DIR"/*; do
		case "$(cat "$f")" in not-applicable:*) continue ;; esac
		# checked: "  quirk NAME: STATE: REASON"
		echo "  quirk ${f##*/}: $(cat "$f")"
	done
fi
if [ -n "${EXPECT_APPLE_DROM_DEV:-}" ]; then
	drom=/sys/bus/pci/devices/$EXPECT_APPLE_DROM_DEV/apple_properties/ThunderboltDROM
	chain=$(readlink -f "/sys/bus/pci/devices/$EXPECT_APPLE_DROM_DEV" |
		grep -o '[0-9a-f]\{4\}:[0-9a-f]\{2\}:[0-9a-f]\{2\}\.[0-9]' | tr '\n' ' ')
	echo "The chain that carries Apple's Thunderbolt device properties (a PCIe switch, no controller): ${chain% }"
	[ -f "$drom" ] && echo "  its end carries ThunderboltDROM, $(wc -c < "$drom") bytes," \
		"from Apple's device properties (below)"
fi

# --- Apple device properties --------------------------------------------------
demo_section "Apple EFI device properties (apple_props)"
n=0
for dir in /sys/bus/pci/devices/*/apple_properties; do
	[ -d "$dir" ] || continue
	dev=${dir%/apple_properties}
	for f in "$dir"/*; do
		[ -f "$f" ] || continue
		size=$(wc -c < "$f")
		val=
		if [ "$size" -gt 0 ] && [ "$size" -le 16 ]; then
			val=" = $(od -An -tx1 -v "$f" | tr -d ' \n')"
		fi
		# checked: "property: DEVICE KEY (N bytes)[ = HEX]"
		echo "property: ${dev##*/} ${f##*/} ($size bytes)$val"
		n=$((n + 1))
	done
done
[ "$n" -gt 0 ] || echo "no Apple device properties on this machine"

# --- the kernel log -----------------------------------------------------------
demo_section "what the bundle logged"
dmesg_since demo | sed 's/^\[[ 0-9.]*\] //' |
	grep -E "^(apple_gmux_ng|apple_props|tb_macpm|mac_quirks|apple_bl)|firmware" |
	grep -v -E "^macsupport-mark|loading out-of-tree module taints kernel|module verification failed"
echo "(not shown: the kernel's note that out-of-tree, unsigned modules taint it, which every"
echo " DKMS module without a signing key causes; see dmesg)"

# --- the report a Mac user runs -------------------------------------------------
demo_section "macsupport-report (what a user runs; no root needed)"
macsupport-report
echo "(exit code $?; macsupport-report --json gives the same as JSON)"
echo
echo "=== end of the demo ==="
