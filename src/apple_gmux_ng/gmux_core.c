// SPDX-License-Identifier: GPL-2.0
/*
 * apple_gmux_ng - gmux driver for dual-GPU MacBook Pros
 *
 * Copyright (C) 2026 The macsupport developers
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/acpi.h>
#include <linux/ioport.h>
#include <linux/module.h>
#include <linux/pnp.h>

#include "macsupport/apple_dmi.h"
#include "macsupport/mac_model.h"

/**
 * DOC: Overview
 *
 * The gmux is the chip on dual-GPU MacBook Pros that switches the panel
 * between the integrated and the discrete GPU, powers the discrete GPU and
 * drives the backlight. The firmware describes it as an ACPI device with
 * _HID APP000B: \_SB.PCI0.LPCB.GMUX with an I/O port range on the classic
 * (Lattice XP2) and indexed (Renesas H8S/2113) kinds, \_SB.PCI0.LPCB.GPUC
 * with an 8-byte memory window on T2 Macs. Its interrupt is a GPE whose
 * number the firmware returns from the GMGP object; the GPE handler
 * Notify()s the device with 0x80.
 *
 * This driver binds to that device on Apple Macs only, claims its
 * resources, and reports what the firmware declares next to what the
 * bundle's model table expects for the machine.
 */

#define GMUX_DRIVER_NAME	"apple_gmux_ng"

MACSUPPORT_APPLE_DMI_TABLE(gmux_apple_dmi_table);

/**
 * struct apple_gmux_ng - driver data of one gmux
 * @pnp: the PNP device of the gmux ACPI node
 * @res: the I/O or memory resource the firmware declares
 * @gpe: the GPE number from GMGP, or -1 when the firmware gives none
 * @model: the machine's entry in the model table, or NULL
 */
struct apple_gmux_ng {
	struct pnp_dev *pnp;
	struct resource *res;
	long long gpe;
	const struct mac_model_info *model;
};

static const struct mac_model_info *gmux_machine_model(void)
{
	struct mac_model_id id;

	if (mac_model_parse(dmi_get_system_info(DMI_PRODUCT_NAME), &id))
		return NULL;
	return mac_model_lookup(&id);
}

static int gmux_claim_resource(struct apple_gmux_ng *gmux)
{
	struct device *dev = &gmux->pnp->dev;
	struct resource *res;

	res = pnp_get_resource(gmux->pnp, IORESOURCE_IO, 0);
	if (res && pnp_resource_valid(res)) {
		gmux->res = res;
		if (!devm_request_region(dev, res->start, resource_size(res), GMUX_DRIVER_NAME))
			goto busy;
		return 0;
	}

	res = pnp_get_resource(gmux->pnp, IORESOURCE_MEM, 0);
	if (res && pnp_resource_valid(res)) {
		gmux->res = res;
		if (!devm_request_mem_region(dev, res->start, resource_size(res),
					     GMUX_DRIVER_NAME))
			goto busy;
		return 0;
	}

	dev_err(dev, "firmware declares neither an I/O nor a memory resource for the gmux\n");
	return -ENODEV;

busy:
	dev_err(dev, "gmux resource %pR is already in use (is the in-tree apple-gmux bound?)\n",
		gmux->res);
	return -EBUSY;
}

static int gmux_probe(struct pnp_dev *pnp, const struct pnp_device_id *id)
{
	acpi_handle handle = ACPI_HANDLE(&pnp->dev);
	struct device *dev = &pnp->dev;
	char gpe_desc[32] = "no GPE (GMGP missing)";
	char path[80] = "(no ACPI node)";
	struct acpi_buffer buf = { sizeof(path), path };
	struct apple_gmux_ng *gmux;
	unsigned long long gpe;
	int ret;

	gmux = devm_kzalloc(dev, sizeof(*gmux), GFP_KERNEL);
	if (!gmux)
		return -ENOMEM;
	gmux->pnp = pnp;
	gmux->gpe = -1;
	gmux->model = gmux_machine_model();

	ret = gmux_claim_resource(gmux);
	if (ret)
		return ret;

	if (handle) {
		if (ACPI_FAILURE(acpi_get_name(handle, ACPI_FULL_PATHNAME, &buf)))
			strscpy(path, "(unnamed)", sizeof(path));
		if (ACPI_SUCCESS(acpi_evaluate_integer(handle, "GMGP", NULL, &gpe)))
			gmux->gpe = gpe;
	}

	pnp_set_drvdata(pnp, gmux);

	if (gmux->gpe >= 0)
		snprintf(gpe_desc, sizeof(gpe_desc), "GPE 0x%llx", gmux->gpe);
	dev_info(dev, "%s: gmux ACPI device %s, %pR, %s; model table: %s gmux\n",
		 macsupport_dmi_string(DMI_PRODUCT_NAME), path, gmux->res, gpe_desc,
		 gmux->model ? mac_gmux_kind_name(gmux->model->gmux) : "unknown model");
	return 0;
}

static const struct pnp_device_id gmux_pnp_ids[] = {
	{ "APP000B", 0 },
	{ "", 0 },
};
MODULE_DEVICE_TABLE(pnp, gmux_pnp_ids);

static struct pnp_driver gmux_pnp_driver = {
	.name		= GMUX_DRIVER_NAME,
	.probe		= gmux_probe,
	.id_table	= gmux_pnp_ids,
};

static int __init apple_gmux_ng_init(void)
{
	if (!macsupport_require_apple(gmux_apple_dmi_table))
		return -ENODEV;
	return pnp_register_driver(&gmux_pnp_driver);
}
module_init(apple_gmux_ng_init);

static void __exit apple_gmux_ng_exit(void)
{
	pnp_unregister_driver(&gmux_pnp_driver);
}
module_exit(apple_gmux_ng_exit);

MODULE_AUTHOR("The macsupport developers");
MODULE_DESCRIPTION("Apple gmux driver for dual-GPU MacBook Pros (classic, indexed and T2)");
MODULE_LICENSE("GPL");
MODULE_VERSION(MACSUPPORT_VERSION);
