// SPDX-License-Identifier: GPL-2.0
/*
 * apple_gmux_ng - gmux driver for dual-GPU MacBook Pros
 *
 * Copyright (C) 2026 The macsupport developers
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/acpi.h>
#include <linux/io.h>
#include <linux/ioport.h>
#include <linux/module.h>
#include <linux/pm.h>
#include <linux/pnp.h>

#include "macsupport/apple_dmi.h"
#include "macsupport/gmux_sim.h"
#include "gmux.h"

/**
 * DOC: Overview
 *
 * The gmux is the chip on dual-GPU MacBook Pros that switches the panel
 * between the integrated and the discrete GPU, powers the discrete GPU and
 * drives the backlight. There are three kinds:
 *
 * - classic (MacBookPro5,1 to 9,1): a Lattice XP2 FPGA answering plain
 *   port I/O at 0x700;
 * - indexed (MacBookPro10,1 to 14,3): a Renesas H8S/2113 behind a mailbox
 *   in the same port range;
 * - T2 (MacBookPro15,1 to 16,4): reached through a 16-byte memory window
 *   at 0xfe0b0200 (ACPI declares 8) and a command byte at its end.
 *
 * The firmware describes it as an ACPI device with _HID APP000B:
 * \_SB.PCI0.LPCB.GMUX before the T2, \_SB.PCI0.LPCB.GPUC on T2 Macs.
 * Some Macs declare one that is not there (MacBookPro8,1, iMacPro1,1, the
 * T2 iMacs); the driver rejects those, by what answers in the window and by
 * the bundle's model table.
 *
 * This driver binds to that device on Apple Macs only, finds out which
 * kind answers, checks the firmware version, and offers the backlight, the
 * gmux interrupt, a debugfs view, and GPU switching and dGPU power through
 * vga_switcheroo (see DOC: Graphics mux). Unlike Debian's 6.1 driver it knows
 * the T2 gmux, bounds every handshake and reports every timeout.
 */

MACSUPPORT_APPLE_DMI_TABLE(gmux_apple_dmi_table);

static char *test_sim_protocol;
module_param(test_sim_protocol, charp, 0444);
MODULE_PARM_DESC(test_sim_protocol,
		 "TEST ONLY (QEMU harness): speak this protocol (classic, indexed, t2) over the gmux simulator's window, the gmux's last memory resource");

static enum mac_gmux_kind gmux_test_kind = MAC_GMUX_NONE;

static const struct mac_model_info *gmux_machine_model(void)
{
	struct mac_model_id id;

	if (mac_model_parse(dmi_get_system_info(DMI_PRODUCT_NAME), &id))
		return NULL;
	return mac_model_lookup(&id);
}

/* TEST ONLY: the simulator's window, the last memory resource of the device. */
static int gmux_map_sim_window(struct apple_gmux_ng *gmux)
{
	struct device *dev = &gmux->pnp->dev;
	struct resource *res = NULL, *r;
	unsigned int i;

	for (i = 0; (r = pnp_get_resource(gmux->pnp, IORESOURCE_MEM, i)); i++)
		if (pnp_resource_valid(r))
			res = r;
	if (!res || resource_size(res) < GMUX_SIM_WINDOW_LEN) {
		dev_err(dev, "TEST ONLY: no simulator window among the gmux's resources\n");
		return -ENODEV;
	}
	gmux->win.res = res;
	if (!devm_request_mem_region(dev, res->start, GMUX_SIM_WINDOW_LEN, GMUX_DRIVER_NAME))
		return -EBUSY;
	gmux->win.base = devm_ioremap(dev, res->start, GMUX_SIM_WINDOW_LEN);
	if (!gmux->win.base)
		return -ENOMEM;
	if (ioread32(gmux->win.base + GMUX_SIM_MAGIC) != GMUX_SIM_MAGIC_VALUE) {
		dev_err(dev, "TEST ONLY: no gmux simulator runs behind %pR\n", res);
		return -ENODEV;
	}
	gmux->win.sim_journal = gmux->win.base;
	gmux->win.sim_sync = gmux_test_kind == MAC_GMUX_CLASSIC;
	gmux->io.ops = &gmux_sim_ops;
	dev_info(dev, "TEST ONLY: speaking the %s protocol over the simulator window %pR\n",
		 mac_gmux_kind_name(gmux_test_kind), res);
	return 0;
}

/* The window the firmware declares (see gmux_map_window()). */
static int gmux_map_real_window(struct apple_gmux_ng *gmux, bool *is_port)
{
	struct device *dev = &gmux->pnp->dev;
	struct resource *res;
	resource_size_t len;

	res = pnp_get_resource(gmux->pnp, IORESOURCE_IO, 0);
	if (res && pnp_resource_valid(res)) {
		gmux->win.res = res;
		*is_port = true;
		if (resource_size(res) < GMUX_MIN_IO_LEN) {
			dev_err(dev, "gmux I/O range %pR is too short\n", res);
			return -ENODEV;
		}
		if (!devm_request_region(dev, res->start, resource_size(res), GMUX_DRIVER_NAME))
			goto busy;
		gmux->win.base = devm_ioport_map(dev, res->start, resource_size(res));
		return gmux->win.base ? 0 : -ENOMEM;
	}

	res = pnp_get_resource(gmux->pnp, IORESOURCE_MEM, 0);
	if (res && pnp_resource_valid(res)) {
		gmux->win.res = res;
		*is_port = false;
		/*
		 * ACPI declares 8 bytes, but the driver drives 16 (port
		 * select 0x0e, command 0x0f): claim all it touches.
		 */
		len = max_t(resource_size_t, resource_size(res), GMUX_T2_WINDOW_LEN);
		if (!devm_request_mem_region(dev, res->start, len, GMUX_DRIVER_NAME))
			goto busy;
		gmux->win.base = devm_ioremap(dev, res->start, GMUX_T2_WINDOW_LEN);
		return gmux->win.base ? 0 : -ENOMEM;
	}

	dev_err(dev, "the firmware gives the gmux neither an I/O range nor a memory window\n");
	return -ENODEV;

busy:
	dev_err(dev, "gmux window %pR is already in use (is the in-tree apple-gmux bound?)\n", res);
	return -EBUSY;
}

/*
 * Claim and map the gmux's registers: its I/O range (classic, indexed) or
 * its memory window (T2). @is_port tells which. With the test-only
 * simulator the real window is claimed all the same (it is what the claim
 * is tested on), and the simulator's window is then used instead.
 */
static int gmux_map_window(struct apple_gmux_ng *gmux, bool *is_port)
{
	int ret;

	gmux->io.ops = &gmux_iomem_ops;
	if (gmux_test_kind != MAC_GMUX_NONE) {
		ret = gmux_map_real_window(gmux, is_port);
		if (ret)
			return ret;
		*is_port = gmux_test_kind != MAC_GMUX_T2;
		return gmux_map_sim_window(gmux);
	}
	return gmux_map_real_window(gmux, is_port);
}

static int gmux_probe(struct pnp_dev *pnp, const struct pnp_device_id *id)
{
	struct device *dev = &pnp->dev;
	struct apple_gmux_ng *gmux;
	char gpe_desc[16] = "no GPE";
	char path[80] = "(unnamed)";
	struct acpi_buffer buf = { sizeof(path), path };
	enum mac_gmux_kind kind;
	const char *product;
	bool is_port;
	int ret;

	gmux = devm_kzalloc(dev, sizeof(*gmux), GFP_KERNEL);
	if (!gmux)
		return -ENOMEM;
	gmux->pnp = pnp;
	gmux->gpe = -1;
	mutex_init(&gmux->irq_lock);
	mutex_init(&gmux->sw.lock);
	/* before the interrupt: a hotplug notification queues runpm's work */
	gmux_runpm_setup(gmux);
	gmux_power_init(gmux);
	gmux->handle = ACPI_HANDLE(dev);
	if (!gmux->handle)
		return -ENODEV;
	acpi_get_name(gmux->handle, ACPI_FULL_PATHNAME, &buf);
	gmux->model = gmux_machine_model();
	product = macsupport_dmi_string(DMI_PRODUCT_NAME);
	pnp_set_drvdata(pnp, gmux);

	/* Known not to be there: not even probed (the window may be anything). */
	if (gmux->model && gmux->model->gmux == MAC_GMUX_FAKE) {
		dev_info(dev, "%s has no gmux although its firmware declares %s; ignoring it\n",
			 product, path);
		return -ENODEV;
	}

	ret = gmux_map_window(gmux, &is_port);
	if (ret)
		return ret;

	ret = gmux_detect(gmux->io.ops, &gmux->win, is_port, &kind);
	if (ret) {
		dev_info(dev, "%s: no gmux answers at %s %pR; the firmware declares one that is not there\n",
			 product, path, gmux->win.res);
		return -ENODEV;
	}
	if (gmux_test_kind != MAC_GMUX_NONE && kind != gmux_test_kind) {
		dev_err(dev, "TEST ONLY: the simulator answers as a %s gmux, not %s\n",
			mac_gmux_kind_name(kind), mac_gmux_kind_name(gmux_test_kind));
		return -ENODEV;
	}
	gmux->io.ctx = &gmux->win;
	gmux->io.kind = kind;
	gmux->io.timeout_us = GMUX_TIMEOUT_US;
	ret = gmux_read_version(&gmux->io, &gmux->version);
	if (ret)
		return dev_err_probe(dev, ret, "cannot read the gmux version\n");
	if (!gmux_version_plausible(&gmux->version)) {
		dev_err(dev, "%s gmux at %pR reports version %u.%u.%u: not a working gmux\n",
			mac_gmux_kind_name(kind), gmux->win.res, gmux->version.major,
			gmux->version.minor, gmux->version.release);
		return -ENODEV;
	}

	ret = gmux_regmap_init(gmux);
	if (ret)
		return ret;
	ret = gmux_backlight_init(gmux);
	if (ret)
		return ret;
	ret = gmux_irq_init(gmux);
	if (ret)
		return ret;
	gmux_debugfs_init(gmux);
	/* last: the gmux is known to work */
	ret = gmux_switch_init(gmux);
	if (ret)
		goto err_debugfs;
	ret = gmux_power_register(gmux);
	if (ret)
		goto err_debugfs;
	ret = gmux_runpm_init(gmux);
	if (ret)
		goto err_debugfs;

	if (gmux->gpe >= 0)
		snprintf(gpe_desc, sizeof(gpe_desc), "GPE 0x%x", gmux->gpe);
	dev_info(dev, "%s: gmux %u.%u.%u [%s] %s at %pR, %s, backlight %s%s\n", product,
		 gmux->version.major, gmux->version.minor, gmux->version.release,
		 mac_gmux_kind_name(kind), path, gmux->win.res, gpe_desc,
		 gmux_backlight_registered(gmux) ? "registered" : "not registered",
		 gmux->model && gmux->model->gmux != kind ?
		 " (the model table expects another kind)" : "");
	return 0;

err_debugfs:
	gmux_debugfs_exit(gmux);
	return ret;
}

/* The rest is device-managed and undone in the reverse order of probe. */
static void gmux_remove(struct pnp_dev *pnp)
{
	struct apple_gmux_ng *gmux = pnp_get_drvdata(pnp);

	/* first: the dGPU powered and unlinked, then no GPU switch or power
	 * change may reach a gmux going away
	 */
	gmux_runpm_exit(gmux);
	gmux_switch_exit(gmux);
	gmux_debugfs_exit(gmux);
}

/*
 * A gmux that does not answer must not keep the machine awake: both only
 * log (see DOC: Interrupt), so .resume runs after every .suspend.
 */
static int gmux_suspend(struct device *dev)
{
	gmux_irq_suspend(dev_get_drvdata(dev));
	return 0;
}

static int gmux_resume(struct device *dev)
{
	gmux_irq_resume(dev_get_drvdata(dev));
	gmux_power_resume(dev_get_drvdata(dev));
	gmux_runpm_resume(dev_get_drvdata(dev));
	return 0;
}

static DEFINE_SIMPLE_DEV_PM_OPS(gmux_pm_ops, gmux_suspend, gmux_resume);

static const struct pnp_device_id gmux_pnp_ids[] = {
	{ "APP000B", 0 },
	{ "", 0 },
};
MODULE_DEVICE_TABLE(pnp, gmux_pnp_ids);

static struct pnp_driver gmux_pnp_driver = {
	.name		= GMUX_DRIVER_NAME,
	.probe		= gmux_probe,
	.remove		= gmux_remove,
	.id_table	= gmux_pnp_ids,
	.driver		= {
		.pm	= pm_sleep_ptr(&gmux_pm_ops),
		.dev_groups = gmux_prefs_groups,
	},
};

/*
 * Debian's kernel ships the in-tree apple-gmux, which udev loads for the
 * same device. Two drivers cannot share the gmux: if the in-tree one has
 * it, say how to hand it over instead of failing silently.
 */
static int gmux_check_in_tree_driver(void)
{
	struct acpi_device *adev = acpi_dev_get_first_match_dev("APP000B", NULL, -1);
	struct device *phys;
	int ret = 0;

	if (!adev)
		return 0;
	phys = acpi_get_first_physical_node(adev);
	if (phys) {
		device_lock(phys);
		if (phys->driver && !strcmp(phys->driver->name, "apple-gmux"))
			ret = -EBUSY;
		device_unlock(phys);
	}
	acpi_dev_put(adev);
	if (ret)
		pr_err("the in-tree apple-gmux driver has the gmux: unload it (modprobe -r apple-gmux); the bundle's /usr/lib/modprobe.d/macsupport.conf keeps it out on kernels that have apple_gmux_ng\n");
	return ret;
}

static int __init apple_gmux_ng_init(void)
{
	static const enum mac_gmux_kind kinds[] = {
		MAC_GMUX_CLASSIC, MAC_GMUX_INDEXED, MAC_GMUX_T2,
	};
	unsigned int i;
	int ret;

	if (!macsupport_require_apple(gmux_apple_dmi_table))
		return -ENODEV;

	if (test_sim_protocol) {
		for (i = 0; i < ARRAY_SIZE(kinds); i++)
			if (!strcmp(test_sim_protocol, mac_gmux_kind_name(kinds[i])))
				gmux_test_kind = kinds[i];
		if (gmux_test_kind == MAC_GMUX_NONE) {
			pr_err("test_sim_protocol=%s: use classic, indexed or t2\n",
			       test_sim_protocol);
			return -EINVAL;
		}
		add_taint(TAINT_TEST, LOCKDEP_STILL_OK);
	}

	ret = gmux_check_in_tree_driver();
	if (ret)
		return ret;
	return pnp_register_driver(&gmux_pnp_driver);
}
module_init(apple_gmux_ng_init);

static void __exit apple_gmux_ng_exit(void)
{
	pnp_unregister_driver(&gmux_pnp_driver);
	gmux_runpm_wait_released();
	gmux_debugfs_cleanup();
}
module_exit(apple_gmux_ng_exit);

MODULE_AUTHOR("The macsupport developers");
MODULE_DESCRIPTION("Apple gmux driver for dual-GPU MacBook Pros (classic, indexed and T2)");
MODULE_LICENSE("GPL");
MODULE_VERSION(MACSUPPORT_VERSION);
