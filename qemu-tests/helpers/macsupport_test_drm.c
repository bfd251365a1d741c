// SPDX-License-Identifier: GPL-2.0
/*
 * macsupport_test_drm - TEST ONLY: a stand-in DRM card with external
 * DisplayPort connectors, for the QEMU harness
 *
 * A DRM driver's connectors are devices of DRM's class, named
 * card<N>-<type>-<M> below their card's device card<N>
 * (drm_sysfs_connector_add()), each with a "status" attribute reading
 * "connected", "disconnected" or "unknown"; a change of status comes with
 * a change uevent of the card, HOTPLUG=1 (drm_sysfs_hotplug_event()). The
 * guest has no GPU with DisplayPort connectors. This module registers a
 * card and its connectors in DRM's own class, through the call DRM
 * exports for that (drm_class_device_register()), so that /sys/class/drm
 * reads as on a Mac with USB-C ports: card<card>-DP-1 .. card<card>-DP-<dp>,
 * and card<card>-eDP-1, the built-in panel, always connected and never
 * external. What a connector's "status" says is the test's to set:
 * writing "connected" or "disconnected" (DRM's own attribute is writable
 * too, to force a state) changes it and sends the card's uevent, as a
 * monitor plugged into the port would.
 *
 * Parameters: card (9, a number no real card of the guest has), dp (2).
 * Never installed by DKMS, never loaded outside QEMU.
 */

#include <linux/device.h>
#include <linux/kobject.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/sysfs.h>
#include <drm/drm_sysfs.h>

#define TEST_DRM_MAX_DP		4

static unsigned int card = 9;
module_param(card, uint, 0444);
MODULE_PARM_DESC(card, "the card's number: card<card>, card<card>-DP-1, ... (default 9)");

static unsigned int dp = 2;
module_param(dp, uint, 0444);
MODULE_PARM_DESC(dp, "external DisplayPort connectors (1-4, default 2), all disconnected at load");

/* A connector: its device, and whether a monitor is connected. */
struct test_drm_conn {
	struct device dev;
	bool connected;
};

static struct device *test_drm_card;
static struct test_drm_conn *test_drm_conns[TEST_DRM_MAX_DP + 1];
static unsigned int test_drm_nconns;
static DEFINE_MUTEX(test_drm_lock);	/* the connectors' status */

static struct test_drm_conn *to_test_drm_conn(struct device *dev)
{
	return container_of(dev, struct test_drm_conn, dev);
}

static ssize_t status_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	struct test_drm_conn *c = to_test_drm_conn(dev);
	bool connected;

	mutex_lock(&test_drm_lock);
	connected = c->connected;
	mutex_unlock(&test_drm_lock);
	return sysfs_emit(buf, "%s\n", connected ? "connected" : "disconnected");
}

/* A monitor plugged or unplugged: the card's hotplug uevent, as DRM sends it. */
static ssize_t status_store(struct device *dev, struct device_attribute *attr,
			    const char *buf, size_t count)
{
	struct test_drm_conn *c = to_test_drm_conn(dev);
	char *envp[] = { "HOTPLUG=1", NULL };
	bool connected;

	if (sysfs_streq(buf, "connected"))
		connected = true;
	else if (sysfs_streq(buf, "disconnected"))
		connected = false;
	else
		return -EINVAL;
	mutex_lock(&test_drm_lock);
	c->connected = connected;
	mutex_unlock(&test_drm_lock);
	kobject_uevent_env(&test_drm_card->kobj, KOBJ_CHANGE, envp);
	return count;
}
static DEVICE_ATTR_RW(status);

static struct attribute *test_drm_conn_attrs[] = {
	&dev_attr_status.attr,
	NULL
};
ATTRIBUTE_GROUPS(test_drm_conn);

static void test_drm_conn_release(struct device *dev)
{
	kfree(to_test_drm_conn(dev));
}

static void test_drm_card_release(struct device *dev)
{
	kfree(dev);
}

/* A connector of the card, named card<card>-@type-@index. */
static int test_drm_add_conn(const char *type, unsigned int index, bool connected)
{
	struct test_drm_conn *c;
	int ret;

	c = kzalloc(sizeof(*c), GFP_KERNEL);
	if (!c)
		return -ENOMEM;
	c->connected = connected;
	c->dev.parent = test_drm_card;
	c->dev.groups = test_drm_conn_groups;
	c->dev.release = test_drm_conn_release;
	ret = dev_set_name(&c->dev, "card%u-%s-%u", card, type, index);
	if (ret) {
		kfree(c);
		return ret;
	}
	/* device_register(): its reference is dropped on failure */
	ret = drm_class_device_register(&c->dev);
	if (ret) {
		put_device(&c->dev);
		return ret;
	}
	test_drm_conns[test_drm_nconns++] = c;
	return 0;
}

static void test_drm_remove(void)
{
	while (test_drm_nconns)
		drm_class_device_unregister(&test_drm_conns[--test_drm_nconns]->dev);
	if (test_drm_card)
		drm_class_device_unregister(test_drm_card);
	test_drm_card = NULL;
}

static int __init test_drm_init(void)
{
	unsigned int i;
	int ret;

	if (dp < 1 || dp > TEST_DRM_MAX_DP)
		return -EINVAL;
	test_drm_card = kzalloc(sizeof(*test_drm_card), GFP_KERNEL);
	if (!test_drm_card)
		return -ENOMEM;
	test_drm_card->release = test_drm_card_release;
	ret = dev_set_name(test_drm_card, "card%u", card);
	if (ret) {
		kfree(test_drm_card);
		test_drm_card = NULL;
		return ret;
	}
	ret = drm_class_device_register(test_drm_card);
	if (ret) {
		put_device(test_drm_card);
		test_drm_card = NULL;
		return ret;
	}
	/* the built-in panel, then the ports */
	ret = test_drm_add_conn("eDP", 1, true);
	for (i = 1; !ret && i <= dp; i++)
		ret = test_drm_add_conn("DP", i, false);
	if (ret) {
		test_drm_remove();
		return ret;
	}
	pr_info("macsupport_test_drm: TEST ONLY: card%u with an eDP panel and %u DisplayPort connectors\n",
		card, dp);
	return 0;
}
module_init(test_drm_init);

static void __exit test_drm_exit(void)
{
	test_drm_remove();
}
module_exit(test_drm_exit);

MODULE_DESCRIPTION("TEST ONLY: a stand-in DRM card with DisplayPort connectors for the QEMU harness");
MODULE_LICENSE("GPL");
MODULE_INFO(test, "Y");
