// SPDX-License-Identifier: GPL-2.0
/*
 * mac_quirks - Mac firmware quirks applied after boot
 *
 * Copyright (C) 2026 The macsupport developers
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/acpi.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/pci.h>
#include <linux/platform_device.h>

#include "macsupport/apple_dmi.h"
#include "macsupport/mac_model.h"
#include "quirks.h"

/**
 * DOC: Overview
 *
 * Mac firmware has quirks that mainline handles only where they bite early
 * (arch/x86/kernel/early-quirks.c, drivers/pci/quirks.c); others are left
 * to users with kernel parameters such as acpi_mask_gpe=. This module
 * identifies the Mac from its DMI model identifier and goes through the
 * bundle's quirk table (src/lib/mac_quirks.c): it applies what a module can
 * apply after boot through exported interfaces (masking a GPE, turning off
 * a wake source, reserving a range), checks what the kernel should have
 * done, and records for every quirk what it decided and why.
 *
 * PCI fixup tables in a module never run, so quirks tied to a PCI device
 * are decided at load and again whenever a device of the table's IDs
 * appears or goes away (a PCI bus notifier).
 *
 * The decisions are in sysfs, read-only, one file per quirk under
 * /sys/devices/platform/mac_quirks/quirks/ (see
 * Documentation/ABI/testing/sysfs-devices-platform-mac_quirks). The
 * parameter disable= turns single quirks off by name. Unloading the module
 * undoes what it applied.
 */

MACSUPPORT_APPLE_DMI_TABLE(quirks_apple_dmi_table);
MODULE_DEVICE_TABLE(dmi, quirks_apple_dmi_table);

static char *disable;
module_param(disable, charp, 0444);
MODULE_PARM_DESC(disable, "Quirks not to apply, comma-separated names (e.g. gpe_storm,wake_sources)");

#define QUIRK_ALIAS_MAX	4

static char *test_pci_alias;
module_param(test_pci_alias, charp, 0444);
MODULE_PARM_DESC(test_pci_alias,
		 "TEST ONLY: vvvv:dddd=VVVV:DDDD,... treats devices vvvv:dddd as the table's VVVV:DDDD");

static struct {
	u16 vendor, device;		/* the device here */
	u16 as_vendor, as_device;	/* the table's IDs it stands in for */
} quirk_alias[QUIRK_ALIAS_MAX];
static unsigned int quirk_nr_alias;

static DEFINE_MUTEX(quirks_lock);	/* quirk_recs and every change to the machine */
static struct quirk_rec quirk_recs[MAC_QUIRK_COUNT];
static bool quirk_disabled[MAC_QUIRK_COUNT];
static struct platform_device *quirks_pdev;

/* --- the machine, as the quirk table's core asks for it ------------------ */

struct quirk_env_ctx {
	struct pci_dev *held;	/* the device the last pci_find() returned */
};

static bool quirk_pci_ok(struct pci_dev *pdev, unsigned int flags, unsigned int devfn)
{
	if ((flags & MAC_QUIRK_PCI_UPSTREAM_PORT) &&
	    (!pci_is_pcie(pdev) || pci_pcie_type(pdev) != PCI_EXP_TYPE_UPSTREAM))
		return false;
	if ((flags & MAC_QUIRK_PCI_DEVFN) &&
	    (pci_domain_nr(pdev->bus) || pdev->bus->number || pdev->devfn != devfn))
		return false;
	return true;
}

static struct pci_dev *quirk_pci_get(u16 vendor, u16 device, unsigned int flags,
				     unsigned int devfn)
{
	struct pci_dev *pdev = NULL;

	while ((pdev = pci_get_device(vendor, device, pdev)))
		if (quirk_pci_ok(pdev, flags, devfn))
			return pdev;
	return NULL;
}

static void *quirk_pci_find(void *ctx, u16 vendor, u16 device, unsigned int flags,
			    unsigned int devfn)
{
	struct quirk_env_ctx *c = ctx;
	struct pci_dev *pdev;
	unsigned int i;

	pdev = quirk_pci_get(vendor, device, flags, devfn);
	for (i = 0; !pdev && i < quirk_nr_alias; i++)
		if (quirk_alias[i].as_vendor == vendor && quirk_alias[i].as_device == device)
			pdev = quirk_pci_get(quirk_alias[i].vendor, quirk_alias[i].device, flags,
					     devfn);
	pci_dev_put(c->held);
	c->held = pdev;
	return pdev;
}

static bool quirk_acpi_exists(void *ctx, void *pci, const char *path)
{
	acpi_handle scope = NULL, handle;

	if (path[0] != '\\') {
		scope = pci ? ACPI_HANDLE(&((struct pci_dev *)pci)->dev) : NULL;
		if (!scope)
			return false;
	}
	return ACPI_SUCCESS(acpi_get_handle(scope, (char *)path, &handle));
}

static bool quirk_gpe_exists(void *ctx, unsigned int gpe)
{
	acpi_event_status st;

	return ACPI_SUCCESS(acpi_get_gpe_status(NULL, gpe, &st));
}

/* An ACPI device at @path with a valid _PRW: one the machine can wake from */
static bool quirk_acpi_can_wake(void *ctx, const char *path)
{
	struct acpi_device *adev = NULL;
	acpi_handle handle;
	bool can;

	if (ACPI_SUCCESS(acpi_get_handle(NULL, (char *)path, &handle)))
		adev = acpi_get_acpi_dev(handle);
	can = adev && adev->wakeup.flags.valid;
	acpi_dev_put(adev);
	return can;
}

/* Decide quirk @id again from scratch, undoing what an earlier decision did. */
static void quirk_update(enum mac_quirk_id id)
{
	struct quirk_rec *rec = &quirk_recs[id];
	struct quirk_env_ctx ctx = { };
	struct mac_quirk_env env = {
		.product = dmi_get_system_info(DMI_PRODUCT_NAME),
		.kernel = MACSUPPORT_KERNEL_VERSION,
		.pci_find = quirk_pci_find,
		.acpi_exists = quirk_acpi_exists,
		/* with acpi=off the actions say that ACPI is off */
		.gpe_exists = acpi_disabled ? NULL : quirk_gpe_exists,
		.acpi_can_wake = acpi_disabled ? NULL : quirk_acpi_can_wake,
		.ctx = &ctx,
	};
	struct mac_quirk_decision d;

	lockdep_assert_held(&quirks_lock);

	quirk_undo(rec);
	mac_quirk_decide(id, &env, quirk_disabled[id], &d);
	rec->row = d.row;
	rec->state = d.state;

	if (d.absent)
		quirk_absent(rec);
	else if (d.act)
		quirk_act(rec);
	else
		quirk_explain(rec, d.pci);
	pci_dev_put(ctx.held);

	/* not applicable, but the model's row matched: say what is missing */
	if (rec->state != MAC_QUIRK_NOT_APPLICABLE || rec->row)
		pr_info("%s: %s: %s\n", mac_quirk_name(id), mac_quirk_state_name(rec->state),
			rec->reason);
}

/* --- devices that appear and go away ---------------------------------------- */

/* Could a row of quirk @id match @pdev by its IDs (or a test alias)? */
static bool quirk_pci_relevant(enum mac_quirk_id id, struct pci_dev *pdev)
{
	const struct mac_quirk *q;
	size_t n, i;
	unsigned int a;

	q = mac_quirk_table(&n);
	for (i = 0; i < n; i++) {
		u16 v = q[i].match.pci_vendor, d = q[i].match.pci_device;

		if (q[i].id != id || !v)
			continue;
		if (pdev->vendor == v && pdev->device == d)
			return true;
		for (a = 0; a < quirk_nr_alias; a++)
			if (quirk_alias[a].as_vendor == v && quirk_alias[a].as_device == d &&
			    quirk_alias[a].vendor == pdev->vendor &&
			    quirk_alias[a].device == pdev->device)
				return true;
	}
	return false;
}

static int quirks_pci_notify(struct notifier_block *nb, unsigned long action, void *data)
{
	struct quirk_rec *wake = &quirk_recs[MAC_QUIRK_WAKE_SOURCES];
	struct device *dev = data;
	int ret = NOTIFY_DONE;
	unsigned int id;

	mutex_lock(&quirks_lock);
	switch (action) {
	case BUS_NOTIFY_DEL_DEVICE:
		/* before device_del() drops its wake-up source: never restore it */
		quirk_wake_forget(wake, dev);
		break;
	case BUS_NOTIFY_BOUND_DRIVER:
		/*
		 * A driver binding a wake device (xhci_hcd) turns its wake-up
		 * on again. Only PCI ones are seen: button.ko binding LID0 on
		 * the ACPI bus is not (acpi_bus_type is not exported, so no
		 * notifier), and its reload re-enables LID0's wake-up.
		 */
		if (quirk_wake_holds(wake, dev)) {
			quirk_update(MAC_QUIRK_WAKE_SOURCES);
			ret = NOTIFY_OK;
		}
		break;
	case BUS_NOTIFY_ADD_DEVICE:
	case BUS_NOTIFY_REMOVED_DEVICE:
		/* after removal the device is off the bus lists: pci_get_device() misses it */
		for (id = 0; id < MAC_QUIRK_COUNT; id++) {
			if (quirk_pci_relevant(id, to_pci_dev(dev))) {
				quirk_update(id);
				ret = NOTIFY_OK;
			}
		}
		break;
	}
	mutex_unlock(&quirks_lock);
	return ret;
}

static struct notifier_block quirks_pci_nb = {
	.notifier_call = quirks_pci_notify,
};

/* --- sysfs ------------------------------------------------------------------ */

static ssize_t quirk_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	unsigned int id = (uintptr_t)container_of(attr, struct dev_ext_attribute, attr)->var;
	ssize_t n;

	mutex_lock(&quirks_lock);
	n = sysfs_emit(buf, "%s: %s\n", mac_quirk_state_name(quirk_recs[id].state),
		       quirk_recs[id].reason);
	mutex_unlock(&quirks_lock);
	return n;
}

#define QUIRK_ATTR(_id, _name)						\
	static struct dev_ext_attribute quirk_attr_##_name = {		\
		.attr = __ATTR(_name, 0444, quirk_show, NULL),		\
		.var = (void *)(uintptr_t)(_id),			\
	}

QUIRK_ATTR(MAC_QUIRK_GPE_STORM, gpe_storm);
QUIRK_ATTR(MAC_QUIRK_WAKE_SOURCES, wake_sources);
QUIRK_ATTR(MAC_QUIRK_MBP_POWEROFF_WINDOW, mbp_poweroff_window);
QUIRK_ATTR(MAC_QUIRK_BCM4331_RESET, bcm4331_reset);
QUIRK_ATTR(MAC_QUIRK_APPLE_NVME, apple_nvme);
QUIRK_ATTR(MAC_QUIRK_TB_CR_S2IDLE, tb_cactus_ridge_s2idle);
QUIRK_ATTR(MAC_QUIRK_OSI_DARWIN, osi_darwin);
QUIRK_ATTR(MAC_QUIRK_UEFI_SKIP_CERT, uefi_skip_cert);
QUIRK_ATTR(MAC_QUIRK_TB_AR_S3, tb_alpine_ridge_s3);

static struct attribute *quirk_attrs[] = {
	&quirk_attr_gpe_storm.attr.attr,
	&quirk_attr_wake_sources.attr.attr,
	&quirk_attr_mbp_poweroff_window.attr.attr,
	&quirk_attr_bcm4331_reset.attr.attr,
	&quirk_attr_apple_nvme.attr.attr,
	&quirk_attr_tb_cactus_ridge_s2idle.attr.attr,
	&quirk_attr_osi_darwin.attr.attr,
	&quirk_attr_uefi_skip_cert.attr.attr,
	&quirk_attr_tb_alpine_ridge_s3.attr.attr,
	NULL
};

static const struct attribute_group quirk_group = {
	.name = "quirks",
	.attrs = quirk_attrs,
};

static const struct attribute_group *quirk_groups[] = { &quirk_group, NULL };

/* --- parameters --------------------------------------------------------------- */

static void quirks_parse_disable(void)
{
	const char *p = disable;

	while (p && *p) {
		size_t len = strcspn(p, ",");
		enum mac_quirk_id id = mac_quirk_by_name(p, len);

		if (id < MAC_QUIRK_COUNT)
			quirk_disabled[id] = true;
		else if (len)
			pr_warn("disable=: no quirk is called \"%.*s\"; ignoring it\n",
				(int)len, p);
		p += len;
		if (*p)
			p++;
	}
}

static int quirks_parse_alias(void)
{
	const char *p = test_pci_alias;

	while (p && *p) {
		unsigned int v, d, av, ad;
		size_t len = strcspn(p, ",");
		int used;

		if (quirk_nr_alias == QUIRK_ALIAS_MAX ||
		    sscanf(p, "%4x:%4x=%4x:%4x%n", &v, &d, &av, &ad, &used) != 4 || used != len) {
			pr_err("test_pci_alias=: cannot use \"%.*s\" (vvvv:dddd=VVVV:DDDD, at most %d)\n",
			       (int)len, p, QUIRK_ALIAS_MAX);
			return -EINVAL;
		}
		quirk_alias[quirk_nr_alias].vendor = v;
		quirk_alias[quirk_nr_alias].device = d;
		quirk_alias[quirk_nr_alias].as_vendor = av;
		quirk_alias[quirk_nr_alias].as_device = ad;
		quirk_nr_alias++;
		p += len;
		if (*p)
			p++;
	}
	if (quirk_nr_alias)
		pr_warn("TEST ONLY: test_pci_alias=%s: devices stand in for Apple parts\n",
			test_pci_alias);
	return 0;
}

/* --- module ---------------------------------------------------------------- */

static void quirks_say_model(void)
{
	const char *product = macsupport_dmi_string(DMI_PRODUCT_NAME);
	const struct mac_model_info *model = NULL;
	struct mac_model_id id;

	if (!mac_model_parse(product, &id))
		model = mac_model_lookup(&id);
	if (!model) {
		pr_info("%s (board %s): unknown model, not in the model table; quirks tied to a model do not apply\n",
			product, macsupport_dmi_string(DMI_BOARD_NAME));
		return;
	}
	pr_info("%s, %s (board %s): gmux %s, Thunderbolt %s x%u\n", product, model->desc,
		macsupport_dmi_string(DMI_BOARD_NAME), mac_gmux_kind_name(model->gmux),
		mac_tb_gen_name(model->tb), model->tb_count);
}

static void quirks_undo_all(void)
{
	unsigned int id;

	mutex_lock(&quirks_lock);
	for (id = 0; id < MAC_QUIRK_COUNT; id++)
		quirk_undo(&quirk_recs[id]);
	mutex_unlock(&quirks_lock);
}

static int __init mac_quirks_init(void)
{
	unsigned int id, applied = 0;
	int ret;

	if (!macsupport_require_apple(quirks_apple_dmi_table))
		return -ENODEV;

	ret = quirks_parse_alias();
	if (ret)
		return ret;
	quirks_parse_disable();
	quirks_say_model();

	/* Devices added from here on are seen by the notifier, the others by the walk */
	ret = bus_register_notifier(&pci_bus_type, &quirks_pci_nb);
	if (ret)
		return ret;

	mutex_lock(&quirks_lock);
	for (id = 0; id < MAC_QUIRK_COUNT; id++) {
		quirk_update(id);
		applied += quirk_recs[id].state == MAC_QUIRK_APPLIED;
	}
	mutex_unlock(&quirks_lock);

	quirks_pdev = platform_device_alloc(KBUILD_MODNAME, PLATFORM_DEVID_NONE);
	if (!quirks_pdev) {
		ret = -ENOMEM;
		goto err_undo;
	}
	quirks_pdev->dev.groups = quirk_groups;
	ret = platform_device_add(quirks_pdev);
	if (ret) {
		platform_device_put(quirks_pdev);
		goto err_undo;
	}

	pr_info("%u of %u quirks applied; decisions in /sys/devices/platform/%s/quirks/\n",
		applied, MAC_QUIRK_COUNT, KBUILD_MODNAME);
	return 0;

err_undo:
	bus_unregister_notifier(&pci_bus_type, &quirks_pci_nb);
	quirks_undo_all();
	return ret;
}
module_init(mac_quirks_init);

static void __exit mac_quirks_exit(void)
{
	platform_device_unregister(quirks_pdev);
	bus_unregister_notifier(&pci_bus_type, &quirks_pci_nb);
	quirks_undo_all();
}
module_exit(mac_quirks_exit);

MODULE_AUTHOR("The macsupport developers");
MODULE_DESCRIPTION("Apple Mac firmware quirks applied after boot");
MODULE_LICENSE("GPL");
MODULE_VERSION(MACSUPPORT_VERSION);
