// SPDX-License-Identifier: GPL-2.0
/*
 * macsupport_test_nhi - TEST ONLY: a stand-in for thunderbolt.ko on the
 * emulated Thunderbolt controller of the QEMU harness
 *
 * The tb profiles put QEMU's edu device (1234:11e8) where a Mac's
 * Thunderbolt NHI sits, with an ACPI companion named NHI0 (MacPro6,1's
 * three controllers: NHI0, NHI1, NHI2, the real names). This driver binds
 * such a device and does, with respect to runtime PM, what Debian 6.1's
 * thunderbolt.ko does on an Apple (Thunderbolt 1-3, not USB4) controller,
 * as read from drivers/thunderbolt in 6.1:
 *
 * - probe (nhi.c nhi_probe -> domain.c tb_domain_add -> tb.c tb_start ->
 *   switch.c tb_switch_add): a domain device "domainN" (device_type
 *   "thunderbolt_domain") is added as a child of the NHI; the root switch
 *   "N-0" (device_type "thunderbolt_device") is added under it, wakeup
 *   enabled and set active, but its runtime PM is not enabled: tb_start()
 *   sets root_switch->rpm = tb_switch_is_usb4(), false on Apple
 *   controllers, and tb_switch_add() enables runtime PM only when rpm is
 *   set. Then the domain gets device_init_wakeup(), pm_runtime_no_callbacks(),
 *   set_active(), enable() and a 15000 ms autosuspend delay; last the NHI
 *   gets device_wakeup_enable(), pm_runtime_allow(), its 15000 ms
 *   autosuspend delay, use_autosuspend and put_autosuspend.
 *   The active root switch, whose runtime PM is disabled, keeps the domain
 *   active and the domain keeps the NHI active: the NHI never
 *   runtime-suspends, as with thunderbolt.ko on a Mac.
 * - a plug (tb.c tb_handle_hotplug -> tb_scan_port -> tb_switch_add): with
 *   the domain and the root switch resumed (pm_runtime_get_sync), a device
 *   router "N-R" (R its route, type "thunderbolt_device") is added as a
 *   child of the root switch, wakeup enabled and set active. tb_scan_port()
 *   sets sw->rpm = sw->generation > 1: a router of Thunderbolt 2 or later
 *   gets runtime PM with a 15000 ms autosuspend delay
 *   (tb_switch_add(): set_autosuspend_delay, use_autosuspend, enable,
 *   request_autosuspend) and a no-op runtime suspend under the software
 *   connection manager, so it suspends while connected and, once
 *   tb_macpm has enabled runtime PM of the root switch, lets the root
 *   switch, the domain and the NHI suspend too. A generation 1 router
 *   (its own device ID is Light Ridge, Eagle Ridge, Cactus Ridge, Port
 *   Ridge or Redwood Ridge: tb_switch_get_generation() reads the plugged
 *   router's ID, not the Mac's) stays active with runtime PM disabled and
 *   keeps the NHI resumed. The generation is the plugged device's, so it is
 *   a knob here (router_gen), whatever the Mac's controller.
 * - an unplug (tb_handle_hotplug -> tb_switch_remove): with the domain and
 *   the root switch resumed, pm_runtime_get_sync() and disable() on a
 *   router with runtime PM, then it is unregistered.
 * - an XDomain peer, another Mac (xdomain.c tb_xdomain_alloc, _remove): a
 *   "thunderbolt_xdomain" device under the root switch, set active with a
 *   usage count held (get_noresume) "to keep the DMA powered on as long as
 *   we have active connection to another host": it keeps the NHI resumed.
 *   Removed: disable, put_noidle, set_suspended, unregister.
 * - remove (nhi_remove -> tb_domain_remove -> tb_stop -> tb_switch_remove):
 *   pm_runtime_get_sync(), dont_use_autosuspend() and forbid() on the NHI,
 *   then the XDomain and the routers, the root switch and the domain are
 *   unregistered. Runtime PM of the root switch is left as found
 *   (tb_macpm may have enabled it; the PCI core's device_del() copes with
 *   either state); this driver disables it only when its own test file
 *   below enabled it.
 *
 * What a plug is here, in the order of a Mac: thunderbolt.ko learns of a
 * router from the controller's hotplug events, and then builds the PCIe
 * tunnel whose devices pciehp enumerates below one of the controller's
 * hotplug downstream ports (a sibling of the NHI's DSB0). The harness has
 * no Thunderbolt fabric, so this driver plays the chip and the connection
 * manager, and the test plays the cable:
 *
 * - the cable (debugfs "cable": "plug N", "unplug N", ports from 1 in slot
 *   order): whether a router answers behind port N. The plug-detect GPIO
 *   (the SSDT's ZPLG) and the plug GPE or notify stay the firmware's: the
 *   test sets and raises them as before.
 * - the chip sends a hotplug event for a cable change only while the
 *   connection manager listens: the NHI runtime-active (6.1:
 *   tb_runtime_suspend() clears hotplug_active and disables the root
 *   switch's plug events, tb_domain_runtime_suspend() stops the control
 *   channel; resume undoes both) and the controller powered (ZPWR 1 in
 *   the NHI's ACPI companion). A change while it does not listen is
 *   counted as "unheard" and reaches it only through resume:
 * - on runtime resume (and after system sleep) 6.1 does not scan
 *   (tb_runtime_resume(), tb_switch_resume(): only ports that had a router
 *   or XDomain are looked at, and one whose router is gone is "lost during
 *   suspend" and removed). So a router whose cable went in while nothing
 *   listened (the controller off, or the NHI suspended) is found only if
 *   the chip itself reports the link once plug events are enabled again;
 *   whether Apple's controllers do is not known. The knob
 *   announce_on_resume models both: 0 (the default, what 6.1's code
 *   provides for) the router stays unfound until its cable is plugged
 *   again while the NHI listens; 1 the chip announces it on resume.
 * - a hotplug event is handled as tb_handle_hotplug() does, from a work
 *   item with the domain and the root switch resumed: a router is added
 *   (tb_scan_port()) or removed (tb_switch_remove()), whatever the cable
 *   says at that moment.
 * - a router added gets its PCIe tunnel at once (tb_tunnel_pci(), as if
 *   it were authorized at once: 6.1's security level "user" leaves that
 *   to boltd or a udev rule, not modelled). The tunnel's device is then
 *   wanted below the port: debugfs "ports" says "tunnel=1", and the test
 *   has the host hot-add it (QMP device_add; a module cannot talk to the
 *   harness's host agent). Without a router nothing is wanted, and the
 *   tests add nothing: nothing appears below the port that the stand-in
 *   did not tunnel. A pulled cable takes the tunnel down at once (its
 *   link is gone, whatever the connection manager has heard), "tunnel=0",
 *   and the test has the host remove the device (device_del).
 *
 * The PCI devices below the hotplug ports are watched only for the
 * "present" count of "ports" and the PM flags below (a PCI bus notifier).
 * The router on port i (from 0) gets route 2 * i + 1, the first lane
 * adapter of the i-th connector of a two-port controller, so names read
 * as on a Mac ("0-1", "0-3"). A router on a port replaces an XDomain
 * there, as in tb_scan_port(); the XDomain peer (debugfs "xdomain")
 * connects at once, without the cable model.
 *
 * Each runtime suspend and resume of the NHI, and the probe, evaluates the
 * SSDT's ZPWR in the NHI's ACPI companion: 0 means the emulated controller
 * is powered off while its driver touches it, counted as "unpowered" (must
 * stay 0). The switches' runtime callbacks only count.
 *
 * QEMU 7.2's PCIe ports, its edu device and pci-testdev have no PM
 * capability, so pci_pm_init() leaves d3cold_allowed and bridge_d3 false on
 * them and the PCI core never lets the ports below the root port
 * runtime-suspend into D3. At probe this driver sets, for the NHI's root
 * port and every PCI device below it, and for each device added later below
 * one of its hotplug ports (before pci_bus_add_device() recomputes the
 * port's bridge_d3), d3cold_allowed = true and, on bridges, bridge_d3 =
 * true: what pci_pm_init() gives a device that has a PM capability
 * (bridge_d3 from pci_bridge_d3_possible(), true with pcie_port_pm=force).
 * A real NHI can signal PME, which makes it wakeup-capable; edu cannot, so
 * nhi_wake=1 (the default) marks it capable (device_set_wakeup_capable)
 * before nhi_probe()'s device_wakeup_enable(), which otherwise fails with
 * -EINVAL as on any device without PME or _PRW. The capability is taken
 * away again on remove.
 *
 * Alpine Ridge's link-controller sleep (lc_sleep=1): on an Alpine Ridge
 * Mac, thunderbolt.ko's suspend_noirq of the NHI puts the chip's link
 * controller to sleep (tb_switch_suspend() -> tb_lc_set_sleep()), and from
 * then on every function of the chip, its upstream and downstream ports
 * too, reads all-ones (an owner's measurements on a MacBookPro14,1); S3
 * then cuts the chip's power, and it comes back with its config space at
 * power-on values. QEMU's devices do neither. With lc_sleep=1, at probe,
 * every config access to the chip (the upstream port above the NHI's DSB0,
 * and every bus below it) goes through this driver (pci_bus_set_ops());
 * from the NHI's suspend_noirq on, reads return all-ones and writes are
 * dropped (counted). A device of this driver's, "tb_chip_power-<bdf>", made
 * a supplier of the upstream port (a device link), so that the PM core
 * resumes it first, plays the power coming back: its resume_noirq after a
 * sleep to "mem" writes power-on values (bus numbers, windows, command and
 * BARs 0) into the chip's devices, deepest first, and ends the sleep; the
 * PCI core's restore then has to put back what it saved. After suspend to
 * idle the chip keeps its power and wakes in the NHI's resume_noirq. What
 * happens to the chip in suspend to idle on the real machine is not known
 * here (the owner's fix for it is not public): not modelled.
 *
 * The chip's rails (lc_sleep=1, where the profile's NHI0 names the
 * Thunderbolt and the USB rail's pads in ZRPD, MacBookPro14,1): a real
 * chip answers config reads only while powered. Its NHI is on the
 * Thunderbolt rail, its xHCI on the USB rail, its PCIe switch (the
 * upstream and downstream ports) on either; a function that lost its rail
 * reads all-ones and drops writes. QEMU's devices always answer, so the
 * chip's accessors
 * above (the same test_lc_ops) decide from a copy of the rails that this
 * driver keeps: the profile's pad model (tables/gpio.asl) writes every
 * change of a pad to \_SB.ZGPM's OperationRegion of the OEM address space
 * 0x9A, whose handler this driver installs. The handler runs in process
 * context, inside the AML step that switches the pad (AML has left the
 * interpreter for it), so the copy is right before anything runs after
 * the method that switched a rail: the PCI core's restore after a _PS0,
 * the power-up checks of tb_macpm. The accessors run with pci_lock, a
 * raw spinlock, held: they only read the copy (no AML there). Not
 * modelled: the power-on values a real function comes back with when its
 * rail does (written into QEMU's ports from here, they leave the ports'
 * slot state behind: pciehp then lost a hot-add), the link of a port
 * whose LDIS the firmware set (the Names of tb.asl), the chip's reset pad
 * (XRST).
 *
 * Parameters: nhi_autosuspend_ms, domain_autosuspend_ms,
 * router_autosuspend_ms (all 15000, as TB_AUTOSUSPEND_DELAY); router_gen
 * (2: the generation of the routers plugged in, see above); nhi_wake (1);
 * announce_on_resume (0, writable: see the plug above); bind=0 binds
 * nothing and only sets those flags below the root port of every stand-in
 * NHI, for a Mac whose NHI has no driver (Eagle Ridge: Debian's
 * thunderbolt.ko has no alias for it).
 * debugfs, /sys/kernel/debug/macsupport_test_nhi/<bdf>/:
 *
 * - status: "key: value" lines: runtime_suspends, runtime_resumes,
 *   unpowered, holds (of the NHI), wakeup (of the NHI: enabled or
 *   disabled), root_switch_suspends, root_switch_resumes, root_switch_rpm
 *   (1 if this driver enabled it), ports (hotplug ports found), routers
 *   (connected), router_suspends, router_resumes, router_gen (of the next
 *   plug), xdomain (the port of the connected peer, from 1; 0: none),
 *   listening (1 while hotplug events reach the connection manager),
 *   events (cable changes it heard), unheard (cable changes while it did
 *   not listen), announced (routers the chip announced on resume,
 *   announce_on_resume=1); with lc_sleep: lc_sleeps, lc_power_resets,
 *   lc_reads, lc_writes (config accesses while asleep), lc_asleep; and
 *   with the rails (ZRPD): rail_tbt, rail_usb (1 on), rail_reads,
 *   rail_writes (config accesses to an unpowered function)
 * - hold: write 1: pm_runtime_get_sync() of the NHI (a driver holding it),
 *   0: drop one such reference
 * - root_switch_rpm: write 1: pm_runtime_enable() on the root switch (what
 *   tb_macpm does; for testing the stand-in without it), 0: disable again
 * - router_gen: the generation (1-3) of the routers plugged in from now on
 * - xdomain: write N: an XDomain peer connects on port N (from 1); 0: it
 *   disconnects. -EBUSY while that port has a router or a peer is connected.
 * - cable: write "plug N" or "unplug N": the cable of port N (from 1)
 * - ports: one line per hotplug port, "N cable=C router=R tunnel=T
 *   present=P": C 1 while its cable is in, R the router's name or "-",
 *   T 1 while the port's PCIe tunnel is up (the test is to have its device
 *   added; 0: removed), P the PCI devices directly below the port
 *
 * Never installed by DKMS, never loaded outside QEMU.
 */

#include <linux/acpi.h>
#include <linux/bitmap.h>
#include <linux/ctype.h>
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/idr.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/pci.h>
#include <linux/pm_runtime.h>
#include <linux/pm_wakeup.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/suspend.h>
#include <linux/wait_bit.h>
#include <linux/workqueue.h>

/* hotplug downstream ports looked at per controller (a 4C part has two) */
#define TEST_NHI_MAX_PORTS	4
/* devfns on a port's secondary bus */
#define TEST_NHI_DEVFNS		256

static unsigned int nhi_autosuspend_ms = 15000;
module_param(nhi_autosuspend_ms, uint, 0444);
MODULE_PARM_DESC(nhi_autosuspend_ms, "NHI autosuspend delay in ms at probe (default 15000, as thunderbolt.ko)");

static unsigned int domain_autosuspend_ms = 15000;
module_param(domain_autosuspend_ms, uint, 0444);
MODULE_PARM_DESC(domain_autosuspend_ms, "domain autosuspend delay in ms (default 15000, as thunderbolt.ko)");

static unsigned int router_autosuspend_ms = 15000;
module_param(router_autosuspend_ms, uint, 0644);
MODULE_PARM_DESC(router_autosuspend_ms,
		 "autosuspend delay in ms of a device router of generation 2+ when plugged (default 15000, as thunderbolt.ko)");

static unsigned int router_gen = 2;
module_param(router_gen, uint, 0444);
MODULE_PARM_DESC(router_gen, "generation (1-3) of the device routers plugged in, at probe (default 2; debugfs router_gen changes it)");

static bool nhi_wake = true;
module_param(nhi_wake, bool, 0444);
MODULE_PARM_DESC(nhi_wake, "make the NHI wakeup-capable, as a real NHI's PME makes it, so that device_wakeup_enable() takes (default 1)");

static bool announce_on_resume;
module_param(announce_on_resume, bool, 0644);
MODULE_PARM_DESC(announce_on_resume,
		 "1: the chip reports a router whose cable went in while the connection manager did not listen once it listens again (not known on hardware); 0: it does not, and 6.1 does not scan on resume (default 0)");

static bool bind = true;
module_param(bind, bool, 0444);
MODULE_PARM_DESC(bind, "0: bind no NHI, only give the stand-in NHIs' chains the PM flags of a real port (an NHI without a driver)");

static bool lc_sleep;
module_param(lc_sleep, bool, 0444);
MODULE_PARM_DESC(lc_sleep, "model Alpine Ridge: the chip reads all-ones from the NHI's suspend_noirq on, and S3 resets its config space (default 0)");

/* buses of one chip whose config accesses go through test_lc_ops */
#define TEST_LC_MAX_BUSES	16

/* the chip's rails, as the profile's ZRPD lists their pads */
enum { TEST_RAIL_TBT, TEST_RAIL_USB, TEST_RAILS };

/* what powers the functions of one of the chip's buses */
enum test_lc_domain {
	TEST_DOM_SWITCH,	/* the PCIe switch: either rail */
	TEST_DOM_TBT,		/* the NHI's bus: the Thunderbolt rail */
	TEST_DOM_USB,		/* the xHCI's bus: the USB rail */
};

/* tables/gpio.asl: \_SB.ZGPM's OperationRegion, pad number then DW0 */
#define TEST_PAD_SPACE		0x9A
#define TEST_PAD_DEVICE		"\\_SB.ZGPM"

struct test_nhi;

/* A device router plugged into one of the controller's ports. */
struct test_nhi_router {
	struct device dev;
	struct test_nhi *nhi;
	unsigned int generation;
	bool rpm;
};

struct test_nhi_port {
	struct pci_dev *dsb;
	/* devfns present on its secondary bus (test_nhi_list_lock) */
	DECLARE_BITMAP(present, TEST_NHI_DEVFNS);
	/* the router connected there (test_nhi->lock; read locklessly) */
	struct test_nhi_router *router;
	/* its PCIe tunnel is up (test_nhi->lock) */
	bool tunnel;
	/* the cable is in; a hotplug event waits for the CM (test_nhi->cm_lock) */
	bool cable;
	bool event;
};

struct test_nhi {
	struct pci_dev *pdev;
	struct device *domain;
	struct device *root_switch;
	struct dentry *dir;
	struct list_head node;		/* in test_nhi_list */
	struct work_struct cm_work;
	struct mutex lock;	/* holds, switch_rpm, routers, tunnels, xdomain, router_gen */
	/* the cables, the hotplug events and whether the CM listens */
	spinlock_t cm_lock;
	bool listening;
	bool dying;
	int index;
	unsigned int holds;
	bool switch_rpm;
	bool wake_capable;	/* this driver made the NHI wakeup-capable */
	unsigned int nports;
	struct test_nhi_port ports[TEST_NHI_MAX_PORTS];
	unsigned int router_gen;
	struct device *xdomain;
	unsigned int xdomain_port;	/* from 1; 0 none */
	atomic_t suspends;
	atomic_t resumes;
	atomic_t unpowered;
	atomic_t sw_suspends;
	atomic_t sw_resumes;
	atomic_t rt_suspends;
	atomic_t rt_resumes;
	atomic_t events;
	atomic_t unheard;
	atomic_t announced;
	/* lc_sleep: the chip's buses, their own ops, and the power device */
	struct pci_dev *lc_upsb;
	struct pci_bus *lc_bus[TEST_LC_MAX_BUSES];
	struct pci_ops *lc_orig[TEST_LC_MAX_BUSES];
	unsigned int lc_nbus;
	struct device *lc_power;
	struct device_link *lc_link;
	bool lc_asleep;
	atomic_t lc_sleeps;
	atomic_t lc_resets;
	atomic_t lc_reads;
	atomic_t lc_writes;
	/* the rails (ZRPD): their pads, whether each is on (test_rail_lock) */
	u8 lc_bus_dom[TEST_LC_MAX_BUSES];
	bool rail_model;
	u32 rail_pad[TEST_RAILS];
	bool rail_on[TEST_RAILS];
	struct list_head rail_node;	/* in test_rail_list */
	atomic_t rail_reads;
	atomic_t rail_writes;
};

static DEFINE_IDA(test_nhi_ida);
static struct dentry *test_nhi_root;
/* bound NHIs and their ports' devfn bitmaps, for the PCI notifier */
static LIST_HEAD(test_nhi_list);
static DEFINE_MUTEX(test_nhi_list_lock);

/* Whether the SSDT says the controller is powered (ZPWR; true without it). */
static bool test_nhi_powered(struct test_nhi *nhi)
{
	unsigned long long zpwr;
	acpi_status status;

	status = acpi_evaluate_integer(ACPI_HANDLE(&nhi->pdev->dev), "ZPWR", NULL, &zpwr);
	return ACPI_FAILURE(status) || zpwr;
}

/*
 * Counts a driver touching the controller while the SSDT says it is off.
 * Return: whether it is powered.
 */
static bool test_nhi_check_power(struct test_nhi *nhi, const char *what)
{
	if (test_nhi_powered(nhi))
		return true;
	atomic_inc(&nhi->unpowered);
	pci_warn(nhi->pdev, "%s while the controller is powered off (ZPWR 0)\n", what);
	return false;
}

static void test_nhi_dev_release(struct device *dev)
{
	kfree(dev);
}

static const struct device_type test_nhi_domain_type = {
	.name		= "thunderbolt_domain",
	.release	= test_nhi_dev_release,
};

static int test_nhi_switch_runtime_suspend(struct device *dev)
{
	struct test_nhi *nhi = dev_get_drvdata(dev);

	atomic_inc(&nhi->sw_suspends);
	return 0;
}

static int test_nhi_switch_runtime_resume(struct device *dev)
{
	struct test_nhi *nhi = dev_get_drvdata(dev);

	atomic_inc(&nhi->sw_resumes);
	return 0;
}

static const struct dev_pm_ops test_nhi_switch_pm = {
	SET_RUNTIME_PM_OPS(test_nhi_switch_runtime_suspend, test_nhi_switch_runtime_resume, NULL)
};

static const struct device_type test_nhi_switch_type = {
	.name		= "thunderbolt_device",
	.pm		= &test_nhi_switch_pm,
	.release	= test_nhi_dev_release,
};

static struct test_nhi_router *to_test_nhi_router(struct device *dev)
{
	return container_of(dev, struct test_nhi_router, dev);
}

/* the software connection manager has no runtime_suspend_switch: no-op */
static int test_nhi_router_runtime_suspend(struct device *dev)
{
	atomic_inc(&to_test_nhi_router(dev)->nhi->rt_suspends);
	return 0;
}

static int test_nhi_router_runtime_resume(struct device *dev)
{
	atomic_inc(&to_test_nhi_router(dev)->nhi->rt_resumes);
	return 0;
}

static const struct dev_pm_ops test_nhi_router_pm = {
	SET_RUNTIME_PM_OPS(test_nhi_router_runtime_suspend, test_nhi_router_runtime_resume, NULL)
};

static ssize_t generation_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u\n", to_test_nhi_router(dev)->generation);
}
static DEVICE_ATTR_RO(generation);

static struct attribute *test_nhi_router_attrs[] = {
	&dev_attr_generation.attr,
	NULL
};
ATTRIBUTE_GROUPS(test_nhi_router);

static void test_nhi_router_release(struct device *dev)
{
	kfree(to_test_nhi_router(dev));
}

/* thunderbolt.ko's switches share one type, whatever their place */
static const struct device_type test_nhi_router_type = {
	.name		= "thunderbolt_device",
	.pm		= &test_nhi_router_pm,
	.release	= test_nhi_router_release,
};

static const struct device_type test_nhi_xdomain_type = {
	.name		= "thunderbolt_xdomain",
	.release	= test_nhi_dev_release,
};

static struct device *test_nhi_new_dev(struct test_nhi *nhi, struct device *parent,
				       const struct device_type *type, const char *name)
{
	struct device *dev = kzalloc(sizeof(*dev), GFP_KERNEL);
	int ret;

	if (!dev)
		return ERR_PTR(-ENOMEM);
	device_initialize(dev);
	dev->parent = parent;
	dev->type = type;
	dev_set_drvdata(dev, nhi);
	ret = dev_set_name(dev, "%s", name);
	if (!ret)
		ret = device_add(dev);
	if (ret) {
		put_device(dev);
		return ERR_PTR(ret);
	}
	return dev;
}

/* What pci_pm_init() gives a device with a PM capability (see the top). */
static int test_nhi_allow_d3(struct pci_dev *dev, void *unused)
{
	dev->d3cold_allowed = true;
	if (dev->subordinate)
		dev->bridge_d3 = true;
	return 0;
}

/* ... to @nhi's root port and every device below it */
static void test_nhi_allow_d3_chain(struct pci_dev *nhi)
{
	struct pci_dev *rp = pcie_find_root_port(nhi);

	if (!rp)
		return;
	test_nhi_allow_d3(rp, NULL);
	if (rp->subordinate)
		pci_walk_bus(rp->subordinate, test_nhi_allow_d3, NULL);
}

/* The route of the router or XDomain on port @i (from 0); see the top. */
static unsigned int test_nhi_route(unsigned int i)
{
	return 2 * i + 1;
}

/*
 * tb_handle_hotplug(): the domain and the switch the port belongs to (here
 * always the root switch) resumed while a router or XDomain comes or goes.
 */
static void test_nhi_cm_get(struct test_nhi *nhi)
{
	pm_runtime_get_sync(nhi->domain);
	pm_runtime_get_sync(nhi->root_switch);
}

static void test_nhi_cm_put(struct test_nhi *nhi)
{
	pm_runtime_mark_last_busy(nhi->root_switch);
	pm_runtime_put_autosuspend(nhi->root_switch);
	pm_runtime_mark_last_busy(nhi->domain);
	pm_runtime_put_autosuspend(nhi->domain);
}

/* tb_xdomain_remove() (nhi->lock held, CM resumed) */
static void test_nhi_xdomain_remove(struct test_nhi *nhi)
{
	struct device *xd = nhi->xdomain;

	if (!xd)
		return;
	nhi->xdomain = NULL;
	nhi->xdomain_port = 0;
	pm_runtime_disable(xd);
	pm_runtime_put_noidle(xd);
	pm_runtime_set_suspended(xd);
	dev_info(xd, "host disconnected (TEST ONLY stand-in)\n");
	device_unregister(xd);
}

/* tb_xdomain_alloc() and its registration (nhi->lock held, CM resumed) */
static int test_nhi_xdomain_add(struct test_nhi *nhi, unsigned int port)
{
	struct device *xd;
	int ret;

	xd = kzalloc(sizeof(*xd), GFP_KERNEL);
	if (!xd)
		return -ENOMEM;
	device_initialize(xd);
	xd->parent = nhi->root_switch;
	xd->type = &test_nhi_xdomain_type;
	dev_set_drvdata(xd, nhi);
	ret = dev_set_name(xd, "%d-%x", nhi->index, test_nhi_route(port - 1));
	if (ret) {
		put_device(xd);
		return ret;
	}
	/* "keeps the DMA powered on as long as we have active connection" */
	pm_runtime_set_active(xd);
	pm_runtime_get_noresume(xd);
	pm_runtime_enable(xd);
	ret = device_add(xd);
	if (ret) {
		pm_runtime_disable(xd);
		pm_runtime_put_noidle(xd);
		pm_runtime_set_suspended(xd);
		put_device(xd);
		return ret;
	}
	nhi->xdomain = xd;
	nhi->xdomain_port = port;
	dev_info(xd, "XDomain peer connected on port %u (TEST ONLY stand-in)\n", port);
	return 0;
}

/* tb_switch_remove() of the router on port @i (nhi->lock held, CM resumed) */
static void test_nhi_router_remove(struct test_nhi *nhi, unsigned int i)
{
	struct test_nhi_router *rt = nhi->ports[i].router;

	WRITE_ONCE(nhi->ports[i].router, NULL);
	if (rt->rpm) {
		pm_runtime_get_sync(&rt->dev);
		pm_runtime_disable(&rt->dev);
	}
	dev_info(&rt->dev, "device disconnected (TEST ONLY stand-in)\n");
	device_unregister(&rt->dev);
}

/* tb_scan_port() and tb_switch_add() on port @i (nhi->lock held, CM resumed) */
static int test_nhi_router_add(struct test_nhi *nhi, unsigned int i)
{
	struct test_nhi_router *rt;
	int ret;

	/* "If there was previously another domain connected remove it first." */
	if (nhi->xdomain_port == i + 1)
		test_nhi_xdomain_remove(nhi);

	rt = kzalloc(sizeof(*rt), GFP_KERNEL);
	if (!rt)
		return -ENOMEM;
	rt->nhi = nhi;
	rt->generation = nhi->router_gen;
	/* "At the moment Thunderbolt 2 and beyond ... we can support runtime PM." */
	rt->rpm = rt->generation > 1;
	device_initialize(&rt->dev);
	rt->dev.parent = nhi->root_switch;
	rt->dev.type = &test_nhi_router_type;
	rt->dev.groups = test_nhi_router_groups;
	ret = dev_set_name(&rt->dev, "%d-%x", nhi->index, test_nhi_route(i));
	if (!ret)
		ret = device_add(&rt->dev);
	if (ret) {
		put_device(&rt->dev);
		return ret;
	}
	dev_info(&rt->dev, "new device found (TEST ONLY stand-in) below %s, generation %u%s\n",
		 pci_name(nhi->ports[i].dsb), rt->generation,
		 rt->rpm ? ", runtime PM" : ", no runtime PM");

	device_init_wakeup(&rt->dev, true);
	pm_runtime_set_active(&rt->dev);
	if (rt->rpm) {
		pm_runtime_set_autosuspend_delay(&rt->dev, router_autosuspend_ms);
		pm_runtime_use_autosuspend(&rt->dev);
		pm_runtime_mark_last_busy(&rt->dev);
		pm_runtime_enable(&rt->dev);
		pm_request_autosuspend(&rt->dev);
	}
	WRITE_ONCE(nhi->ports[i].router, rt);
	return 0;
}

/*
 * tb_handle_hotplug(): the hotplug events that reached the connection
 * manager, each handled with the domain and the root switch resumed. The
 * cable as it is now decides, as tb_scan_port() finds a router or none.
 */
static void test_nhi_cm_work(struct work_struct *work)
{
	struct test_nhi *nhi = container_of(work, struct test_nhi, cm_work);
	struct test_nhi_port *port;
	bool event, cable;
	unsigned int i;
	int ret;

	mutex_lock(&nhi->lock);
	for (i = 0; i < nhi->nports; i++) {
		port = &nhi->ports[i];
		spin_lock_irq(&nhi->cm_lock);
		event = port->event;
		port->event = false;
		cable = port->cable;
		spin_unlock_irq(&nhi->cm_lock);
		/* "got plug event for connected port, ignoring", or nothing there */
		if (!event || cable == !!port->router)
			continue;
		test_nhi_cm_get(nhi);
		if (cable) {
			ret = test_nhi_router_add(nhi, i);
			if (ret) {
				pci_err(nhi->pdev, "cannot add a router below %s: %d\n",
					pci_name(port->dsb), ret);
			} else {
				/* tb_tunnel_pci(), as if authorized at once */
				port->tunnel = true;
				pci_info(nhi->pdev, "TEST ONLY: PCIe tunnel to %s up through %s: its device is wanted below the port\n",
					 dev_name(&port->router->dev), pci_name(port->dsb));
			}
		} else {
			port->tunnel = false;
			test_nhi_router_remove(nhi, i);
		}
		test_nhi_cm_put(nhi);
	}
	mutex_unlock(&nhi->lock);
}

/*
 * The connection manager listens again: the NHI resumed, powered. 6.1
 * looks only at ports that had a router (tb_switch_resume()): one whose
 * cable is out is lost and removed. A cable that went in meanwhile is
 * reported only if the chip announces it (announce_on_resume).
 */
static void test_nhi_listen(struct test_nhi *nhi)
{
	struct test_nhi_port *port;
	unsigned long flags;
	bool known, queue = false;
	unsigned int i;

	spin_lock_irqsave(&nhi->cm_lock, flags);
	if (nhi->dying) {
		spin_unlock_irqrestore(&nhi->cm_lock, flags);
		return;
	}
	nhi->listening = true;
	for (i = 0; i < nhi->nports; i++) {
		port = &nhi->ports[i];
		known = READ_ONCE(port->router);
		if (known && !port->cable) {
			port->event = true;
		} else if (!known && port->cable && READ_ONCE(announce_on_resume)) {
			port->event = true;
			atomic_inc(&nhi->announced);
		}
		queue |= port->event;
	}
	spin_unlock_irqrestore(&nhi->cm_lock, flags);
	if (queue)
		schedule_work(&nhi->cm_work);
}

static void test_nhi_unlisten(struct test_nhi *nhi)
{
	unsigned long flags;

	spin_lock_irqsave(&nhi->cm_lock, flags);
	nhi->listening = false;
	spin_unlock_irqrestore(&nhi->cm_lock, flags);
}

/* @pdev is directly below a hotplug port of a bound NHI: note it (list lock held). */
static void test_nhi_note_dev(struct pci_dev *pdev, bool present)
{
	struct test_nhi *nhi;
	unsigned int i;

	lockdep_assert_held(&test_nhi_list_lock);
	list_for_each_entry(nhi, &test_nhi_list, node) {
		for (i = 0; i < nhi->nports; i++) {
			if (pdev->bus->self != nhi->ports[i].dsb)
				continue;
			if (present) {
				set_bit(pdev->devfn, nhi->ports[i].present);
				test_nhi_allow_d3(pdev, NULL);
			} else {
				clear_bit(pdev->devfn, nhi->ports[i].present);
			}
		}
	}
}

/*
 * ADD_DEVICE comes after the device is on the bus's list of devices and
 * before pci_bus_add_device(); REMOVED_DEVICE after it left that list: a
 * scan of the list at probe (test_nhi_scan_dev) and the notifier cannot
 * leave a device noted that is gone.
 */
static int test_nhi_pci_notify(struct notifier_block *nb, unsigned long action, void *data)
{
	struct pci_dev *pdev = to_pci_dev(data);

	if (action != BUS_NOTIFY_ADD_DEVICE && action != BUS_NOTIFY_REMOVED_DEVICE)
		return NOTIFY_DONE;
	mutex_lock(&test_nhi_list_lock);
	test_nhi_note_dev(pdev, action == BUS_NOTIFY_ADD_DEVICE);
	mutex_unlock(&test_nhi_list_lock);
	return NOTIFY_OK;
}

static struct notifier_block test_nhi_pci_nb = {
	.notifier_call = test_nhi_pci_notify,
};

static int test_nhi_scan_dev(struct device *dev, void *unused)
{
	test_nhi_note_dev(to_pci_dev(dev), true);
	return 0;
}

/* The hotplug downstream ports beside the NHI's DSB0, in slot order. */
static void test_nhi_find_ports(struct test_nhi *nhi)
{
	struct pci_dev *dsb0 = pci_upstream_bridge(nhi->pdev);
	struct pci_dev *upsb = dsb0 ? pci_upstream_bridge(dsb0) : NULL;
	struct pci_dev *dsb;
	unsigned int slot;

	if (!upsb || !upsb->subordinate)
		return;
	for (slot = 0; slot < 32 && nhi->nports < TEST_NHI_MAX_PORTS; slot++) {
		dsb = pci_get_slot(upsb->subordinate, PCI_DEVFN(slot, 0));
		if (!dsb)
			continue;
		if (dsb == dsb0 || !dsb->is_hotplug_bridge || !dsb->subordinate) {
			pci_dev_put(dsb);
			continue;
		}
		nhi->ports[nhi->nports++].dsb = dsb;
	}
}

static void test_nhi_put_ports(struct test_nhi *nhi)
{
	while (nhi->nports)
		pci_dev_put(nhi->ports[--nhi->nports].dsb);
}

static int test_nhi_status_show(struct seq_file *s, void *unused)
{
	struct test_nhi *nhi = s->private;
	unsigned int i, routers = 0;

	mutex_lock(&nhi->lock);
	for (i = 0; i < nhi->nports; i++)
		routers += !!nhi->ports[i].router;
	seq_printf(s, "runtime_suspends: %d\n", atomic_read(&nhi->suspends));
	seq_printf(s, "runtime_resumes: %d\n", atomic_read(&nhi->resumes));
	seq_printf(s, "unpowered: %d\n", atomic_read(&nhi->unpowered));
	seq_printf(s, "holds: %u\n", nhi->holds);
	seq_printf(s, "wakeup: %s\n",
		   device_may_wakeup(&nhi->pdev->dev) ? "enabled" : "disabled");
	seq_printf(s, "root_switch_suspends: %d\n", atomic_read(&nhi->sw_suspends));
	seq_printf(s, "root_switch_resumes: %d\n", atomic_read(&nhi->sw_resumes));
	seq_printf(s, "root_switch_rpm: %d\n", nhi->switch_rpm);
	seq_printf(s, "ports: %u\n", nhi->nports);
	seq_printf(s, "routers: %u\n", routers);
	seq_printf(s, "router_suspends: %d\n", atomic_read(&nhi->rt_suspends));
	seq_printf(s, "router_resumes: %d\n", atomic_read(&nhi->rt_resumes));
	seq_printf(s, "router_gen: %u\n", nhi->router_gen);
	seq_printf(s, "xdomain: %u\n", nhi->xdomain_port);
	seq_printf(s, "listening: %d\n", READ_ONCE(nhi->listening));
	seq_printf(s, "events: %d\n", atomic_read(&nhi->events));
	seq_printf(s, "unheard: %d\n", atomic_read(&nhi->unheard));
	seq_printf(s, "announced: %d\n", atomic_read(&nhi->announced));
	if (nhi->lc_upsb) {
		seq_printf(s, "lc_sleeps: %d\n", atomic_read(&nhi->lc_sleeps));
		seq_printf(s, "lc_power_resets: %d\n", atomic_read(&nhi->lc_resets));
		seq_printf(s, "lc_reads: %d\n", atomic_read(&nhi->lc_reads));
		seq_printf(s, "lc_writes: %d\n", atomic_read(&nhi->lc_writes));
		seq_printf(s, "lc_asleep: %d\n", READ_ONCE(nhi->lc_asleep));
	}
	if (nhi->rail_model) {
		seq_printf(s, "rail_tbt: %d\n", READ_ONCE(nhi->rail_on[TEST_RAIL_TBT]));
		seq_printf(s, "rail_usb: %d\n", READ_ONCE(nhi->rail_on[TEST_RAIL_USB]));
		seq_printf(s, "rail_reads: %d\n", atomic_read(&nhi->rail_reads));
		seq_printf(s, "rail_writes: %d\n", atomic_read(&nhi->rail_writes));
	}
	mutex_unlock(&nhi->lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(test_nhi_status);

static int test_nhi_hold_set(void *data, u64 val)
{
	struct test_nhi *nhi = data;
	int ret = 0;

	if (val > 1)
		return -EINVAL;
	mutex_lock(&nhi->lock);
	if (val) {
		ret = pm_runtime_resume_and_get(&nhi->pdev->dev);
		if (!ret)
			nhi->holds++;
	} else if (nhi->holds) {
		nhi->holds--;
		pm_runtime_mark_last_busy(&nhi->pdev->dev);
		pm_runtime_put_autosuspend(&nhi->pdev->dev);
	} else {
		ret = -EINVAL;
	}
	mutex_unlock(&nhi->lock);
	return ret;
}

static int test_nhi_hold_get(void *data, u64 *val)
{
	struct test_nhi *nhi = data;

	*val = nhi->holds;
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(test_nhi_hold_fops, test_nhi_hold_get, test_nhi_hold_set, "%llu\n");

static int test_nhi_switch_rpm_set(void *data, u64 val)
{
	struct test_nhi *nhi = data;

	if (val > 1)
		return -EINVAL;
	mutex_lock(&nhi->lock);
	if (val && !nhi->switch_rpm) {
		pm_runtime_enable(nhi->root_switch);
		nhi->switch_rpm = true;
		pm_request_idle(nhi->root_switch);
	} else if (!val && nhi->switch_rpm) {
		pm_runtime_disable(nhi->root_switch);
		nhi->switch_rpm = false;
	}
	mutex_unlock(&nhi->lock);
	return 0;
}

static int test_nhi_switch_rpm_get(void *data, u64 *val)
{
	struct test_nhi *nhi = data;

	*val = nhi->switch_rpm;
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(test_nhi_switch_rpm_fops, test_nhi_switch_rpm_get,
			 test_nhi_switch_rpm_set, "%llu\n");

static int test_nhi_router_gen_set(void *data, u64 val)
{
	struct test_nhi *nhi = data;

	if (val < 1 || val > 3)
		return -EINVAL;
	mutex_lock(&nhi->lock);
	nhi->router_gen = val;
	mutex_unlock(&nhi->lock);
	return 0;
}

static int test_nhi_router_gen_get(void *data, u64 *val)
{
	struct test_nhi *nhi = data;

	*val = nhi->router_gen;
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(test_nhi_router_gen_fops, test_nhi_router_gen_get,
			 test_nhi_router_gen_set, "%llu\n");

static int test_nhi_xdomain_set(void *data, u64 val)
{
	struct test_nhi *nhi = data;
	int ret = 0;

	if (val > nhi->nports)
		return -EINVAL;
	mutex_lock(&nhi->lock);
	if (val && (nhi->xdomain || nhi->ports[val - 1].router)) {
		ret = -EBUSY;
	} else if (val || nhi->xdomain) {
		test_nhi_cm_get(nhi);
		if (val)
			ret = test_nhi_xdomain_add(nhi, val);
		else
			test_nhi_xdomain_remove(nhi);
		test_nhi_cm_put(nhi);
	}
	mutex_unlock(&nhi->lock);
	return ret;
}

static int test_nhi_xdomain_get(void *data, u64 *val)
{
	struct test_nhi *nhi = data;

	*val = nhi->xdomain_port;
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(test_nhi_xdomain_fops, test_nhi_xdomain_get, test_nhi_xdomain_set,
			 "%llu\n");

/*
 * A cable into or out of port @i (from 0). The chip reports the change
 * only to a connection manager that listens (see the top); a cable out
 * takes the port's tunnel down at once all the same, as its link is gone.
 */
static void test_nhi_cable_set(struct test_nhi *nhi, unsigned int i, bool in)
{
	struct test_nhi_port *port = &nhi->ports[i];
	bool powered = test_nhi_powered(nhi);
	bool changed, heard = false, listening;

	spin_lock_irq(&nhi->cm_lock);
	changed = port->cable != in;
	listening = nhi->listening;
	if (changed) {
		port->cable = in;
		heard = listening && powered;
		if (heard)
			port->event = true;
	}
	spin_unlock_irq(&nhi->cm_lock);
	if (!changed)
		return;
	if (heard) {
		atomic_inc(&nhi->events);
		schedule_work(&nhi->cm_work);
		pci_info(nhi->pdev, "TEST ONLY: cable %s port %u: hotplug event to the connection manager\n",
			 in ? "into" : "out of", i + 1);
	} else {
		atomic_inc(&nhi->unheard);
		pci_info(nhi->pdev, "TEST ONLY: cable %s port %u while the connection manager does not listen (NHI %s, ZPWR %d): no hotplug event reaches it\n",
			 in ? "into" : "out of", i + 1,
			 listening ? "listening" : "not listening", powered);
	}
}

static ssize_t test_nhi_cable_write(struct file *file, const char __user *ubuf, size_t len,
				    loff_t *ppos)
{
	struct test_nhi *nhi = file->private_data;
	char buf[16], word[8];
	unsigned int n;

	if (len >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = 0;
	if (sscanf(buf, "%7s %u", word, &n) != 2 || !n || n > nhi->nports)
		return -EINVAL;
	if (!strcmp(word, "plug"))
		test_nhi_cable_set(nhi, n - 1, true);
	else if (!strcmp(word, "unplug"))
		test_nhi_cable_set(nhi, n - 1, false);
	else
		return -EINVAL;
	return len;
}

static const struct file_operations test_nhi_cable_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.write	= test_nhi_cable_write,
	.llseek	= default_llseek,
};

static int test_nhi_ports_show(struct seq_file *s, void *unused)
{
	struct test_nhi *nhi = s->private;
	unsigned int present[TEST_NHI_MAX_PORTS];
	struct test_nhi_port *port;
	unsigned int i;
	bool cable;

	mutex_lock(&test_nhi_list_lock);
	for (i = 0; i < nhi->nports; i++)
		present[i] = bitmap_weight(nhi->ports[i].present, TEST_NHI_DEVFNS);
	mutex_unlock(&test_nhi_list_lock);

	mutex_lock(&nhi->lock);
	for (i = 0; i < nhi->nports; i++) {
		port = &nhi->ports[i];
		spin_lock_irq(&nhi->cm_lock);
		cable = port->cable;
		spin_unlock_irq(&nhi->cm_lock);
		seq_printf(s, "%u cable=%d router=%s tunnel=%d present=%u\n", i + 1, cable,
			   port->router ? dev_name(&port->router->dev) : "-",
			   port->tunnel && cable, present[i]);
	}
	mutex_unlock(&nhi->lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(test_nhi_ports);

/*
 * lc_sleep: the buses whose config accesses go through test_lc_ops, each
 * with its owner and its own ops. An entry is filled before the bus gets
 * test_lc_ops and cleared after it has its own back (test_lc_stop()), so
 * the lockless lookup in the accessors always finds its bus.
 */
struct test_lc_entry {
	struct pci_bus *bus;
	struct test_nhi *nhi;
	struct pci_ops *orig;
	u8 dom;		/* enum test_lc_domain */
};

static struct test_lc_entry test_lc_map[2 * TEST_LC_MAX_BUSES];
static DEFINE_MUTEX(test_lc_lock);
static atomic_t test_lc_busy = ATOMIC_INIT(0);
/* x86's config ops, for a bus that inherited ours (none of the chip's can) */
static struct pci_ops *test_lc_default;
/* power devices not yet released: their release is this module's code */
static atomic_t test_lc_live = ATOMIC_INIT(0);

static struct test_lc_entry *test_lc_find(struct pci_bus *bus)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(test_lc_map); i++)
		if (READ_ONCE(test_lc_map[i].bus) == bus)
			return &test_lc_map[i];
	return NULL;
}

/* The access is the chip's: on the upstream port's own bus only the port is. */
static bool test_lc_is_chip(struct test_lc_entry *e, struct pci_bus *bus, unsigned int devfn)
{
	struct test_nhi *nhi = e->nhi;

	return bus != nhi->lc_upsb->bus || devfn == nhi->lc_upsb->devfn;
}

/* Asleep (see the top), and the access is the chip's. */
static bool test_lc_asleep(struct test_lc_entry *e, struct pci_bus *bus, unsigned int devfn)
{
	return READ_ONCE(e->nhi->lc_asleep) && test_lc_is_chip(e, bus, devfn);
}

/*
 * The function's rail is off (the rails' copy, see the top), and the
 * access is the chip's. Runs under pci_lock: reads the copy only.
 */
static bool test_lc_unpowered(struct test_lc_entry *e, struct pci_bus *bus, unsigned int devfn)
{
	struct test_nhi *nhi = e->nhi;
	bool tbt, usb, on;

	if (!READ_ONCE(nhi->rail_model) || !test_lc_is_chip(e, bus, devfn))
		return false;
	tbt = READ_ONCE(nhi->rail_on[TEST_RAIL_TBT]);
	usb = READ_ONCE(nhi->rail_on[TEST_RAIL_USB]);
	switch (e->dom) {
	case TEST_DOM_TBT:
		on = tbt;
		break;
	case TEST_DOM_USB:
		on = usb;
		break;
	default:
		on = tbt || usb;
		break;
	}
	return !on;
}

static int test_lc_read(struct pci_bus *bus, unsigned int devfn, int where, int size, u32 *val)
{
	struct test_lc_entry *e;
	int ret = PCIBIOS_SUCCESSFUL;

	atomic_inc(&test_lc_busy);
	e = test_lc_find(bus);
	if (!e) {
		ret = READ_ONCE(test_lc_default)->read(bus, devfn, where, size, val);
	} else if (test_lc_asleep(e, bus, devfn)) {
		atomic_inc(&e->nhi->lc_reads);
		*val = ~0U;
	} else if (test_lc_unpowered(e, bus, devfn)) {
		atomic_inc(&e->nhi->rail_reads);
		*val = ~0U;
	} else {
		ret = e->orig->read(bus, devfn, where, size, val);
	}
	atomic_dec(&test_lc_busy);
	return ret;
}

static int test_lc_write(struct pci_bus *bus, unsigned int devfn, int where, int size, u32 val)
{
	struct test_lc_entry *e;
	int ret = PCIBIOS_SUCCESSFUL;

	atomic_inc(&test_lc_busy);
	e = test_lc_find(bus);
	if (!e)
		ret = READ_ONCE(test_lc_default)->write(bus, devfn, where, size, val);
	else if (test_lc_asleep(e, bus, devfn))
		atomic_inc(&e->nhi->lc_writes);
	else if (test_lc_unpowered(e, bus, devfn))
		atomic_inc(&e->nhi->rail_writes);
	else
		ret = e->orig->write(bus, devfn, where, size, val);
	atomic_dec(&test_lc_busy);
	return ret;
}

static struct pci_ops test_lc_ops = {
	.read	= test_lc_read,
	.write	= test_lc_write,
};

/* The chip's buses below its downstream ports: not the hotplug ports' */
static int test_lc_collect(struct pci_dev *pdev, void *data)
{
	struct test_nhi *nhi = data;

	if (pdev->bus == nhi->lc_upsb->subordinate && pdev->subordinate &&
	    !pdev->is_hotplug_bridge && nhi->lc_nbus < TEST_LC_MAX_BUSES)
		nhi->lc_bus[nhi->lc_nbus++] = pdev->subordinate;
	return 0;
}

/* Power-on values in one device of the chip (bus numbers, windows, BARs). */
static void test_lc_reset_dev(struct pci_dev *pdev)
{
	unsigned int i;

	pci_write_config_word(pdev, PCI_COMMAND, 0);
	if (pdev->hdr_type == PCI_HEADER_TYPE_BRIDGE) {
		pci_write_config_dword(pdev, PCI_PRIMARY_BUS, 0);
		pci_write_config_dword(pdev, PCI_MEMORY_BASE, 0);
		pci_write_config_dword(pdev, PCI_PREF_MEMORY_BASE, 0);
		pci_write_config_dword(pdev, PCI_PREF_BASE_UPPER32, 0);
		pci_write_config_dword(pdev, PCI_PREF_LIMIT_UPPER32, 0);
	} else {
		for (i = 0; i < 6; i++)
			pci_write_config_dword(pdev, PCI_BASE_ADDRESS_0 + 4 * i, 0);
	}
}

struct test_lc_devs {
	struct pci_dev *dev[32];
	unsigned int n;
};

static int test_lc_list(struct pci_dev *pdev, void *data)
{
	struct test_lc_devs *d = data;

	if (d->n < ARRAY_SIZE(d->dev))
		d->dev[d->n++] = pdev;
	return 0;
}

/*
 * The chip's power is back after S3: every device at power-on values,
 * the deepest first (a port reset first would cut the way to those below).
 */
static int test_lc_power_resume_noirq(struct device *dev)
{
	struct test_nhi *nhi = dev_get_drvdata(dev);
	struct test_lc_devs d = { .n = 0 };

	if (!READ_ONCE(nhi->lc_asleep) || pm_suspend_target_state != PM_SUSPEND_MEM)
		return 0;
	WRITE_ONCE(nhi->lc_asleep, false);
	d.dev[d.n++] = nhi->lc_upsb;
	pci_walk_bus(nhi->lc_upsb->subordinate, test_lc_list, &d);
	while (d.n)
		test_lc_reset_dev(d.dev[--d.n]);
	atomic_inc(&nhi->lc_resets);
	pci_info(nhi->pdev, "TEST ONLY: the chip's power is back after S3: its config space is at power-on values\n");
	return 0;
}

static const struct dev_pm_ops test_lc_power_pm = {
	.resume_noirq	= test_lc_power_resume_noirq,
};

static void test_lc_power_release(struct device *dev)
{
	kfree(dev);
	if (atomic_dec_and_test(&test_lc_live))
		wake_up_var(&test_lc_live);
}

static const struct device_type test_lc_power_type = {
	.name		= "tb_chip_power",
	.release	= test_lc_power_release,
	.pm		= &test_lc_power_pm,
};

/*
 * The rails (see the top): the chips that follow them, and the pad whose
 * number the pad model wrote last, before its value.
 */
static LIST_HEAD(test_rail_list);
static DEFINE_MUTEX(test_rail_lock);
static u32 test_pad_latched;
static acpi_handle test_pad_dev;

/*
 * Pad @pad of the pad model now holds @dw0 (test_rail_lock held): a rail
 * of a chip whose pad it is goes off (its direction output, driving 0:
 * the real DSDT's GGDV reads 0) or on.
 */
static void test_rail_set(u32 pad, u32 dw0)
{
	bool on = ((dw0 >> 8) & 3) != 2;
	struct test_nhi *nhi;
	unsigned int r;

	list_for_each_entry(nhi, &test_rail_list, rail_node)
		for (r = 0; r < TEST_RAILS; r++)
			if (nhi->rail_pad[r] == pad)
				WRITE_ONCE(nhi->rail_on[r], on);
}

/*
 * The OEM address space of tables/gpio.asl's \_SB.ZGPM: the pad model
 * writes a pad's number (offset 0), then its new DW0 (offset 4). Called by
 * ACPICA in process context with the interpreter left, in the AML step
 * that wrote it.
 */
static acpi_status test_pad_handler(u32 function, acpi_physical_address address, u32 bits,
				    u64 *value, void *handler_context, void *region_context)
{
	if (function != ACPI_WRITE) {
		*value = 0;
		return AE_OK;
	}
	mutex_lock(&test_rail_lock);
	if (!address)
		test_pad_latched = *value;
	else
		test_rail_set(test_pad_latched, *value);
	mutex_unlock(&test_rail_lock);
	return AE_OK;
}

/* lc_sleep: serve the pad model's writes, where the profile has it. */
static void test_pad_start(void)
{
	acpi_status status;

	if (!lc_sleep || ACPI_FAILURE(acpi_get_handle(NULL, TEST_PAD_DEVICE, &test_pad_dev)))
		return;
	status = acpi_install_address_space_handler(test_pad_dev, TEST_PAD_SPACE,
						    test_pad_handler, NULL, NULL);
	if (ACPI_FAILURE(status)) {
		pr_warn("macsupport_test_nhi: TEST ONLY: no handler for the pads (%s): the chip's rails are not modelled\n",
			acpi_format_exception(status));
		test_pad_dev = NULL;
	}
}

static void test_pad_stop(void)
{
	if (test_pad_dev)
		acpi_remove_address_space_handler(test_pad_dev, TEST_PAD_SPACE, test_pad_handler);
	test_pad_dev = NULL;
}

/* The pad @pad's rail: on (1), off (0), or unknown (-1). */
static int test_rail_read(u32 pad)
{
	union acpi_object arg = { .integer = { .type = ACPI_TYPE_INTEGER, .value = pad } };
	struct acpi_object_list args = { 1, &arg };
	unsigned long long v;

	if (ACPI_FAILURE(acpi_evaluate_integer(NULL, "\\_SB.GGDV", &args, &v)))
		return -1;
	return !!v;
}

/*
 * The rails of @nhi's chip, where the profile names their pads (ZRPD) and
 * the pad model has its handler: from now on the chip answers by them.
 */
static void test_rail_start(struct test_nhi *nhi)
{
	struct acpi_buffer buf = { ACPI_ALLOCATE_BUFFER, NULL };
	union acpi_object *pkg;
	unsigned int r;
	int on;

	if (!test_pad_dev ||
	    ACPI_FAILURE(acpi_evaluate_object(ACPI_HANDLE(&nhi->pdev->dev), "ZRPD", NULL, &buf)))
		return;
	pkg = buf.pointer;
	if (pkg->type != ACPI_TYPE_PACKAGE || pkg->package.count != TEST_RAILS) {
		kfree(pkg);
		return;
	}
	for (r = 0; r < TEST_RAILS; r++) {
		if (pkg->package.elements[r].type != ACPI_TYPE_INTEGER) {
			kfree(pkg);
			return;
		}
		nhi->rail_pad[r] = pkg->package.elements[r].integer.value;
	}
	kfree(pkg);

	/* read under the lock: a pad written meanwhile waits for the list */
	mutex_lock(&test_rail_lock);
	for (r = 0; r < TEST_RAILS; r++) {
		on = test_rail_read(nhi->rail_pad[r]);
		nhi->rail_on[r] = on != 0;
	}
	list_add_tail(&nhi->rail_node, &test_rail_list);
	WRITE_ONCE(nhi->rail_model, true);
	mutex_unlock(&test_rail_lock);
	pci_info(nhi->pdev, "TEST ONLY: the chip's functions answer by their rails (pads 0x%08x, 0x%08x; on: %d, %d)\n",
		 nhi->rail_pad[TEST_RAIL_TBT], nhi->rail_pad[TEST_RAIL_USB],
		 nhi->rail_on[TEST_RAIL_TBT], nhi->rail_on[TEST_RAIL_USB]);
}

static void test_rail_stop(struct test_nhi *nhi)
{
	mutex_lock(&test_rail_lock);
	if (nhi->rail_model) {
		list_del(&nhi->rail_node);
		WRITE_ONCE(nhi->rail_model, false);
	}
	mutex_unlock(&test_rail_lock);
}

/* Give the chip's buses their own ops back (test_lc_lock held). */
static void test_lc_unhook(struct test_nhi *nhi)
{
	unsigned int i, j;

	for (i = 0; i < nhi->lc_nbus; i++)
		pci_bus_set_ops(nhi->lc_bus[i], nhi->lc_orig[i]);
	/* as macsupport_test_gpu's cold bus: no task left inside our ops */
	synchronize_rcu_tasks();
	while (atomic_read(&test_lc_busy))
		usleep_range(1000, 2000);
	for (i = 0; i < nhi->lc_nbus; i++) {
		for (j = 0; j < ARRAY_SIZE(test_lc_map); j++)
			if (test_lc_map[j].bus == nhi->lc_bus[i])
				WRITE_ONCE(test_lc_map[j].bus, NULL);
		put_device(&nhi->lc_bus[i]->dev);
	}
	nhi->lc_nbus = 0;
}

static void test_lc_stop(struct test_nhi *nhi)
{
	if (!nhi->lc_upsb)
		return;
	test_rail_stop(nhi);
	if (nhi->lc_link)
		device_link_del(nhi->lc_link);
	if (nhi->lc_power)
		device_unregister(nhi->lc_power);
	mutex_lock(&test_lc_lock);
	test_lc_unhook(nhi);
	mutex_unlock(&test_lc_lock);
	pci_dev_put(nhi->lc_upsb);
	nhi->lc_upsb = NULL;
}

/* lc_sleep: take over the chip's config accesses and give it a power device. */
static void test_lc_start(struct test_nhi *nhi)
{
	struct pci_dev *dsb0 = pci_upstream_bridge(nhi->pdev);
	struct pci_dev *upsb = dsb0 ? pci_upstream_bridge(dsb0) : NULL;
	struct device *power;
	unsigned int i, j;

	if (!lc_sleep || !upsb || !upsb->subordinate || !upsb->bus->self)
		return;
	nhi->lc_upsb = pci_dev_get(upsb);
	nhi->lc_bus[nhi->lc_nbus++] = upsb->bus;
	nhi->lc_bus[nhi->lc_nbus++] = upsb->subordinate;
	pci_walk_bus(upsb->subordinate, test_lc_collect, nhi);
	/* the switch on either rail, the NHI's bus on Thunderbolt's, the others on USB's */
	for (i = 0; i < nhi->lc_nbus; i++)
		nhi->lc_bus_dom[i] = i < 2 ? TEST_DOM_SWITCH :
				     nhi->lc_bus[i] == nhi->pdev->bus ? TEST_DOM_TBT : TEST_DOM_USB;

	mutex_lock(&test_lc_lock);
	for (i = 0; i < nhi->lc_nbus; i++) {
		for (j = 0; j < ARRAY_SIZE(test_lc_map) && test_lc_map[j].bus; j++)
			;
		if (j == ARRAY_SIZE(test_lc_map)) {
			nhi->lc_nbus = i;
			test_lc_unhook(nhi);
			mutex_unlock(&test_lc_lock);
			pci_warn(nhi->pdev, "TEST ONLY: lc_sleep: too many buses, not modelled\n");
			pci_dev_put(nhi->lc_upsb);
			nhi->lc_upsb = NULL;
			return;
		}
		/* a removed bus stays allocated until its ops are given back */
		get_device(&nhi->lc_bus[i]->dev);
		test_lc_map[j].nhi = nhi;
		test_lc_map[j].dom = nhi->lc_bus_dom[i];
		test_lc_map[j].orig = nhi->lc_bus[i]->ops;
		if (!test_lc_default)
			WRITE_ONCE(test_lc_default, nhi->lc_bus[i]->ops);
		WRITE_ONCE(test_lc_map[j].bus, nhi->lc_bus[i]);
		nhi->lc_orig[i] = pci_bus_set_ops(nhi->lc_bus[i], &test_lc_ops);
	}
	mutex_unlock(&test_lc_lock);

	power = kzalloc(sizeof(*power), GFP_KERNEL);
	if (power) {
		atomic_inc(&test_lc_live);
		device_initialize(power);
		/* after the port above the chip, before the chip (the link) */
		power->parent = &upsb->bus->self->dev;
		power->type = &test_lc_power_type;
		dev_set_name(power, "tb_chip_power-%s", pci_name(nhi->pdev));
		dev_set_drvdata(power, nhi);
		if (device_add(power)) {
			put_device(power);
			power = NULL;
		}
	}
	nhi->lc_power = power;
	/* resumed before the upstream port: the power comes back first */
	if (power)
		nhi->lc_link = device_link_add(&upsb->dev, power, DL_FLAG_STATELESS);
	if (!nhi->lc_link)
		pci_warn(nhi->pdev, "TEST ONLY: lc_sleep: no power device before the upstream port: S3 not modelled\n");
	pci_info(nhi->pdev, "TEST ONLY: lc_sleep: %u buses of the chip (upstream port %s) read all-ones from the NHI's suspend_noirq on\n",
		 nhi->lc_nbus, pci_name(upsb));
	test_rail_start(nhi);
}

/* thunderbolt.ko's suspend_noirq puts the chip's link controller to sleep */
static int __maybe_unused test_nhi_suspend_noirq(struct device *dev)
{
	struct test_nhi *nhi = dev_get_drvdata(dev);

	/* tb_suspend_noirq(): hotplug_active false */
	test_nhi_unlisten(nhi);
	if (nhi->lc_upsb) {
		WRITE_ONCE(nhi->lc_asleep, true);
		atomic_inc(&nhi->lc_sleeps);
	}
	return 0;
}

/* ... and its resume_noirq wakes it (suspend to idle; after S3 it is awake) */
static int __maybe_unused test_nhi_resume_noirq(struct device *dev)
{
	struct test_nhi *nhi = dev_get_drvdata(dev);

	if (nhi->lc_upsb)
		WRITE_ONCE(nhi->lc_asleep, false);
	/* tb_resume_noirq(): no scan either, lost routers go */
	test_nhi_listen(nhi);
	return 0;
}

static int test_nhi_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	struct acpi_device *adev = ACPI_COMPANION(&pdev->dev);
	struct test_nhi *nhi;
	char name[24];	/* "domain" and an int */
	int ret;

	/* NHI0; MacPro6,1's second and third controllers: NHI1, NHI2 */
	if (!adev || strncmp(acpi_device_bid(adev), "NHI", 3) ||
	    !isdigit(acpi_device_bid(adev)[3]))
		return -ENODEV;

	nhi = kzalloc(sizeof(*nhi), GFP_KERNEL);
	if (!nhi)
		return -ENOMEM;
	nhi->pdev = pdev;
	mutex_init(&nhi->lock);
	INIT_WORK(&nhi->cm_work, test_nhi_cm_work);
	spin_lock_init(&nhi->cm_lock);
	nhi->router_gen = clamp(router_gen, 1U, 3U);
	test_nhi_check_power(nhi, "probe");

	ret = pcim_enable_device(pdev);
	if (ret)
		goto err_free;

	nhi->index = ida_alloc(&test_nhi_ida, GFP_KERNEL);
	if (nhi->index < 0) {
		ret = nhi->index;
		goto err_free;
	}

	/* tb_domain_add(): the domain is added before the CM starts. */
	snprintf(name, sizeof(name), "domain%d", nhi->index);
	nhi->domain = test_nhi_new_dev(nhi, &pdev->dev, &test_nhi_domain_type, name);
	if (IS_ERR(nhi->domain)) {
		ret = PTR_ERR(nhi->domain);
		goto err_ida;
	}

	/* tb_start() -> tb_switch_add(): rpm is false, runtime PM stays off. */
	snprintf(name, sizeof(name), "%d-0", nhi->index);
	nhi->root_switch = test_nhi_new_dev(nhi, nhi->domain, &test_nhi_switch_type, name);
	if (IS_ERR(nhi->root_switch)) {
		ret = PTR_ERR(nhi->root_switch);
		goto err_domain;
	}
	device_init_wakeup(nhi->root_switch, true);
	pm_runtime_set_active(nhi->root_switch);

	/* The rest of tb_domain_add(). */
	device_init_wakeup(nhi->domain, true);
	pm_runtime_no_callbacks(nhi->domain);
	pm_runtime_set_active(nhi->domain);
	pm_runtime_enable(nhi->domain);
	pm_runtime_set_autosuspend_delay(nhi->domain, domain_autosuspend_ms);
	pm_runtime_mark_last_busy(nhi->domain);
	pm_runtime_use_autosuspend(nhi->domain);

	test_nhi_allow_d3_chain(pdev);

	pci_set_drvdata(pdev, nhi);
	test_lc_start(nhi);
	nhi->dir = debugfs_create_dir(pci_name(pdev), test_nhi_root);
	debugfs_create_file("status", 0444, nhi->dir, nhi, &test_nhi_status_fops);
	debugfs_create_file_unsafe("hold", 0600, nhi->dir, nhi, &test_nhi_hold_fops);
	debugfs_create_file_unsafe("root_switch_rpm", 0600, nhi->dir, nhi,
				   &test_nhi_switch_rpm_fops);
	debugfs_create_file_unsafe("router_gen", 0600, nhi->dir, nhi, &test_nhi_router_gen_fops);
	debugfs_create_file_unsafe("xdomain", 0600, nhi->dir, nhi, &test_nhi_xdomain_fops);
	debugfs_create_file("cable", 0200, nhi->dir, nhi, &test_nhi_cable_fops);
	debugfs_create_file("ports", 0444, nhi->dir, nhi, &test_nhi_ports_fops);

	/* the ports, and the devices below them already */
	test_nhi_find_ports(nhi);
	mutex_lock(&test_nhi_list_lock);
	list_add_tail(&nhi->node, &test_nhi_list);
	bus_for_each_dev(&pci_bus_type, NULL, NULL, test_nhi_scan_dev);
	mutex_unlock(&test_nhi_list_lock);
	/* tb_start(): hotplug_active (no cable is in yet: nothing to scan) */
	test_nhi_listen(nhi);

	pci_info(pdev, "macsupport_test_nhi: bound %s, domain%d, root switch %s, %u hotplug port(s)\n",
		 acpi_device_bid(adev), nhi->index, dev_name(nhi->root_switch), nhi->nports);

	/* nhi_probe(): local_pci_probe()'s reference is dropped here. */
	if (nhi_wake && !device_can_wakeup(&pdev->dev)) {
		device_set_wakeup_capable(&pdev->dev, true);
		nhi->wake_capable = true;
	}
	device_wakeup_enable(&pdev->dev);
	pm_runtime_allow(&pdev->dev);
	pm_runtime_set_autosuspend_delay(&pdev->dev, nhi_autosuspend_ms);
	pm_runtime_use_autosuspend(&pdev->dev);
	pm_runtime_put_autosuspend(&pdev->dev);
	return 0;

err_domain:
	device_unregister(nhi->domain);
err_ida:
	ida_free(&test_nhi_ida, nhi->index);
err_free:
	kfree(nhi);
	return ret;
}

static void test_nhi_remove(struct pci_dev *pdev)
{
	struct test_nhi *nhi = pci_get_drvdata(pdev);
	unsigned int i;

	/* nhi_remove() */
	pm_runtime_get_sync(&pdev->dev);
	pm_runtime_dont_use_autosuspend(&pdev->dev);
	pm_runtime_forbid(&pdev->dev);

	/* the notifier no longer sees this NHI; no more hotplug events */
	mutex_lock(&test_nhi_list_lock);
	list_del(&nhi->node);
	mutex_unlock(&test_nhi_list_lock);
	debugfs_remove_recursive(nhi->dir);
	spin_lock_irq(&nhi->cm_lock);
	nhi->dying = true;
	nhi->listening = false;
	spin_unlock_irq(&nhi->cm_lock);
	cancel_work_sync(&nhi->cm_work);

	mutex_lock(&nhi->lock);
	while (nhi->holds) {
		nhi->holds--;
		pm_runtime_put_noidle(&pdev->dev);
	}
	/* tb_switch_remove() of the root switch: what hangs below it first */
	test_nhi_cm_get(nhi);
	test_nhi_xdomain_remove(nhi);
	for (i = 0; i < nhi->nports; i++)
		if (nhi->ports[i].router)
			test_nhi_router_remove(nhi, i);
	test_nhi_cm_put(nhi);
	if (nhi->switch_rpm) {
		pm_runtime_disable(nhi->root_switch);
		nhi->switch_rpm = false;
	}
	mutex_unlock(&nhi->lock);
	test_nhi_put_ports(nhi);

	/* tb_domain_remove(): tb_stop() removes the root switch first. */
	device_unregister(nhi->root_switch);
	device_unregister(nhi->domain);
	test_lc_stop(nhi);
	/* the wakeup capability was this driver's emulation */
	if (nhi->wake_capable)
		device_init_wakeup(&pdev->dev, false);
	ida_free(&test_nhi_ida, nhi->index);
	kfree(nhi);
}

static int __maybe_unused test_nhi_runtime_suspend(struct device *dev)
{
	struct test_nhi *nhi = dev_get_drvdata(dev);

	atomic_inc(&nhi->suspends);
	test_nhi_check_power(nhi, "runtime suspend");
	/* tb_runtime_suspend(), tb_ctl_stop(): no more hotplug events */
	test_nhi_unlisten(nhi);
	return 0;
}

static int __maybe_unused test_nhi_runtime_resume(struct device *dev)
{
	struct test_nhi *nhi = dev_get_drvdata(dev);

	atomic_inc(&nhi->resumes);
	/* tb_ctl_start(), tb_runtime_resume(): powered, it listens again */
	if (test_nhi_check_power(nhi, "runtime resume"))
		test_nhi_listen(nhi);
	return 0;
}

static const struct dev_pm_ops test_nhi_pm = {
	/* suspend only: thunderbolt.ko's freeze_noirq does not sleep the chip */
	.suspend_noirq	= pm_sleep_ptr(test_nhi_suspend_noirq),
	.resume_noirq	= pm_sleep_ptr(test_nhi_resume_noirq),
	SET_RUNTIME_PM_OPS(test_nhi_runtime_suspend, test_nhi_runtime_resume, NULL)
};

/* No MODULE_DEVICE_TABLE: tests load it by hand, nothing autoloads it. */
static const struct pci_device_id test_nhi_ids[] = {
	{ PCI_DEVICE(0x1234, 0x11e8) },
	{ }
};

static struct pci_driver test_nhi_driver = {
	.name		= "macsupport_test_nhi",
	.id_table	= test_nhi_ids,
	.probe		= test_nhi_probe,
	.remove		= test_nhi_remove,
	.driver.pm	= &test_nhi_pm,
};

/*
 * The Thunderbolt 3 controller's xHCI (15d4/15ec on the Macs; QEMU's
 * qemu-xhci, 1b36:000d, whose ACPI companion has RTPC, in the profiles):
 * xhci-pci binds the real one and, by its XHCI_DEFAULT_PM_RUNTIME_ALLOW
 * quirk for Alpine and Titan Ridge, allows its runtime PM at probe and
 * forbids it again at removal (6.1 drivers/usb/host/xhci-pci.c). Its runtime
 * suspend takes it to D3 through the PCI core, which runs the firmware's
 * _PS3, and its resume runs _PS0, which on a Mac sets the firmware's GXCI
 * (the xHCI wants its rail). A device without a driver never gets either:
 * the PCI core leaves an unbound device in D0 on runtime suspend. This
 * driver does what xhci-pci does to runtime PM, nothing else (QEMU's xHCI
 * has no PM capability; xhci-pci itself would keep it resumed), and counts
 * a callback that runs while the SSDT says the xHCI's rail is off (ZPWR 0
 * in its ACPI companion), as the NHI's does.
 */
static atomic_t test_xhci_unpowered = ATOMIC_INIT(0);

static void test_xhci_check_power(struct pci_dev *pdev, const char *what)
{
	unsigned long long zpwr;

	if (ACPI_SUCCESS(acpi_evaluate_integer(ACPI_HANDLE(&pdev->dev), "ZPWR", NULL, &zpwr)) &&
	    !zpwr) {
		atomic_inc(&test_xhci_unpowered);
		pci_warn(pdev, "%s while the xHCI's rail is off (ZPWR 0)\n", what);
	}
}

static int test_xhci_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	/* only the Thunderbolt controller's, the one with a vote */
	if (!acpi_has_method(ACPI_HANDLE(&pdev->dev), "RTPC"))
		return -ENODEV;
	test_xhci_check_power(pdev, "probe");
	pm_runtime_allow(&pdev->dev);
	pm_runtime_put_noidle(&pdev->dev);
	pci_info(pdev, "TEST ONLY: xhci-pci's runtime PM on the Thunderbolt controller's xHCI\n");
	return 0;
}

static void test_xhci_remove(struct pci_dev *pdev)
{
	pm_runtime_get_noresume(&pdev->dev);
	pm_runtime_forbid(&pdev->dev);
}

static int __maybe_unused test_xhci_runtime_suspend(struct device *dev)
{
	test_xhci_check_power(to_pci_dev(dev), "runtime suspend");
	return 0;
}

static int __maybe_unused test_xhci_runtime_resume(struct device *dev)
{
	test_xhci_check_power(to_pci_dev(dev), "runtime resume");
	return 0;
}

static const struct dev_pm_ops test_xhci_pm = {
	SET_RUNTIME_PM_OPS(test_xhci_runtime_suspend, test_xhci_runtime_resume, NULL)
};

static const struct pci_device_id test_xhci_ids[] = {
	{ PCI_DEVICE(0x1b36, 0x000d) },
	{ }
};

static struct pci_driver test_xhci_driver = {
	.name		= "macsupport_test_xhci",
	.id_table	= test_xhci_ids,
	.probe		= test_xhci_probe,
	.remove		= test_xhci_remove,
	.driver.pm	= &test_xhci_pm,
};

static int test_xhci_unpowered_get(void *data, u64 *val)
{
	*val = atomic_read(&test_xhci_unpowered);
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(test_xhci_unpowered_fops, test_xhci_unpowered_get, NULL, "%llu\n");

/* bind=0: the PM flags of real ports for each stand-in NHI's chain */
static void test_nhi_allow_d3_unbound(void)
{
	struct pci_dev *pdev = NULL;

	while ((pdev = pci_get_device(0x1234, 0x11e8, pdev))) {
		test_nhi_allow_d3_chain(pdev);
		pci_info(pdev, "macsupport_test_nhi: not bound (bind=0), its chain may enter D3\n");
	}
}

static int __init test_nhi_init(void)
{
	int ret;

	if (!bind) {
		test_nhi_allow_d3_unbound();
		return 0;
	}
	test_nhi_root = debugfs_create_dir("macsupport_test_nhi", NULL);
	test_pad_start();
	ret = bus_register_notifier(&pci_bus_type, &test_nhi_pci_nb);
	if (ret)
		goto err_debugfs;
	ret = pci_register_driver(&test_nhi_driver);
	if (ret)
		goto err_notifier;
	ret = pci_register_driver(&test_xhci_driver);
	if (ret)
		goto err_nhi;
	debugfs_create_file("xhci_unpowered", 0400, test_nhi_root, NULL,
			    &test_xhci_unpowered_fops);
	return 0;

err_nhi:
	pci_unregister_driver(&test_nhi_driver);
err_notifier:
	bus_unregister_notifier(&pci_bus_type, &test_nhi_pci_nb);
err_debugfs:
	test_pad_stop();
	debugfs_remove_recursive(test_nhi_root);
	return ret;
}
module_init(test_nhi_init);

static void __exit test_nhi_exit(void)
{
	if (!bind)
		return;
	pci_unregister_driver(&test_xhci_driver);
	pci_unregister_driver(&test_nhi_driver);
	/*
	 * lc_sleep: the power devices' last references go with their links,
	 * late (and later still with CONFIG_DEBUG_KOBJECT_RELEASE)
	 */
	device_link_wait_removal();
	wait_var_event(&test_lc_live, !atomic_read(&test_lc_live));
	bus_unregister_notifier(&pci_bus_type, &test_nhi_pci_nb);
	test_pad_stop();
	debugfs_remove_recursive(test_nhi_root);
}
module_exit(test_nhi_exit);

MODULE_DESCRIPTION("TEST ONLY: thunderbolt.ko's runtime PM on a stand-in NHI for the QEMU harness");
MODULE_LICENSE("GPL");
MODULE_INFO(test, "Y");
