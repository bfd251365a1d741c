// SPDX-License-Identifier: GPL-2.0
/*
 * tb_macpm - the power switch's attributes, /sys/class/tb_macpm/<nhi>/
 *
 * What is powered and for how long, why it stays on, which methods and
 * mechanism the firmware has; documented in
 * Documentation/ABI/testing/sysfs-class-tb_macpm.
 *
 * Copyright (C) 2026 The macsupport developers
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/sysfs.h>

#include "tb_macpm.h"

static ssize_t power_state_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	struct tb_ctrl *ctrl = tb_ctrl_from_dev(dev);
	bool off;

	mutex_lock(&ctrl->lock);
	off = ctrl->off;
	mutex_unlock(&ctrl->lock);
	return sysfs_emit(buf, "%s\n", off ? "off" : "on");
}
static DEVICE_ATTR_RO(power_state);

static ssize_t tb_show_time(struct device *dev, char *buf, bool want_off)
{
	struct tb_ctrl *ctrl = tb_ctrl_from_dev(dev);
	u64 ns;

	mutex_lock(&ctrl->lock);
	tb_account(ctrl);
	ns = want_off ? ctrl->off_ns : ctrl->on_ns;
	mutex_unlock(&ctrl->lock);
	return sysfs_emit(buf, "%llu\n", div_u64(ns, NSEC_PER_MSEC));
}

static ssize_t on_ms_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	return tb_show_time(dev, buf, false);
}
static DEVICE_ATTR_RO(on_ms);

static ssize_t off_ms_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	return tb_show_time(dev, buf, true);
}
static DEVICE_ATTR_RO(off_ms);

/* A read-only attribute @name showing the counter ctrl->@field. */
#define TB_CTRL_UINT_ATTR(name, field)						\
static ssize_t name##_show(struct device *dev, struct device_attribute *attr, char *buf) \
{										\
	struct tb_ctrl *ctrl = tb_ctrl_from_dev(dev);				\
	unsigned int v;								\
										\
	mutex_lock(&ctrl->lock);						\
	v = ctrl->field;							\
	mutex_unlock(&ctrl->lock);						\
	return sysfs_emit(buf, "%u\n", v);					\
}										\
static DEVICE_ATTR_RO(name)

TB_CTRL_UINT_ATTR(power_cycles, cycles);
TB_CTRL_UINT_ATTR(last_wake_ms, last_wake_ms);
TB_CTRL_UINT_ATTR(gpe_wakes, gpe_wakes);
TB_CTRL_UINT_ATTR(spurious, spurious);
TB_CTRL_UINT_ATTR(refusals, refusals);
TB_CTRL_UINT_ATTR(errors, errors);

static ssize_t stay_on_reason_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	struct tb_ctrl *ctrl = tb_ctrl_from_dev(dev);
	const char *why;
	ssize_t ret;

	mutex_lock(&ctrl->lock);
	why = tb_blocker(ctrl);
	/*
	 * Runtime PM of the NHI forbidden: the PCI core's default for an NHI
	 * without a driver (Eagle Ridge: thunderbolt.ko has no alias for it)
	 * until user space writes "auto" to its power/control.
	 */
	if (!why && !ctrl->nhi->dev.power.runtime_auto)
		why = "the NHI's runtime PM is off (its power/control is \"on\")";
	ret = sysfs_emit(buf, "%s\n", why ?: "none");
	mutex_unlock(&ctrl->lock);
	return ret;
}
static DEVICE_ATTR_RO(stay_on_reason);

static ssize_t methods_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%s\n", tb_ctrl_from_dev(dev)->methods);
}
static DEVICE_ATTR_RO(methods);

static ssize_t mechanism_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%s\n", tb_ctrl_from_dev(dev)->mechanism);
}
static DEVICE_ATTR_RO(mechanism);

static ssize_t plug_source_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%s\n", tb_ctrl_from_dev(dev)->plug_source);
}
static DEVICE_ATTR_RO(plug_source);

static ssize_t nhi_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%s\n", pci_name(tb_ctrl_from_dev(dev)->nhi));
}
static DEVICE_ATTR_RO(nhi);

static ssize_t generation_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%s\n", mac_tb_gen_name(tb_ctrl_from_dev(dev)->gen));
}
static DEVICE_ATTR_RO(generation);

static struct attribute *tb_ctrl_attrs[] = {
	&dev_attr_power_state.attr,
	&dev_attr_on_ms.attr,
	&dev_attr_off_ms.attr,
	&dev_attr_power_cycles.attr,
	&dev_attr_last_wake_ms.attr,
	&dev_attr_stay_on_reason.attr,
	&dev_attr_methods.attr,
	&dev_attr_mechanism.attr,
	&dev_attr_plug_source.attr,
	&dev_attr_nhi.attr,
	&dev_attr_generation.attr,
	&dev_attr_gpe_wakes.attr,
	&dev_attr_spurious.attr,
	&dev_attr_refusals.attr,
	&dev_attr_errors.attr,
	NULL
};

static const struct attribute_group tb_ctrl_group = {
	.attrs = tb_ctrl_attrs,
};

const struct attribute_group *tb_ctrl_groups[] = {
	&tb_ctrl_group,
	NULL
};
