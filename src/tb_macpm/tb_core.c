// SPDX-License-Identifier: GPL-2.0
/*
 * tb_macpm - Thunderbolt controller power management on Macs
 *
 * Copyright (C) 2026 The macsupport developers
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/acpi.h>
#include <linux/module.h>

#include "macsupport/apple_dmi.h"
#include "macsupport/mac_model.h"

/**
 * DOC: Overview
 *
 * Macs power their Thunderbolt controller through methods in the ACPI scope
 * of the controller's NHI (\_SB.PCI0.RP0x.UPSB.DSB0.NHI0), not through
 * _PS0/_PS3: XRPE(Arg0) on the first generation and TRPE(Arg0) from 2013
 * switch the controller's power, XRIL() tells whether something is
 * plugged in, and XRIN names the GPE that fires on plug.
 *
 * This module starts by finding every ACPI node that carries these methods.
 */

MACSUPPORT_APPLE_DMI_TABLE(tb_apple_dmi_table);
MODULE_DEVICE_TABLE(dmi, tb_apple_dmi_table);

static acpi_status tb_macpm_find_nhi(acpi_handle handle, u32 level, void *context, void **ret)
{
	unsigned int *count = context;
	char gpe_desc[32] = "no plug GPE";
	char path[80];
	struct acpi_buffer buf = { sizeof(path), path };
	unsigned long long gpe;
	bool xrpe = acpi_has_method(handle, "XRPE");
	bool trpe = acpi_has_method(handle, "TRPE");

	if (!xrpe && !trpe)
		return AE_OK;
	if (ACPI_FAILURE(acpi_get_name(handle, ACPI_FULL_PATHNAME, &buf)))
		strscpy(path, "(unnamed)", sizeof(path));

	(*count)++;
	if (ACPI_SUCCESS(acpi_evaluate_integer(handle, "XRIN", NULL, &gpe)))
		snprintf(gpe_desc, sizeof(gpe_desc), "plug GPE 0x%llx", gpe);
	pr_info("power control at %s: %s%s%s, %s\n", path, xrpe ? "XRPE" : "TRPE",
		acpi_has_method(handle, "XRIL") ? ", XRIL" : "",
		acpi_has_method(handle, "SXFP") ? ", SXFP" : "", gpe_desc);
	return AE_OK;
}

static int __init tb_macpm_init(void)
{
	const struct mac_model_info *model = NULL;
	struct mac_model_id id;
	unsigned int count = 0;

	if (!macsupport_require_apple(tb_apple_dmi_table))
		return -ENODEV;

	if (!mac_model_parse(dmi_get_system_info(DMI_PRODUCT_NAME), &id))
		model = mac_model_lookup(&id);

	acpi_walk_namespace(ACPI_TYPE_DEVICE, ACPI_ROOT_OBJECT, ACPI_UINT32_MAX,
			    tb_macpm_find_nhi, NULL, &count, NULL);

	pr_info("%s: %u Thunderbolt controller(s) with Apple power methods in ACPI; model table: %s x%u\n",
		macsupport_dmi_string(DMI_PRODUCT_NAME), count,
		model ? mac_tb_gen_name(model->tb) : "unknown model",
		model ? model->tb_count : 0);
	return 0;
}
module_init(tb_macpm_init);

static void __exit tb_macpm_exit(void)
{
}
module_exit(tb_macpm_exit);

MODULE_AUTHOR("The macsupport developers");
MODULE_DESCRIPTION("Thunderbolt controller power management on Apple Macs");
MODULE_LICENSE("GPL");
MODULE_VERSION(MACSUPPORT_VERSION);
