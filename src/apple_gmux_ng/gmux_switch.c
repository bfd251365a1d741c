// SPDX-License-Identifier: GPL-2.0
/*
 * apple_gmux_ng - display switching (vga_switcheroo handler)
 *
 * Copyright (C) 2026 The macsupport developers
 */

#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/pci.h>
#include <linux/seq_file.h>
#include <linux/vga_switcheroo.h>

#include "gmux.h"

/**
 * DOC: Graphics mux
 *
 * The gmux switches the panel between the integrated GPU (IGD) and the
 * discrete one (DIS). The driver offers that to the kernel as the system's
 * vga_switcheroo handler, registered once the gmux has answered, its
 * backlight and interrupt are set up; it is the last step of probe and the
 * first one undone on remove. There is one handler per system: a second
 * gmux (there is none on a real Mac) registers none.
 *
 * - switchto(): classic gmux: SWITCH_DDC, then SWITCH_DISPLAY; indexed and
 *   T2: SWITCH_DISPLAY (their eDP mux carries AUX with the main link).
 *   SWITCH_EXTERNAL follows only on Macs whose external port the gmux
 *   switches (MacBookPro5,x and 6,x, no Thunderbolt, see the model table);
 *   on Thunderbolt Macs the external port's main link is wired to the dGPU
 *   and SWITCH_EXTERNAL is set to the dGPU once, when the handler registers.
 *   Every register written is read back; a switch the gmux did not carry
 *   out is returned as an error (vga_switcheroo then logs "switching failed
 *   stage 2") and logged here with the register and the value it read.
 * - switch_ddc() (classic only, VGA_SWITCHEROO_CAN_SWITCH_DDC): moves the
 *   DDC lines alone, so that the inactive GPU's driver can read the panel's
 *   EDID; returns the previous owner.
 * - power_state(): powers the dGPU through DISCRETE_POWER (see DOC: dGPU
 *   power); the IGD's power is not the gmux's to change. An OFF of a dGPU
 *   bound to amdgpu is refused (logged, counted: switcheroo_off_refused):
 *   amdgpu's runtime PM goes on after vga_switcheroo's OFF, and its BACO
 *   enter and exit need the chip powered.
 * - get_client_id(): Intel, and NVIDIA's MCP79 (10de:0863, the 9400M of the
 *   MacBookPro5,x), are the IGD; every other GPU is the DIS.
 *
 * Indexed and T2 gmux register with VGA_SWITCHEROO_NEEDS_EDP_CONFIG: no
 * DRM driver implements it, but any non-zero flag ends
 * vga_switcheroo_client_probe_defer(), which otherwise keeps the inactive
 * GPU's i915/nouveau/radeon deferring its probe on every gmux Mac.
 *
 * The dGPU's HDMI/DP audio (function 1) gets a device link to the dGPU
 * (function 0) with DL_FLAG_PM_RUNTIME, as the kernel's quirk_gpu_hda makes
 * for AMD and NVIDIA audio functions: the driver adds it for any other
 * vendor's (none on a real Mac today; the harness's intel-hda stand-in),
 * when the handler is set up, and removes it on remove.
 *
 * On the eDP Macs (indexed and T2 gmux) the iGPU's driver (i915) finds
 * the panel only if it is on the iGPU when i915 probes: it reads the panel
 * over AUX, switched with the panel, and has no vga_switcheroo reprobe.
 * A PCI bus notifier notes where the panel was when the iGPU's driver
 * probed, and a probe without it is logged and given as the reason the
 * dGPU stays on. force_igd=1 moves the panel to the iGPU before the handler
 * registers (which i915 waits for on a Mac booted on the dGPU), but not
 * under an iGPU driver bound before the gmux.
 *
 * debugfs: /sys/kernel/debug/apple_gmux_ng/<pnp device>/switch shows the
 * handler, the panel's GPU as the gmux reports it, where it was when the
 * iGPU's driver probed (igd_driver_probe), the dGPU's power as last set,
 * and counters of switches, power changes and their failures.
 */

/* The gmux whose handler is registered; one per system. */
static DEFINE_MUTEX(gmux_handler_lock);
static struct apple_gmux_ng *gmux_handler_owner;

static const char *gmux_gpu_name(enum gmux_gpu gpu)
{
	return gpu == GMUX_GPU_DIS ? "DIS" : "IGD";
}

static void gmux_log_switch_failure(struct apple_gmux_ng *gmux, const char *what,
				    enum gmux_gpu to, const struct gmux_switch_result *res)
{
	struct device *dev = &gmux->pnp->dev;

	if (res->err == -EIO)
		dev_err(dev, "%s to %s not carried out: %s (0x%02x) reads 0x%02x after 0x%02x was written\n",
			what, gmux_gpu_name(to), gmux_reg_name(res->port), res->port, res->got,
			res->want);
	else
		dev_err(dev, "%s to %s failed at %s (0x%02x): %pe\n", what, gmux_gpu_name(to),
			gmux_reg_name(res->port), res->port, ERR_PTR(res->err));
}

int gmux_display_switch(struct apple_gmux_ng *gmux, enum gmux_gpu to)
{
	struct gmux_switch_step steps[GMUX_SWITCH_MAX_STEPS];
	struct gmux_switch_result res;
	int n, ret;

	n = gmux_switch_plan(gmux->io.kind, gmux->sw.external, to, steps);
	if (n < 0)
		return n;
	mutex_lock(&gmux->sw.lock);
	ret = gmux_switch_run(&gmux_regmap_access, gmux, steps, n, &res);
	if (ret) {
		gmux->sw.switch_failures++;
		WRITE_ONCE(gmux->last_error, ret);
		gmux_log_switch_failure(gmux, "display switch", to, &res);
	} else {
		gmux->sw.switches++;
		dev_dbg(&gmux->pnp->dev, "panel switched to %s\n", gmux_gpu_name(to));
	}
	mutex_unlock(&gmux->sw.lock);
	/* a cut refused while the panel was on the dGPU is not retried by itself */
	if (!ret && to == GMUX_GPU_IGD)
		gmux_power_notify(gmux, GMUX_POWER_PANEL_ON_IGD);
	return ret;
}

static int gmux_ddc_switch(struct apple_gmux_ng *gmux, enum gmux_gpu to, enum gmux_gpu *old)
{
	struct gmux_switch_result res;
	int ret;

	mutex_lock(&gmux->sw.lock);
	ret = gmux_switch_ddc(&gmux_regmap_access, gmux, to, old, &res);
	if (ret) {
		gmux->sw.ddc_failures++;
		WRITE_ONCE(gmux->last_error, ret);
		gmux_log_switch_failure(gmux, "DDC switch", to, &res);
	} else {
		gmux->sw.ddc_switches++;
	}
	mutex_unlock(&gmux->sw.lock);
	return ret;
}

/* vga_switcheroo handler: the callbacks reach the one registered gmux. */

static int gmux_vga_switchto(enum vga_switcheroo_client_id id)
{
	return gmux_display_switch(gmux_handler_owner,
				   id == VGA_SWITCHEROO_DIS ? GMUX_GPU_DIS : GMUX_GPU_IGD);
}

static int gmux_vga_switch_ddc(enum vga_switcheroo_client_id id)
{
	enum gmux_gpu old;
	int ret;

	ret = gmux_ddc_switch(gmux_handler_owner,
			      id == VGA_SWITCHEROO_DIS ? GMUX_GPU_DIS : GMUX_GPU_IGD, &old);
	if (ret)
		return ret;
	return old == GMUX_GPU_DIS ? VGA_SWITCHEROO_DIS : VGA_SWITCHEROO_IGD;
}

/* The dGPU, referenced, if its driver needs its power whatever vga_switcheroo asks */
static struct pci_dev *gmux_dgpu_needing_power(struct apple_gmux_ng *gmux)
{
	struct pci_dev *pdev = NULL;

	for_each_pci_dev(pdev)
		if (gmux_pci_is_dgpu(gmux, pdev) && gmux_pci_driver_needs_power(pdev))
			return pdev;
	return NULL;
}

/*
 * vga_switcheroo's OFF of the DIS (by hand, or the power stage of every
 * DIS->IGD switch, since no Mac's dGPU driver has driver power control) is
 * refused under amdgpu: amdgpu_switcheroo_set_state(OFF) has suspended the
 * chip into D3hot by then, but amdgpu's runtime PM stays on, and its next
 * runtime suspend sends a BACO enter, its resume a BACO exit, through the
 * chip's SMU, which does not answer without power. vga_switcheroo ignores
 * the result and takes the client for off all the same; its ON then finds
 * the chip powered, and amdgpu resumes it.
 */
static int gmux_vga_power_state(enum vga_switcheroo_client_id id,
				enum vga_switcheroo_state state)
{
	struct apple_gmux_ng *gmux = gmux_handler_owner;
	struct pci_dev *keep;

	/* the gmux powers the dGPU only */
	if (id != VGA_SWITCHEROO_DIS)
		return 0;
	if (state == VGA_SWITCHEROO_OFF) {
		keep = gmux_dgpu_needing_power(gmux);
		if (keep) {
			mutex_lock(&gmux->sw.lock);
			gmux->sw.off_refused++;
			mutex_unlock(&gmux->sw.lock);
			/* counted in debugfs; logged once (every switch to the IGD asks) */
			dev_info_once(&gmux->pnp->dev, "vga_switcheroo OFF of the dGPU %s refused: amdgpu's runtime PM enters and leaves BACO through the chip, which needs its power; it stays powered (D3hot)\n",
				      pci_name(keep));
			pci_dev_put(keep);
			return -EBUSY;
		}
	}
	return gmux_power_set(gmux, state == VGA_SWITCHEROO_ON,
			      GMUX_POWER_SWITCHEROO) < 0 ? -EIO : 0;
}

static enum vga_switcheroo_client_id gmux_vga_get_client_id(struct pci_dev *pdev)
{
	return gmux_client_id(gmux_handler_owner, pdev);
}

static const struct vga_switcheroo_handler gmux_handler_ddc = {
	.switchto	= gmux_vga_switchto,
	.switch_ddc	= gmux_vga_switch_ddc,
	.power_state	= gmux_vga_power_state,
	.get_client_id	= gmux_vga_get_client_id,
};

static const struct vga_switcheroo_handler gmux_handler_no_ddc = {
	.switchto	= gmux_vga_switchto,
	.power_state	= gmux_vga_power_state,
	.get_client_id	= gmux_vga_get_client_id,
};

static const char *const gmux_igd_probe_names[] = {
	[GMUX_IGD_PROBE_NOT_SEEN] = "not seen",
	[GMUX_IGD_PROBE_BEFORE] = "bound before the gmux",
	[GMUX_IGD_PROBE_PANEL] = "panel on IGD",
	[GMUX_IGD_PROBE_NO_PANEL] = "panel on DIS",
};

static int gmux_switch_show(struct seq_file *s, void *unused)
{
	struct apple_gmux_ng *gmux = s->private;
	unsigned int val, i;
	int ret;

	mutex_lock(&gmux->sw.lock);
	seq_printf(s, "handler: %s\n", gmux->sw.handler ? "registered" : "none");
	seq_printf(s, "flags: %s\n", gmux->io.kind == MAC_GMUX_CLASSIC ?
		   "can_switch_ddc" : "needs_edp_config");
	seq_printf(s, "external_follows_panel: %d\n", gmux->sw.external);
	ret = regmap_read(gmux->regmap, GMUX_PORT_SWITCH_DISPLAY, &val);
	if (ret)
		seq_printf(s, "display: error %d\n", ret);
	else
		seq_printf(s, "display: %s\n", gmux_gpu_name(gmux_display_owner(val)));
	seq_printf(s, "switches: %u\n", gmux->sw.switches);
	seq_printf(s, "switch_failures: %u\n", gmux->sw.switch_failures);
	seq_printf(s, "ddc_switches: %u\n", gmux->sw.ddc_switches);
	seq_printf(s, "ddc_failures: %u\n", gmux->sw.ddc_failures);
	seq_printf(s, "switcheroo_off_refused: %u\n", gmux->sw.off_refused);
	seq_printf(s, "last_error: %d\n", READ_ONCE(gmux->last_error));
	for (i = 0; i < GMUX_AUDIO_LINKS_MAX; i++)
		if (gmux->sw.audio_link[i].hda)
			seq_printf(s, "audio_link: %s -> %s\n",
				   pci_name(gmux->sw.audio_link[i].hda),
				   pci_name(gmux->sw.audio_link[i].gpu));
	seq_printf(s, "audio_links_by_kernel_quirk: %u\n", gmux->sw.audio_links_kernel);
	seq_printf(s, "igd_driver_probe: %s\n", gmux_igd_probe_names[gmux->sw.igd_probe]);
	mutex_unlock(&gmux->sw.lock);
	/* not under sw.lock: a power change takes it inside its own */
	gmux_power_show(s, gmux);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(gmux_switch);

/*
 * The kernel's quirk_gpu_hda links the HDA function of these vendors' GPUs
 * to function 0 by itself.
 */
static bool gmux_audio_quirk_links(struct pci_dev *hda)
{
	return hda->vendor == PCI_VENDOR_ID_ATI || hda->vendor == PCI_VENDOR_ID_AMD ||
	       hda->vendor == PCI_VENDOR_ID_NVIDIA;
}

/* The dGPU (function 0) whose HDMI/DP audio @hda is, or NULL; referenced. */
static struct pci_dev *gmux_audio_gpu(struct apple_gmux_ng *gmux, struct pci_dev *hda)
{
	struct pci_dev *gpu;

	if (PCI_FUNC(hda->devfn) != 1)
		return NULL;
	gpu = pci_get_domain_bus_and_slot(pci_domain_nr(hda->bus), hda->bus->number,
					  PCI_DEVFN(PCI_SLOT(hda->devfn), 0));
	if (gpu && gmux_pci_is_dgpu(gmux, gpu))
		return gpu;
	pci_dev_put(gpu);
	return NULL;
}

/*
 * Link each dGPU's audio function to the dGPU (consumer fn1, supplier fn0,
 * DL_FLAG_PM_RUNTIME) where the kernel's quirk did not: runtime PM then
 * resumes the GPU before its audio and suspends the audio first, so the
 * audio never keeps the GPU on and is not touched while it is off.
 */
static void gmux_audio_links_init(struct apple_gmux_ng *gmux)
{
	struct pci_dev *hda = NULL, *gpu;
	struct device_link *link;
	unsigned int n = 0;

	while ((hda = pci_get_class(PCI_CLASS_MULTIMEDIA_HD_AUDIO << 8, hda))) {
		gpu = gmux_audio_gpu(gmux, hda);
		if (!gpu)
			continue;
		if (gmux_audio_quirk_links(hda)) {
			gmux->sw.audio_links_kernel++;
			pci_dev_put(gpu);
			continue;
		}
		if (n == GMUX_AUDIO_LINKS_MAX) {
			pci_dev_put(gpu);
			continue;
		}
		link = device_link_add(&hda->dev, &gpu->dev,
				       DL_FLAG_STATELESS | DL_FLAG_PM_RUNTIME);
		if (!link) {
			dev_warn(&gmux->pnp->dev, "cannot link %s to its GPU %s\n",
				 pci_name(hda), pci_name(gpu));
			pci_dev_put(gpu);
			continue;
		}
		dev_info(&gmux->pnp->dev, "linked GPU audio %s to %s (runtime PM)\n",
			 pci_name(hda), pci_name(gpu));
		gmux->sw.audio_link[n].hda = pci_dev_get(hda);
		gmux->sw.audio_link[n].gpu = gpu;
		n++;
	}
}

static void gmux_audio_links_exit(struct apple_gmux_ng *gmux)
{
	unsigned int i;

	for (i = 0; i < GMUX_AUDIO_LINKS_MAX; i++) {
		if (!gmux->sw.audio_link[i].hda)
			continue;
		/* a no-op if a removed device took the link along */
		device_link_remove(&gmux->sw.audio_link[i].hda->dev,
				   &gmux->sw.audio_link[i].gpu->dev);
		pci_dev_put(gmux->sw.audio_link[i].hda);
		pci_dev_put(gmux->sw.audio_link[i].gpu);
		gmux->sw.audio_link[i].hda = NULL;
		gmux->sw.audio_link[i].gpu = NULL;
	}
}

/* Any Thunderbolt device: the external port belongs to the dGPU. */
static bool gmux_has_thunderbolt(void)
{
	struct pci_dev *pdev = NULL;

	while ((pdev = pci_get_device(PCI_ANY_ID, PCI_ANY_ID, pdev))) {
		if (pdev->is_thunderbolt) {
			pci_dev_put(pdev);
			return true;
		}
	}
	return false;
}

/* Thunderbolt Macs: AUX and HPD of the external port to the dGPU, once. */
static void gmux_external_to_dgpu(struct apple_gmux_ng *gmux)
{
	struct gmux_switch_step step = {
		.port = GMUX_PORT_SWITCH_EXTERNAL,
		.val = GMUX_SWITCH_DIS,
	};
	struct gmux_switch_result res;

	mutex_lock(&gmux->sw.lock);
	if (gmux_switch_run(&gmux_regmap_access, gmux, &step, 1, &res))
		gmux_log_switch_failure(gmux, "external port", GMUX_GPU_DIS, &res);
	mutex_unlock(&gmux->sw.lock);
}

static void gmux_switch_devm_exit(void *data)
{
	gmux_switch_exit(data);
}

static bool force_igd;
module_param(force_igd, bool, 0444);
MODULE_PARM_DESC(force_igd,
		 "Put the panel on the integrated GPU when the gmux is probed, if there is one (default: off)");

/*
 * force_igd: the panel to the iGPU at probe, before the handler registers
 * (so before the iGPU's driver, deferred until then, binds). The kernel's
 * default VGA device stays the GPU the firmware booted on: 6.1 does not
 * export vga_set_default_device() to modules. Not on an eDP Mac whose
 * iGPU driver was bound before the gmux was probed, while the panel is on
 * the dGPU: that driver may have probed there and then has no panel (see
 * gmux_switch_pci_notify()), and the screen would go dark.
 */
static void gmux_force_igd(struct apple_gmux_ng *gmux)
{
	struct device *dev = &gmux->pnp->dev;
	struct pci_dev *pdev = NULL;
	bool igd = false;

	for_each_pci_dev(pdev) {
		if (gmux_pci_is_gpu(gmux, pdev, VGA_SWITCHEROO_IGD)) {
			igd = true;
			pci_dev_put(pdev);
			break;
		}
	}
	if (!igd) {
		dev_warn(dev, "force_igd: this Mac shows no integrated GPU; the panel stays where it is\n");
		return;
	}
	if (gmux->io.kind != MAC_GMUX_CLASSIC && !gmux_panel_on_igd(gmux) &&
	    READ_ONCE(gmux->sw.igd_probe) == GMUX_IGD_PROBE_BEFORE) {
		dev_warn(dev, "force_igd: the iGPU's driver was bound before the gmux, while the panel may have been on the dGPU, where it finds no eDP panel: the panel stays on the dGPU\n");
		return;
	}
	if (!gmux_display_switch(gmux, GMUX_GPU_IGD))
		dev_info(dev, "force_igd: panel switched to the integrated GPU\n");
}

/*
 * i915 finds an eDP panel (indexed and T2 gmux) only if the panel is on
 * the iGPU when it probes: its eDP setup reads the panel's DPCD over AUX,
 * which these gmux switch together with the panel, and a panel not found
 * then is not looked for again (i915 has no vga_switcheroo reprobe). On a
 * Mac that booted on the dGPU, i915 defers its probe until the handler is
 * registered; force_igd moves the panel just before. Note where the panel
 * was when the iGPU's driver probed, and say so when it was on the dGPU:
 * the panel must then stay there, and the dGPU powered. A classic gmux
 * drives an LVDS panel, whose EDID the iGPU's driver reads through
 * switch_ddc wherever the panel is.
 */
static int gmux_switch_pci_notify(struct notifier_block *nb, unsigned long action, void *data)
{
	struct apple_gmux_ng *gmux = container_of(nb, struct apple_gmux_ng, sw.pci_nb);
	struct pci_dev *pdev = to_pci_dev(data);
	enum gmux_igd_probe seen;
	unsigned int val;
	bool warn = false;

	if (!gmux_pci_is_gpu(gmux, pdev, VGA_SWITCHEROO_IGD))
		return NOTIFY_DONE;
	mutex_lock(&gmux->sw.lock);
	switch (action) {
	case BUS_NOTIFY_BIND_DRIVER:
		/* before the driver's probe, at each attempt of a deferred one */
		if (regmap_read(gmux->regmap, GMUX_PORT_SWITCH_DISPLAY, &val))
			seen = GMUX_IGD_PROBE_NOT_SEEN;
		else if (gmux_display_owner(val) == GMUX_GPU_IGD)
			seen = GMUX_IGD_PROBE_PANEL;
		else
			seen = GMUX_IGD_PROBE_NO_PANEL;
		WRITE_ONCE(gmux->sw.igd_probe, seen);
		gmux->sw.igd_probe_pending = true;
		break;
	case BUS_NOTIFY_BOUND_DRIVER:
		/* a probe under way when the watch began: seen too late */
		if (!gmux->sw.igd_probe_pending)
			WRITE_ONCE(gmux->sw.igd_probe, GMUX_IGD_PROBE_BEFORE);
		warn = gmux->sw.igd_probe_pending &&
		       gmux->sw.igd_probe == GMUX_IGD_PROBE_NO_PANEL;
		gmux->sw.igd_probe_pending = false;
		break;
	case BUS_NOTIFY_DRIVER_NOT_BOUND:
	case BUS_NOTIFY_UNBOUND_DRIVER:
		WRITE_ONCE(gmux->sw.igd_probe, GMUX_IGD_PROBE_NOT_SEEN);
		gmux->sw.igd_probe_pending = false;
		break;
	}
	mutex_unlock(&gmux->sw.lock);
	if (warn && gmux->io.kind != MAC_GMUX_CLASSIC)
		dev_warn(&gmux->pnp->dev, "the iGPU %s's driver probed while the panel was on the dGPU: it finds no eDP panel then, so the panel stays on the dGPU, and the dGPU powered (force_igd=1, or gpu-select integrated, puts the panel on the iGPU first)\n",
			 pci_name(pdev));
	return NOTIFY_DONE;
}

/*
 * Watch the iGPU's driver from now on; one bound already is noted (a
 * probe under way, which may still defer, is not: its BOUND_DRIVER says).
 */
static int gmux_igd_watch(struct apple_gmux_ng *gmux)
{
	struct pci_dev *pdev = NULL;
	int ret;

	gmux->sw.pci_nb.notifier_call = gmux_switch_pci_notify;
	ret = bus_register_notifier(&pci_bus_type, &gmux->sw.pci_nb);
	if (ret) {
		gmux->sw.pci_nb.notifier_call = NULL;
		return ret;
	}
	mutex_lock(&gmux->sw.lock);
	for_each_pci_dev(pdev) {
		if (gmux_pci_is_gpu(gmux, pdev, VGA_SWITCHEROO_IGD) &&
		    READ_ONCE(pdev->dev.links.status) == DL_DEV_DRIVER_BOUND)
			WRITE_ONCE(gmux->sw.igd_probe, GMUX_IGD_PROBE_BEFORE);
	}
	mutex_unlock(&gmux->sw.lock);
	return 0;
}

/**
 * gmux_switch_init() - register the vga_switcheroo handler
 * @gmux: the gmux, fully probed otherwise (this is the last step)
 *
 * Another gmux's handler, or another driver's, already registered is
 * logged and left alone: the gmux works on without switching. A probe step
 * after this one that fails undoes it through devm; remove undoes it
 * first, explicitly (gmux_switch_exit()).
 *
 * Return: 0, or -ENOMEM when the undo action cannot be recorded (then
 * everything is undone already).
 */
int gmux_switch_init(struct apple_gmux_ng *gmux)
{
	struct device *dev = &gmux->pnp->dev;
	enum vga_switcheroo_handler_flags_t flags;
	const struct vga_switcheroo_handler *handler;
	int ret;

	ret = gmux_igd_watch(gmux);
	if (ret)
		return ret;
	gmux->sw.external = gmux_external_switchable(gmux->model) && !gmux_has_thunderbolt();
	if (!gmux->sw.external)
		gmux_external_to_dgpu(gmux);
	gmux_audio_links_init(gmux);
	debugfs_create_file("switch", 0444, gmux->debugfs, gmux, &gmux_switch_fops);

	if (gmux->io.kind == MAC_GMUX_CLASSIC) {
		handler = &gmux_handler_ddc;
		flags = VGA_SWITCHEROO_CAN_SWITCH_DDC;
	} else {
		handler = &gmux_handler_no_ddc;
		flags = VGA_SWITCHEROO_NEEDS_EDP_CONFIG;
	}

	if (force_igd)
		gmux_force_igd(gmux);

	mutex_lock(&gmux_handler_lock);
	if (gmux_handler_owner) {
		dev_warn(dev, "%s already has the vga_switcheroo handler: no GPU switching here\n",
			 dev_name(&gmux_handler_owner->pnp->dev));
		goto out;
	}
	/* set before registering: registration may call get_client_id() */
	gmux_handler_owner = gmux;
	ret = vga_switcheroo_register_handler(handler, flags);
	if (ret) {
		gmux_handler_owner = NULL;
		dev_warn(dev, "another vga_switcheroo handler is registered (%pe): no GPU switching\n",
			 ERR_PTR(ret));
		goto out;
	}
	gmux->sw.handler = true;
	dev_info(dev, "vga_switcheroo handler registered (%s), external port %s\n",
		 flags == VGA_SWITCHEROO_CAN_SWITCH_DDC ? "DDC switchable" : "needs eDP config",
		 gmux->sw.external ? "follows the panel" : "wired to the dGPU");
out:
	mutex_unlock(&gmux_handler_lock);
	return devm_add_action_or_reset(dev, gmux_switch_devm_exit, gmux);
}

/**
 * gmux_switch_exit() - unregister the vga_switcheroo handler
 * @gmux: the gmux
 *
 * The first step of remove. When it returns, no handler callback runs
 * any more and the audio links are gone. Harmless when called again, or
 * when the handler was never registered.
 */
void gmux_switch_exit(struct apple_gmux_ng *gmux)
{
	mutex_lock(&gmux_handler_lock);
	if (gmux->sw.handler) {
		vga_switcheroo_unregister_handler();
		gmux->sw.handler = false;
		gmux_handler_owner = NULL;
	}
	mutex_unlock(&gmux_handler_lock);
	gmux_audio_links_exit(gmux);
	if (gmux->sw.pci_nb.notifier_call) {
		bus_unregister_notifier(&pci_bus_type, &gmux->sw.pci_nb);
		gmux->sw.pci_nb.notifier_call = NULL;
	}
}
