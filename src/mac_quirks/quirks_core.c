// SPDX-License-Identifier: GPL-2.0
/*
 * mac_quirks - Mac firmware quirks applied after boot
 *
 * Copyright (C) 2026 The macsupport developers
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>

#include "macsupport/apple_dmi.h"
#include "macsupport/mac_model.h"

/**
 * DOC: Overview
 *
 * Mac firmware has quirks that mainline handles only where they bite early
 * (see arch/x86/kernel/early-quirks.c and drivers/pci/quirks.c); others
 * are left to users with kernel parameters such as acpi_mask_gpe=. This
 * module identifies the Mac from its DMI model identifier, looks it up in
 * the bundle's model table and reports what it found.
 */

MACSUPPORT_APPLE_DMI_TABLE(quirks_apple_dmi_table);
MODULE_DEVICE_TABLE(dmi, quirks_apple_dmi_table);

static int __init mac_quirks_init(void)
{
	const char *product = macsupport_dmi_string(DMI_PRODUCT_NAME);
	const struct mac_model_info *model;
	struct mac_model_id id;

	if (!macsupport_require_apple(quirks_apple_dmi_table))
		return -ENODEV;

	if (mac_model_parse(product, &id)) {
		pr_info("DMI product name \"%s\" is not an Apple model identifier\n", product);
		return 0;
	}

	model = mac_model_lookup(&id);
	if (!model) {
		pr_info("%s: model not in the table\n", product);
		return 0;
	}

	pr_info("%s, %s (board %s): gmux %s, Thunderbolt %s x%u\n", product, model->desc,
		macsupport_dmi_string(DMI_BOARD_NAME), mac_gmux_kind_name(model->gmux),
		mac_tb_gen_name(model->tb), model->tb_count);
	return 0;
}
module_init(mac_quirks_init);

static void __exit mac_quirks_exit(void)
{
}
module_exit(mac_quirks_exit);

MODULE_AUTHOR("The macsupport developers");
MODULE_DESCRIPTION("Apple Mac firmware quirks applied after boot");
MODULE_LICENSE("GPL");
MODULE_VERSION(MACSUPPORT_VERSION);
