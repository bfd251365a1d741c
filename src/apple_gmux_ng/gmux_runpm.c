// SPDX-License-Identifier: GPL-2.0
/*
 * apple_gmux_ng - automatic power-off of the discrete GPU
 *
 * Copyright (C) 2026 The macsupport developers
 */

#include <linux/acpi.h>
#include <linux/atomic.h>
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/device.h>
#include <linux/pci.h>
#include <linux/pm_runtime.h>
#include <linux/seq_file.h>
#include <linux/suspend.h>
#include <linux/vgaarb.h>
#include <linux/wait.h>
#include <linux/slab.h>

#include "gmux.h"

/**
 * DOC: Automatic power-off of the discrete GPU
 *
 * The gmux is the discrete GPU's power switch. The driver gives that switch
 * a device of its own, "dgpu_power", a child of the gmux, and makes the
 * discrete GPU (function 0) its runtime-PM consumer through a device link
 * (DL_FLAG_PM_RUNTIME). The PM core does the rest:
 *
 * - the other functions of the GPU's slot (its HDMI audio), which lose
 *   power with it, are consumers of the switch as well;
 * - once the GPU's driver has runtime-suspended the GPU and its audio is
 *   suspended, the switch has no user left and runtime-suspends: the driver
 *   cuts the GPU's power through DISCRETE_POWER, if the panel is on the
 *   integrated GPU;
 * - before the GPU's driver runtime-resumes the GPU, the PM core resumes
 *   the switch: the driver powers the GPU, waits (dgpu_alive_ms) until it
 *   answers config reads, and the PCI core then restores its state. A GPU
 *   that does not come back is reported and its resume fails, instead of
 *   being handed to its driver dead; the runtime-PM error this leaves on
 *   the switch and on the GPU is cleared from a work item, so that the
 *   next resume tries again (the PM core would refuse it for good).
 * - after a cut the GPU and its siblings are D3cold to the PCI core: a
 *   config read (lspci) resumes them instead of reading all-ones.
 *
 * Why not a PM domain, as vga_switcheroo_init_domain_pm_ops() does on
 * muxless laptops: a PM domain can only be set on a device that has no
 * driver (dev_pm_domain_set() WARNs otherwise), so a GPU driver loaded
 * before this module would keep its GPU powered for good. A device link can
 * be added to a bound device at any time, in either load order, and is
 * removed as easily.
 *
 * A GPU without a driver (an owner who blacklisted nouveau, radeon or
 * amdgpu) is of no use to anyone: it is cut too, unless dgpu_no_driver_off
 * is 0. The PCI core leaves runtime PM of a function without a driver
 * forbidden (power/control "on"); the driver allows it on the GPU and on
 * each function of its slot that has no driver, with an autosuspend delay
 * (dgpu_autosuspend_ms, else 5 s), and the PCI core's runtime suspend of
 * a function without a driver saves its config space and leaves it in D0:
 * once every function of the slot is suspended, the switch suspends and
 * cuts the slot as above. Nothing of its own powers it again, the kernel
 * does: a config read (lspci, sysfs) resumes it as for any cut GPU, and a
 * driver that binds later finds it powered, because the driver core
 * resumes a device's runtime-PM suppliers (the switch, through the device
 * link) before probing it (pm_runtime_get_suppliers() in
 * __driver_probe_device()), and the PCI core resumes the device itself,
 * restoring its state, before the driver's probe (local_pci_probe()).
 * At BUS_NOTIFY_BIND_DRIVER the driver gives the function back what it
 * changed (power/control, autosuspend), so that the binding driver finds
 * the PCI core's defaults; it takes it again if the probe fails or the
 * driver unbinds. A system suspend neither wakes nor reads it: a cut
 * function is D3cold to the PCI core, whose pci_pm_prepare() then lets it
 * take the direct-complete path (pci_target_state() is D3cold for a
 * device in D3cold that the platform does not power-manage, and the GFX0
 * of MacBookPro8,2, 10,1, 11,3, 13,3 and 15,1 has no _PSx or _PRx; a
 * function whose ACPI companion the platform does power-manage is never
 * taken, nor the boot VGA device, whose memory efifb or simpledrm may
 * still scan out of; see gmux_runpm_nodrv_wanted()). A
 * hibernation would save and restore the config space of a function
 * without a driver in its noirq phases, runtime suspended or not: the
 * driver resumes such functions for it (a PM notifier) and lets them go
 * after. The HDMI audio of a GPU without a
 * driver, if snd_hda_intel has it, never suspends: hda_intel keeps its
 * power (keep_power) until vga_switcheroo binds it to its GPU's driver,
 * and stay_on_reason names it.
 *
 * What it needs: the GPU's driver must use runtime PM on this machine, and
 * a resume that expects a cold chip. nouveau: only with runpm=1 (its
 * Optimus checks fail on Macs; the bundle's modprobe.d rule sets it where
 * this driver has linked the GPU); its runtime resume re-POSTs the chip,
 * as after a cut. radeon: never on a Mac (runtime PM needs ATPX, which no
 * Mac has; radeon.runpm=1 changes nothing), so its GPU stays powered
 * unless switched OFF through vga_switcheroo (see DOC: dGPU power for how
 * that and this share the power's one record). amdgpu: runtime-suspends by
 * default into BACO where the chip claims it, and BACO's resume needs the
 * chip powered: the power is never cut under amdgpu, neither by runtime PM
 * nor by vga_switcheroo's OFF. Power is not cut
 * while the panel is on the discrete GPU, while dgpu_runtime_off=0, or
 * while another function of the GPU's slot (its audio) is active or has no
 * driver while dgpu_no_driver_off=0.
 *
 * A cut refused (-EBUSY) is not retried by the PM core: setting
 * dgpu_runtime_off and switching the panel to the integrated GPU ask the
 * switch again (pm_request_idle()). A Thunderbolt-attached GPU is never
 * taken for the gmux's. When the audio function is removed only its link
 * goes; it is linked again when it comes back (PCI bus notifier).
 *
 * The switch's power/runtime_status in sysfs is "suspended" while the GPU
 * is off; runtime_active_time and runtime_suspended_time tell for how long.
 * After a system sleep the driver cuts the power again if it had cut it
 * before: the firmware may power the GPU on when the machine wakes.
 */

/* The switches of every bound gmux, for a change of dgpu_runtime_off. */
static DEFINE_MUTEX(gmux_runpm_list_lock);
static LIST_HEAD(gmux_runpm_list);

static bool dgpu_runtime_off = true;

static void gmux_runpm_nodrv_sync(struct apple_gmux_ng *gmux);

/*
 * dgpu_runtime_off and dgpu_no_driver_off: take or give back the functions
 * without a driver, and ask again (a refused cut is not retried by itself).
 */
static int gmux_param_set_runtime_off(const char *val, const struct kernel_param *kp)
{
	struct gmux_runpm *rp;
	int ret;

	ret = param_set_bool(val, kp);
	if (ret)
		return ret;
	mutex_lock(&gmux_runpm_list_lock);
	list_for_each_entry(rp, &gmux_runpm_list, node) {
		gmux_runpm_nodrv_sync(container_of(rp, struct apple_gmux_ng, runpm));
		pm_request_idle(rp->power_dev);
	}
	mutex_unlock(&gmux_runpm_list_lock);
	return 0;
}

static const struct kernel_param_ops gmux_runtime_off_ops = {
	.set	= gmux_param_set_runtime_off,
	.get	= param_get_bool,
};

module_param_cb(dgpu_runtime_off, &gmux_runtime_off_ops, &dgpu_runtime_off, 0644);
__MODULE_PARM_TYPE(dgpu_runtime_off, "bool");
MODULE_PARM_DESC(dgpu_runtime_off,
		 "Cut the discrete GPU's power when its driver runtime-suspends it and the panel is on the integrated GPU (default: on)");

static bool dgpu_no_driver_off = true;

static const struct kernel_param_ops gmux_no_driver_off_ops = {
	.set	= gmux_param_set_runtime_off,
	.get	= param_get_bool,
};

module_param_cb(dgpu_no_driver_off, &gmux_no_driver_off_ops, &dgpu_no_driver_off, 0644);
__MODULE_PARM_TYPE(dgpu_no_driver_off, "bool");
MODULE_PARM_DESC(dgpu_no_driver_off,
		 "Cut the discrete GPU's power also while it has no driver (blacklisted), once unused and the panel is on the integrated GPU (default: on)");

/* Autosuspend delay of a function without a driver, unless dgpu_autosuspend_ms */
#define GMUX_NODRV_AUTOSUSPEND_MS	5000

static int dgpu_autosuspend_ms = -1;
module_param(dgpu_autosuspend_ms, int, 0444);
MODULE_PARM_DESC(dgpu_autosuspend_ms,
		 "Runtime-PM autosuspend delay to give the discrete GPU when its driver binds, and its functions while they have no driver, in ms (default: -1, keep its driver's; 5000 without one)");

static unsigned int test_unlink_delay_ms;
module_param(test_unlink_delay_ms, uint, 0644);
MODULE_PARM_DESC(test_unlink_delay_ms,
		 "TEST ONLY (QEMU harness): sleep this long (ms, at most 5000) when the gmux is removed, before the dGPU is unlinked, so that a test can remove a device meanwhile");

static struct apple_gmux_ng *gmux_runpm_from_dev(struct device *dev)
{
	return dev_get_drvdata(dev);
}

/*
 * Why @dev (@what), a function of the GPU's slot without a driver, is not
 * runtime-suspended, while dgpu_no_driver_off lets it be cut.
 */
static void gmux_runpm_no_driver_why(struct device *dev, const char *what, char *why,
				     size_t len)
{
	if (!dev->power.runtime_auto)
		snprintf(why, len, "%s has no driver, and its power/control is on", what);
	else if (!pm_runtime_enabled(dev))
		snprintf(why, len, "%s has no driver, and its runtime PM is disabled", what);
	else
		snprintf(why, len,
			 "%s has no driver and is in use (a config access, or its autosuspend delay)",
			 what);
}

/* gmux_runpm_blocked() for the other functions of the GPU's slot */
static bool gmux_runpm_siblings_blocked(struct gmux_runpm *rp, char *why, size_t len)
{
	struct pci_dev *f;
	unsigned int fn;

	for (fn = 0; fn < GMUX_DGPU_FUNCS; fn++) {
		f = rp->sibling[fn];
		if (!f)
			continue;
		if (!f->dev.driver && !dgpu_no_driver_off) {
			snprintf(why, len, "%s has no driver (dgpu_no_driver_off=0)", pci_name(f));
			return true;
		}
		if (!pm_runtime_suspended(&f->dev)) {
			if (!f->dev.driver)
				gmux_runpm_no_driver_why(&f->dev, pci_name(f), why, len);
			else
				snprintf(why, len, "%s is active", pci_name(f));
			return true;
		}
	}
	return false;
}

/* An active function of the slot without a driver: true, named in @why. */
static bool gmux_runpm_nodrv_sibling_why(struct gmux_runpm *rp, char *why, size_t len)
{
	struct pci_dev *f;
	unsigned int fn;

	for (fn = 0; fn < GMUX_DGPU_FUNCS; fn++) {
		f = rp->sibling[fn];
		if (f && !READ_ONCE(f->dev.driver) && !pm_runtime_suspended(&f->dev)) {
			gmux_runpm_no_driver_why(&f->dev, pci_name(f), why, len);
			return true;
		}
	}
	return false;
}

/*
 * Called with rp->lock held: true if the power must stay on, the reason
 * in @why (@len bytes). Changes nothing.
 */
static bool gmux_runpm_blocked(struct apple_gmux_ng *gmux, char *why, size_t len)
{
	struct gmux_runpm *rp = &gmux->runpm;
	struct pci_dev *dgpu = rp->dgpu;

	if (!dgpu_runtime_off) {
		strscpy(why, "dgpu_runtime_off=0", len);
		return true;
	}
	if (!dgpu) {
		strscpy(why, "no discrete GPU", len);
		return true;
	}
	if (!dgpu->dev.driver && !dgpu_no_driver_off) {
		strscpy(why, "the discrete GPU has no driver (dgpu_no_driver_off=0)", len);
		return true;
	}
	/*
	 * amdgpu's runtime suspend is BACO (bus active, chip off): its
	 * resume (amdgpu_pmops_runtime_resume) sends a BACO exit to the SMU,
	 * which does not answer once the gmux has cut the power, and the GPU
	 * is dead until reboot (as owners of MacBookPro15,x/16,1 report).
	 * The GPU suspended by its driver is in D3hot with BACO's savings;
	 * the gmux leaves it powered, and refuses vga_switcheroo's OFF too
	 * (gmux_vga_power_state()). Said first, whatever else holds the GPU:
	 * it is the reason the power stays, with or without runtime PM
	 * (amdgpu has none where the chip does not claim BACO). What amdgpu
	 * does now is added: the module cannot see why amdgpu keeps the GPU
	 * active (its runtime idle refuses while a connector is connected or
	 * a CRTC lit, amdgpu_runtime_idle_check_display(), or a user holds it).
	 */
	if (gmux_pci_driver_needs_power(dgpu)) {
		snprintf(why, len, "amdgpu: never cut, its BACO needs power; %s",
			 pm_runtime_status_suspended(&dgpu->dev) ? "in BACO" :
			 !dgpu->dev.power.runtime_auto ? "no runtime PM" :
			 "active (in use, or a display connected or lit)");
		return true;
	}
	/*
	 * Its link keeps the switch active while it is, except while the
	 * link is being deleted or added.
	 */
	if (!pm_runtime_status_suspended(&dgpu->dev)) {
		/*
		 * Without a driver of its own, what keeps it resumed is
		 * mostly its audio, a runtime-PM consumer of it (the audio
		 * links of DOC: Graphics mux): named first. Under a driver
		 * that allows runtime PM, an audio function without one
		 * (never taken there, see gmux_runpm_nodrv_wanted()) holds
		 * it the same way: named too.
		 */
		if (!dgpu->dev.driver) {
			if (!gmux_runpm_siblings_blocked(rp, why, len))
				gmux_runpm_no_driver_why(&dgpu->dev, "the discrete GPU", why, len);
		} else if (!dgpu->dev.power.runtime_auto) {
			strscpy(why, "its driver does not let it runtime-suspend", len);
		} else if (gmux_runpm_nodrv_sibling_why(rp, why, len)) {
			/* named */
		} else {
			strscpy(why,
				"its driver keeps the discrete GPU active (in use, a display lit)",
				len);
		}
		return true;
	}
	if (!gmux_panel_on_igd(gmux)) {
		if (gmux_igd_without_panel(gmux))
			strscpy(why,
				"the panel is on the discrete GPU; the iGPU's driver probed without it (see force_igd)",
				len);
		else
			strscpy(why, "the panel is on the discrete GPU", len);
		return true;
	}
	return gmux_runpm_siblings_blocked(rp, why, len);
}

/*
 * Called with rp->lock held, the power cut: the GPU and its siblings lost
 * it, so their next resume restores them from D3cold, and a config read
 * (lspci, sysfs) resumes them first (pci_config_pm_runtime_get()) instead
 * of reading all-ones. What tb_macpm does for its devices.
 */
static void gmux_runpm_mark_d3cold(struct gmux_runpm *rp)
{
	unsigned int fn;

	rp->dgpu->current_state = PCI_D3cold;
	for (fn = 0; fn < GMUX_DGPU_FUNCS; fn++)
		if (rp->sibling[fn])
			rp->sibling[fn]->current_state = PCI_D3cold;
}

static int gmux_dgpu_power_runtime_suspend(struct device *dev)
{
	struct apple_gmux_ng *gmux = gmux_runpm_from_dev(dev);
	struct gmux_runpm *rp = &gmux->runpm;
	int ret;

	mutex_lock(&rp->lock);
	if (gmux_runpm_blocked(gmux, rp->blocker, sizeof(rp->blocker))) {
		rp->blocked++;
		ret = -EBUSY;
		goto out;
	}
	ret = gmux_power_set(gmux, false, GMUX_POWER_RUNTIME_PM);
	if (ret < 0) {
		rp->errors++;
		/*
		 * The gmux may have cut the power all the same, too late or
		 * without saying so. "It stays on" must be true: ask for the
		 * power again. If that is not confirmed either, the power is
		 * not known, and so the next resume powers the GPU and checks
		 * that it answers before its driver runs.
		 */
		if (gmux_power_set(gmux, true, GMUX_POWER_RUNTIME_PM) >= 0) {
			dev_warn(&gmux->pnp->dev, "cannot cut the power of the dGPU %s: %pe; it stays on\n",
				 pci_name(rp->dgpu), ERR_PTR(ret));
			ret = -EAGAIN;
			goto out;
		}
		dev_warn(&gmux->pnp->dev, "dGPU %s: power unknown after a failed cut (%pe): taken as off, powered on its next resume\n",
			 pci_name(rp->dgpu), ERR_PTR(ret));
	} else if (ret) {
		rp->offs++;
	}
	/* vga_switcheroo may have had it off already: nothing was cut then */
	ret = 0;
	rp->blocker[0] = '\0';
	gmux_runpm_mark_d3cold(rp);
	dev_dbg(&gmux->pnp->dev, "dGPU %s powered off\n", pci_name(rp->dgpu));
out:
	mutex_unlock(&rp->lock);
	return ret;
}

/* Called with rp->lock held. */
static int gmux_dgpu_power_on(struct apple_gmux_ng *gmux)
{
	struct gmux_runpm *rp = &gmux->runpm;
	struct device *dev = &gmux->pnp->dev;
	int ret;

	ret = gmux_power_set(gmux, true, GMUX_POWER_RUNTIME_PM);
	if (ret < 0) {
		rp->errors++;
		dev_err(dev, "cannot power the dGPU %s on: %pe\n",
			rp->dgpu ? pci_name(rp->dgpu) : "", ERR_PTR(ret));
		return -EIO;
	}
	/* it was on: nothing to wait for */
	if (!ret)
		return 0;
	rp->ons++;
	if (rp->dgpu && gmux_power_wait_alive(rp->dgpu)) {
		u32 id = 0;

		pci_read_config_dword(rp->dgpu, PCI_VENDOR_ID, &id);
		rp->dead++;
		dev_err(dev, "the dGPU %s does not answer %u ms after power-on (reads 0x%08x); not resuming it\n",
			pci_name(rp->dgpu), gmux_power_alive_ms(), id);
		/* off again: the next resume tries a whole power cycle */
		gmux_power_set(gmux, false, GMUX_POWER_RUNTIME_PM);
		return -ENODEV;
	}
	/*
	 * The PCI core runs no resume fixups on a function without a driver
	 * (pci_pm_runtime_resume() stops once it restored it): an NVIDIA
	 * dGPU would keep its HDMI audio hidden after the cut until
	 * quirk_nvidia_hda sets bit 25 of config 0x488 of function 0 again,
	 * and the audio's driver would find all-ones. Run them for a dGPU
	 * without a driver here, once it answers, as gmux_power.c does when
	 * it powers one for a sleep; with a driver, the PCI core runs them
	 * when it resumes function 0, before function 1 (its consumer).
	 * Here they run before the PCI core restores function 0 (its
	 * runtime resume comes after its supplier's, this one): in 6.1 the
	 * resume_early fixups that match a dGPU of a Mac are NVIDIA's
	 * quirk_nvidia_hda and nv_msi_ht_cap_quirk_leaf, both config-space
	 * only; none matches an AMD one.
	 */
	if (rp->dgpu && !READ_ONCE(rp->dgpu->dev.driver))
		pci_fixup_device(pci_fixup_resume_early, rp->dgpu);
	dev_dbg(dev, "dGPU %s powered on\n", rp->dgpu ? pci_name(rp->dgpu) : "");
	return 0;
}

static int gmux_dgpu_power_runtime_resume(struct device *dev)
{
	struct gmux_runpm *rp = &gmux_runpm_from_dev(dev)->runpm;
	int ret;

	mutex_lock(&rp->lock);
	ret = gmux_dgpu_power_on(gmux_runpm_from_dev(dev));
	mutex_unlock(&rp->lock);
	/* the PM core keeps the error on the switch and on the consumer */
	if (ret)
		schedule_work(&rp->recover_work);
	return ret;
}

/*
 * A resume of @dev that failed (the switch's own, or a consumer's whose
 * supplier, the switch, failed to resume) leaves power.runtime_error set,
 * and the PM core then refuses every later resume of @dev with -EINVAL,
 * even after a reload of this driver. @dev's status is still SUSPENDED,
 * and so it is: say it again, which clears the error, so that the next
 * resume tries again. Process context; not with rp->lock held.
 */
static void gmux_runpm_clear_error(struct device *dev)
{
	bool stuck;

	/* a resume under way ends first (its error is then recorded) */
	pm_runtime_barrier(dev);
	spin_lock_irq(&dev->power.lock);
	stuck = dev->power.runtime_error && dev->power.runtime_status == RPM_SUSPENDED;
	spin_unlock_irq(&dev->power.lock);
	if (stuck && !pm_runtime_set_suspended(dev))
		dev_dbg(dev, "runtime PM error after a failed dGPU power-on cleared\n");
}

static void gmux_runpm_recover_work(struct work_struct *work)
{
	struct gmux_runpm *rp = container_of(work, struct gmux_runpm, recover_work);
	unsigned int fn;

	mutex_lock(&rp->link_lock);
	gmux_runpm_clear_error(rp->power_dev);
	if (rp->dgpu)
		gmux_runpm_clear_error(&rp->dgpu->dev);
	for (fn = 0; fn < GMUX_DGPU_FUNCS; fn++)
		if (rp->sibling[fn])
			gmux_runpm_clear_error(&rp->sibling[fn]->dev);
	mutex_unlock(&rp->link_lock);
}

/* An external display was plugged: have the dGPU's driver look (see gmux_runpm_hotplug()). */
static void gmux_runpm_hotplug_work(struct work_struct *work)
{
	struct gmux_runpm *rp = container_of(work, struct gmux_runpm, hotplug_work);

	mutex_lock(&rp->lock);
	if (rp->dgpu) {
		pm_request_resume(&rp->dgpu->dev);
		rp->hotplug_wakes++;
	}
	mutex_unlock(&rp->lock);
}

static const struct dev_pm_ops gmux_dgpu_power_pm_ops = {
	SET_RUNTIME_PM_OPS(gmux_dgpu_power_runtime_suspend, gmux_dgpu_power_runtime_resume, NULL)
};

/*
 * Switch devices not yet released. Their release and their device type are
 * this module's, and the driver core may release them long after they were
 * unregistered: a device link drops its reference from a workqueue, and
 * CONFIG_DEBUG_KOBJECT_RELEASE delays every release by seconds. Module
 * exit waits for the last one (gmux_runpm_wait_released()).
 */
static atomic_t gmux_power_devs = ATOMIC_INIT(0);
static DECLARE_WAIT_QUEUE_HEAD(gmux_power_devs_wq);

static void gmux_dgpu_power_release(struct device *dev)
{
	kfree(dev);
	if (atomic_dec_and_test(&gmux_power_devs))
		wake_up(&gmux_power_devs_wq);
}

/**
 * gmux_runpm_wait_released() - wait until every switch device is released
 *
 * Called from module exit, after the driver is unregistered.
 */
void gmux_runpm_wait_released(void)
{
	wait_event(gmux_power_devs_wq, !atomic_read(&gmux_power_devs));
}

/*
 * sysfs stay_on_reason: why the dGPU is powered now, for users and
 * macsupport-report; "none" while it is off, or when nothing keeps it on.
 */
static ssize_t stay_on_reason_show(struct device *dev, struct device_attribute *attr,
				   char *buf)
{
	struct apple_gmux_ng *gmux = gmux_runpm_from_dev(dev);
	struct gmux_runpm *rp = &gmux->runpm;
	char why[sizeof(rp->blocker)];
	enum gmux_power_user who;
	int state;

	/* computed now; debugfs last_blocker keeps the switch's last attempt */
	mutex_lock(&rp->lock);
	state = gmux_power_state(gmux, &who);
	if (state < 0 && who != GMUX_POWER_NOBODY)
		strscpy(why, "the gmux did not confirm the last power change", sizeof(why));
	else if (!state || !gmux_runpm_blocked(gmux, why, sizeof(why)))
		strscpy(why, "none", sizeof(why));
	mutex_unlock(&rp->lock);
	return sysfs_emit(buf, "%s\n", why);
}
static DEVICE_ATTR_RO(stay_on_reason);

/* sysfs state: the dGPU's power as the gmux last set it; off_by: who cut it */
static ssize_t state_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	int state = gmux_power_state(gmux_runpm_from_dev(dev), NULL);

	return sysfs_emit(buf, "%s\n", state < 0 ? "unknown" : state ? "on" : "off");
}
static DEVICE_ATTR_RO(state);

static ssize_t off_by_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	enum gmux_power_user who;

	gmux_power_state(gmux_runpm_from_dev(dev), &who);
	return sysfs_emit(buf, "%s\n", gmux_power_user_name(who));
}
static DEVICE_ATTR_RO(off_by);

/* sysfs on_ms, off_ms: the power owner's residency since the module took the gmux */
static ssize_t gmux_dgpu_power_time_show(struct device *dev, char *buf, bool want_off)
{
	u64 on_ms, off_ms;

	gmux_power_residency(gmux_runpm_from_dev(dev), &on_ms, &off_ms);
	return sysfs_emit(buf, "%llu\n", want_off ? off_ms : on_ms);
}

static ssize_t on_ms_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	return gmux_dgpu_power_time_show(dev, buf, false);
}
static DEVICE_ATTR_RO(on_ms);

static ssize_t off_ms_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	return gmux_dgpu_power_time_show(dev, buf, true);
}
static DEVICE_ATTR_RO(off_ms);

static struct attribute *gmux_dgpu_power_attrs[] = {
	&dev_attr_stay_on_reason.attr,
	&dev_attr_state.attr,
	&dev_attr_off_by.attr,
	&dev_attr_on_ms.attr,
	&dev_attr_off_ms.attr,
	NULL
};
ATTRIBUTE_GROUPS(gmux_dgpu_power);

static const struct device_type gmux_dgpu_power_type = {
	.name		= "gmux_dgpu_power",
	.groups		= gmux_dgpu_power_groups,
	.pm		= &gmux_dgpu_power_pm_ops,
	.release	= gmux_dgpu_power_release,
};

/*
 * Hold @dev (the switch, the dGPU or a function of its slot) for a change
 * of a link: resumed, so that the switch stays active meanwhile. Not
 * while vga_switcheroo has the dGPU switched OFF: there is no power to
 * keep then, and the slot's drivers take their devices for off until ON
 * (radeon keeps its GPU's usage count, hda_intel disables runtime PM of
 * its function); resuming the switch would power the dGPU behind their
 * backs, and resuming a function that allows it would meet all-ones.
 * Held where it is then.
 */
static void gmux_runpm_hold(struct apple_gmux_ng *gmux, struct device *dev)
{
	enum gmux_power_user who;

	if (!gmux_power_state(gmux, &who) && who == GMUX_POWER_SWITCHEROO)
		pm_runtime_get_noresume(dev);
	else
		pm_runtime_get_sync(dev);
}

/*
 * Flags of a runtime-PM link from @dev, held: RPM_ACTIVE unless it is
 * suspended (also while its runtime PM is disabled: a link counted active
 * then would keep the switch active until it is deleted).
 */
static u32 gmux_runpm_link_flags(struct device *dev)
{
	return DL_FLAG_STATELESS | DL_FLAG_PM_RUNTIME |
	       (pm_runtime_status_suspended(dev) ? 0 : DL_FLAG_RPM_ACTIVE);
}

/* @f's driver, NULL for @leaving (at BUS_NOTIFY_DRIVER_NOT_BOUND, still set) */
static struct device_driver *gmux_runpm_drv(struct pci_dev *f, struct pci_dev *leaving)
{
	return f == leaving ? NULL : READ_ONCE(f->dev.driver);
}

/*
 * Is @f a function to take (gmux_runpm_nodrv_take()): without a driver, in
 * a slot whose GPU has none either, linked to the switch? Not under a GPU
 * driver: vga_switcheroo may cut the power without runtime PM (its OFF), and
 * a driverless function taken then would runtime-suspend later and have the
 * PCI core save its state from a chip without power; such a function stays
 * as the PCI core left it and keeps the power on ("has no driver, and its
 * power/control is on"). Not the boot VGA device: efifb or simpledrm may
 * scan out of its memory with no PCI driver bound (a Mac booted on the
 * dGPU). Not a function the platform power-manages (an ACPI _PSx/_PRx): a
 * system suspend takes the direct-complete path past a cut function only
 * where it does not (pci_target_state()), else the PCI core would save its
 * config space from a chip without power. @leaving: a function whose driver
 * is going (its pointer still set), or NULL. rp->link_lock held.
 */
static bool gmux_runpm_nodrv_wanted(struct gmux_runpm *rp, struct pci_dev *f,
				    struct pci_dev *leaving)
{
	unsigned int fn = PCI_FUNC(f->devfn);
	struct acpi_device *adev = ACPI_COMPANION(&f->dev);

	if (!dgpu_no_driver_off || !rp->dgpu || gmux_runpm_drv(f, leaving) ||
	    gmux_runpm_drv(rp->dgpu, leaving))
		return false;
	if (f == rp->dgpu ? !rp->link : !rp->sibling_link[fn])
		return false;
	if (vga_default_device() == rp->dgpu)
		return false;
	return !(adev && acpi_device_power_manageable(adev));
}

/*
 * A function of the linked GPU's slot without a driver: let it
 * runtime-suspend when unused (see DOC: Automatic power-off of the
 * discrete GPU), noting what it had, for gmux_runpm_nodrv_give(). Called
 * with rp->link_lock held. A driver binding meanwhile waits in the PCI
 * notifier (BUS_NOTIFY_BIND_DRIVER) for the lock, and gives it back then.
 */
static void gmux_runpm_nodrv_take_now(struct gmux_runpm *rp, struct pci_dev *f)
{
	struct gmux_runpm_nodrv *nd = &rp->nodrv[PCI_FUNC(f->devfn)];
	struct device *dev = &f->dev;

	lockdep_assert_held(&rp->link_lock);
	nd->taken = true;
	spin_lock_irq(&dev->power.lock);
	nd->was_forbidden = !dev->power.runtime_auto;
	nd->was_autosuspend = dev->power.use_autosuspend;
	nd->delay = dev->power.autosuspend_delay;
	spin_unlock_irq(&dev->power.lock);
	pm_runtime_set_autosuspend_delay(dev, dgpu_autosuspend_ms >= 0 ? dgpu_autosuspend_ms :
					 GMUX_NODRV_AUTOSUSPEND_MS);
	pm_runtime_use_autosuspend(dev);
	pm_runtime_mark_last_busy(dev);
	pm_runtime_allow(dev);
	dev_dbg(dev, "no driver: runtime PM allowed, so that apple_gmux_ng can cut it when unused\n");
}

static void gmux_runpm_nodrv_take(struct gmux_runpm *rp, struct pci_dev *f)
{
	lockdep_assert_held(&rp->link_lock);
	if (!rp->nodrv[PCI_FUNC(f->devfn)].taken && gmux_runpm_nodrv_wanted(rp, f, NULL))
		gmux_runpm_nodrv_take_now(rp, f);
}

/*
 * Undo gmux_runpm_nodrv_take(): what the PCI core gave the function (its
 * runtime PM forbidden, which resumes it, the power first), before a
 * driver probes it or when it is unlinked. rp->link_lock held.
 */
static void gmux_runpm_nodrv_give(struct gmux_runpm *rp, struct pci_dev *f)
{
	struct gmux_runpm_nodrv *nd = &rp->nodrv[PCI_FUNC(f->devfn)];
	struct device *dev = &f->dev;

	lockdep_assert_held(&rp->link_lock);
	if (!nd->taken)
		return;
	nd->taken = false;
	if (nd->hibernation) {
		nd->hibernation = false;
		pm_runtime_put_noidle(dev);
	}
	if (nd->was_forbidden)
		pm_runtime_forbid(dev);
	if (!nd->was_autosuspend)
		pm_runtime_dont_use_autosuspend(dev);
	pm_runtime_set_autosuspend_delay(dev, nd->delay);
}

/* The linked function @fn of the GPU's slot, or NULL; rp->link_lock held. */
static struct pci_dev *gmux_runpm_fn(struct gmux_runpm *rp, unsigned int fn)
{
	if (!rp->dgpu)
		return NULL;
	return PCI_FUNC(rp->dgpu->devfn) == fn ? rp->dgpu : rp->sibling[fn];
}

/* The GPU or a linked function of its slot? rp->link_lock held. */
static bool gmux_runpm_is_linked(struct gmux_runpm *rp, struct pci_dev *pdev)
{
	return pdev && gmux_runpm_fn(rp, PCI_FUNC(pdev->devfn)) == pdev;
}

/*
 * Take what gmux_runpm_nodrv_wanted() wants, give back the rest: after
 * dgpu_no_driver_off changed, or a driver bound or left a function of the
 * slot (@leaving: the function whose driver is going, or NULL).
 * rp->link_lock held.
 */
static void gmux_runpm_nodrv_update(struct gmux_runpm *rp, struct pci_dev *leaving)
{
	struct pci_dev *f;
	unsigned int fn;

	lockdep_assert_held(&rp->link_lock);
	for (fn = 0; fn < GMUX_DGPU_FUNCS; fn++) {
		f = gmux_runpm_fn(rp, fn);
		if (!f)
			continue;
		if (!gmux_runpm_nodrv_wanted(rp, f, leaving))
			gmux_runpm_nodrv_give(rp, f);
		else if (!rp->nodrv[fn].taken)
			gmux_runpm_nodrv_take_now(rp, f);
	}
}

/* dgpu_no_driver_off changed: take or give back what has no driver. */
static void gmux_runpm_nodrv_sync(struct apple_gmux_ng *gmux)
{
	struct gmux_runpm *rp = &gmux->runpm;

	mutex_lock(&rp->link_lock);
	gmux_runpm_nodrv_update(rp, NULL);
	mutex_unlock(&rp->link_lock);
}

/*
 * The other functions of the dGPU's slot (its HDMI audio) lose power with
 * it: make them consumers of the switch too, so that it suspends only once
 * all of them have, and resumes before any of them does. Called with
 * rp->link_lock held, for one function of the linked GPU's slot.
 */
static void gmux_runpm_link_sibling(struct apple_gmux_ng *gmux, struct pci_dev *f)
{
	struct gmux_runpm *rp = &gmux->runpm;
	unsigned int fn = PCI_FUNC(f->devfn);
	struct device_link *link;

	lockdep_assert_held(&rp->link_lock);
	if (rp->sibling[fn])
		return;
	gmux_runpm_hold(gmux, &f->dev);
	link = device_link_add(&f->dev, rp->power_dev, gmux_runpm_link_flags(&f->dev));
	/* kept unlinked all the same: gmux_runpm_blocked() looks at it */
	if (!link)
		dev_warn(&gmux->pnp->dev, "cannot link %s to the gmux: the dGPU's power stays on while it is active\n",
			 pci_name(f));
	rp->sibling_link[fn] = link;
	mutex_lock(&rp->lock);
	rp->sibling[fn] = pci_dev_get(f);
	mutex_unlock(&rp->lock);
	gmux_runpm_nodrv_take(rp, f);
	pm_runtime_put(&f->dev);
}

static void gmux_runpm_link_siblings(struct apple_gmux_ng *gmux, struct pci_dev *dgpu)
{
	struct pci_dev *f;
	unsigned int fn;

	for (fn = 0; fn < GMUX_DGPU_FUNCS; fn++) {
		if (fn == PCI_FUNC(dgpu->devfn))
			continue;
		f = pci_get_slot(dgpu->bus, PCI_DEVFN(PCI_SLOT(dgpu->devfn), fn));
		if (!f)
			continue;
		gmux_runpm_link_sibling(gmux, f);
		pci_dev_put(f);
	}
}

/* Undo gmux_runpm_link_sibling() for function @fn; rp->link_lock held. */
static void gmux_runpm_unlink_sibling(struct apple_gmux_ng *gmux, unsigned int fn)
{
	struct gmux_runpm *rp = &gmux->runpm;
	struct pci_dev *f = rp->sibling[fn];

	lockdep_assert_held(&rp->link_lock);
	if (!f)
		return;
	gmux_runpm_nodrv_give(rp, f);
	if (rp->sibling_link[fn]) {
		gmux_runpm_clear_error(&f->dev);
		gmux_runpm_hold(gmux, &f->dev);
		device_link_del(rp->sibling_link[fn]);
		pm_runtime_put(&f->dev);
		rp->sibling_link[fn] = NULL;
	}
	mutex_lock(&rp->lock);
	rp->sibling[fn] = NULL;
	mutex_unlock(&rp->lock);
	pci_dev_put(f);
}

/* Is @pdev another function of the linked dGPU's slot? rp->link_lock held. */
static bool gmux_runpm_is_sibling(struct gmux_runpm *rp, struct pci_dev *pdev)
{
	struct pci_dev *dgpu = rp->dgpu;

	return dgpu && pdev != dgpu && pdev->bus == dgpu->bus &&
	       PCI_SLOT(pdev->devfn) == PCI_SLOT(dgpu->devfn);
}

/* Link @dgpu to the power switch (not held: rp->link_lock is). */
static void gmux_runpm_link(struct apple_gmux_ng *gmux, struct pci_dev *dgpu)
{
	struct gmux_runpm *rp = &gmux->runpm;
	struct device_driver *drv;
	struct device_link *link;
	const char *note = "";

	lockdep_assert_held(&rp->link_lock);
	if (rp->dgpu || rp->dying)
		return;
	/* held while it is linked (active, unless switched OFF) */
	gmux_runpm_hold(gmux, &dgpu->dev);
	mutex_lock(&rp->lock);
	rp->dgpu = pci_dev_get(dgpu);
	mutex_unlock(&rp->lock);
	link = device_link_add(&dgpu->dev, rp->power_dev, gmux_runpm_link_flags(&dgpu->dev));
	if (!link) {
		dev_warn(&gmux->pnp->dev, "cannot link the dGPU %s to the gmux: its power stays on\n",
			 pci_name(dgpu));
		mutex_lock(&rp->lock);
		rp->dgpu = NULL;
		mutex_unlock(&rp->lock);
		pci_dev_put(dgpu);
	} else {
		rp->link = link;
		gmux_power_link_found(gmux, dgpu);
		gmux_runpm_link_siblings(gmux, dgpu);
		drv = READ_ONCE(dgpu->dev.driver);
		if (drv && dgpu_autosuspend_ms >= 0)
			pm_runtime_set_autosuspend_delay(&dgpu->dev, dgpu_autosuspend_ms);
		gmux_runpm_nodrv_take(rp, dgpu);
		if (!dgpu_runtime_off)
			note = " (off: dgpu_runtime_off=0)";
		else if (!drv)
			note = !dgpu_no_driver_off ? " (no driver: kept on, dgpu_no_driver_off=0)" :
			       rp->nodrv[PCI_FUNC(dgpu->devfn)].taken ?
			       " (no driver: cut when unused)" :
			       " (no driver: kept on, see stay_on_reason)";
		dev_info(&gmux->pnp->dev, "dGPU %s%s%s: power cut through the gmux when it runtime-suspends%s\n",
			 pci_name(dgpu), drv ? " bound to " : "", drv ? drv->name : "", note);
	}
	pm_runtime_mark_last_busy(&dgpu->dev);
	pm_runtime_put_autosuspend(&dgpu->dev);
}

/* Undo gmux_runpm_link(): the GPU ends up powered. */
static void gmux_runpm_unlink(struct apple_gmux_ng *gmux)
{
	struct gmux_runpm *rp = &gmux->runpm;
	struct pci_dev *dgpu = rp->dgpu;
	enum gmux_power_user who;
	unsigned int fn;

	lockdep_assert_held(&rp->link_lock);
	if (!dgpu)
		return;
	/*
	 * The switch out of play for the whole unlink: deleting a link drops
	 * the switch's usage count and queues its idle while the deletion
	 * still sleeps; it must not cut the power meanwhile. Resuming it
	 * powers the GPU; resuming the GPU then restores it. Neither while
	 * vga_switcheroo has it OFF (gmux_runpm_hold()).
	 */
	gmux_runpm_clear_error(rp->power_dev);
	gmux_runpm_hold(gmux, rp->power_dev);
	gmux_runpm_clear_error(&dgpu->dev);
	gmux_runpm_hold(gmux, &dgpu->dev);
	for (fn = 0; fn < GMUX_DGPU_FUNCS; fn++)
		gmux_runpm_unlink_sibling(gmux, fn);
	gmux_runpm_nodrv_give(rp, dgpu);
	device_link_del(rp->link);
	rp->link = NULL;
	mutex_lock(&rp->lock);
	/*
	 * The switch's resume above powered what runtime PM had cut; if that
	 * failed, the power is still taken as cut: power it now all the
	 * same. What vga_switcheroo switched OFF while the switch was active
	 * stays off: its client believes it off.
	 */
	gmux_power_state(gmux, &who);
	if (who == GMUX_POWER_RUNTIME_PM)
		gmux_dgpu_power_on(gmux);
	rp->dgpu = NULL;
	mutex_unlock(&rp->lock);
	/* and a failed resume of the GPU must not outlive the link */
	gmux_runpm_clear_error(&dgpu->dev);
	pm_runtime_put(&dgpu->dev);
	pci_dev_put(dgpu);
	pm_runtime_put(rp->power_dev);
}

static int gmux_runpm_pci_notify(struct notifier_block *nb, unsigned long action, void *data)
{
	struct apple_gmux_ng *gmux = container_of(nb, struct apple_gmux_ng, runpm.pci_nb);
	struct gmux_runpm *rp = &gmux->runpm;
	struct pci_dev *pdev = to_pci_dev(data);

	switch (action) {
	case BUS_NOTIFY_ADD_DEVICE:
		/* a sibling back (an HDMI audio function removed and rescanned) */
		mutex_lock(&rp->link_lock);
		if (!rp->dying && gmux_runpm_is_sibling(rp, pdev))
			gmux_runpm_link_sibling(gmux, pdev);
		mutex_unlock(&rp->link_lock);
		break;
	case BUS_NOTIFY_BIND_DRIVER:
		/*
		 * Before the probe: the driver core has resumed the switch
		 * (the power is on); the function gets the PCI core's
		 * runtime-PM settings back, and is resumed if they forbid
		 * runtime PM.
		 */
		mutex_lock(&rp->link_lock);
		if (gmux_runpm_is_linked(rp, pdev))
			gmux_runpm_nodrv_update(rp, NULL);
		mutex_unlock(&rp->link_lock);
		break;
	case BUS_NOTIFY_DRIVER_NOT_BOUND:
	case BUS_NOTIFY_UNBOUND_DRIVER:
		/*
		 * Without a driver again (a failed or deferred probe, an
		 * unbind). At DRIVER_NOT_BOUND the driver core has not yet
		 * cleared pdev's driver pointer (really_probe() notifies
		 * before device_unbind_cleanup()): it is taken for gone.
		 */
		mutex_lock(&rp->link_lock);
		if (!rp->dying && gmux_runpm_is_linked(rp, pdev))
			gmux_runpm_nodrv_update(rp, pdev);
		mutex_unlock(&rp->link_lock);
		break;
	case BUS_NOTIFY_BOUND_DRIVER:
		if (!gmux_pci_is_dgpu(gmux, pdev))
			break;
		mutex_lock(&rp->link_lock);
		if (!rp->dgpu)
			gmux_runpm_link(gmux, pdev);
		else if (rp->dgpu == pdev && dgpu_autosuspend_ms >= 0)
			pm_runtime_set_autosuspend_delay(&pdev->dev, dgpu_autosuspend_ms);
		mutex_unlock(&rp->link_lock);
		break;
	case BUS_NOTIFY_DEL_DEVICE:
		/* before the driver core purges the device's links */
		mutex_lock(&rp->link_lock);
		if (pdev == rp->dgpu)
			gmux_runpm_unlink(gmux);
		else if (gmux_runpm_is_sibling(rp, pdev))
			gmux_runpm_unlink_sibling(gmux, PCI_FUNC(pdev->devfn));
		mutex_unlock(&rp->link_lock);
		break;
	}
	return NOTIFY_DONE;
}

/*
 * A hibernation freezes and thaws a function without a driver in the PCI
 * core's noirq phases (pci_save_state(), and a restore), runtime-suspended
 * or not, and does not take the direct-complete path: the functions taken
 * here are resumed for it (powered, their state restored), and let go
 * after. A suspend needs nothing: see DOC: Automatic power-off of the
 * discrete GPU.
 */
static int gmux_runpm_pm_notify(struct notifier_block *nb, unsigned long action, void *data)
{
	struct gmux_runpm *rp = container_of(nb, struct gmux_runpm, pm_nb);
	struct gmux_runpm_nodrv *nd;
	struct pci_dev *f;
	unsigned int fn;
	bool hold;

	switch (action) {
	case PM_HIBERNATION_PREPARE:
	case PM_RESTORE_PREPARE:
		hold = true;
		break;
	case PM_POST_HIBERNATION:
	case PM_POST_RESTORE:
		hold = false;
		break;
	default:
		return NOTIFY_DONE;
	}
	mutex_lock(&rp->link_lock);
	for (fn = 0; fn < GMUX_DGPU_FUNCS; fn++) {
		f = gmux_runpm_fn(rp, fn);
		nd = &rp->nodrv[fn];
		if (!f || !nd->taken || nd->hibernation == hold)
			continue;
		nd->hibernation = hold;
		if (hold) {
			pm_runtime_get_sync(&f->dev);
		} else {
			pm_runtime_mark_last_busy(&f->dev);
			pm_runtime_put_autosuspend(&f->dev);
		}
	}
	mutex_unlock(&rp->link_lock);
	return NOTIFY_DONE;
}

static int gmux_runpm_show(struct seq_file *s, void *unused)
{
	struct apple_gmux_ng *gmux = s->private;
	struct gmux_runpm *rp = &gmux->runpm;
	struct device_driver *drv;
	enum gmux_power_user who;
	int state;

	mutex_lock(&rp->lock);
	seq_printf(s, "dgpu: %s\n", rp->dgpu ? pci_name(rp->dgpu) : "none");
	seq_printf(s, "enabled: %s\n", dgpu_runtime_off ? "yes" : "no");
	seq_printf(s, "no_driver_off: %s\n", dgpu_no_driver_off ? "yes" : "no");
	drv = rp->dgpu ? READ_ONCE(rp->dgpu->dev.driver) : NULL;
	seq_printf(s, "dgpu_driver: %s\n", drv ? drv->name : "none");
	state = gmux_power_state(gmux, &who);
	seq_printf(s, "power: %s\n", state < 0 ? "unknown" : state ? "on" : "off");
	seq_printf(s, "off_by: %s\n", gmux_power_user_name(who));
	seq_printf(s, "power_offs: %u\n", rp->offs);
	seq_printf(s, "power_ons: %u\n", rp->ons);
	seq_printf(s, "blocked: %u\n", rp->blocked);
	seq_printf(s, "last_blocker: %s\n", rp->blocker[0] ? rp->blocker : "none");
	seq_printf(s, "errors: %u\n", rp->errors);
	seq_printf(s, "not_back_after_power_on: %u\n", rp->dead);
	seq_printf(s, "hotplug_wakes: %u\n", rp->hotplug_wakes);
	seq_printf(s, "switcheroo_off_refused: %u\n", READ_ONCE(gmux->sw.off_refused));
	mutex_unlock(&rp->lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(gmux_runpm);

/**
 * gmux_runpm_exit() - unlink the discrete GPU, powered, and remove the switch
 * @gmux: the gmux
 *
 * The first step of remove; also a devm action of probe. Harmless when
 * called again.
 */
void gmux_runpm_exit(struct apple_gmux_ng *gmux)
{
	struct gmux_runpm *rp = &gmux->runpm;
	struct device *dev = rp->power_dev;

	if (!dev)
		return;
	if (rp->power_nb.notifier_call)
		gmux_power_unregister_notifier(gmux, &rp->power_nb);
	mutex_lock(&gmux_runpm_list_lock);
	list_del_init(&rp->node);
	mutex_unlock(&gmux_runpm_list_lock);
	unregister_pm_notifier(&rp->pm_nb);
	/*
	 * Unlinked while the PCI notifier still runs: a device removed
	 * meanwhile takes its links along, which only the notifier tells.
	 */
	mutex_lock(&rp->link_lock);
	rp->dying = true;
	if (test_unlink_delay_ms)
		msleep(min(test_unlink_delay_ms, 5000U));
	gmux_runpm_unlink(gmux);
	mutex_unlock(&rp->link_lock);
	bus_unregister_notifier(&pci_bus_type, &rp->pci_nb);
	cancel_work_sync(&rp->hotplug_work);
	pm_runtime_disable(dev);
	cancel_work_sync(&rp->recover_work);
	/*
	 * A deleted link drops its reference to the switch from a workqueue,
	 * after an SRCU grace period: the last reference, whose release is
	 * this module's code, must go before the module does.
	 */
	device_link_wait_removal();
	mutex_lock(&rp->lock);
	rp->power_dev = NULL;
	mutex_unlock(&rp->lock);
	device_unregister(dev);
	dev_dbg(&gmux->pnp->dev, "dGPU power switch removed\n");
}

static void gmux_runpm_devm_exit(void *data)
{
	gmux_runpm_exit(data);
}

/*
 * The power owner's word (gmux_power_notify()): the panel went back to the
 * integrated GPU, which lifts what refused the last cut. A refused runtime
 * suspend is not retried by itself: ask the switch again.
 */
static int gmux_runpm_power_event(struct notifier_block *nb, unsigned long event, void *data)
{
	struct gmux_runpm *rp = container_of(nb, struct gmux_runpm, power_nb);

	if (event != GMUX_POWER_PANEL_ON_IGD)
		return NOTIFY_DONE;
	mutex_lock(&rp->lock);
	if (rp->power_dev)
		pm_request_idle(rp->power_dev);
	mutex_unlock(&rp->lock);
	return NOTIFY_OK;
}

/**
 * gmux_runpm_init() - let the discrete GPU's runtime PM cut its power
 * @gmux: a gmux that works, whose vga_switcheroo handler is registered
 *
 * See DOC: Automatic power-off of the discrete GPU. Undone by
 * gmux_runpm_exit(), or by devm if a later probe step fails.
 *
 * Return: 0, or a negative error if the switch device cannot be created.
 */
int gmux_runpm_init(struct apple_gmux_ng *gmux)
{
	struct device *parent = &gmux->pnp->dev;
	struct gmux_runpm *rp = &gmux->runpm;
	struct pci_dev *pdev = NULL;
	struct device *dev;
	int ret;

	dev = kzalloc(sizeof(*dev), GFP_KERNEL);
	if (!dev)
		return -ENOMEM;
	device_initialize(dev);
	atomic_inc(&gmux_power_devs);
	dev->parent = parent;
	dev->type = &gmux_dgpu_power_type;
	dev_set_drvdata(dev, gmux);
	ret = dev_set_name(dev, "dgpu_power");
	if (!ret)
		ret = device_add(dev);
	if (ret) {
		put_device(dev);
		return ret;
	}
	rp->power_dev = dev;
	pm_runtime_set_active(dev);
	pm_runtime_enable(dev);

	rp->pci_nb.notifier_call = gmux_runpm_pci_notify;
	ret = bus_register_notifier(&pci_bus_type, &rp->pci_nb);
	if (ret) {
		rp->power_dev = NULL;
		pm_runtime_disable(dev);
		device_unregister(dev);
		return ret;
	}
	rp->pm_nb.notifier_call = gmux_runpm_pm_notify;
	ret = register_pm_notifier(&rp->pm_nb);
	if (ret) {
		bus_unregister_notifier(&pci_bus_type, &rp->pci_nb);
		rp->power_dev = NULL;
		pm_runtime_disable(dev);
		device_unregister(dev);
		return ret;
	}
	ret = devm_add_action_or_reset(parent, gmux_runpm_devm_exit, gmux);
	if (ret)
		return ret;
	rp->power_nb.notifier_call = gmux_runpm_power_event;
	gmux_power_register_notifier(gmux, &rp->power_nb);

	mutex_lock(&rp->link_lock);
	for_each_pci_dev(pdev) {
		if (!rp->dgpu && gmux_pci_is_dgpu(gmux, pdev))
			gmux_runpm_link(gmux, pdev);
	}
	mutex_unlock(&rp->link_lock);
	if (gmux->debugfs)
		debugfs_create_file("dgpu_power", 0444, gmux->debugfs, gmux, &gmux_runpm_fops);
	mutex_lock(&gmux_runpm_list_lock);
	list_add_tail(&rp->node, &gmux_runpm_list);
	mutex_unlock(&gmux_runpm_list_lock);
	return 0;
}

/**
 * gmux_runpm_resume() - after a system sleep and gmux_power_resume()
 * @gmux: the gmux
 *
 * A GPU whose power runtime PM cut, and that gmux_power_resume() cut
 * again, is D3cold to the PCI core once more.
 */
void gmux_runpm_resume(struct apple_gmux_ng *gmux)
{
	struct gmux_runpm *rp = &gmux->runpm;
	enum gmux_power_user who;

	mutex_lock(&rp->lock);
	if (rp->dgpu && !gmux_power_state(gmux, &who) && who == GMUX_POWER_RUNTIME_PM)
		gmux_runpm_mark_d3cold(rp);
	mutex_unlock(&rp->lock);
}

/**
 * gmux_runpm_hotplug() - the gmux reported an external display hotplug
 * @gmux: the gmux
 *
 * Where the external port is wired to the dGPU (Thunderbolt Macs), or
 * follows a panel that is on the dGPU, ask for a runtime resume of the
 * dGPU, so that its driver powers up and looks at the port; it suspends
 * again by itself if nothing is there. Does not sleep on the resume.
 */
void gmux_runpm_hotplug(struct apple_gmux_ng *gmux)
{
	if (gmux->sw.external && gmux_panel_on_igd(gmux))
		return;
	/*
	 * Not here: a power change may hold rp->lock while it waits for the
	 * gmux's POWER interrupt, which this notification's successor brings.
	 * The work waits for the lock instead.
	 */
	schedule_work(&gmux->runpm.hotplug_work);
}

/**
 * gmux_runpm_setup() - initialise the runtime-PM state
 * @gmux: the gmux, before its interrupt can fire (a hotplug uses it)
 */
void gmux_runpm_setup(struct apple_gmux_ng *gmux)
{
	struct gmux_runpm *rp = &gmux->runpm;

	mutex_init(&rp->lock);
	mutex_init(&rp->link_lock);
	INIT_LIST_HEAD(&rp->node);
	INIT_WORK(&rp->hotplug_work, gmux_runpm_hotplug_work);
	INIT_WORK(&rp->recover_work, gmux_runpm_recover_work);
}
