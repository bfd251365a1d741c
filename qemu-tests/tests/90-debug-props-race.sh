# SPDX-License-Identifier: GPL-2.0
#
# Debug kernel only (make check-debug; skipped, and said so, elsewhere):
# apple_props under concurrent use. Three loops run at once for
# STRESS_CYCLES hot-unplug/replug cycles:
#  - the Thunderbolt-like chain (root port 00:1c.0 -> upstream port ->
#    downstream port -> endpoint) is hot-unplugged below the root port and
#    replugged (sysfs remove of the upstream port, then a bus rescan: the
#    kernel's own removal and enumeration paths, which pciehp also takes,
#    repeatable where QEMU's slot is not, see 62-pci-hotplug.sh);
#  - a blob naming every device of the chain, and one that is never there,
#    is written to /sys/firmware/apple_properties/load again and again;
#  - /sys/firmware/apple_properties/all and the chain's property files are
#    read again and again.
# Afterwards the chain must carry the blob's properties again, the module
# must unload, and kmemleak must find nothing new; KASAN, lockdep and
# debug objects report on the console, which fails the boot (the harness
# scans it). Profiles with the chain (booted through the fake Apple
# firmware) only.

[ "${EXPECT_APPLE_EFI:-0}" = 1 ] || skip_test apple_props "no Apple EFI properties on $PROFILE"
debug_only apple_props load-vs-hot-unplug-race load-vs-hot-unplug-race-leaks || return 0

LOAD=/sys/firmware/apple_properties/load
ALL=/sys/firmware/apple_properties/all
BLOB=/etc/macsupport/blobs/race-chain.bin
end=/sys/bus/pci/devices/$EXPECT_APPLE_DROM_DEV
cycles=${STRESS_CYCLES:-20}

# The chain below the root port: .../0000:00:1c.0/<up>/<down>/<end>
chain=$(readlink -f "$end")
down_dev=$(basename "$(dirname "$chain")")
up_dev=$(basename "$(dirname "$(dirname "$chain")")")
down=/sys/bus/pci/devices/$down_dev
chain_back() { [ -e "$end" ] && [ -e "$down/apple_properties/macsupport,race-down" ]; }

kmemleak_scan /tmp/race-leaks-before > /dev/null
modprobe apple_props
dmesg_mark race
rc=0
cat "$BLOB" > "$LOAD" || rc=$?

rm -f /tmp/race-stop
# The replugged endpoint comes back without the properties the kernel's own
# EFI parser gave it at boot (ThunderboltDROM): those are attached once, at
# boot, and apple_props has no copy of them. Later tests that look for them
# in this boot (96-demo.sh) are told.
: > /tmp/macsupport-boot-props-replugged
( n=0 bad=0
  while [ ! -e /tmp/race-stop ]; do
	cat "$BLOB" > "$LOAD" 2>/dev/null || bad=$((bad + 1))
	n=$((n + 1))
  done
  echo "$n $bad" > /tmp/race-loads ) &
loader=$!
( n=0
  while [ ! -e /tmp/race-stop ]; do
	cat "$ALL" > /dev/null 2>&1
	cat "$down"/apple_properties/* "$end"/apple_properties/* > /dev/null 2>&1
	n=$((n + 1))
  done
  echo "$n" > /tmp/race-reads ) &
reader=$!

i=0 lost=
t0=$(uptime_cs)
while [ "$i" -lt "$cycles" ]; do
	i=$((i + 1))
	echo 1 > "/sys/bus/pci/devices/$up_dev/remove" 2>/dev/null
	echo 1 > /sys/bus/pci/rescan
	if ! wait_until 30 chain_back > /dev/null; then
		lost="cycle $i: $end or $down/apple_properties not back 30 s after the rescan"
		break
	fi
done
t=$(( $(uptime_cs) - t0 ))
touch /tmp/race-stop
wait "$loader" "$reader"
read -r loads load_errors < /tmp/race-loads
reads=$(cat /tmp/race-reads)

up=$(od -An -tx1 -v "/sys/bus/pci/devices/$up_dev/apple_properties/macsupport,race-up" 2>/dev/null | tr -d ' \n')
listed=$(grep -c "^0000:0[0-9]:00.0 macsupport,race-" "$ALL")
note="$i remove/rescan cycles of $up_dev in $((t / 100)) s, $loads loads ($load_errors refused), $reads reads"
if [ "$rc" != 0 ]; then
	fail apple_props load-vs-hot-unplug-race "the first load failed: rc $rc"
elif [ -n "$lost" ]; then
	fail apple_props load-vs-hot-unplug-race "$lost ($note)"
elif [ "$up" != 0a0b ] || [ "$listed" != 4 ]; then
	fail apple_props load-vs-hot-unplug-race "after the last replug: race-up '$up', $listed properties in all, want 4 ($note)"
elif [ "$load_errors" != 0 ]; then
	fail apple_props load-vs-hot-unplug-race "loads refused: $note; $(dmesg_since race | grep -m 1 'apple_props')"
elif ! rmmod apple_props || [ -e /sys/firmware/apple_properties ] || [ -e "$down/apple_properties" ]; then
	fail apple_props load-vs-hot-unplug-race "unloading after the race failed or left files ($note)"
else
	pass apple_props load-vs-hot-unplug-race "$note"
fi
lsmod | grep -q '^apple_props ' && rmmod apple_props

# kmemleak: what is unreferenced now and was not before
sleep 6
kmemleak_scan /tmp/race-leaks-after > /dev/null
new=$(kmemleak_new /tmp/race-leaks-before /tmp/race-leaks-after)
if [ "$new" = 0 ]; then
	pass apple_props load-vs-hot-unplug-race-leaks "kmemleak: nothing new unreferenced"
else
	fail apple_props load-vs-hot-unplug-race-leaks "kmemleak: $new new unreferenced object(s): $(kmemleak_summary /tmp/kmemleak-new)"
fi
