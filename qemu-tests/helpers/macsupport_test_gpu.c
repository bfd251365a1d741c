// SPDX-License-Identifier: GPL-2.0
/*
 * macsupport_test_gpu - TEST ONLY: a fake GPU driver for the QEMU harness
 *
 * The gmux profiles give the guest two display devices, QEMU's VGA at
 * 00:02.0 standing in for the iGPU and a secondary-vga behind a PCIe root
 * port standing in for the dGPU (both 1234:1111). This driver binds them
 * the way i915 and nouveau bind a Mac's GPUs, as far as vga_switcheroo
 * sees it: probe first asks vga_switcheroo_client_probe_defer() and
 * defers while it says so (on 6.1: the device is not the boot VGA device,
 * an APP000B device exists and no handler with flags is registered), then
 * registers the device as a vga_switcheroo client with set_gpu_state,
 * reprobe and can_switch. The real vga_switcheroo core then drives
 * apple_gmux_ng's handler through /sys/kernel/debug/vgaswitcheroo/switch.
 *
 * debugfs, /sys/kernel/debug/macsupport_test_gpu/:
 *
 * - defers: one line per device that deferred, "<pci name> <count>"
 * - can_switch: Y/N, what every client's can_switch() answers (Y)
 * - lastclose: write anything: vga_switcheroo_process_delayed_switch(), as
 *   a DRM driver does on the last close (a write fails with its errno)
 * - <pci name>/state: bound, gpu_state (on/off), set_gpu_state calls,
 *   reprobes
 * - <pci name>/ddc: write N: vga_switcheroo_lock_ddc() (the handler's
 *   switch_ddc moves the DDC lines to this GPU), hold them N ms (at most
 *   10 s) as a driver reading the EDID would, vga_switcheroo_unlock_ddc()
 *   (they go back). Both in one write: lock_ddc holds a mutex until the
 *   unlock, which must not be held across a return to user space. Read:
 *   the last lock's result (the previous DDC owner's id, or an errno)
 *
 * Never installed by DKMS, never loaded outside QEMU.
 */

#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/module.h>
#include <linux/pci.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/vgaarb.h>
#include <linux/vga_switcheroo.h>

#define TEST_GPU_MAX_DEFER	4

struct test_gpu {
	struct pci_dev *pdev;
	struct dentry *dir;
	enum vga_switcheroo_state state;
	unsigned int state_calls;
	unsigned int reprobes;
	int ddc_result;
};

static struct dentry *test_gpu_root;
static bool test_gpu_can_switch = true;
static DEFINE_MUTEX(test_gpu_defer_lock);
static struct {
	char name[16];
	unsigned int count;
} test_gpu_defers[TEST_GPU_MAX_DEFER];

static void test_gpu_count_defer(struct pci_dev *pdev)
{
	unsigned int i;

	mutex_lock(&test_gpu_defer_lock);
	for (i = 0; i < TEST_GPU_MAX_DEFER; i++) {
		if (!test_gpu_defers[i].name[0])
			strscpy(test_gpu_defers[i].name, pci_name(pdev),
				sizeof(test_gpu_defers[i].name));
		if (!strcmp(test_gpu_defers[i].name, pci_name(pdev))) {
			test_gpu_defers[i].count++;
			break;
		}
	}
	mutex_unlock(&test_gpu_defer_lock);
}

static int test_gpu_defers_show(struct seq_file *s, void *unused)
{
	unsigned int i;

	mutex_lock(&test_gpu_defer_lock);
	for (i = 0; i < TEST_GPU_MAX_DEFER && test_gpu_defers[i].name[0]; i++)
		seq_printf(s, "%s %u\n", test_gpu_defers[i].name, test_gpu_defers[i].count);
	mutex_unlock(&test_gpu_defer_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(test_gpu_defers);

static void test_gpu_set_state(struct pci_dev *pdev, enum vga_switcheroo_state state)
{
	struct test_gpu *gpu = pci_get_drvdata(pdev);

	gpu->state = state;
	gpu->state_calls++;
	dev_info(&pdev->dev, "TEST ONLY: set_gpu_state %s\n",
		 state == VGA_SWITCHEROO_ON ? "on" : "off");
}

static void test_gpu_reprobe(struct pci_dev *pdev)
{
	struct test_gpu *gpu = pci_get_drvdata(pdev);

	gpu->reprobes++;
}

static bool test_gpu_can_switch_cb(struct pci_dev *pdev)
{
	return READ_ONCE(test_gpu_can_switch);
}

static const struct vga_switcheroo_client_ops test_gpu_ops = {
	.set_gpu_state	= test_gpu_set_state,
	.reprobe	= test_gpu_reprobe,
	.can_switch	= test_gpu_can_switch_cb,
};

static int test_gpu_state_show(struct seq_file *s, void *unused)
{
	struct test_gpu *gpu = s->private;

	seq_puts(s, "bound: 1\n");
	seq_printf(s, "gpu_state: %s\n", gpu->state == VGA_SWITCHEROO_ON ? "on" : "off");
	seq_printf(s, "set_gpu_state_calls: %u\n", gpu->state_calls);
	seq_printf(s, "reprobes: %u\n", gpu->reprobes);
	seq_printf(s, "switcheroo_state: %s\n",
		   vga_switcheroo_get_client_state(gpu->pdev) == VGA_SWITCHEROO_ON ? "on" : "off");
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(test_gpu_state);

static ssize_t test_gpu_ddc_write(struct file *file, const char __user *ubuf, size_t count,
				  loff_t *ppos)
{
	struct test_gpu *gpu = file->private_data;
	unsigned int hold_ms;
	int ret;

	ret = kstrtouint_from_user(ubuf, count, 0, &hold_ms);
	if (ret)
		return ret;
	if (hold_ms > 10000)
		return -ERANGE;
	gpu->ddc_result = vga_switcheroo_lock_ddc(gpu->pdev);
	msleep(hold_ms);
	/* the owner switched back to, or an errno */
	ret = vga_switcheroo_unlock_ddc(gpu->pdev);
	if (ret < 0)
		return ret;
	return count;
}

static ssize_t test_gpu_ddc_read(struct file *file, char __user *ubuf, size_t count,
				 loff_t *ppos)
{
	struct test_gpu *gpu = file->private_data;
	char buf[16];
	int len;

	len = scnprintf(buf, sizeof(buf), "%d\n", gpu->ddc_result);
	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

static const struct file_operations test_gpu_ddc_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.read	= test_gpu_ddc_read,
	.write	= test_gpu_ddc_write,
	.llseek	= default_llseek,
};

static ssize_t test_gpu_lastclose_write(struct file *file, const char __user *ubuf,
					size_t count, loff_t *ppos)
{
	int ret = vga_switcheroo_process_delayed_switch();

	return ret ? ret : count;
}

static const struct file_operations test_gpu_lastclose_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.write	= test_gpu_lastclose_write,
	.llseek	= default_llseek,
};

static int test_gpu_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	struct test_gpu *gpu;
	int ret;

	/* as i915, nouveau and radeon do, before anything else */
	if (vga_switcheroo_client_probe_defer(pdev)) {
		test_gpu_count_defer(pdev);
		dev_info(&pdev->dev, "TEST ONLY: vga_switcheroo says defer\n");
		return -EPROBE_DEFER;
	}

	gpu = devm_kzalloc(&pdev->dev, sizeof(*gpu), GFP_KERNEL);
	if (!gpu)
		return -ENOMEM;
	gpu->pdev = pdev;
	gpu->state = VGA_SWITCHEROO_ON;
	pci_set_drvdata(pdev, gpu);

	ret = vga_switcheroo_register_client(pdev, &test_gpu_ops, false);
	if (ret)
		return ret;
	gpu->dir = debugfs_create_dir(pci_name(pdev), test_gpu_root);
	debugfs_create_file("state", 0444, gpu->dir, gpu, &test_gpu_state_fops);
	debugfs_create_file("ddc", 0600, gpu->dir, gpu, &test_gpu_ddc_fops);
	dev_info(&pdev->dev, "TEST ONLY: fake GPU bound, vga_switcheroo client registered%s\n",
		 pdev == vga_default_device() ? " (boot VGA device)" : "");
	return 0;
}

static void test_gpu_remove(struct pci_dev *pdev)
{
	struct test_gpu *gpu = pci_get_drvdata(pdev);

	debugfs_remove_recursive(gpu->dir);
	vga_switcheroo_unregister_client(pdev);
}

static const struct pci_device_id test_gpu_ids[] = {
	{ PCI_DEVICE(0x1234, 0x1111) },	/* QEMU VGA and secondary-vga */
	{ }
};

static struct pci_driver test_gpu_driver = {
	.name		= "macsupport_test_gpu",
	.id_table	= test_gpu_ids,
	.probe		= test_gpu_probe,
	.remove		= test_gpu_remove,
};

static int __init test_gpu_init(void)
{
	int ret;

	test_gpu_root = debugfs_create_dir("macsupport_test_gpu", NULL);
	debugfs_create_file("defers", 0444, test_gpu_root, NULL, &test_gpu_defers_fops);
	debugfs_create_bool("can_switch", 0600, test_gpu_root, &test_gpu_can_switch);
	debugfs_create_file("lastclose", 0200, test_gpu_root, NULL, &test_gpu_lastclose_fops);
	ret = pci_register_driver(&test_gpu_driver);
	if (ret)
		debugfs_remove_recursive(test_gpu_root);
	return ret;
}
module_init(test_gpu_init);

static void __exit test_gpu_exit(void)
{
	pci_unregister_driver(&test_gpu_driver);
	debugfs_remove_recursive(test_gpu_root);
}
module_exit(test_gpu_exit);

MODULE_DESCRIPTION("TEST ONLY: fake GPU driver registering QEMU's display devices with vga_switcheroo");
MODULE_LICENSE("GPL");
MODULE_INFO(test, "Y");
