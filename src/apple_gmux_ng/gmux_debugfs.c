// SPDX-License-Identifier: GPL-2.0
/*
 * apple_gmux_ng - debugfs
 *
 * Copyright (C) 2026 The macsupport developers
 */

#include <linux/debugfs.h>
#include <linux/security.h>
#include <linux/seq_file.h>
#include <linux/uaccess.h>

#include "gmux.h"

/**
 * DOC: debugfs
 *
 * /sys/kernel/debug/apple_gmux_ng/<pnp device>/ holds, for developers:
 *
 * - state: kind, version, window, transport, interrupt and error counters;
 *   gpe_state is "on", "off" (disabled after GMUX_NOTIFY_MAX_FAILURES
 *   failed notifications in a row, or being torn down) or "none"
 * - registers: every named register read through the protocol, by name
 * - selected_port, selected_port_data: select a register, then read it or
 *   write it (text, e.g. "0x1000"). Writes go to the hardware and are
 *   refused while the kernel is locked down; a value wider than the
 *   register (above 0xff for an 8-bit one) is refused with -ERANGE.
 *
 * The regmap core adds its own register dump under /sys/kernel/debug/regmap/.
 */

static struct dentry *gmux_debugfs_root;

static int gmux_registers_show(struct seq_file *s, void *unused)
{
	struct apple_gmux_ng *gmux = s->private;
	unsigned int reg, val;
	int ret;

	for (reg = 0; reg <= GMUX_PORT_BRIGHTNESS; reg++) {
		if (!gmux_reg_readable(gmux, reg))
			continue;
		ret = regmap_read(gmux->regmap, reg, &val);
		if (ret)
			seq_printf(s, "%-20s 0x%02x error %d\n", gmux_reg_name(reg), reg, ret);
		else
			seq_printf(s, "%-20s 0x%02x 0x%0*x\n", gmux_reg_name(reg), reg,
				   gmux_reg_is_32bit(gmux->io.kind, reg) ? 8 : 2, val);
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(gmux_registers);

static int gmux_state_show(struct seq_file *s, void *unused)
{
	struct apple_gmux_ng *gmux = s->private;

	seq_printf(s, "kind: %s\n", mac_gmux_kind_name(gmux->io.kind));
	seq_printf(s, "version: %u.%u.%u\n", gmux->version.major, gmux->version.minor,
		   gmux->version.release);
	seq_printf(s, "window: %pR\n", gmux->win.res);
	seq_printf(s, "transport: %s\n",
		   gmux->win.sim_journal ? "TEST simulator window" : "hardware");
	seq_printf(s, "gpe: %d\n", gmux->gpe);
	seq_printf(s, "backlight: %s\n",
		   gmux_backlight_registered(gmux) ? "registered" : "not registered");
	seq_printf(s, "max_brightness: %u\n", gmux->max_brightness);
	seq_printf(s, "notifications: %d\n", atomic_read(&gmux->notify_count));
	seq_printf(s, "notify_errors: %d\n", atomic_read(&gmux->notify_errors));
	seq_printf(s, "notify_ignored: %d\n", atomic_read(&gmux->notify_ignored));
	seq_printf(s, "status_seen: 0x%02x\n", atomic_read(&gmux->status_seen));
	seq_printf(s, "timeouts: %lu\n", gmux->io.timeouts);
	mutex_lock(&gmux->irq_lock);
	seq_printf(s, "gpe_state: %s\n", gmux->gpe < 0 ? "none" : gmux->gpe_off ? "off" : "on");
	seq_printf(s, "notify_fail_run: %u\n", gmux->notify_fail_run);
	seq_printf(s, "unmask_pending: %d\n", gmux->unmask_pending);
	seq_printf(s, "unmask_retries: %u\n", gmux->unmask_retries);
	seq_printf(s, "suspends: %u\n", gmux->suspend_count);
	seq_printf(s, "resumes: %u\n", gmux->resume_count);
	mutex_unlock(&gmux->irq_lock);
	if (gmux->win.sim_journal)
		seq_printf(s, "sim_journal_dropped: %lu\n", gmux->win.sim_dropped);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(gmux_state);

static ssize_t gmux_port_data_read(struct file *file, char __user *ubuf, size_t count,
				   loff_t *ppos)
{
	struct apple_gmux_ng *gmux = file->private_data;
	unsigned int val;
	char buf[24];
	int ret, len;

	ret = regmap_read(gmux->regmap, gmux->selected_port, &val);
	if (ret)
		return ret;
	len = scnprintf(buf, sizeof(buf), "0x%x\n", val);
	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

static ssize_t gmux_port_data_write(struct file *file, const char __user *ubuf, size_t count,
				    loff_t *ppos)
{
	struct apple_gmux_ng *gmux = file->private_data;
	unsigned int val;
	int ret;

	/* Checked here too: the file may have been opened before lockdown. */
	ret = security_locked_down(LOCKDOWN_DEBUGFS);
	if (ret)
		return ret;
	ret = kstrtouint_from_user(ubuf, count, 0, &val);
	if (ret)
		return ret;
	/* the gmux would keep the low byte: refuse rather than truncate */
	if (!gmux_reg_is_32bit(gmux->io.kind, gmux->selected_port) && val > U8_MAX)
		return -ERANGE;
	ret = regmap_write(gmux->regmap, gmux->selected_port, val);
	if (ret)
		return ret;
	dev_info(&gmux->pnp->dev, "debugfs: wrote 0x%x to register 0x%02x\n", val,
		 gmux->selected_port);
	return count;
}

static const struct file_operations gmux_port_data_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.read	= gmux_port_data_read,
	.write	= gmux_port_data_write,
	.llseek	= default_llseek,
};

/**
 * gmux_debugfs_init() - create the gmux's debugfs files
 * @gmux: the gmux, fully probed
 *
 * debugfs failures are not errors: the driver works without it.
 */
void gmux_debugfs_init(struct apple_gmux_ng *gmux)
{
	struct dentry *dir;

	if (!gmux_debugfs_root)
		gmux_debugfs_root = debugfs_create_dir(GMUX_DRIVER_NAME, NULL);
	dir = debugfs_create_dir(dev_name(&gmux->pnp->dev), gmux_debugfs_root);
	gmux->debugfs = dir;
	debugfs_create_file("state", 0444, dir, gmux, &gmux_state_fops);
	debugfs_create_file("registers", 0444, dir, gmux, &gmux_registers_fops);
	debugfs_create_u8("selected_port", 0600, dir, &gmux->selected_port);
	debugfs_create_file("selected_port_data", 0600, dir, gmux, &gmux_port_data_fops);
}

/**
 * gmux_debugfs_exit() - remove the gmux's debugfs files
 * @gmux: the gmux
 */
void gmux_debugfs_exit(struct apple_gmux_ng *gmux)
{
	debugfs_remove_recursive(gmux->debugfs);
	gmux->debugfs = NULL;
}

/**
 * gmux_debugfs_cleanup() - remove the driver's debugfs directory
 *
 * Called at module exit, after every device is gone.
 */
void gmux_debugfs_cleanup(void)
{
	debugfs_remove_recursive(gmux_debugfs_root);
	gmux_debugfs_root = NULL;
}
