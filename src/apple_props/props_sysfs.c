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
#include <linux/property.h>
#include <linux/slab.h>
#include <linux/string.h>
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
 * "<device> <key> <value in lowercase hex>". A property whose value
 * identifies the machine or one of its parts is readable by root only, as
 * DMI's serial numbers are: ThunderboltDROM (it holds the controller's
 * UID) and every key containing "serial", "uuid" or "mac-address" (in any
 * case); the others are world-readable. "all" holds them all and is
 * root's only, as /sys/firmware/dmi/tables/DMI is. The ABI is documented
 * in Documentation/ABI/testing/sysfs-bus-pci-apple-properties and
 * sysfs-firmware-apple_properties.
 *
 * This file calls nothing else of the module. A device's directory is an
 * attribute group on the device (no kobject of its own). It points into
 * the properties of the device's software node, so it holds a reference
 * on the node, and one on the device, until it is removed.
 */

/**
 * struct props_export - the apple_properties directory of one device
 * @list: in props_exports
 * @dev: the device (a reference is held)
 * @fwnode: its software node (a reference is held: the files point into it)
 * @props: the node's properties, terminated by an empty entry
 * @group: the directory
 * @ptrs: @group's files, NULL-terminated
 * @attrs: one file per property that can be a file name
 */
struct props_export {
	struct list_head list;
	struct device *dev;
	struct fwnode_handle *fwnode;
	const struct property_entry *props;
	struct attribute_group group;
	struct bin_attribute **ptrs;
	struct bin_attribute attrs[];
};

static LIST_HEAD(props_exports);
static DEFINE_MUTEX(props_lock);	/* props_exports */

/**
 * props_value() - where a property's value is
 * @p: the property
 *
 * Return: its value, inline or pointed to.
 */
const void *props_value(const struct property_entry *p)
{
	return p->is_inline ? (const void *)&p->value : p->pointer;
}

/* The device's software node, primary or secondary, or NULL. */
static struct fwnode_handle *props_swnode_fwnode(struct device *dev)
{
	struct fwnode_handle *fwnode = dev_fwnode(dev);

	if (!fwnode)
		return NULL;
	if (is_software_node(fwnode))
		return fwnode;
	if (!IS_ERR_OR_NULL(fwnode->secondary) && is_software_node(fwnode->secondary))
		return fwnode->secondary;
	return NULL;
}

/**
 * props_swnode() - the software node that holds a device's firmware properties
 * @dev: the device
 *
 * Return: the device's software node, primary or secondary, or NULL.
 */
const struct software_node *props_swnode(struct device *dev)
{
	return to_software_node(props_swnode_fwnode(dev));
}

/* Does @key contain @word, ignoring case? */
static bool props_key_has(const char *key, const char *word)
{
	size_t n = strlen(word);

	for (; *key; key++)
		if (!strncasecmp(key, word, n))
			return true;
	return false;
}

/* A value that identifies the machine or a part of it: root only. */
static bool props_identifying(const char *key)
{
	return !strcmp(key, "ThunderboltDROM") || props_key_has(key, "serial") ||
	       props_key_has(key, "uuid") || props_key_has(key, "mac-address");
}

/* Can @p be a file in @e's directory (a file name, not taken yet)? */
static bool props_file_ok(struct props_export *e, unsigned int count,
			  const struct property_entry *p)
{
	unsigned int i;

	if (!*p->name || strchr(p->name, '/') || !strcmp(p->name, ".") ||
	    !strcmp(p->name, ".."))
		return false;
	for (i = 0; i < count; i++)
		if (!strcmp(e->attrs[i].attr.name, p->name))
			return false;
	return true;
}

static ssize_t props_attr_read(struct file *file, struct kobject *kobj,
			       struct bin_attribute *attr, char *buf, loff_t off, size_t count)
{
	const struct property_entry *p = attr->private;

	return memory_read_from_buffer(buf, count, &off, props_value(p), p->length);
}

/* props_lock held */
static struct props_export *props_find(struct device *dev)
{
	struct props_export *e;

	list_for_each_entry(e, &props_exports, list)
		if (e->dev == dev)
			return e;
	return NULL;
}

/* Remove @e's directory (unless it went with its device) and let go. */
static void props_export_free(struct props_export *e)
{
	/* An unregistered device's directory went with the device's own. */
	if (device_is_registered(e->dev))
		sysfs_remove_group(&e->dev->kobj, &e->group);
	fwnode_handle_put(e->fwnode);
	put_device(e->dev);
	kfree(e->ptrs);
	kfree(e);
}

/**
 * props_export_device() - show a device's firmware properties in sysfs
 * @dev: a registered device, which the caller keeps from being removed
 *	(the caller serialises calls for one device)
 *
 * Does nothing for a device without a software node or already shown.
 *
 * Return: 0, or a negative errno.
 */
int props_export_device(struct device *dev)
{
	struct fwnode_handle *fwnode = props_swnode_fwnode(dev);
	const struct software_node *swnode = to_software_node(fwnode);
	const struct property_entry *p;
	struct props_export *e;
	unsigned int n = 0, count = 0;
	int ret;

	if (!swnode || !swnode->properties || !swnode->properties[0].name)
		return 0;
	mutex_lock(&props_lock);
	e = props_find(dev);
	mutex_unlock(&props_lock);
	if (e)
		return 0;

	for (p = swnode->properties; p->name; p++)
		n++;
	e = kzalloc(struct_size(e, attrs, n), GFP_KERNEL);
	if (!e)
		return -ENOMEM;
	e->ptrs = kcalloc(n + 1, sizeof(*e->ptrs), GFP_KERNEL);
	if (!e->ptrs) {
		kfree(e);
		return -ENOMEM;
	}
	for (p = swnode->properties; p->name; p++) {
		struct bin_attribute *attr = &e->attrs[count];

		if (!props_file_ok(e, count, p)) {
			dev_warn(dev, "cannot show Apple property \"%s\" in sysfs\n", p->name);
			continue;
		}
		sysfs_bin_attr_init(attr);
		attr->attr.name = p->name;
		attr->attr.mode = props_identifying(p->name) ? 0400 : 0444;
		attr->size = p->length;
		attr->read = props_attr_read;
		attr->private = (void *)p;
		e->ptrs[count++] = attr;
	}
	e->group.name = "apple_properties";
	e->group.bin_attrs = e->ptrs;
	e->props = swnode->properties;
	e->fwnode = fwnode_handle_get(fwnode);
	e->dev = get_device(dev);

	ret = sysfs_create_group(&dev->kobj, &e->group);
	if (ret) {
		dev_err(dev, "cannot show Apple properties in sysfs: %d\n", ret);
		fwnode_handle_put(e->fwnode);
		put_device(e->dev);
		kfree(e->ptrs);
		kfree(e);
		return ret;
	}
	mutex_lock(&props_lock);
	list_add_tail(&e->list, &props_exports);
	mutex_unlock(&props_lock);
	return 0;
}

/**
 * props_unexport_device() - remove a device's apple_properties directory
 * @dev: the device (the caller serialises calls for one device)
 *
 * Once it returns, nothing of this file points into the device's software
 * node any more, and the references on the node and the device are gone.
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

/**
 * props_unexport_all() - remove every apple_properties directory
 */
void props_unexport_all(void)
{
	struct props_export *e;

	for (;;) {
		mutex_lock(&props_lock);
		e = list_first_entry_or_null(&props_exports, struct props_export, list);
		if (e)
			list_del(&e->list);
		mutex_unlock(&props_lock);
		if (!e)
			break;
		props_export_free(e);
	}
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

static BIN_ATTR(all, 0400, props_all_read, NULL, 0);

/**
 * props_sysfs_init() - create the "all" listing
 * @dir: /sys/firmware/apple_properties
 *
 * Return: 0 or a negative errno.
 */
int props_sysfs_init(struct kobject *dir)
{
	return sysfs_create_bin_file(dir, &bin_attr_all);
}

/**
 * props_sysfs_exit() - remove the "all" listing
 * @dir: /sys/firmware/apple_properties
 *
 * Every device's directory must be gone already (props_unexport_all()).
 */
void props_sysfs_exit(struct kobject *dir)
{
	sysfs_remove_bin_file(dir, &bin_attr_all);
	WARN_ON(!list_empty(&props_exports));
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
