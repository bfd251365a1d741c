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

/*
 * TEST ONLY: make the init fail after the named step, to test that the
 * error path takes everything back.
 */
static char *test_fail_at;
module_param(test_fail_at, charp, 0);
MODULE_PARM_DESC(test_fail_at,
		 "TEST ONLY: fail module init with ENOMEM after this step: dir, all, notifier, export, sources");

MACSUPPORT_APPLE_DMI_TABLE(props_apple_dmi_table);
MODULE_DEVICE_TABLE(dmi, props_apple_dmi_table);

static struct kobject *props_fw_dir;

/* TEST ONLY: test_fail_at names @step */
static bool props_test_fail(const char *step)
{
	if (!test_fail_at || strcmp(test_fail_at, step))
		return false;
	pr_warn("TEST ONLY: failing init after step \"%s\" (test_fail_at)\n", step);
	return true;
}

static int props_pci_notify(struct notifier_block *nb, unsigned long action, void *data)
{
	struct device *dev = data;

	switch (action) {
	case BUS_NOTIFY_ADD_DEVICE:
		/* before a driver binds: the properties are there for its probe */
		props_attach_device_added(dev);
		break;
	case BUS_NOTIFY_DEL_DEVICE:
		/* before the device's own software node goes */
		props_attach_device_removed(dev);
		break;
	}
	return NOTIFY_DONE;
}

static struct notifier_block props_pci_nb = {
	.notifier_call = props_pci_notify,
};

/*
 * Set-up, in this order; apple_props_exit() and the error path undo it in
 * the reverse order: /sys/firmware/apple_properties; its "all" listing;
 * the PCI bus notifier (devices that come and go from now on); the
 * devices there (the walk); the sources, whose load file comes last.
 */
/*
 * The directory leaves sysfs now, not when its last reference goes: that
 * may be later (CONFIG_DEBUG_KOBJECT_RELEASE delays it by seconds), and a
 * reload in between would find its name taken.
 */
static void props_fw_dir_remove(void)
{
	kobject_del(props_fw_dir);
	kobject_put(props_fw_dir);
}

static int __init apple_props_init(void)
{
	struct pci_dev *pdev = NULL;
	unsigned int total = 0;
	int ret;

	if (!macsupport_require_apple(props_apple_dmi_table))
		return -ENODEV;

	props_fw_dir = kobject_create_and_add("apple_properties", firmware_kobj);
	if (!props_fw_dir)
		return -ENOMEM;
	ret = props_test_fail("dir") ? -ENOMEM : props_sysfs_init(props_fw_dir);
	if (ret)
		goto err_dir;
	ret = props_test_fail("all") ? -ENOMEM :
	      bus_register_notifier(&pci_bus_type, &props_pci_nb);
	if (ret)
		goto err_all;
	if (props_test_fail("notifier")) {
		ret = -ENOMEM;
		goto err_attach;	/* the notifier may have shown a new device */
	}
	props_attach_export_present();
	ret = props_test_fail("export") ? -ENOMEM : props_sources_init(props_fw_dir);
	if (ret)
		goto err_attach;
	if (props_test_fail("sources")) {
		ret = -ENOMEM;
		goto err_sources;
	}

	for_each_pci_dev(pdev)
		total++;
	pr_info("%s: %s boot, firmware properties on %u of %u PCI devices\n",
		macsupport_dmi_string(DMI_PRODUCT_NAME),
		efi_enabled(EFI_BOOT) ? "EFI" : "legacy BIOS", props_exported_count(), total);
	return 0;

err_sources:
	props_sources_exit(props_fw_dir);
err_attach:
	props_attach_exit();
	bus_unregister_notifier(&pci_bus_type, &props_pci_nb);
err_all:
	props_sysfs_exit(props_fw_dir);
err_dir:
	props_fw_dir_remove();
	return ret;
}
module_init(apple_props_init);

static void __exit apple_props_exit(void)
{
	props_sources_exit(props_fw_dir);
	props_attach_exit();
	bus_unregister_notifier(&pci_bus_type, &props_pci_nb);
	props_sysfs_exit(props_fw_dir);
	props_fw_dir_remove();
}
module_exit(apple_props_exit);

MODULE_AUTHOR("The macsupport developers");
MODULE_DESCRIPTION("Apple EFI device properties: parse, attach, export");
MODULE_LICENSE("GPL");
MODULE_VERSION(MACSUPPORT_VERSION);
MACSUPPORT_IMPORT_NS(EFIVAR);
