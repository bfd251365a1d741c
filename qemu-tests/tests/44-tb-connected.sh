# SPDX-License-Identifier: GPL-2.0
#
# Something connected that keeps nothing resumed must still keep the
# controller powered (review finding F6). Under Debian 6.1's thunderbolt.ko
# a Thunderbolt 2+ device router runtime-suspends while connected, and once
# the devices of its PCIe tunnel are idle the root switch, the NHI and the
# ports suspend too. tb_macpm must then not call XRPE/TRPE(0) (on a Mac that
# cuts the power of the connected chain before XRIL is read), must say why,
# and must power the controller down once the device is unplugged. An
# XDomain peer (another Mac) and a generation 1 router keep the NHI resumed
# themselves: the controller stays on, and stay_on_reason must still name
# the connection. On the profile's first controller.
# Not real: the device routers and the XDomain peer are the stand-in
# driver's (macsupport_test_nhi, TEST ONLY, loaded instead of thunderbolt.ko;
# its runtime PM as 6.1's tb_switch_add() and tb_xdomain_alloc() set it up),
# with 200 ms of router autosuspend instead of 15 s. A router comes with
# its cable (the stand-in's debugfs), plugged while the NHI listens: the
# stand-in's connection manager finds it and tunnels it, and only then
# does the host hot-add the tunnel's device (QEMU's pci-testdev, by QMP
# below a hotplug downstream port); the cable out takes both away. That
# device has no driver and is let runtime-suspend through its power/control
# (as TLP or powertop do for a real one). A cable that goes in while
# nothing listens: the T4 part at the end. "Plugged" is the SSDT's ZPLG
# (XRIL), the plug GPE one QEMU raises. Thunderbolt 3: the same, with the root port's _PS3 (ZCOF) for
# XRPE/TRPE(0) and the plug raised as 42-tb3-power.sh does (XRIL, and so
# the refusals, do not exist there). Not tested: Eagle Ridge (no
# thunderbolt.ko for its NHI: no routers), and a DisplayPort tunnel (the
# stand-in has none: on a real Mac thunderbolt.ko keeps the NHI resumed
# while one is up).

[ "${EXPECT_APPLE:-0}" = 1 ] && [ -n "${EXPECT_TB_NHI:-}" ] || skip_test tb_macpm "no Thunderbolt controller on $PROFILE"
case "$(tb_nth "$EXPECT_TB_GPE_SOURCE" 1)" in
none) skip_test tb_macpm "the harness cannot raise this controller's plug GPE on $PROFILE" ;;
esac
[ "${EXPECT_TB_NHI_DRIVER:-}" != none ] || skip_test tb_macpm "no driver binds this NHI on $PROFILE"

tb_load
nhi=$(tb_nth "$EXPECT_TB_NHI" 1)
dsb=$(tb_nth "$EXPECT_TB_DSB" 1)
upsb=$(tb_upsb "$nhi")
tb_fast "$nhi"
rsw=$(tb_rsw "$nhi")
idx=${rsw##*/}
idx=${idx%-0}
# what the first hotplug port's router or peer is called (route 1)
child=$rsw/$idx-1
knobs=/sys/kernel/debug/macsupport_test_nhi/$nhi
cuts=$(tb_cuts_name 1)
connected="a Thunderbolt device or peer is connected"

if [ -z "$rsw" ]; then
	fail tb_macpm router-suspended-stays-on "no root switch below the stand-in NHI $nhi"
	return 0
fi

# what thunderbolt.ko's nhi_probe() and tb_switch_add() do for wakeup
w=
for d in "/sys/bus/pci/devices/$nhi" "$rsw"; do
	w="$w $(cat "$d/power/wakeup" 2>/dev/null || echo none)"
done
if [ "$w" = " enabled enabled" ]; then
	pass harness tb-standin-wakeup "stand-in (TEST ONLY): wakeup enabled on the NHI and its root switch, as nhi_probe() and tb_switch_add() do"
else
	fail harness tb-standin-wakeup "wakeup of the NHI and the root switch:$w (want enabled enabled)"
fi

rt_status() { cat "$1/power/runtime_status" 2>/dev/null || echo gone; }
pci_rt() { rt_status "/sys/bus/pci/devices/$1"; }

# conn_state: one line for the failure reports
conn_state()
{
	echo "$(tb_state 1); UPSB $(pci_rt "$upsb"), switch $(rt_status "$TB_CLASS/$nhi")," \
		"below the root switch: '$(tb_rsw_children "$nhi" | tr '\n' ' ')'," \
		"$idx-1 $(rt_status "$child"), refusals $(tb_attr 1 refusals)"
}

# The hotplug ports are kept resumed across QEMU's hot-add and hot-remove:
# an attention-button press on a suspended port leaves the button status
# pending (an emulation limit, see 45-tb-power.sh).

plugged() { tb_find_dev 1b36:0005 "$nhi" > /dev/null && [ -d "$child" ]; }
unplugged() { tb_no_dev 1b36:0005 "$nhi" && [ ! -e "$child" ]; }

# plug: a device plugged in as on a Mac: XRIL says "plugged", the plug GPE
# powers the controller and holds the NHI, the cable's link comes up with
# the stand-in's connection manager listening, which adds the router and
# tunnels it; the host then adds the tunnel's device below the first
# hotplug port; then the device is let idle. Sets cof0 and ref0
# (XRPE/TRPE(0) calls and refusals once the router is there: none may
# follow while it is), why on failure. (Before the router is there, ZPLG
# set and nothing enumerated is a plug nothing resumed for: a refused
# power-down is right then, 45-tb-power.sh.)
plug()
{
	# The plug holds the ports for plug_hold_ms: 10 s (the default) until
	# they are pinned, not tb_fast's 500 ms, which a slow guest (the debug
	# kernel) could let pass with refused power-downs before it pins them.
	echo 10000 > /sys/module/tb_macpm/parameters/plug_hold_ms
	tb_fw_set 1 ZPLG 1
	tb_plug 1
	if ! wait_until 15 tb_is 1 on > /dev/null; then
		echo 500 > /sys/module/tb_macpm/parameters/plug_hold_ms
		why="not powered up by the plug GPE: $(conn_state)"
		return 1
	fi
	tb_pin_ports "$nhi"
	echo 500 > /sys/module/tb_macpm/parameters/plug_hold_ms
	tb_cable 1 1 plug
	if ! tb_tunnel_follow 1 1 up 15; then
		tb_unpin_ports
		why="cable in with the NHI listening: $TB_WHY"
		return 1
	fi
	if ! wait_until 15 plugged > /dev/null; then
		tb_unpin_ports
		why="device or router missing 15 s after the tunnel's device_add: $(conn_state)"
		return 1
	fi
	cof0=$(tb_fw 1 ZCOF)
	ref0=$(tb_attr 1 refusals)
	echo auto > "/sys/bus/pci/devices/$(tb_find_dev 1b36:0005 "$nhi")/power/control"
	tb_unpin_ports
}

# unplug: the cable out (the ports held, and with them the NHI: its
# connection manager hears it and removes the router), XRIL "nothing
# plugged"; the tunnel is gone, and the host removes its device
unplug()
{
	tb_pin_ports "$nhi"
	tb_cable 1 1 unplug
	tb_fw_set 1 ZPLG 0
	tb_tunnel_follow 1 1 down 20
	wait_until 20 unplugged > /dev/null
	_rc=$?
	tb_unpin_ports
	return $_rc
}

# idle_off: the controller off before a case; a refusal left by a failed
# case before is cleared first (writing power_down), so that cases fail
# on their own
idle_off()
{
	echo 1 > /sys/module/tb_macpm/parameters/power_down
	wait_until 30 tb_is 1 off > /dev/null
}

# off_again NAME WHAT: the controller goes off once WHAT is gone
off_again()
{
	if t=$(wait_until 30 tb_is 1 off); then
		pass tb_macpm "$1" "$2 gone: off $t s later; $cuts $(tb_fw 1 ZCOF)"
	else
		fail tb_macpm "$1" "$2 gone, not off after 30 s: $(conn_state)"
	fi
}

# --- a Thunderbolt 2 device router, runtime-suspended --------------------------
if ! idle_off; then
	fail tb_macpm router-suspended-stays-on "not off before the plug: $(conn_state)"
	return 0
fi
echo 2 > "$knobs/router_gen"
if ! pciehp_hotadd tb_macpm router-suspended-stays-on router-unplugged-off; then
	:
elif plug; then
	# the router and the NHI suspended; the UPSB too, but on Thunderbolt 3
	# the NHI's vote holds instead (RTBT 1), its device keeping DSB0 and the
	# UPSB resumed: the rail stays, as a connected router needs
	rp_acpi=$(tb_nth "$EXPECT_TB_ACPI" 1)
	rp_acpi=${rp_acpi%.UPSB.DSB0.NHI0}
	all_idle()
	{
		[ "$(rt_status "$child")" = suspended ] && [ "$(pci_rt "$nhi")" = suspended ] || return 1
		if tb_votes 1; then
			[ "$(tb_eval "$rp_acpi.RTBT")" = 1 ]
		else
			[ "$(pci_rt "$upsb")" = suspended ]
		fi
	}
	if ! t=$(wait_until 20 all_idle); then
		fail tb_macpm router-suspended-stays-on "router, NHI and UPSB not all runtime-suspended 20 s after the device was let idle: $(conn_state)"
	else
		# the power switch's delay is $TB_FAST_MS ms: it has had its chance
		sleep 3
		reason=$(tb_attr 1 stay_on_reason)
		if [ "$(tb_fw 1 ZCOF)" != "$cof0" ] || [ "$(tb_attr 1 refusals)" != "$ref0" ]; then
			fail tb_macpm router-suspended-stays-on "$cuts with a device router connected: $cof0 -> $(tb_fw 1 ZCOF), refusals $ref0 -> $(tb_attr 1 refusals); $(conn_state)"
		elif ! tb_is 1 on || [ "$reason" != "$connected" ] || ! all_idle; then
			fail tb_macpm router-suspended-stays-on "$(conn_state)"
		else
			pass tb_macpm router-suspended-stays-on "stand-in device router $idx-1 (generation $(cat "$child/generation"), runtime PM as 6.1's tb_switch_add) suspended with the NHI and $(tb_votes 1 && echo "the NHI's vote kept (RTBT 1)" || echo "the UPSB") $t s after its device was let idle; 3 s later still on, $cuts $cof0 (unchanged), reason '$reason'"
		fi
	fi
	if unplug; then
		off_again router-unplugged-off "the device and its router"
	else
		fail tb_macpm router-unplugged-off "device or router still there 20 s after the cable was pulled: $TB_WHY; $(conn_state)"
	fi
else
	fail tb_macpm router-suspended-stays-on "$why"
	unplug
fi

# --- an XDomain peer -------------------------------------------------------------
if ! idle_off; then
	fail tb_macpm xdomain-stays-on "not off before the peer connects: $(conn_state)"
else
	tb_fw_set 1 ZPLG 1
	tb_plug 1
	if ! wait_until 15 tb_is 1 on > /dev/null; then
		fail tb_macpm xdomain-stays-on "not powered up by the plug GPE: $(conn_state)"
	elif ! tb_xdomain "$nhi" 1 || [ ! -d "$child" ]; then
		fail tb_macpm xdomain-stays-on "the stand-in added no XDomain peer: $(conn_state)"
	else
		# XRPE/TRPE(0) calls and refusals once it is there: none may follow
		cof0=$(tb_fw 1 ZCOF)
		ref0=$(tb_attr 1 refusals)
		# past the plug hold and every delay of the chain
		sleep 3
		reason=$(tb_attr 1 stay_on_reason)
		if [ "$(tb_fw 1 ZCOF)" != "$cof0" ] || [ "$(tb_attr 1 refusals)" != "$ref0" ] ||
		   ! tb_is 1 on || [ "$(pci_rt "$nhi")" != active ] || [ "$reason" != "$connected" ]; then
			fail tb_macpm xdomain-stays-on "$cuts $cof0 -> $(tb_fw 1 ZCOF), $(conn_state)"
		else
			pass tb_macpm xdomain-stays-on "stand-in XDomain peer $idx-1 holds the NHI active: on 3 s past every delay, $cuts $cof0 (unchanged), reason '$reason'"
		fi
	fi
	tb_xdomain "$nhi" 0
	tb_fw_set 1 ZPLG 0
	off_again xdomain-gone-off "the XDomain peer"
fi

# --- a generation 1 device router (no runtime PM) ----------------------------------
if ! pciehp_hotadd tb_macpm router-gen1-stays-on router-gen1-unplugged-off; then
	:
elif ! idle_off; then
	fail tb_macpm router-gen1-stays-on "not off before the plug: $(conn_state)"
else
	echo 1 > "$knobs/router_gen"
	if plug; then
		sleep 3
		reason=$(tb_attr 1 stay_on_reason)
		# runtime PM disabled: sysfs says "unsupported"
		if [ "$(rt_status "$child")" != unsupported ] || [ "$(pci_rt "$nhi")" != active ] ||
		   [ "$(tb_fw 1 ZCOF)" != "$cof0" ] || [ "$(tb_attr 1 refusals)" != "$ref0" ] ||
		   ! tb_is 1 on || [ "$reason" != "$connected" ]; then
			fail tb_macpm router-gen1-stays-on "$cuts $cof0 -> $(tb_fw 1 ZCOF), $(conn_state)"
		else
			pass tb_macpm router-gen1-stays-on "stand-in generation 1 router $idx-1 (no runtime PM, as 6.1's tb_scan_port gives it) keeps the NHI active: on 3 s past every delay, reason '$reason'"
		fi
		if unplug; then
			off_again router-gen1-unplugged-off "the device and its router"
		else
			fail tb_macpm router-gen1-unplugged-off "device or router still there 20 s after the cable was pulled: $TB_WHY; $(conn_state)"
		fi
	else
		fail tb_macpm router-gen1-stays-on "$why"
		unplug
	fi
	echo 2 > "$knobs/router_gen"
fi
check tb_macpm connected-no-unpowered-access [ "$(tb_unpowered "$nhi")" = 0 ]

# --- a router plugged while the controller is off (T4) ---------------------------
# A router whose cable goes in while the controller is off (review finding
# T4). On a Mac the plug-detect GPIO and the plug GPE follow the cable at
# once, but the Thunderbolt link can only train once tb_macpm has powered
# the chip, and thunderbolt.ko hears of a router only through a hotplug
# event that comes while it listens (the NHI runtime-active). Debian 6.1's
# tb_runtime_resume() does not scan for new routers (tb_switch_resume()
# looks only at ports that had one), and 6.12 is the same: a router whose
# link came up before it listened is found only if the chip reports it
# once plug events are enabled again. Whether Apple's controllers do is not
# known. The stand-in models both (macsupport_test_nhi announce_on_resume):
# - 0, what 6.1's code provides for: the router is not found. Thunderbolt 3
#   (and MacPro7,1's TRPE): the controller goes off again once the plug's
#   hold ends (10 s on a Mac: tb_macpm.plug_hold_ms, 500 ms here).
#   Thunderbolt 1 and 2: XRIL reports the plug, so each power-down is
#   refused and the NHI resumed to look, which finds nothing either; after
#   five refusals in a row the controller stays on, saying so.
# - 1: the chip announces it when the NHI resumes after the plug's
#   power-up; the stand-in's connection manager then tunnels it and the
#   host's device is enumerated.
# tb_macpm cannot make thunderbolt.ko scan, and does not try: these lines
# document what happens. The other tests plug the cable once the plug has
# powered the controller and the NHI listens (the link trains after
# thunderbolt.ko listens), the case 6.1 handles.
# Emulated: the cable is the stand-in's (TEST ONLY), the plug-detect GPIO
# the SSDT's ZPLG (read through XRIL on Thunderbolt 1 and 2 only), the plug
# GPE one QEMU raises or (Titan Ridge) the firmware's method the test runs,
# as in 42-tb3-power.sh and 44-tb-connected.sh. On the profile's first
# controller; not on a Mac whose NHI has no driver (no connection manager,
# nothing is ever tunnelled).
announce=/sys/module/macsupport_test_nhi/parameters/announce_on_resume
xril=0
case " $(tb_attr 1 methods) " in
*" XRIL "*) xril=1 ;;
esac
src=$(tb_nth "$EXPECT_TB_GPE_SOURCE" 1)
if [ "$src" = method ]; then
	how="plug notify (the GPE's method, run by the test) made tb_macpm"
else
	how="plug GPE (raised by QEMU, $src) made tb_macpm"
fi

nhi_stat() { sed -n "s/^$1: //p" "$knobs/status"; }
state()
{
	echo "$(tb_state 1); port 1: $(tb_port_line 1 1); stand-in: listening $(nhi_stat listening)," \
		"events $(nhi_stat events), unheard $(nhi_stat unheard), announced $(nhi_stat announced);" \
		"refusals $(tb_attr 1 refusals), reason '$(tb_attr 1 stay_on_reason)'"
}

# plugged_off: the cable and the plug level in while the controller is off
# (nothing listens: the stand-in must count the change as unheard), then
# the firmware's plug GPE. Sets u0/u1 (unheard before and after), e0
# (hotplug events heard before), r0/r1 (NHI resumes before and once woken),
# t0 (the plug's time, uptime_cs), t (until the GPE's power-up resumed the
# NHI), why.
plugged_off()
{
	w0=$(tb_attr 1 gpe_wakes) u0=$(nhi_stat unheard) r0=$(nhi_stat runtime_resumes)
	e0=$(nhi_stat events)
	tb_fw_set 1 ZPLG 1
	tb_cable 1 1 plug
	u1=$(nhi_stat unheard)
	if [ "$u1" = "$u0" ]; then
		why="premise: the stand-in heard the cable with the controller off: $(state)"
		return 1
	fi
	t0=$(uptime_cs)
	tb_plug 1
	_woke() { [ "$(tb_attr 1 gpe_wakes)" != "$w0" ] && [ "$(nhi_stat runtime_resumes)" != "$r0" ]; }
	if ! t=$(wait_until 15 _woke); then
		why="the plug GPE did not power the controller up and resume the NHI: $(state)"
		return 1
	fi
	r1=$(nhi_stat runtime_resumes)
}

# since_plug: seconds since the plug (t0), "3.4"
since_plug() { _sp=$(($(uptime_cs) - t0)); echo "$((_sp / 100)).$((_sp % 100 / 10))"; }

# cable_out: the cable and the plug level out, with the ports (and so the
# NHI) held; the tunnel's device removed if there is one
cable_out()
{
	tb_pin_ports "$nhi"
	tb_cable 1 1 unplug
	tb_fw_set 1 ZPLG 0
	tb_tunnel_follow 1 1 down 20 || echo "[guest] cable out: $TB_WHY"
	wait_until 20 tb_port_is 1 1 router - > /dev/null
	tb_unpin_ports
}

# --- as 6.1's code provides for: no announcement on resume ---------------------
echo 0 > "$announce"
if ! idle_off; then
	fail tb_macpm t4-plugged-off-not-found "not off before the plug: $(state)"
elif ! plugged_off; then
	fail tb_macpm t4-plugged-off-not-found "$why"
else
	t4="T4: a router plugged while off is not found after power-up by 6.1's thunderbolt.ko (no scan on runtime resume); not measured on hardware whether the chip re-announces it"
	seen="Emulated: cable in with the controller off (unheard $u0 -> $u1), the $how power it up and resume the NHI within $t s (NHI resumes $r0 -> $r1)"
	# the outcome: off again (Thunderbolt 3, TRPE alone), or on for good
	# after refused power-downs (XRIL says "plugged")
	refused() { case "$(tb_attr 1 stay_on_reason)" in *refused*) return 0 ;; esac; return 1; }
	outcome() { if [ "$xril" = 1 ]; then refused; else tb_is 1 off; fi; }
	unfound()
	{
		[ "$(nhi_stat events)" = "$e0" ] && tb_port_is 1 1 router - && tb_port_is 1 1 tunnel 0 &&
			[ -z "$(tb_rsw_children "$nhi")" ] && tb_no_dev 1b36:0005 "$nhi"
	}
	if ! wait_until 60 outcome > /dev/null; then
		if [ "$xril" = 1 ]; then
			fail tb_macpm t4-plugged-off-not-found "not on for good after refused power-downs 60 s after the plug: $(state)"
		else
			fail tb_macpm t4-plugged-off-not-found "not off again 60 s after the plug: $(state)"
		fi
	elif ! unfound; then
		fail tb_macpm t4-plugged-off-not-found "the router was found or tunnelled although nothing announced it (events $e0 -> $(nhi_stat events)): $(state)"
	elif [ "$xril" = 0 ]; then
		pass tb_macpm t4-plugged-off-not-found "$t4. $seen; no hotplug event reached the connection manager (events $e0 -> $(nhi_stat events)), no router, nothing tunnelled or enumerated; off again $(since_plug) s after the plug (on a Mac after the 10 s plug hold), the router still unfound"
	elif tb_is 1 on; then
		pass tb_macpm t4-plugged-off-not-found "$t4. $seen; no hotplug event reached the connection manager (events $e0 -> $(nhi_stat events)), no router, nothing tunnelled or enumerated; XRIL reports the plug, so $(tb_attr 1 refusals) power-downs were refused, each powering the controller up and resuming the NHI to look (NHI resumes now $(nhi_stat runtime_resumes)), none finding it: on for good $(since_plug) s after the plug, '$(tb_attr 1 stay_on_reason)'"
	else
		fail tb_macpm t4-plugged-off-not-found "refused for good but not on: $(state)"
	fi
fi
cable_out

# --- the other hypothesis: the chip announces the router on resume --------------
echo 1 > "$announce"
if ! pciehp_hotadd tb_macpm t4-plugged-off-announced t4-announced-unplugged-off; then
	:
elif ! idle_off; then
	fail tb_macpm t4-plugged-off-announced "not off before the plug: $(state)"
else
	a0=$(nhi_stat announced)
	# the plug holds the ports 10 s until they are pinned (as 44-tb-connected.sh)
	echo 10000 > /sys/module/tb_macpm/parameters/plug_hold_ms
	if ! plugged_off; then
		fail tb_macpm t4-plugged-off-announced "$why"
	else
		tb_pin_ports "$nhi"
		if ! tb_tunnel_follow 1 1 up 15; then
			fail tb_macpm t4-plugged-off-announced "announce_on_resume=1: $TB_WHY; $(state)"
		elif ! t2=$(wait_until 15 tb_find_dev 1b36:0005 "$nhi"); then
			fail tb_macpm t4-plugged-off-announced "tunnelled, but no pci-testdev below the port after 15 s: $(state)"
		else
			pass tb_macpm t4-plugged-off-announced "if the chip announced a router whose link came up before thunderbolt.ko listened (announce_on_resume=1, not known on hardware): cable in with the controller off (unheard $u0 -> $u1), the $how power it up and resume the NHI within $t s, the chip announced it (announced $a0 -> $(nhi_stat announced)), the stand-in's connection manager found router $(tb_port_info 1 1 router) and tunnelled it, and pciehp enumerated the host's device $t2 s later"
		fi
		tb_unpin_ports
	fi
	echo 500 > /sys/module/tb_macpm/parameters/plug_hold_ms
	cable_out
	if t=$(wait_until 30 tb_is 1 off); then
		pass tb_macpm t4-announced-unplugged-off "cable out: the router and its device gone, off again $t s later"
	else
		fail tb_macpm t4-announced-unplugged-off "$(state)"
	fi
fi
echo 0 > "$announce"
check tb_macpm t4-no-unpowered-access [ "$(tb_unpowered "$nhi")" = 0 ]
