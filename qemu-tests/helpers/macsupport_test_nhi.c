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
 *   "N-0" (device_type "thunderbolt_device") is added under it and set
 *   active, but its runtime PM is not enabled: tb_start() sets
 *   root_switch->rpm = tb_switch_is_usb4(), false on Apple controllers, and
 *   tb_switch_add() enables runtime PM only when rpm is set. Then the
 *   domain gets pm_runtime_no_callbacks(), set_active(), enable() and a
 *   15000 ms autosuspend delay; last the NHI gets pm_runtime_allow(), its
 *   15000 ms autosuspend delay, use_autosuspend and put_autosuspend.
 *   The active root switch, whose runtime PM is disabled, keeps the domain
 *   active and the domain keeps the NHI active: the NHI never
 *   runtime-suspends, as with thunderbolt.ko on a Mac.
 * - remove (nhi_remove -> tb_domain_remove -> tb_stop -> tb_switch_remove):
 *   pm_runtime_get_sync(), dont_use_autosuspend() and forbid() on the NHI,
 *   then the root switch and the domain are unregistered. Runtime PM of the
 *   root switch is left as found (tb_macpm may have enabled it; the PCI
 *   core's device_del() copes with either state); this driver disables it
 *   only when its own test file below enabled it.
 *
 * Each runtime suspend and resume of the NHI, and the probe, evaluates the
 * SSDT's TPWR in the NHI's ACPI companion: 0 means the emulated controller
 * is powered off while its driver touches it, counted as "unpowered" (must
 * stay 0). The root switch's runtime callbacks only count.
 *
 * QEMU 7.2's PCIe ports and the edu device have no PM capability, so
 * pci_pm_init() leaves d3cold_allowed and bridge_d3 false on them and the
 * PCI core never lets the ports below the root port runtime-suspend into
 * D3. At probe this driver sets, for the NHI's root port and every PCI
 * device below it, d3cold_allowed = true and, on bridges, bridge_d3 = true:
 * what pci_pm_init() gives a device that has a PM capability (bridge_d3 from
 * pci_bridge_d3_possible(), true with pcie_port_pm=force). It does not
 * enable wakeup on the NHI: a real NHI signals PME from D3cold, QEMU's edu
 * cannot, and a wakeup-enabled device without PME from D3cold keeps its
 * bridge out of D3 (pci_dev_check_d3cold()).
 *
 * Parameters: nhi_autosuspend_ms, domain_autosuspend_ms (both 15000, as
 * TB_AUTOSUSPEND_DELAY); bind=0 binds nothing and only sets those flags
 * below the root port of every stand-in NHI, for a Mac whose NHI has no
 * driver (Eagle Ridge: Debian's thunderbolt.ko has no alias for it).
 * debugfs, /sys/kernel/debug/macsupport_test_nhi/<bdf>/:
 *
 * - status: "key: value" lines: runtime_suspends, runtime_resumes,
 *   unpowered, holds (of the NHI), root_switch_suspends,
 *   root_switch_resumes, root_switch_rpm (1 if this driver enabled it)
 * - hold: write 1: pm_runtime_get_sync() of the NHI (what an XDomain peer
 *   such as thunderbolt-net does), 0: drop one such reference
 * - root_switch_rpm: write 1: pm_runtime_enable() on the root switch (what
 *   tb_macpm does; for testing the stand-in without it), 0: disable again
 *
 * Never installed by DKMS, never loaded outside QEMU.
 */

#include <linux/acpi.h>
#include <linux/ctype.h>
#include <linux/debugfs.h>
#include <linux/idr.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/pci.h>
#include <linux/pm_runtime.h>
#include <linux/seq_file.h>
#include <linux/slab.h>

static unsigned int nhi_autosuspend_ms = 15000;
module_param(nhi_autosuspend_ms, uint, 0444);
MODULE_PARM_DESC(nhi_autosuspend_ms, "NHI autosuspend delay in ms at probe (default 15000, as thunderbolt.ko)");

static unsigned int domain_autosuspend_ms = 15000;
module_param(domain_autosuspend_ms, uint, 0444);
MODULE_PARM_DESC(domain_autosuspend_ms, "domain autosuspend delay in ms (default 15000, as thunderbolt.ko)");

static bool bind = true;
module_param(bind, bool, 0444);
MODULE_PARM_DESC(bind, "0: bind no NHI, only give the stand-in NHIs' chains the PM flags of a real port (an NHI without a driver)");

struct test_nhi {
	struct pci_dev *pdev;
	struct device *domain;
	struct device *root_switch;
	struct dentry *dir;
	struct mutex lock;	/* holds, switch_rpm */
	int index;
	unsigned int holds;
	bool switch_rpm;
	atomic_t suspends;
	atomic_t resumes;
	atomic_t unpowered;
	atomic_t sw_suspends;
	atomic_t sw_resumes;
};

static DEFINE_IDA(test_nhi_ida);
static struct dentry *test_nhi_root;

/* Counts a driver touching the controller while the SSDT says it is off. */
static void test_nhi_check_power(struct test_nhi *nhi, const char *what)
{
	unsigned long long tpwr;
	acpi_status status;

	status = acpi_evaluate_integer(ACPI_HANDLE(&nhi->pdev->dev), "TPWR", NULL, &tpwr);
	if (ACPI_SUCCESS(status) && !tpwr) {
		atomic_inc(&nhi->unpowered);
		pci_warn(nhi->pdev, "%s while the controller is powered off (TPWR 0)\n", what);
	}
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

static int test_nhi_status_show(struct seq_file *s, void *unused)
{
	struct test_nhi *nhi = s->private;

	mutex_lock(&nhi->lock);
	seq_printf(s, "runtime_suspends: %d\n", atomic_read(&nhi->suspends));
	seq_printf(s, "runtime_resumes: %d\n", atomic_read(&nhi->resumes));
	seq_printf(s, "unpowered: %d\n", atomic_read(&nhi->unpowered));
	seq_printf(s, "holds: %u\n", nhi->holds);
	seq_printf(s, "root_switch_suspends: %d\n", atomic_read(&nhi->sw_suspends));
	seq_printf(s, "root_switch_resumes: %d\n", atomic_read(&nhi->sw_resumes));
	seq_printf(s, "root_switch_rpm: %d\n", nhi->switch_rpm);
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

static int test_nhi_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	struct acpi_device *adev = ACPI_COMPANION(&pdev->dev);
	struct test_nhi *nhi;
	char name[16];
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
	nhi->dir = debugfs_create_dir(pci_name(pdev), test_nhi_root);
	debugfs_create_file("status", 0444, nhi->dir, nhi, &test_nhi_status_fops);
	debugfs_create_file_unsafe("hold", 0600, nhi->dir, nhi, &test_nhi_hold_fops);
	debugfs_create_file_unsafe("root_switch_rpm", 0600, nhi->dir, nhi,
				   &test_nhi_switch_rpm_fops);

	pci_info(pdev, "macsupport_test_nhi: bound %s, domain%d, root switch %s\n",
		 acpi_device_bid(adev), nhi->index, dev_name(nhi->root_switch));

	/* nhi_probe(): local_pci_probe()'s reference is dropped here. */
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

	/* nhi_remove() */
	pm_runtime_get_sync(&pdev->dev);
	pm_runtime_dont_use_autosuspend(&pdev->dev);
	pm_runtime_forbid(&pdev->dev);

	debugfs_remove_recursive(nhi->dir);
	mutex_lock(&nhi->lock);
	while (nhi->holds) {
		nhi->holds--;
		pm_runtime_put_noidle(&pdev->dev);
	}
	if (nhi->switch_rpm) {
		pm_runtime_disable(nhi->root_switch);
		nhi->switch_rpm = false;
	}
	mutex_unlock(&nhi->lock);

	/* tb_domain_remove(): tb_stop() removes the root switch first. */
	device_unregister(nhi->root_switch);
	device_unregister(nhi->domain);
	ida_free(&test_nhi_ida, nhi->index);
	kfree(nhi);
}

static int __maybe_unused test_nhi_runtime_suspend(struct device *dev)
{
	struct test_nhi *nhi = dev_get_drvdata(dev);

	atomic_inc(&nhi->suspends);
	test_nhi_check_power(nhi, "runtime suspend");
	return 0;
}

static int __maybe_unused test_nhi_runtime_resume(struct device *dev)
{
	struct test_nhi *nhi = dev_get_drvdata(dev);

	atomic_inc(&nhi->resumes);
	test_nhi_check_power(nhi, "runtime resume");
	return 0;
}

static const struct dev_pm_ops test_nhi_pm = {
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
	ret = pci_register_driver(&test_nhi_driver);
	if (ret)
		debugfs_remove_recursive(test_nhi_root);
	return ret;
}
module_init(test_nhi_init);

static void __exit test_nhi_exit(void)
{
	if (!bind)
		return;
	pci_unregister_driver(&test_nhi_driver);
	debugfs_remove_recursive(test_nhi_root);
}
module_exit(test_nhi_exit);

MODULE_DESCRIPTION("TEST ONLY: thunderbolt.ko's runtime PM on a stand-in NHI for the QEMU harness");
MODULE_LICENSE("GPL");
MODULE_INFO(test, "Y");
