// SPDX-License-Identifier: GPL-2.0
/*
 * apple_props - attaching properties from a blob to devices
 *
 * Copyright (C) 2026 The macsupport developers
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/acpi.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/pci.h>
#include <linux/property.h>
#include <linux/slab.h>

#include "macsupport/apple_props.h"
#include "props.h"

/**
 * DOC: Attaching
 *
 * A blob is checked whole before anything happens (src/lib/apple_props.c);
 * a malformed one is rejected with the reason and its offset, and nothing
 * of it is attached. Each device node's path is resolved like the kernel's
 * own parser does (an ACPI PCI root, then PCI device/function hops). A
 * device that has no firmware properties yet gets a software node with the
 * node's properties, which the module takes back when it is unloaded. A
 * device that has them already (the built-in parser attached them at boot)
 * keeps them: equal values are counted,
 * different ones reported as conflicts, never replaced. The nodes stay
 * loaded: a node whose device does not exist yet, or that is unplugged and
 * comes back, is attached by the PCI bus notifier when the device is added,
 * before a driver binds to it.
 *
 * This file decides what each device shows (it calls props_sysfs.c, never
 * the other way round). props_attach_lock serialises everything that
 * attaches, exports, unexports or takes a node back. Walks over the PCI
 * devices (a load, the walk at module load, the exit) also hold
 * pci_lock_rescan_remove(), taken first, so that no device is half
 * removed while they look at it; the bus notifier runs with the PCI
 * core's own locking and only looks at the device it is told about and
 * its parents. A device going away is unexported and its node taken back
 * in one critical section, before its software node (built-in or ours)
 * is freed.
 */

/**
 * struct props_pending - a loaded device node
 * @list: in props_pending_list
 * @route: the node's ACPI root and PCI hops
 * @path: its device path as text, for the log
 * @source: where the blob came from
 * @load: which load brought it (a counter)
 * @matched: a device was found for it in this load
 * @entries: its properties, terminated by an empty entry
 */
struct props_pending {
	struct list_head list;
	struct apple_dp_route route;
	char path[128];
	const char *source;
	unsigned int load;
	bool matched;
	struct property_entry entries[];
};

/**
 * struct props_owned - a device that got its software node from this module
 * @list: in props_owned_list
 * @dev: the device (a reference is held)
 * @fwnode: the node (a reference is held; not device-managed, so that the
 *	module can take it back when it is unloaded)
 */
struct props_owned {
	struct list_head list;
	struct device *dev;
	struct fwnode_handle *fwnode;
};

/*
 * Take a node back from its device and free it, after removing the files
 * that point into it; props_attach_lock held.
 */
static void props_owned_release(struct props_owned *o)
{
	props_unexport_device(o->dev);
	device_remove_software_node(o->dev);
	fwnode_remove_software_node(o->fwnode);
	list_del(&o->list);
	put_device(o->dev);
	kfree(o);
}

static LIST_HEAD(props_pending_list);
static LIST_HEAD(props_owned_list);
static DEFINE_MUTEX(props_attach_lock);
static unsigned int props_loads;
static bool props_attach_closed;	/* props_attach_exit() ran: attach nothing more */

static void props_pending_free(struct props_pending *p)
{
	struct property_entry *e;

	for (e = p->entries; e->name; e++) {
		kfree(e->name);
		if (!e->is_inline)
			kfree(e->pointer);
	}
	kfree(p);
}

/* A PCI root's compressed EISA id as text, e.g. "PNP0A03". */
static void props_eisa_to_str(u32 id, char *buf)
{
	buf[0] = '@' + ((id >> 10) & 0x1f);
	buf[1] = '@' + ((id >> 5) & 0x1f);
	buf[2] = '@' + (id & 0x1f);
	snprintf(buf + 3, 5, "%04X", id >> 16);
}

/* Does the ACPI device @adev have the route's root _HID (or _CID) and _UID? */
static bool props_root_is(struct acpi_device *adev, const struct apple_dp_route *route)
{
	struct acpi_device_id ids[2] = { };
	char uid[12];

	props_eisa_to_str(route->hid, ids[0].id);
	snprintf(uid, sizeof(uid), "%u", route->uid);
	return !acpi_match_device_ids(adev, ids) && acpi_device_uid(adev) &&
	       !strcmp(acpi_device_uid(adev), uid);
}

/*
 * Does @route name @pdev? Walks from the device up to its root bus, so it
 * only looks at the device and its parents, which the device keeps alive;
 * nothing is resolved downwards, no bus is looked up by number.
 */
static bool props_route_names(const struct apple_dp_route *route, struct pci_dev *pdev)
{
	struct pci_bus *bus = NULL;
	int i;

	if (!route->nr_hops)
		return false;
	for (i = route->nr_hops - 1; i >= 0; i--) {
		if (!pdev || pdev->devfn != PCI_DEVFN(route->hops[i].dev, route->hops[i].fn))
			return false;
		bus = pdev->bus;
		if (pci_is_root_bus(bus))
			break;
		pdev = bus->self;
	}
	return i == 0 && ACPI_COMPANION(bus->bridge) &&
	       props_root_is(ACPI_COMPANION(bus->bridge), route);
}

static bool props_same_value(const struct property_entry *a, const struct property_entry *b)
{
	return a->type == b->type && a->length == b->length &&
	       !memcmp(props_value(a), props_value(b), a->length);
}

/**
 * struct props_result - what loading one blob did
 * @attached: nodes whose device got a new software node
 * @present: nodes whose properties the device had already, all equal
 * @conflicts: properties that differ from what the device has, or that
 *	cannot be added to its existing node
 * @waiting: nodes whose device does not exist (yet)
 * @unresolvable: nodes with a path this module cannot resolve
 * @failed: nodes whose software node could not be created or attached
 */
struct props_result {
	unsigned int attached;
	unsigned int present;
	unsigned int conflicts;
	unsigned int waiting;
	unsigned int unresolvable;
	unsigned int failed;
};

/* Attach @p to @dev without replacing anything; props_attach_lock held. */
static void props_attach(struct device *dev, struct props_pending *p, struct props_result *res)
{
	const struct software_node *have = props_swnode(dev);
	const struct property_entry *e, *h;
	struct props_owned *owned;
	unsigned int conflicts = 0;
	int ret;

	if (!device_is_registered(dev)) {
		res->waiting++;		/* being removed: as if it were gone */
		return;
	}
	if (have) {
		for (e = p->entries; e->name; e++) {
			for (h = have->properties; h && h->name; h++)
				if (!strcmp(h->name, e->name))
					break;
			if (!h || !h->name) {
				dev_warn(dev, "%s: cannot add \"%s\": the device already has firmware properties\n",
					 p->source, e->name);
				conflicts++;
			} else if (!props_same_value(e, h)) {
				dev_warn(dev, "%s: \"%s\" differs from the property the device has; kept the device's\n",
					 p->source, e->name);
				conflicts++;
			}
		}
		res->conflicts += conflicts;
		if (!conflicts)
			res->present++;
		return;
	}

	owned = kzalloc(sizeof(*owned), GFP_KERNEL);
	if (!owned) {
		res->failed++;
		return;
	}
	owned->fwnode = fwnode_create_software_node(p->entries, NULL);
	ret = PTR_ERR_OR_ZERO(owned->fwnode);
	if (!ret) {
		ret = device_add_software_node(dev, to_software_node(owned->fwnode));
		if (ret)
			fwnode_remove_software_node(owned->fwnode);
	}
	if (ret) {
		dev_err(dev, "%s: cannot attach properties: %d\n", p->source, ret);
		kfree(owned);
		res->failed++;
		return;
	}
	owned->dev = get_device(dev);
	list_add_tail(&owned->list, &props_owned_list);
	if (dev->driver)
		dev_info(dev, "%s: properties attached after %s bound; they apply when it binds again\n",
			 p->source, dev->driver->name);
	props_export_device(dev);
	res->attached++;
}

/*
 * Attach the nodes of load @load to the devices they name that are there;
 * count in @res. pci_lock_rescan_remove() and props_attach_lock held.
 */
static void props_attach_loaded(unsigned int load, struct props_result *res)
{
	struct props_pending *p;
	struct pci_dev *pdev = NULL;

	list_for_each_entry(p, &props_pending_list, list)
		p->matched = false;
	for_each_pci_dev(pdev) {
		list_for_each_entry(p, &props_pending_list, list) {
			if (p->load != load || p->matched || !props_route_names(&p->route, pdev))
				continue;
			p->matched = true;
			props_attach(&pdev->dev, p, res);
		}
	}
	list_for_each_entry(p, &props_pending_list, list)
		if (p->load == load && !p->matched)
			res->waiting++;
}

/*
 * A newer load replaces an older node for the same device, so that reloading
 * a blob does not pile up copies. props_attach_lock held.
 */
static void props_forget_route(const struct apple_dp_route *route)
{
	struct props_pending *p, *tmp;

	list_for_each_entry_safe(p, tmp, &props_pending_list, list) {
		if (p->route.hid == route->hid && p->route.uid == route->uid &&
		    p->route.nr_hops == route->nr_hops &&
		    !memcmp(p->route.hops, route->hops, route->nr_hops * sizeof(route->hops[0]))) {
			list_del(&p->list);
			props_pending_free(p);
		}
	}
}

/* Parsing: build one props_pending per resolvable node. */
struct props_parse_ctx {
	struct list_head nodes;
	struct props_pending *cur;
	const char *source;
	unsigned int unresolvable;
};

static int props_parse_node(void *data, const struct apple_props_node *node)
{
	struct props_parse_ctx *ctx = data;
	struct props_pending *p;

	ctx->cur = NULL;
	p = kzalloc(struct_size(p, entries, node->prop_count + 1), GFP_KERNEL);
	if (!p)
		return -ENOMEM;
	if (apple_dp_to_text(node->path, node->path_len, p->path, sizeof(p->path)) < 0)
		strscpy(p->path, "(path too long)", sizeof(p->path));
	if (apple_dp_to_route(node->path, node->path_len, &p->route)) {
		pr_info("%s: %s: not a PCI path this module resolves, skipped\n", ctx->source,
			p->path);
		ctx->unresolvable++;
		kfree(p);
		return 0;
	}
	p->source = ctx->source;
	list_add_tail(&p->list, &ctx->nodes);
	ctx->cur = p;
	return 0;
}

static int props_parse_prop(void *data, const struct apple_props_node *node,
			    const struct apple_props_prop *prop)
{
	struct props_parse_ctx *ctx = data;
	struct property_entry *e;
	size_t size = 3 * (prop->key_len / 2) + 1;
	char *key;
	void *val;
	int len;

	if (!ctx->cur)
		return 0;
	e = &ctx->cur->entries[prop->index];
	key = kmalloc(size, GFP_KERNEL);
	if (!key)
		return -ENOMEM;
	len = apple_props_key_to_utf8(prop->key, prop->key_len, key, size);
	if (len < 0) {
		kfree(key);
		return len;
	}
	if (!prop->value_len) {
		*e = PROPERTY_ENTRY_BOOL(key);
		return 0;
	}
	val = kmemdup(prop->value, prop->value_len, GFP_KERNEL);
	if (!val) {
		kfree(key);
		return -ENOMEM;
	}
	*e = PROPERTY_ENTRY_U8_ARRAY_LEN(key, (u8 *)val, prop->value_len);
	return 0;
}

static const struct apple_props_ops props_parse_ops = {
	.node	= props_parse_node,
	.prop	= props_parse_prop,
};

/**
 * props_load_blob() - check a blob and attach its properties
 * @buf: the blob
 * @len: its length
 * @source: where it came from, for the log (a string that outlives the module's use)
 *
 * Return: 0, or a negative errno: the blob is malformed or memory ran out
 * before anything was attached (nothing of it is attached then), or
 * -ENOMEM when a device's node could not be created or attached (the log
 * names the device and the cause; what the other devices got stays).
 */
int props_load_blob(const void *buf, size_t len, const char *source)
{
	struct props_parse_ctx ctx = { .source = source };
	struct props_result res = { };
	struct apple_props_error err = { };
	struct props_pending *p, *tmp;
	int ret;

	INIT_LIST_HEAD(&ctx.nodes);
	ret = apple_props_parse(buf, len, &props_parse_ops, &ctx, &err);
	if (ret) {
		list_for_each_entry_safe(p, tmp, &ctx.nodes, list)
			props_pending_free(p);
		if (err.code == APPLE_PROPS_E_CALLBACK)
			pr_err("%s: cannot load %zu bytes of properties: %d\n", source, len, ret);
		else
			pr_err("%s: rejected: %s at offset %zu; nothing attached\n", source,
			       err.msg, err.offset);
		return ret;
	}
	res.unresolvable = ctx.unresolvable;

	pci_lock_rescan_remove();
	mutex_lock(&props_attach_lock);
	if (props_attach_closed) {
		ret = -ENODEV;
	} else {
		props_loads++;
		list_for_each_entry(p, &ctx.nodes, list) {
			p->load = props_loads;
			props_forget_route(&p->route);
		}
		list_splice_tail_init(&ctx.nodes, &props_pending_list);
		props_attach_loaded(props_loads, &res);
	}
	mutex_unlock(&props_attach_lock);
	pci_unlock_rescan_remove();
	if (ret) {
		list_for_each_entry_safe(p, tmp, &ctx.nodes, list)
			props_pending_free(p);
		return ret;
	}

	pr_info("%s: %zu bytes: %u attached, %u already present, %u conflicts, %u waiting for their device, %u unresolvable\n",
		source, len, res.attached, res.present, res.conflicts, res.waiting,
		res.unresolvable);
	if (res.failed) {
		pr_err("%s: %u devices did not get their properties (see above)\n",
		       source, res.failed);
		return -ENOMEM;
	}
	return 0;
}

/**
 * props_attach_device_added() - give a device that just appeared its
 * properties and show them
 * @dev: a PCI device being added (from the bus notifier)
 */
void props_attach_device_added(struct device *dev)
{
	struct props_result res = { };
	struct props_pending *p;

	mutex_lock(&props_attach_lock);
	if (props_attach_closed)
		goto out;
	list_for_each_entry(p, &props_pending_list, list) {
		if (props_route_names(&p->route, to_pci_dev(dev))) {
			props_attach(dev, p, &res);
			break;	/* one node per path: a newer load replaced older ones */
		}
	}
	/* Properties the built-in parser gave it, or ours; before a driver binds. */
	if (device_is_registered(dev))
		props_export_device(dev);
out:
	mutex_unlock(&props_attach_lock);
	if (res.attached || res.conflicts)
		dev_info(dev, "device added: properties attached (%u), conflicts (%u)\n",
			 res.attached, res.conflicts);
}

/**
 * props_attach_device_removed() - unexport a device going away and take
 * its node back, in one critical section
 * @dev: a PCI device being removed (from the bus notifier, before the
 *	device's own software node goes)
 */
void props_attach_device_removed(struct device *dev)
{
	struct props_owned *o, *tmp;

	mutex_lock(&props_attach_lock);
	props_unexport_device(dev);
	list_for_each_entry_safe(o, tmp, &props_owned_list, list)
		if (o->dev == dev)
			props_owned_release(o);
	mutex_unlock(&props_attach_lock);
}

/**
 * props_attach_export_present() - show the properties of the devices there
 *
 * For the devices that the built-in parser gave properties at boot; later
 * devices are shown by props_attach_device_added(). Skips devices being
 * removed.
 */
void props_attach_export_present(void)
{
	struct pci_dev *pdev = NULL;

	pci_lock_rescan_remove();
	mutex_lock(&props_attach_lock);
	for_each_pci_dev(pdev)
		if (device_is_registered(&pdev->dev))
			props_export_device(&pdev->dev);
	mutex_unlock(&props_attach_lock);
	pci_unlock_rescan_remove();
}

/**
 * props_attach_exit() - take back every software node this module attached,
 * remove every apple_properties directory and drop every loaded node
 *
 * Nothing the module attached outlives it; what the built-in parser
 * attached at boot stays. Afterwards the bus notifier's calls do nothing.
 */
void props_attach_exit(void)
{
	struct props_pending *p, *tmp;
	struct props_owned *o, *otmp;

	pci_lock_rescan_remove();
	mutex_lock(&props_attach_lock);
	props_attach_closed = true;
	list_for_each_entry_safe(o, otmp, &props_owned_list, list)
		props_owned_release(o);
	props_unexport_all();
	list_for_each_entry_safe(p, tmp, &props_pending_list, list) {
		list_del(&p->list);
		props_pending_free(p);
	}
	mutex_unlock(&props_attach_lock);
	pci_unlock_rescan_remove();
}
