// SPDX-License-Identifier: GPL-2.0
/*
 * apple_props - the properties in sysfs
 *
 * Copyright (C) 2026 The macsupport developers
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kobject.h>
#include <linux/list.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/pci.h>
#include <linux/property.h>
#include <linux/slab.h>
#include <linux/sysfs.h>

#include "props.h"

/**
 * DOC: sysfs
 *
 * Every PCI device that carries Apple firmware properties, whether the
 * kernel's built-in parser attached them at boot or this module did,
 * shows them read-only, one file per property with the raw value:
 *
 *   /sys/bus/pci/devices/<device>/apple_properties/<key>
 *
 * A boolean property is an empty file. /sys/firmware/apple_properties/all
 * lists every property of every device as text, one per line:
 * "<device> <key> <value in lowercase hex>". The ABI is documented in
 * Documentation/ABI/testing/sysfs-bus-pci-apple-properties.
 */

/**
 * struct props_export - the apple_properties directory of one device
 * @list: in props_exports
 * @dev: the device (a reference is held)
 * @dir: its apple_properties directory
 * @props: the software node's properties, terminated by an empty entry
 * @count: number of files created
 * @attrs: one file per property
 */
struct props_export {
	struct list_head list;
	struct device *dev;
	struct kobject *dir;
	const struct property_entry *props;
	unsigned int count;
	struct bin_attribute attrs[];
};

static LIST_HEAD(props_exports);
static DEFINE_MUTEX(props_lock);
static struct kobject *props_fw_dir;

static const void *props_value(const struct property_entry *p)
{
	return p->is_inline ? (const void *)&p->value : p->pointer;
}

/**
 * props_swnode() - the software node that holds a device's firmware properties
 * @dev: the device
 *
 * Return: the device's software node, primary or secondary, or NULL.
 */
const struct software_node *props_swnode(struct device *dev)
{
	struct fwnode_handle *fwnode = dev_fwnode(dev);

	if (!fwnode)
		return NULL;
	if (is_software_node(fwnode))
		return to_software_node(fwnode);
	if (!IS_ERR_OR_NULL(fwnode->secondary) && is_software_node(fwnode->secondary))
		return to_software_node(fwnode->secondary);
	return NULL;
}

static ssize_t props_attr_read(struct file *file, struct kobject *kobj,
			       struct bin_attribute *attr, char *buf, loff_t off, size_t count)
{
	const struct property_entry *p = attr->private;

	return memory_read_from_buffer(buf, count, &off, props_value(p), p->length);
}

static struct props_export *props_find(struct device *dev)
{
	struct props_export *e;

	list_for_each_entry(e, &props_exports, list)
		if (e->dev == dev)
			return e;
	return NULL;
}

static void props_export_free(struct props_export *e)
{
	unsigned int i;

	for (i = 0; i < e->count; i++)
		sysfs_remove_bin_file(e->dir, &e->attrs[i]);
	kobject_put(e->dir);
	put_device(e->dev);
	kfree(e);
}

/**
 * props_export_device() - show a device's firmware properties in sysfs
 * @dev: the device
 *
 * Does nothing for a device without a software node or already shown.
 *
 * Return: 0, or a negative errno.
 */
int props_export_device(struct device *dev)
{
	const struct software_node *swnode = props_swnode(dev);
	const struct property_entry *p;
	struct props_export *e;
	unsigned int n = 0;
	int ret = 0;

	if (!swnode || !swnode->properties || !swnode->properties[0].name)
		return 0;
	for (p = swnode->properties; p->name; p++)
		n++;

	mutex_lock(&props_lock);
	if (props_find(dev))
		goto out;
	e = kzalloc(struct_size(e, attrs, n), GFP_KERNEL);
	if (!e) {
		ret = -ENOMEM;
		goto out;
	}
	e->dir = kobject_create_and_add("apple_properties", &dev->kobj);
	if (!e->dir) {
		kfree(e);
		ret = -ENOMEM;
		goto out;
	}
	e->dev = get_device(dev);
	e->props = swnode->properties;
	for (p = swnode->properties; p->name; p++) {
		struct bin_attribute *attr = &e->attrs[e->count];

		sysfs_bin_attr_init(attr);
		attr->attr.name = p->name;
		attr->attr.mode = 0444;
		attr->size = p->length;
		attr->read = props_attr_read;
		attr->private = (void *)p;
		if (strchr(p->name, '/') || sysfs_create_bin_file(e->dir, attr)) {
			dev_warn(dev, "cannot show Apple property \"%s\" in sysfs\n", p->name);
			continue;
		}
		e->count++;
	}
	list_add_tail(&e->list, &props_exports);
out:
	mutex_unlock(&props_lock);
	return ret;
}

/**
 * props_unexport_device() - remove a device's apple_properties directory
 * @dev: the device
 */
void props_unexport_device(struct device *dev)
{
	struct props_export *e;

	mutex_lock(&props_lock);
	e = props_find(dev);
	if (e)
		list_del(&e->list);
	mutex_unlock(&props_lock);
	if (e)
		props_export_free(e);
}

/* Length of the "all" listing; props_lock held. */
static size_t props_all_len(void)
{
	const struct property_entry *p;
	struct props_export *e;
	size_t len = 0;

	list_for_each_entry(e, &props_exports, list)
		for (p = e->props; p->name; p++)
			len += strlen(dev_name(e->dev)) + strlen(p->name) + 2 * p->length + 3;
	return len;
}

/* "<device> <key> <hex>\n" for every property, props_all_len() bytes; props_lock held */
static void props_all_format(char *buf)
{
	const struct property_entry *p;
	struct props_export *e;

	list_for_each_entry(e, &props_exports, list) {
		for (p = e->props; p->name; p++) {
			buf += sprintf(buf, "%s %s ", dev_name(e->dev), p->name);
			buf = bin2hex(buf, props_value(p), p->length);
			*buf++ = '\n';
		}
	}
}

static ssize_t props_all_read(struct file *file, struct kobject *kobj,
			      struct bin_attribute *attr, char *ubuf, loff_t off, size_t count)
{
	size_t size;
	ssize_t ret;
	char *buf;

	mutex_lock(&props_lock);
	size = props_all_len();
	buf = kvmalloc(size + 1, GFP_KERNEL);
	if (!buf) {
		mutex_unlock(&props_lock);
		return -ENOMEM;
	}
	props_all_format(buf);
	mutex_unlock(&props_lock);
	ret = memory_read_from_buffer(ubuf, count, &off, buf, size);
	kvfree(buf);
	return ret;
}

static BIN_ATTR(all, 0444, props_all_read, NULL, 0);

static void props_sysfs_exit_exports(void)
{
	struct props_export *e, *tmp;

	list_for_each_entry_safe(e, tmp, &props_exports, list) {
		list_del(&e->list);
		props_export_free(e);
	}
}

static int props_pci_notify(struct notifier_block *nb, unsigned long action, void *data)
{
	struct device *dev = data;

	switch (action) {
	case BUS_NOTIFY_ADD_DEVICE:
		/* before a driver binds: the properties are there for its probe */
		props_attach_new_device(dev);
		props_export_device(dev);
		break;
	case BUS_NOTIFY_DEL_DEVICE:
		props_unexport_device(dev);
		props_attach_device_removed(dev);
		break;
	}
	return NOTIFY_DONE;
}

static struct notifier_block props_pci_nb = {
	.notifier_call = props_pci_notify,
};

/**
 * props_sysfs_init() - show every PCI device's properties, now and later
 *
 * Return: 0 or a negative errno.
 */
int props_sysfs_init(void)
{
	struct pci_dev *pdev = NULL;
	int ret;

	props_fw_dir = kobject_create_and_add("apple_properties", firmware_kobj);
	if (!props_fw_dir)
		return -ENOMEM;
	ret = sysfs_create_bin_file(props_fw_dir, &bin_attr_all);
	if (ret)
		goto err_dir;
	ret = bus_register_notifier(&pci_bus_type, &props_pci_nb);
	if (ret)
		goto err_file;
	for_each_pci_dev(pdev)
		props_export_device(&pdev->dev);
	ret = props_sources_init(props_fw_dir);
	if (!ret && props_test_fail_at && !strcmp(props_test_fail_at, "sources")) {
		props_sources_exit(props_fw_dir);
		ret = -ENOMEM;
	}
	if (ret)
		goto err_notifier;
	return 0;

err_notifier:
	bus_unregister_notifier(&pci_bus_type, &props_pci_nb);
	props_sysfs_exit_exports();
err_file:
	sysfs_remove_bin_file(props_fw_dir, &bin_attr_all);
err_dir:
	kobject_put(props_fw_dir);
	return ret;
}

/**
 * props_sysfs_exit() - remove every file props_sysfs_init() created
 */
void props_sysfs_exit(void)
{
	props_sources_exit(props_fw_dir);
	bus_unregister_notifier(&pci_bus_type, &props_pci_nb);
	props_attach_exit();
	props_sysfs_exit_exports();
	sysfs_remove_bin_file(props_fw_dir, &bin_attr_all);
	kobject_put(props_fw_dir);
}

/**
 * props_exported_count() - how many devices show properties
 *
 * Return: the number of devices with an apple_properties directory.
 */
unsigned int props_exported_count(void)
{
	struct props_export *e;
	unsigned int n = 0;

	mutex_lock(&props_lock);
	list_for_each_entry(e, &props_exports, list)
		n++;
	mutex_unlock(&props_lock);
	return n;
}
