// SPDX-License-Identifier: GPL-2.0
/*
 * apple_props - where blobs come from
 *
 * Copyright (C) 2026 The macsupport developers
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/capability.h>
#include <linux/efi.h>
#include <linux/firmware.h>
#include <linux/kobject.h>
#include <linux/mm.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/security.h>
#include <linux/slab.h>
#include <linux/sysfs.h>

#include "macsupport/apple_props.h"
#include "props.h"

/**
 * DOC: Sources
 *
 * Besides what the firmware handed the kernel at boot (attached by the
 * built-in parser), apple_props takes blobs, in the format of Apple's
 * protocol and of gfxutil's "bin" files, from:
 *
 * - the firmware's persisted copy in NVRAM, the variables
 *   AAPL,PathProperties0000, 0001, ... of Apple's vendor GUID, whose
 *   contents form one blob, read at load;
 * - a firmware file, read at load, only when the user names one with the
 *   module parameter firmware_file, e.g. firmware_file=apple/properties.bin
 *   for /lib/firmware/apple/properties.bin (a path the firmware loader
 *   resolves, as for any driver's firmware). Empty, the default: no file is
 *   requested at all, so a Mac without one logs no missing firmware. A file
 *   that was named but cannot be read is reported in one line, with the
 *   error, and nothing is taken from it;
 * - root, through /sys/firmware/apple_properties/load: write a whole blob
 *   (in one or several writes from offset 0); it is taken once the length
 *   its header declares has arrived, and the write fails with the reason
 *   otherwise: EINVAL for a malformed blob, EOPNOTSUPP for a version other
 *   than 1, EFBIG beyond 512 KiB, ENOMEM.
 *
 * Device properties steer drivers (thunderbolt.ko parses ThunderboltDROM,
 * GPU drivers read their configuration): like ACPI table injection, the
 * load file needs CAP_SYS_ADMIN (of whoever opened it) and is refused
 * under kernel lockdown (integrity and confidentiality), and the NVRAM
 * copy and the firmware file, which root can plant, are not taken at all
 * under lockdown. The lockdown reason is LOCKDOWN_DEVICE_TREE, "modifying
 * device tree contents": device properties are what a device tree supplies
 * elsewhere, and the kernel names that in its message.
 *
 * This file calls props_attach.c only.
 */

/* What loading a blob does to the kernel, for security_locked_down() */
#define PROPS_LOCKDOWN_REASON	LOCKDOWN_DEVICE_TREE

/* The firmware file the user named; NULL or empty: none is requested. */
static char *firmware_file;
module_param(firmware_file, charp, 0444);
MODULE_PARM_DESC(firmware_file,
		 "Blob of device properties to take at load, under /lib/firmware (e.g. apple/properties.bin); default: none");

#define PROPS_NVRAM_SOURCE	"NVRAM AAPL,PathProperties"
#define PROPS_NVRAM_MAX_VARS	256

static efi_guid_t props_apple_nvram_guid =
	EFI_GUID(0x7c436110, 0xab2a, 0x4bbb, 0xa8, 0x80, 0xfe, 0x41, 0x99, 0x5c, 0x9f, 0x82);

static DEFINE_MUTEX(props_load_lock);
static u8 *props_load_buf;
static size_t props_load_len;

static ssize_t props_load_write(struct file *file, struct kobject *kobj,
				struct bin_attribute *attr, char *buf, loff_t off, size_t count)
{
	u32 want;
	int ret;

	/* The opener's capability, so that a passed descriptor does not escalate. */
	if (!file_ns_capable(file, &init_user_ns, CAP_SYS_ADMIN))
		return -EPERM;
	ret = security_locked_down(PROPS_LOCKDOWN_REASON);
	if (ret)
		return ret;
	if (off + count > APPLE_PROPS_MAX_LEN)
		return -EFBIG;

	mutex_lock(&props_load_lock);
	if (off == 0) {
		kvfree(props_load_buf);
		props_load_len = 0;
		props_load_buf = kvmalloc(APPLE_PROPS_MAX_LEN, GFP_KERNEL);
		if (!props_load_buf) {
			ret = -ENOMEM;
			goto out;
		}
	}
	/* a write that does not continue the blob being written */
	if (!props_load_buf || off != props_load_len) {
		ret = -EINVAL;
		goto out;
	}
	memcpy(props_load_buf + off, buf, count);
	props_load_len += count;
	ret = count;
	if (props_load_len < APPLE_PROPS_HDR_LEN)
		goto out;

	want = get_unaligned_le32(props_load_buf);
	if (want < APPLE_PROPS_HDR_LEN || want > APPLE_PROPS_MAX_LEN || props_load_len > want) {
		pr_err("sysfs: rejected: header length %u, %zu bytes written; nothing attached\n",
		       want, props_load_len);
		ret = -EINVAL;
	} else if (props_load_len == want) {
		ret = props_load_blob(props_load_buf, want, "sysfs") ?: count;
	} else {
		goto out;
	}
	kvfree(props_load_buf);
	props_load_buf = NULL;
	props_load_len = 0;
out:
	mutex_unlock(&props_load_lock);
	return ret;
}

static BIN_ATTR(load, 0200, NULL, props_load_write, 0);

/* The NVRAM copy: AAPL,PathProperties%04X, concatenated, until one is missing. */
static void props_load_nvram(void)
{
	efi_char16_t name[32];
	char ascii[32];
	unsigned long size;
	unsigned int i, j;
	efi_status_t st = EFI_SUCCESS;
	size_t len = 0;
	u32 attr;
	u8 *buf;

	if (!efi_rt_services_supported(EFI_RT_SUPPORTED_GET_VARIABLE))
		return;
	buf = kvmalloc(APPLE_PROPS_MAX_LEN, GFP_KERNEL);
	if (!buf)
		return;
	if (efivar_lock())
		goto out;
	for (i = 0; i < PROPS_NVRAM_MAX_VARS; i++) {
		snprintf(ascii, sizeof(ascii), "AAPL,PathProperties%04X", i);
		for (j = 0; j < sizeof(ascii) && (j == 0 || ascii[j - 1]); j++)
			name[j] = ascii[j];
		size = APPLE_PROPS_MAX_LEN - len;
		st = efivar_get_variable(name, &props_apple_nvram_guid, &attr, &size, buf + len);
		if (st != EFI_SUCCESS)
			break;
		len += size;
	}
	efivar_unlock();
	if (st != EFI_SUCCESS && st != EFI_NOT_FOUND)
		pr_err(PROPS_NVRAM_SOURCE "%04X: cannot read it (EFI status 0x%lx); NVRAM copy ignored\n",
		       i, st);
	else if (len)
		props_load_blob(buf, len, PROPS_NVRAM_SOURCE);
out:
	kvfree(buf);
}

/* The file the user named with firmware_file=. */
static void props_load_firmware_file(const char *name)
{
	/* The log's name for the source, kept with what it attaches. */
	static char source[96];
	const struct firmware *fw;
	int ret;

	ret = firmware_request_nowarn(&fw, name, NULL);
	if (ret) {
		pr_err("firmware file %s (firmware_file=): cannot read it (error %d); nothing taken\n",
		       name, ret);
		return;
	}
	snprintf(source, sizeof(source), "firmware %s", name);
	props_load_blob(fw->data, fw->size, source);
	release_firmware(fw);
}

/**
 * props_sources_init() - take the blobs that are there at load, then open
 * the load file
 * @dir: /sys/firmware/apple_properties
 *
 * What it attached stays attached when it fails; props_attach_exit()
 * takes it back.
 *
 * Return: 0 or a negative errno.
 */
int props_sources_init(struct kobject *dir)
{
	bool file = firmware_file && *firmware_file;

	if (security_locked_down(PROPS_LOCKDOWN_REASON)) {
		pr_notice("kernel locked down: NVRAM copy%s%s not taken\n",
			  file ? " and firmware file " : "", file ? firmware_file : "");
	} else {
		props_load_nvram();
		if (file)
			props_load_firmware_file(firmware_file);
	}
	return sysfs_create_bin_file(dir, &bin_attr_load);
}

/**
 * props_sources_exit() - remove the load file
 * @dir: /sys/firmware/apple_properties
 */
void props_sources_exit(struct kobject *dir)
{
	sysfs_remove_bin_file(dir, &bin_attr_load);
	mutex_lock(&props_load_lock);
	kvfree(props_load_buf);
	props_load_buf = NULL;
	props_load_len = 0;
	mutex_unlock(&props_load_lock);
}
