// SPDX-License-Identifier: GPL-2.0
/*
 * apple_gmux_ng - boot-GPU preference (the gpu-power-prefs EFI variable)
 *
 * Copyright (C) 2026 The macsupport developers
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/capability.h>
#include <linux/device.h>
#include <linux/efi.h>
#include <linux/security.h>
#include <linux/string.h>
#include <linux/sysfs.h>

#include "gmux.h"

/**
 * DOC: Boot-GPU preference
 *
 * The firmware of dual-GPU MacBook Pros picks the GPU that drives the panel
 * at power-on from the non-volatile EFI variable
 * gpu-power-prefs-fa4ce28d-b62f-4c99-9cc3-6815686e30f9: four bytes, a
 * little-endian 1 for the integrated GPU, 0 for the discrete one, with the
 * attributes non-volatile, boot-service and runtime access (0x7), as macOS
 * and the gpu-switch script write it. A change takes effect at the next
 * boot; macOS may reset it. (The classic gmux's firmware, MacBookPro8,2,
 * checks GfxMode of Apple's NVRAM GUID first; this driver leaves that
 * alone.)
 *
 * The attribute boot_gpu of the gmux device reads it and writes it through
 * the kernel's efivar API:
 *
 * - reading shows "integrated", "discrete", "unset" (no variable: the
 *   firmware chooses) or "unknown" (a value of another size or number);
 * - writing "integrated" (or "1") or "discrete" (or "0") sets it, "unset"
 *   deletes it; a value the variable already holds is not written again
 *   (no NVRAM wear). Anything else is refused with EINVAL and changes
 *   nothing.
 *
 * Writing needs CAP_SYS_ADMIN and is refused under kernel lockdown
 * (integrity and confidentiality): root must not be able to steer the
 * firmware through a variable that the lockdown policy's only EFI
 * variable reason, LOCKDOWN_EFI_TEST ("/dev/efi_test access", direct
 * runtime-service calls from userspace), covers. Reading is always
 * allowed. The attribute exists only when the firmware offers runtime
 * variable services, and is read-only when it cannot write them.
 *
 * efivarfs lists variables when it is mounted: one created or deleted here
 * shows up there after a remount, while a file that is there reads the
 * current value.
 */

/* The lockdown reason that covers userspace steering EFI variables. */
#define GMUX_PREFS_LOCKDOWN_REASON	LOCKDOWN_EFI_TEST

#define GMUX_PREFS_ATTRS	(EFI_VARIABLE_NON_VOLATILE | \
				 EFI_VARIABLE_BOOTSERVICE_ACCESS | \
				 EFI_VARIABLE_RUNTIME_ACCESS)
#define GMUX_PREFS_LEN		4

/* What the variable says, and what a write asks for. */
enum gmux_boot_gpu {
	GMUX_BOOT_GPU_DISCRETE,		/* value 0 */
	GMUX_BOOT_GPU_INTEGRATED,	/* value 1 */
	GMUX_BOOT_GPU_UNSET,		/* no variable */
	GMUX_BOOT_GPU_UNKNOWN,		/* another size or value */
};

static const char * const gmux_boot_gpu_names[] = {
	[GMUX_BOOT_GPU_DISCRETE]	= "discrete",
	[GMUX_BOOT_GPU_INTEGRATED]	= "integrated",
	[GMUX_BOOT_GPU_UNSET]		= "unset",
	[GMUX_BOOT_GPU_UNKNOWN]		= "unknown",
};

static efi_guid_t gmux_prefs_guid =
	EFI_GUID(0xfa4ce28d, 0xb62f, 0x4c99, 0x9c, 0xc3, 0x68, 0x15, 0x68, 0x6e, 0x30, 0xf9);

static efi_char16_t gmux_prefs_name[] = {
	'g', 'p', 'u', '-', 'p', 'o', 'w', 'e', 'r', '-', 'p', 'r', 'e', 'f', 's', 0
};

/* Read the variable; the efivar lock is held. Returns 0 or a negative errno. */
static int gmux_prefs_get_locked(enum gmux_boot_gpu *gpu)
{
	u8 data[GMUX_PREFS_LEN + 1];
	unsigned long size = sizeof(data);
	efi_status_t st;
	u32 attr, val;

	st = efivar_get_variable(gmux_prefs_name, &gmux_prefs_guid, &attr, &size, data);
	if (st == EFI_NOT_FOUND) {
		*gpu = GMUX_BOOT_GPU_UNSET;
		return 0;
	}
	if (st == EFI_BUFFER_TOO_SMALL) {
		*gpu = GMUX_BOOT_GPU_UNKNOWN;
		return 0;
	}
	if (st != EFI_SUCCESS)
		return efi_status_to_err(st);
	if (size != GMUX_PREFS_LEN) {
		*gpu = GMUX_BOOT_GPU_UNKNOWN;
		return 0;
	}
	val = get_unaligned_le32(data);
	if (val == 0)
		*gpu = GMUX_BOOT_GPU_DISCRETE;
	else if (val == 1)
		*gpu = GMUX_BOOT_GPU_INTEGRATED;
	else
		*gpu = GMUX_BOOT_GPU_UNKNOWN;
	return 0;
}

static ssize_t boot_gpu_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	enum gmux_boot_gpu gpu;
	int ret;

	ret = efivar_lock();
	if (ret)
		return ret;
	ret = gmux_prefs_get_locked(&gpu);
	efivar_unlock();
	if (ret) {
		dev_err_ratelimited(dev, "cannot read gpu-power-prefs: %d\n", ret);
		return ret;
	}
	return sysfs_emit(buf, "%s\n", gmux_boot_gpu_names[gpu]);
}

/* "integrated", "1", "discrete", "0", "unset", with or without a newline */
static int gmux_prefs_parse(const char *buf, enum gmux_boot_gpu *gpu)
{
	if (sysfs_streq(buf, "integrated") || sysfs_streq(buf, "1"))
		*gpu = GMUX_BOOT_GPU_INTEGRATED;
	else if (sysfs_streq(buf, "discrete") || sysfs_streq(buf, "0"))
		*gpu = GMUX_BOOT_GPU_DISCRETE;
	else if (sysfs_streq(buf, "unset"))
		*gpu = GMUX_BOOT_GPU_UNSET;
	else
		return -EINVAL;
	return 0;
}

static ssize_t boot_gpu_store(struct device *dev, struct device_attribute *attr,
			      const char *buf, size_t count)
{
	enum gmux_boot_gpu want, now;
	u8 data[GMUX_PREFS_LEN];
	efi_status_t st;
	int ret;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	ret = security_locked_down(GMUX_PREFS_LOCKDOWN_REASON);
	if (ret)
		return ret;
	if (gmux_prefs_parse(buf, &want))
		return -EINVAL;

	ret = efivar_lock();
	if (ret)
		return ret;
	ret = gmux_prefs_get_locked(&now);
	if (ret || now == want)
		goto out;
	if (want == GMUX_BOOT_GPU_UNSET) {
		/* no data and no attributes: deleted, whatever its attributes */
		st = efivar_set_variable_locked(gmux_prefs_name, &gmux_prefs_guid,
						0, 0, NULL, false);
	} else {
		put_unaligned_le32(want == GMUX_BOOT_GPU_INTEGRATED ? 1 : 0, data);
		st = efivar_set_variable_locked(gmux_prefs_name, &gmux_prefs_guid,
						GMUX_PREFS_ATTRS, sizeof(data), data, false);
	}
	if (st != EFI_SUCCESS)
		ret = efi_status_to_err(st);
out:
	efivar_unlock();
	if (ret) {
		dev_err(dev, "cannot set gpu-power-prefs to %s: %d\n",
			gmux_boot_gpu_names[want], ret);
		return ret;
	}
	if (now != want)
		dev_info(dev, "next boot's GPU: %s (was %s)\n", gmux_boot_gpu_names[want],
			 gmux_boot_gpu_names[now]);
	return count;
}
static DEVICE_ATTR_RW(boot_gpu);

static struct attribute *gmux_prefs_attrs[] = {
	&dev_attr_boot_gpu.attr,
	NULL
};

/*
 * Only where the firmware's variable services run and the kernel registered
 * them (efivars); read-only without SetVariable.
 */
static umode_t gmux_prefs_visible(struct kobject *kobj, struct attribute *attr, int n)
{
	/* efivar_lock() dereferences the registered efivars: none, no file */
	if (!efi_rt_services_supported(EFI_RT_SUPPORTED_GET_VARIABLE) ||
	    !macsupport_efivars_registered())
		return 0;
	if (!efivar_supports_writes())
		return 0444;
	return attr->mode;
}

static const struct attribute_group gmux_prefs_group = {
	.attrs		= gmux_prefs_attrs,
	.is_visible	= gmux_prefs_visible,
};

/* The driver's device attribute groups (struct device_driver.dev_groups). */
const struct attribute_group *gmux_prefs_groups[] = {
	&gmux_prefs_group,
	NULL
};

MACSUPPORT_IMPORT_NS(EFIVAR);
