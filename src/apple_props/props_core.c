// SPDX-License-Identifier: GPL-2.0
/*
 * apple_props - Apple EFI device properties for every device, also later ones
 *
 * Copyright (C) 2026 The macsupport developers
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/efi.h>
#include <linux/module.h>
#include <linux/pci.h>
#include <linux/property.h>

#include "macsupport/apple_dmi.h"
#include "props.h"

/**
 * DOC: Overview
 *
 * Apple's EFI firmware hands the OS a blob of device properties (GPU
 * configuration, Thunderbolt device ROMs, audio layouts) keyed by EFI
 * device paths. When the firmware vendor is "Apple", the kernel's EFI stub
 * fetches the blob and the built-in parser (CONFIG_APPLE_PROPERTIES) turns
 * each entry into a software node, set as the secondary firmware node of
 * the device it names, for the devices present at that moment.
 *
 * This module shows them in sysfs, for the devices present now and for
 * those that appear later.
 */

char *props_test_fail_at;
module_param_named(test_fail_at, props_test_fail_at, charp, 0);
MODULE_PARM_DESC(test_fail_at, "TEST ONLY: fail module init at this step (sources)");

MACSUPPORT_APPLE_DMI_TABLE(props_apple_dmi_table);
MODULE_DEVICE_TABLE(dmi, props_apple_dmi_table);

static int __init apple_props_init(void)
{
	struct pci_dev *pdev = NULL;
	unsigned int total = 0, with_props;
	int ret;

	if (!macsupport_require_apple(props_apple_dmi_table))
		return -ENODEV;

	ret = props_sysfs_init();
	if (ret)
		return ret;
	for_each_pci_dev(pdev)
		total++;
	with_props = props_exported_count();

	pr_info("%s: %s boot, firmware properties on %u of %u PCI devices\n",
		macsupport_dmi_string(DMI_PRODUCT_NAME),
		efi_enabled(EFI_BOOT) ? "EFI" : "legacy BIOS", with_props, total);
	return 0;
}
module_init(apple_props_init);

static void __exit apple_props_exit(void)
{
	props_sysfs_exit();
}
module_exit(apple_props_exit);

MODULE_AUTHOR("The macsupport developers");
MODULE_DESCRIPTION("Apple EFI device properties: parse, attach, export");
MODULE_LICENSE("GPL");
MODULE_VERSION(MACSUPPORT_VERSION);
MACSUPPORT_IMPORT_NS(EFIVAR);
