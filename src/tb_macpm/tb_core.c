// SPDX-License-Identifier: GPL-2.0
/*
 * tb_macpm - Thunderbolt controller power management on Macs
 *
 * Copyright (C) 2026 The macsupport developers
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/acpi.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/module.h>
#include <linux/pci.h>
#include <linux/pm_runtime.h>
#include <linux/slab.h>

#include "macsupport/aml_gpe.h"
#include "macsupport/apple_dmi.h"
#include "macsupport/mac_model.h"
#include "tb_macpm.h"

/**
 * DOC: Overview
 *
 * An idle Thunderbolt controller draws about 2 W. Macs can cut its power
 * through methods in the ACPI scope of its NHI (\_SB.PCI0.RP0x.UPSB.DSB0.NHI0),
 * not through _PS0/_PS3: XRPE(Arg0) on Macs of 2011/2012 and TRPE(Arg0) from
 * 2013 switch the power, XRIL() tells whether the controller is off with
 * nothing plugged in, and XRIN names the GPE that fires on plug. macOS uses
 * them; no Linux driver does. This module does, for every Intel NHI of a Mac
 * (Light Ridge to Titan Ridge) whose ACPI companion has the methods.
 *
 * Mechanism. Cutting the power kills the whole controller: its upstream
 * port (UPSB), the downstream port of the NHI (DSB0), the NHI and the
 * hotplug downstream ports. The module gives the controller a power switch
 * device of its own, a child of the root port in class "tb_macpm", and
 * makes the UPSB its runtime-PM consumer through a device link
 * (DL_FLAG_PM_RUNTIME). Once the NHI and every port below the UPSB have
 * runtime-suspended, the UPSB suspends and the switch follows after its
 * autosuspend delay (tb_macpm.power_off_delay_ms): it calls XRPE(0)/TRPE(0),
 * polls XRIL for up to 300 ms as macOS does, arms the XRIN GPE and marks the
 * controller's PCI devices D3cold. Before anything resumes the UPSB, the PM
 * core resumes the switch: it disarms the GPE, calls XRPE(1) and waits
 * (bounded) until the UPSB answers; the PCI core then restores the UPSB and,
 * because it was in D3cold, resumes every device below it, which restores
 * their state and lets pciehp look at its slots. The plug GPE resumes the
 * NHI and holds it and the hotplug ports resumed for tb_macpm.plug_hold_ms.
 * Each hotplug downstream port is also made a runtime-PM consumer of the NHI
 * on every generation (mainline links Light, Cactus and Falcon Ridge only),
 * so the NHI stays up while a port is in use. DSB0 and the UPSB are
 * ancestors of the NHI and can never be its consumers.
 *
 * Why not a PM domain on the UPSB, as Lukas Wunner's unmerged series did:
 * the UPSB is bound to pcieport long before a module loads, and
 * dev_pm_domain_set() WARNs on a bound device. A device link can be added to
 * a bound device at any time and removed as easily; the PCI core's own D3cold
 * handling (pci_pm_bridge_power_up_actions(), pci_target_state()) does what
 * the domain's callbacks did.
 *
 * thunderbolt.ko. On a Mac, Debian 6.1's thunderbolt.ko keeps the NHI
 * runtime-active for good: its software connection manager enables runtime
 * PM of the root switch only on USB4 hosts (tb_start(): root_switch->rpm =
 * tb_switch_is_usb4()), yet marks the root switch active (tb_switch_add()),
 * so the domain device and with it the NHI always have an active child. Its
 * runtime-PM callbacks for the NHI exist all the same (nhi_runtime_suspend()
 * stops the rings and the connection manager, nhi_runtime_resume() restarts
 * them and re-reads the root switch, as after system sleep). The module
 * therefore enables runtime PM of the root switch device it finds below a
 * bound NHI (device types "thunderbolt_domain" and "thunderbolt_device"),
 * and gives it back as it was when the NHI's driver unbinds or the module
 * unloads. XDomain peers (thunderbolt-net) keep the root switch active;
 * device routers of Thunderbolt 2 and later runtime-suspend while connected
 * under 6.1's thunderbolt.ko, so the switch also refuses to power down while
 * anything hangs below the root switch. If XRIL still does not report the
 * controller off after XRPE(0)/TRPE(0), something is plugged in that kept
 * nothing resumed: the power goes back on and the NHI and the hotplug ports
 * are resumed and held as after a plug; only five refusals in a row leave
 * the controller on (writing tb_macpm.power_down tries again). An NHI
 * without a driver (Eagle Ridge: thunderbolt.ko has no alias for it) keeps
 * the PCI core's default, runtime PM forbidden, until user space writes
 * "auto" to its power/control (as powertop or TLP do); until then the
 * controller stays on and stay_on_reason says why.
 *
 * Thunderbolt 3. Alpine and Titan Ridge Macs have no XRIN or XRIL: their
 * firmware switches a Thunderbolt and a USB rail from the _PS3 and _PS0
 * of the controller's ports and functions, by the NHI's and the xHCI's
 * RTPC votes and flags of its own; it reports a plug through the GPE of a
 * Scope (\_GPE) written in the root port's scope. The module uses that
 * mechanism and never mixes in TRPE (which skips the USB side and the
 * firmware's own bookkeeping, so a later _PS0 or _PS3 would undo it). A
 * vote must go before the downstream port above its function suspends:
 * each vote is a device between the function and that port (tb_votes.c,
 * "Thunderbolt 3 votes"), and the power switch is the root port's
 * runtime-PM supplier, so that it records the controller off only once
 * the root port's _PS3 has cut. The upstream port's _PS0 powers the
 * controller again. Whatever is in use (the NHI, a port, the xHCI with a
 * USB device) keeps its vote, its rail and the chain up.
 *
 * MacPro7,1's RTPC is a stub (it returns 0 and writes no vote), so its
 * _PS3 never cuts; its controllers sit below a PCIe switch's downstream
 * ports, which play the root port's part. There the switch uses TRPE
 * alone, as on Thunderbolt 1 and 2: TRPE(0) once everything below the
 * upstream port is idle, TRPE(1) before the upstream port resumes (so
 * that its _PS0, which would power the controller up through the
 * firmware's own bookkeeping, finds it on and changes nothing), the
 * votes left as they are. With no XRIL, nothing plugged is what the
 * suspend checks anyway: nothing below the root switch, every port and
 * the NHI idle (a USB device keeps the xHCI, and with it the chain,
 * resumed). The plug is Titan Ridge's notify.
 *
 * The plug. Titan Ridge's GPE is edge-triggered and its method notifies
 * the NHI: the module takes that notify. Alpine Ridge's is level-triggered
 * and its method only flips the plug pad's RX inversion, so that the level
 * drops until the next plug or unplug: the module installs its own handler
 * for the GPE and keeps it enabled for good, as ACPICA did for the method.
 * The handler only queues a work item, which runs the firmware's method
 * (the pad's polarity flips), then finishes the GPE (clears and re-enables
 * it) and holds the NHI and the ports as after any plug. More than ten in
 * ten seconds are a storm (a method that flips nothing, as without
 * _OSI("Darwin")): the GPE stays disabled and the controller on, until
 * tb_macpm.power_down is written. Whether RTPC changes anything is asked
 * once at load (RTPC(0), read the root port's RTBT, RTPC(1)). An Alpine
 * Ridge controller without working votes stays on (no Mac is known to
 * have one); stay_on_reason says why.
 *
 * Limits. System sleep powers an idle controller up in the suspend phase
 * whenever the target is S3 (the PCI core resumes every bridge) or a
 * driver is bound to the NHI (the PCI core resumes it for its suspend
 * callback); it stays off only on s2idle with no driver on the NHI, and is
 * then reset and powered up in resume_noirq (see tb_sleep.c). Either way
 * it goes off again once idle. Thunderbolt 3 alike, with the upstream
 * port's _PS0 (or MacPro7,1's TRPE) in place of XRPE.
 */

bool tb_power_down = true;
unsigned int tb_plug_hold_ms = 10000;

static int tb_param_set_power_down(const char *val, const struct kernel_param *kp);
static const struct kernel_param_ops tb_power_down_ops = {
	.set = tb_param_set_power_down,
	.get = param_get_bool,
};
module_param_cb(power_down, &tb_power_down_ops, &tb_power_down, 0644);
MODULE_PARM_DESC(power_down, "Power idle Thunderbolt controllers down (default: on)");

unsigned int tb_power_off_delay_ms = 500;
module_param_named(power_off_delay_ms, tb_power_off_delay_ms, uint, 0444);
MODULE_PARM_DESC(power_off_delay_ms,
		 "Autosuspend delay of a controller's power switch once its ports are idle, in ms (default: 500)");

module_param_named(plug_hold_ms, tb_plug_hold_ms, uint, 0644);
MODULE_PARM_DESC(plug_hold_ms,
		 "How long a plug keeps the NHI and the hotplug ports resumed, in ms (default: 10000)");

/*
 * The external DisplayPort connectors that are connected, as DRM names them
 * ("card0-DP-1,card1-DP-3"), as user space last wrote them (see "DisplayPort"
 * below); @tb_dp_connected says whether there is one. Under tb_dp_lock: the
 * switch's blocker reads the flag with ctrl->lock held, which nests inside
 * tb_ctrls_lock.
 */
static char tb_dp_list[256];
bool tb_dp_connected;
static DEFINE_SPINLOCK(tb_dp_lock);

static int tb_param_set_dp(const char *val, const struct kernel_param *kp);
static int tb_param_get_dp(char *buffer, const struct kernel_param *kp);
static const struct kernel_param_ops tb_dp_ops = {
	.set = tb_param_set_dp,
	.get = tb_param_get_dp,
};
module_param_cb(dp_connected, &tb_dp_ops, NULL, 0644);
MODULE_PARM_DESC(dp_connected,
		 "External DisplayPort connectors that are connected, as DRM names them (card0-DP-1,...), written by the bundle's udev rule: while any is, Thunderbolt 3 controllers stay powered");

static char *test_nhi_id;
module_param(test_nhi_id, charp, 0444);
MODULE_PARM_DESC(test_nhi_id,
		 "TEST ONLY: also take PCI devices VVVV:DDDD for Thunderbolt NHIs (QEMU harness)");

MACSUPPORT_APPLE_DMI_TABLE(tb_apple_dmi_table);
MODULE_DEVICE_TABLE(dmi, tb_apple_dmi_table);

/* The class is static: its release (delayed, as a device's) must come before exit. */
static DECLARE_COMPLETION(tb_class_released);

static void tb_class_release(macsupport_class_arg *cls)
{
	complete(&tb_class_released);
}

static struct class tb_class = {
	.name = "tb_macpm",
	.class_release = tb_class_release,
};

static LIST_HEAD(tb_ctrls);
static DEFINE_MUTEX(tb_ctrls_lock);
static u16 tb_test_vendor, tb_test_device;
/* module exit has begun: the notifier takes no new controller (tb_ctrls_lock) */
static bool tb_exiting;
/* why no controller may be powered down on this boot, or NULL */
static const char *tb_boot_stay_on;

static bool tb_is_test_nhi(struct pci_dev *pdev)
{
	return tb_test_vendor && pdev->vendor == tb_test_vendor &&
	       pdev->device == tb_test_device;
}

static enum mac_tb_gen tb_nhi_gen(struct pci_dev *pdev)
{
	const struct mac_model_info *model;
	struct mac_model_id id;

	if (!tb_is_test_nhi(pdev))
		return mac_tb_nhi_gen(pdev->vendor, pdev->device, pdev->class >> 8);
	/* the stand-in: the generation of the Mac it pretends to be */
	if (!mac_model_parse(dmi_get_system_info(DMI_PRODUCT_NAME), &id)) {
		model = mac_model_lookup(&id);
		if (model && model->tb != MAC_TB_NONE)
			return model->tb;
	}
	return MAC_TB_LIGHT_RIDGE;
}

static struct tb_ctrl *tb_find_ctrl(struct pci_dev *pdev)
{
	struct tb_ctrl *ctrl;
	unsigned int i;

	lockdep_assert_held(&tb_ctrls_lock);
	list_for_each_entry(ctrl, &tb_ctrls, node) {
		if (ctrl->nhi == pdev || ctrl->upsb == pdev || ctrl->dsb0 == pdev ||
		    ctrl->rp == pdev)
			return ctrl;
		for (i = 0; i < ctrl->ndsb; i++)
			if (ctrl->dsb[i] == pdev)
				return ctrl;
		/* Thunderbolt 3: the xHCI and the port above it */
		for (i = 0; i < TB_NR_VOTES; i++)
			if (ctrl->vote[i] && (ctrl->vote[i]->port == pdev ||
					      ctrl->vote[i]->fn == pdev))
				return ctrl;
	}
	return NULL;
}

/* Thunderbolt 3 controllers the module does not power down yet */
#define TB_STAY_ON_TB3_TRPE	"Thunderbolt 3 with a level plug GPE (Alpine Ridge) without RTPC votes and the root port's _PS3 (TRPE only): no Mac is known to have that, so it is not done"
#define TB_STAY_ON_TB3_EDGE	"Thunderbolt 3: its plug GPE is edge-triggered but not Titan Ridge's, whose method notifies the NHI"
#define TB_STAY_ON_TB3_NO_PLUG	"Thunderbolt 3: no plug GPE found in its root port's scope"
#define TB_STAY_ON_TB3_STUB	"Thunderbolt 3 with a level plug GPE (Alpine Ridge) whose RTPC vote changes nothing (RTBT stays 1): only TRPE would switch it, done on Titan Ridge only (MacPro7,1); no Alpine Ridge Mac is known to have that"
#define TB_STAY_ON_TB3_VOTE_UNKNOWN	"Thunderbolt 3: the root port's RTBT could not be read after RTPC(0), three times, so whether its votes work is not known; reload tb_macpm to ask again"
/* Times whether RTPC is a stub is asked (tb3_vote_is_stub()) before it stays unknown */
#define TB3_STUB_TRIES	3

/*
 * The plug GPE of a Thunderbolt 3 controller: the one method of a Scope
 * (\_GPE) written directly in its root port's scope, in the SSDTs (see
 * src/lib/aml_gpe.c). Fills @ctrl->plug_source.
 */
static bool tb3_find_plug_gpe(struct tb_ctrl *ctrl, struct pci_dev *rp)
{
	struct acpi_buffer name = { ACPI_ALLOCATE_BUFFER, NULL };
	acpi_handle rp_handle = ACPI_HANDLE(&rp->dev);
	struct aml_gpe_method m[2], first = { 0 };
	struct acpi_table_header *hdr;
	unsigned int i, bad = 0;
	int n = 0, r;

	if (!rp_handle || ACPI_FAILURE(acpi_get_name(rp_handle, ACPI_FULL_PATHNAME, &name))) {
		strscpy(ctrl->plug_source, "none: the root port has no ACPI companion",
			sizeof(ctrl->plug_source));
		return false;
	}
	for (i = 1; ACPI_SUCCESS(acpi_get_table(ACPI_SIG_SSDT, i, &hdr)); i++) {
		/* a header-only SSDT (Apple's SmcDppt, PEG0SSD0) declares nothing */
		r = aml_table_scope_gpe((const u8 *)hdr, hdr->length, name.pointer, m,
					ARRAY_SIZE(m));
		acpi_put_table(hdr);
		if (r < 0) {
			bad++;
			continue;
		}
		if (r && !n)
			first = m[0];
		n += r;
	}
	if (n == 1 && !bad) {
		ctrl->plug_gpe = first.gpe;
		ctrl->plug_level = first.level;
		/* Alpine Ridge: the pad its level method flips (tb_level_gpe_work()) */
		ctrl->plug_pad = first.level ? first.pad : 0;
		snprintf(ctrl->plug_method, sizeof(ctrl->plug_method), "\\_GPE._%c%02X",
			 first.level ? 'L' : 'E', first.gpe);
		r = snprintf(ctrl->plug_source, sizeof(ctrl->plug_source),
			     "GPE 0x%02x, %s (\\_GPE._%c%02X in %s's scope)%s", first.gpe,
			     first.level ? "level" : "edge", first.level ? 'L' : 'E', first.gpe,
			     (char *)name.pointer,
			     ctrl->gen == MAC_TB_TITAN_RIDGE ? ", notifies the NHI" : "");
		if (ctrl->plug_pad && r > 0 && (size_t)r < sizeof(ctrl->plug_source))
			snprintf(ctrl->plug_source + r, sizeof(ctrl->plug_source) - r,
				 ", flips pad 0x%08x", ctrl->plug_pad);
	} else if (bad) {
		/* the GPE may be in a table that could not be read: no guess */
		snprintf(ctrl->plug_source, sizeof(ctrl->plug_source),
			 "none: %u SSDTs could not be read, %d GPE methods in %s's scope in the others",
			 bad, n, (char *)name.pointer);
	} else if (n)
		snprintf(ctrl->plug_source, sizeof(ctrl->plug_source),
			 "none: %d GPE methods in %s's scope", n, (char *)name.pointer);
	else
		snprintf(ctrl->plug_source, sizeof(ctrl->plug_source),
			 "none in %s's scope", (char *)name.pointer);
	kfree(name.pointer);
	return n == 1 && !bad;
}

/*
 * Read the NHI's ACPI methods (and, on Thunderbolt 3, its root port's).
 * Return: NULL if the controller can be managed, else why not.
 */
static const char *tb_read_methods(struct tb_ctrl *ctrl, struct pci_dev *rp)
{
	acpi_handle rp_handle = ACPI_HANDLE(&rp->dev);
	struct acpi_device_info *info;
	unsigned long long gpe;
	acpi_handle method;
	unsigned int i;
	bool votes;
	int stub;

	if (!ctrl->handle)
		return "no ACPI companion";
	if (acpi_has_method(ctrl->handle, "XRPE"))
		ctrl->set_method = "XRPE";
	else if (acpi_has_method(ctrl->handle, "TRPE"))
		ctrl->set_method = "TRPE";
	else
		return "no XRPE or TRPE method";

	/* MacPro6,1's TRPE takes two arguments: call it with as many */
	ctrl->set_args = 1;
	if (ACPI_SUCCESS(acpi_get_handle(ctrl->handle, (char *)ctrl->set_method, &method)) &&
	    ACPI_SUCCESS(acpi_get_object_info(method, &info))) {
		if (info->param_count >= 1 && info->param_count <= 2)
			ctrl->set_args = info->param_count;
		kfree(info);
	}

	ctrl->has_xril = acpi_has_method(ctrl->handle, "XRIL");
	ctrl->has_gpe = ACPI_SUCCESS(acpi_evaluate_integer(ctrl->handle, "XRIN", NULL, &gpe));
	if (ctrl->has_gpe)
		ctrl->gpe = gpe;
	snprintf(ctrl->methods, sizeof(ctrl->methods), "%s%s%s", ctrl->set_method,
		 ctrl->has_xril ? " XRIL" : "", ctrl->has_gpe ? " XRIN=" : "");
	if (ctrl->has_gpe)
		snprintf(ctrl->methods + strlen(ctrl->methods),
			 sizeof(ctrl->methods) - strlen(ctrl->methods), "0x%02x", ctrl->gpe);

	if (mac_tb_gen_has_plug_gpe(ctrl->gen)) {
		if (!ctrl->has_xril)
			return "XRPE/TRPE without XRIL";
		if (!ctrl->has_gpe)
			return "XRPE/TRPE without XRIN";
		if (ctrl->gpe > 0xff)
			return "XRIN is not a GPE number";
		ctrl->mechanism = ctrl->set_method;
		ctrl->ops = &tb_xrpe_ops;
		snprintf(ctrl->plug_source, sizeof(ctrl->plug_source), "GPE 0x%02x (XRIN)",
			 ctrl->gpe);
		return NULL;
	}
	/*
	 * Thunderbolt 3: no XRIN or XRIL. The firmware cuts the power in the
	 * root port's _PS3 once the NHI's and the xHCI's RTPC(0) have taken
	 * their votes back, and restores it in the upstream port's _PS0;
	 * TRPE still switches it directly. Where the votes are missing or
	 * change nothing (MacPro7,1's RTPC is a stub), TRPE is all that
	 * works: Titan Ridge gets it, with its plug notify; one mechanism per
	 * controller, never both.
	 */
	ctrl->has_gpe = false;
	votes = acpi_has_method(ctrl->handle, "RTPC") && rp_handle &&
		acpi_has_method(rp_handle, "_PS3");
	/* asked again where it could not tell: an AML error may be passing */
	stub = 0;
	for (i = 0; votes && i < TB3_STUB_TRIES; i++) {
		stub = tb3_vote_is_stub(ctrl, rp_handle);
		if (stub >= 0)
			break;
		msleep(20);
	}
	if (stub > 0)
		votes = false;
	ctrl->mechanism = votes ? "RTPC votes, root port _PS3" : ctrl->set_method;
	if (votes)
		ctrl->ops = &tb_votes_ops;
	else if (ctrl->has_xril)
		ctrl->ops = &tb_xrpe_ops;
	else
		ctrl->ops = &tb_trpe_ops;
	if (!tb3_find_plug_gpe(ctrl, rp))
		ctrl->stay_on = TB_STAY_ON_TB3_NO_PLUG;
	else if (stub < 0)
		ctrl->stay_on = TB_STAY_ON_TB3_VOTE_UNKNOWN;
	else if (ctrl->plug_level && !votes)
		ctrl->stay_on = stub ? TB_STAY_ON_TB3_STUB : TB_STAY_ON_TB3_TRPE;
	else if (ctrl->plug_level)
		ctrl->own_gpe = true;
	else if (ctrl->gen == MAC_TB_TITAN_RIDGE)
		ctrl->has_notify = true;
	else
		ctrl->stay_on = TB_STAY_ON_TB3_EDGE;
	return NULL;
}

/* The port above @pdev if it is a PCIe port of @type. */
static struct pci_dev *tb_port_above(struct pci_dev *pdev, int type)
{
	struct pci_dev *up = pdev ? pci_upstream_bridge(pdev) : NULL;

	return up && pci_is_pcie(up) && pci_pcie_type(up) == type ? up : NULL;
}

/* Make each hotplug downstream port a runtime-PM consumer of the NHI. */
static void tb_link_ports(struct tb_ctrl *ctrl)
{
	struct device_link *link;
	struct pci_dev *pdev;
	unsigned int slot;

	for (slot = 0; slot < 32 && ctrl->ndsb < TB_MAX_DSB; slot++) {
		pdev = pci_get_slot(ctrl->upsb->subordinate, PCI_DEVFN(slot, 0));
		if (!pdev)
			continue;
		if (pdev == ctrl->dsb0 || !pci_is_pcie(pdev) || !pdev->is_hotplug_bridge ||
		    pci_pcie_type(pdev) != PCI_EXP_TYPE_DOWNSTREAM) {
			pci_dev_put(pdev);
			continue;
		}
		/* active while linked, so that the link's RPM_ACTIVE holds */
		pm_runtime_get_sync(&pdev->dev);
		link = device_link_add(&pdev->dev, &ctrl->nhi->dev,
				       DL_FLAG_STATELESS | DL_FLAG_PM_RUNTIME | DL_FLAG_RPM_ACTIVE);
		pm_runtime_put(&pdev->dev);
		if (!link)
			dev_warn(&ctrl->dev, "cannot make hotplug port %s a consumer of the NHI\n",
				 pci_name(pdev));
		ctrl->dsb[ctrl->ndsb] = pdev;
		ctrl->dsb_link[ctrl->ndsb++] = link;
	}
}

static void tb_unlink_ports(struct tb_ctrl *ctrl)
{
	while (ctrl->ndsb) {
		struct pci_dev *pdev = ctrl->dsb[--ctrl->ndsb];

		if (ctrl->dsb_link[ctrl->ndsb])
			device_link_del(ctrl->dsb_link[ctrl->ndsb]);
		pci_dev_put(pdev);
	}
}

static int tb_match_type(struct device *dev, void *name)
{
	return dev->type && dev->type->name && !strcmp(dev->type->name, name);
}

/*
 * Let the NHI runtime-suspend under thunderbolt.ko: enable runtime PM of
 * its root switch (see the overview). Called with the NHI's device lock and
 * tb_ctrls_lock held, the NHI bound.
 */
static void tb_take_root_switch(struct tb_ctrl *ctrl)
{
	struct device *domain, *rsw;

	if (ctrl->rsw || ctrl->stay_on || !ctrl->nhi->dev.driver)
		return;
	domain = device_find_child(&ctrl->nhi->dev, "thunderbolt_domain", tb_match_type);
	if (!domain)
		return;
	rsw = device_find_child(domain, "thunderbolt_device", tb_match_type);
	put_device(domain);
	if (!rsw)
		return;
	/* a USB4 host's, or someone enabled it already: not ours */
	if (pm_runtime_enabled(rsw)) {
		put_device(rsw);
		return;
	}
	/* under ctrl->lock too: the power switch's runtime PM looks at it */
	mutex_lock(&ctrl->lock);
	ctrl->rsw = rsw;
	mutex_unlock(&ctrl->lock);
	pm_runtime_enable(rsw);
	pm_request_idle(rsw);
	dev_info(&ctrl->dev, "enabled runtime PM of %s's root switch %s, so the NHI can suspend\n",
		 ctrl->nhi->dev.driver->name, dev_name(rsw));
}

/* Give the root switch back as its driver left it: active, runtime PM off. */
static void tb_give_root_switch(struct tb_ctrl *ctrl)
{
	struct device *rsw;

	mutex_lock(&ctrl->lock);
	rsw = ctrl->rsw;
	ctrl->rsw = NULL;
	mutex_unlock(&ctrl->lock);
	if (!rsw)
		return;
	pm_runtime_get_sync(rsw);
	pm_runtime_disable(rsw);
	pm_runtime_put_noidle(rsw);
	put_device(rsw);
}

/*
 * Take @nhi's controller under management, if it is one (tb_ctrls_lock
 * held). A device of the controller that goes away (BUS_NOTIFY_DEL_DEVICE)
 * releases it first: its device links die with it.
 */
static void tb_bind(struct pci_dev *nhi)
{
	enum mac_tb_gen gen = tb_nhi_gen(nhi);
	struct pci_dev *dsb0, *upsb, *rp, *consumer;
	struct tb_ctrl *ctrl;
	const char *why;

	if (tb_exiting || (gen == MAC_TB_NONE && !tb_is_test_nhi(nhi)) || tb_find_ctrl(nhi))
		return;
	dsb0 = tb_port_above(nhi, PCI_EXP_TYPE_DOWNSTREAM);
	upsb = tb_port_above(dsb0, PCI_EXP_TYPE_UPSTREAM);
	/*
	 * MacPro7,1's Titan Ridge controllers hang below a PCIe switch's
	 * downstream ports (PC04.MCP0.US00.DS18...), which are no hotplug
	 * ports: TRPE disables their link, which pciehp would take for a
	 * surprise removal of the whole controller.
	 */
	rp = tb_port_above(upsb, PCI_EXP_TYPE_ROOT_PORT);
	if (!rp && gen == MAC_TB_TITAN_RIDGE) {
		rp = tb_port_above(upsb, PCI_EXP_TYPE_DOWNSTREAM);
		if (rp && rp->is_hotplug_bridge)
			rp = NULL;
	}
	if (!rp || !upsb->subordinate) {
		pci_info(nhi, "Thunderbolt NHI not behind a root or downstream port, an upstream and a downstream port: not managed\n");
		return;
	}

	ctrl = kzalloc(sizeof(*ctrl), GFP_KERNEL);
	if (!ctrl)
		return;
	ctrl->gen = gen;
	ctrl->handle = ACPI_HANDLE(&nhi->dev);
	why = tb_read_methods(ctrl, rp);
	if (why) {
		pci_info(nhi, "Thunderbolt NHI (%s): %s in its ACPI companion: not managed\n",
			 mac_tb_gen_name(gen), why);
		kfree(ctrl);
		return;
	}

	ctrl->nhi = pci_dev_get(nhi);
	ctrl->dsb0 = pci_dev_get(dsb0);
	ctrl->upsb = pci_dev_get(upsb);
	ctrl->rp = pci_dev_get(rp);
	if (ctrl->ops->init)
		ctrl->ops->init(ctrl);
	mutex_init(&ctrl->lock);
	ctrl->since = ktime_get();
	device_initialize(&ctrl->dev);
	tb_ctrl_count_dev();
	/* the root port's supplier cannot be its child (device_link_add()) */
	ctrl->dev.parent = ctrl->ops->supplies_rp ? rp->dev.parent : &rp->dev;
	ctrl->dev.class = &tb_class;
	ctrl->dev.type = &tb_ctrl_type;
	ctrl->dev.groups = tb_ctrl_groups;
	dev_set_name(&ctrl->dev, "%s", pci_name(nhi));
	device_enable_async_suspend(&ctrl->dev);
	if (device_add(&ctrl->dev)) {
		pci_err(nhi, "cannot register the Thunderbolt power switch\n");
		goto err_put;
	}

	/* the root port must be active to get an active child */
	pm_runtime_get_sync(&rp->dev);
	if (tb_boot_stay_on && !ctrl->stay_on)
		ctrl->stay_on = tb_boot_stay_on;
	tb_ctrl_power_init(ctrl);
	/* held until the upstream port is linked: nothing may cut power before */
	pm_runtime_get_noresume(&ctrl->dev);
	pm_runtime_set_active(&ctrl->dev);
	/*
	 * Thunderbolt 3's votes wait the delay themselves (tb_votes.c): the
	 * switch then only records, after the root port's _PS3, what the
	 * firmware did
	 */
	pm_runtime_set_autosuspend_delay(&ctrl->dev,
					 ctrl->ops->supplies_rp ? 0 : tb_power_off_delay_ms);
	pm_runtime_use_autosuspend(&ctrl->dev);
	pm_runtime_enable(&ctrl->dev);

	tb_link_ports(ctrl);
	/* the upstream port, or the root port, needs the switch to resume */
	consumer = ctrl->ops->supplies_rp ? rp : upsb;
	pm_runtime_get_sync(&upsb->dev);
	ctrl->link = device_link_add(&consumer->dev, &ctrl->dev,
				     DL_FLAG_STATELESS | DL_FLAG_PM_RUNTIME | DL_FLAG_RPM_ACTIVE);
	if (!ctrl->link && !ctrl->stay_on)
		ctrl->stay_on = "its upstream or root port could not be linked to the power switch";

	list_add_tail(&ctrl->node, &tb_ctrls);
	tb_ctrl_power_start(ctrl);
	if (ctrl->ops->attach)
		ctrl->ops->attach(ctrl);
	pm_runtime_mark_last_busy(&upsb->dev);
	pm_runtime_put_autosuspend(&upsb->dev);
	dev_info(&ctrl->dev, "%s controller (NHI %s, %s), power switch of %s%s%s%s\n",
		 mac_tb_gen_name(gen), pci_name(nhi), ctrl->methods, pci_name(upsb),
		 ctrl->stay_on ? "; stays on: " : "", ctrl->stay_on ?: "",
		 tb_power_down ? "" : " (power_down=0)");
	pm_runtime_mark_last_busy(&ctrl->dev);
	pm_runtime_put_autosuspend(&ctrl->dev);
	pm_runtime_put(&rp->dev);
	/* a port left active by a lost idle notification (tb_ctrl_nudge()) */
	tb_ctrl_settle(ctrl);
	return;

err_put:
	pci_dev_put(ctrl->rp);
	pci_dev_put(ctrl->upsb);
	pci_dev_put(ctrl->dsb0);
	pci_dev_put(ctrl->nhi);
	put_device(&ctrl->dev);
}

/* A controller's stay_on reason when _OSI ("Darwin") is false */
#define TB_STAY_ON_OSI_FALSE	"_OSI(\"Darwin\") answers false (acpi_osi=!Darwin?): Apple's power methods do nothing then"

/*
 * Apple's XRPE and TRPE do their work only under If (OSDW ()), which is
 * true when _OSI ("Darwin") answered true (every dump in the reference).
 * Booted with acpi_osi=!Darwin, a common workaround, the methods return
 * without touching the power, and a gen1 XRIL, which reads the plug GPIO,
 * would still report "off": the module would count power cycles of a
 * controller that never went off. Such controllers are listed but stay on.
 */
static const char *tb_check_osi_darwin(void)
{
	union acpi_object arg = {
		.string = { .type = ACPI_TYPE_STRING, .length = strlen("Darwin"),
			    .pointer = "Darwin" },
	};
	struct acpi_object_list args = { .count = 1, .pointer = &arg };
	unsigned long long val;
	acpi_status status;

	status = acpi_evaluate_integer(NULL, "\\_OSI", &args, &val);
	if (ACPI_FAILURE(status))
		return "_OSI(\"Darwin\") cannot be evaluated, and Apple's power methods need it";
	if (!val)
		return TB_STAY_ON_OSI_FALSE;
	return NULL;
}

/* Leave the controller powered and as found (tb_ctrls_lock held). */
static void tb_unbind(struct tb_ctrl *ctrl)
{
	int ret;

	list_del(&ctrl->node);
	/* a failed power-up's error cleared first, so that this one is tried */
	flush_work(&ctrl->recover_work);
	/*
	 * Thunderbolt 3's votes (power_with_upsb): the power comes with the
	 * upstream port's _PS0, so resume that port (the root port and the
	 * switch with it); detach then gives both votes back (RTPC(1)), so
	 * that no later _PS3 of the ports cuts the power.
	 */
	if (ctrl->ops->power_with_upsb)
		pm_runtime_get_sync(&ctrl->upsb->dev);
	ret = pm_runtime_get_sync(&ctrl->dev);
	tb_ctrl_power_exit(ctrl);
	/*
	 * Thunderbolt 3: the votes back (RTPC(1)) and their devices gone,
	 * once no work of the controller's can reach them
	 */
	if (ctrl->ops->detach)
		ctrl->ops->detach(ctrl);
	tb_give_root_switch(ctrl);
	tb_unlink_ports(ctrl);
	if (ctrl->link)
		device_link_del(ctrl->link);
	if (ctrl->ops->power_with_upsb)
		pm_runtime_put(&ctrl->upsb->dev);
	pm_runtime_disable(&ctrl->dev);
	pm_runtime_put_noidle(&ctrl->dev);
	if (ret < 0)
		dev_err(&ctrl->dev, "released, but the controller could not be powered up: %pe\n",
			ERR_PTR(ret));
	else
		dev_info(&ctrl->dev, "released; the controller stays powered\n");
	device_del(&ctrl->dev);
	pci_dev_put(ctrl->rp);
	pci_dev_put(ctrl->upsb);
	pci_dev_put(ctrl->dsb0);
	pci_dev_put(ctrl->nhi);
	put_device(&ctrl->dev);
}

static int tb_pci_notify(struct notifier_block *nb, unsigned long action, void *data)
{
	struct pci_dev *pdev = to_pci_dev(data);
	struct tb_ctrl *ctrl;

	mutex_lock(&tb_ctrls_lock);
	ctrl = tb_find_ctrl(pdev);
	switch (action) {
	case BUS_NOTIFY_ADD_DEVICE:
		tb_bind(pdev);
		/* Thunderbolt 3: the xHCI, scanned after its NHI */
		list_for_each_entry(ctrl, &tb_ctrls, node)
			if (ctrl->ops->pci_add)
				ctrl->ops->pci_add(ctrl, pdev);
		break;
	case BUS_NOTIFY_BOUND_DRIVER:
		if (ctrl && ctrl->nhi == pdev)
			tb_take_root_switch(ctrl);
		break;
	case BUS_NOTIFY_UNBIND_DRIVER:
		if (ctrl && ctrl->nhi == pdev)
			tb_give_root_switch(ctrl);
		break;
	case BUS_NOTIFY_DEL_DEVICE:
		if (ctrl)
			tb_unbind(ctrl);
		break;
	}
	mutex_unlock(&tb_ctrls_lock);
	return NOTIFY_DONE;
}

static struct notifier_block tb_pci_nb = {
	.notifier_call = tb_pci_notify,
};

static int tb_param_set_power_down(const char *val, const struct kernel_param *kp)
{
	struct tb_ctrl *ctrl;
	int ret;

	ret = param_set_bool(val, kp);
	if (ret)
		return ret;
	mutex_lock(&tb_ctrls_lock);
	list_for_each_entry(ctrl, &tb_ctrls, node)
		tb_ctrl_param_changed(ctrl);
	mutex_unlock(&tb_ctrls_lock);
	return 0;
}

/**
 * DOC: DisplayPort
 *
 * A monitor on a Thunderbolt 3 Mac's USB-C port, through a USB-C to
 * DisplayPort or HDMI cable, runs in DisplayPort alternate mode: no
 * tunnel, no router, nothing that keeps thunderbolt.ko's NHI resumed, and
 * the controller's xHCI may idle too (the port's USB 2 lines go to the
 * PCH's). Whether an Alpine or Titan Ridge chip passes DisplayPort through
 * with its rails cut is not known: the kernel assumes not for its own
 * redriver (thunderbolt.ko keeps a Barlow Ridge host router out of RTD3
 * while a monitor is connected to it directly), and nobody has measured
 * it on a Mac. Until someone has, a Thunderbolt 3 controller stays
 * powered while any external DisplayPort connector is connected: on
 * these Macs every one of them can be routed through a Thunderbolt port,
 * and which controller carries which connector is not known either, so
 * all of them stay on.
 *
 * "Connected" is DRM's connector status. DRM tells user space, not the
 * kernel: a connector's status changes with a uevent of its card
 * (HOTPLUG=1), and no notifier or exported call lets another module ask
 * without linking against DRM and reading its connectors' internals. So
 * user space tells tb_macpm: the bundle's udev rule (tools/udev) runs, on
 * every DRM hotplug event, on a connector's coming and going and when
 * tb_macpm loads, a helper that writes the names of the connected
 * external DisplayPort connectors (card*-DP-*, not eDP) to
 * tb_macpm.dp_connected; an empty write says none. Writing it powers a
 * controller up at once, or lets it go off once idle. Without the rule
 * (a DKMS install without the bundle's files) nothing is written, and the
 * controllers behave as before it.
 */
static int tb_param_set_dp(const char *val, const struct kernel_param *kp)
{
	struct tb_ctrl *ctrl;
	char list[sizeof(tb_dp_list)];
	size_t len;

	strscpy(list, val, sizeof(list));
	len = strcspn(list, "\n");
	list[len] = 0;
	spin_lock(&tb_dp_lock);
	strscpy(tb_dp_list, list, sizeof(tb_dp_list));
	WRITE_ONCE(tb_dp_connected, len > 0);
	spin_unlock(&tb_dp_lock);
	mutex_lock(&tb_ctrls_lock);
	list_for_each_entry(ctrl, &tb_ctrls, node)
		tb_ctrl_dp_changed(ctrl);
	mutex_unlock(&tb_ctrls_lock);
	return 0;
}

static int tb_param_get_dp(char *buffer, const struct kernel_param *kp)
{
	int n;

	spin_lock(&tb_dp_lock);
	n = sysfs_emit(buffer, "%s\n", tb_dp_list);
	spin_unlock(&tb_dp_lock);
	return n;
}

/*
 * Enable the root switches of NHIs already bound. Lock order: device, list;
 * only the controllers' NHIs are locked, not every PCI device (whose probe
 * may be slow: a GPU driver loading its firmware). A controller released
 * meanwhile is simply not found again.
 */
static void tb_take_bound_root_switches(void)
{
	struct pci_dev **nhis;
	struct tb_ctrl *ctrl;
	unsigned int i, n = 0;

	mutex_lock(&tb_ctrls_lock);
	list_for_each_entry(ctrl, &tb_ctrls, node)
		n++;
	nhis = n ? kcalloc(n, sizeof(*nhis), GFP_KERNEL) : NULL;
	n = 0;
	if (nhis)
		list_for_each_entry(ctrl, &tb_ctrls, node)
			nhis[n++] = pci_dev_get(ctrl->nhi);
	mutex_unlock(&tb_ctrls_lock);

	for (i = 0; i < n; i++) {
		device_lock(&nhis[i]->dev);
		mutex_lock(&tb_ctrls_lock);
		ctrl = tb_find_ctrl(nhis[i]);
		if (ctrl && ctrl->nhi == nhis[i])
			tb_take_root_switch(ctrl);
		mutex_unlock(&tb_ctrls_lock);
		device_unlock(&nhis[i]->dev);
		pci_dev_put(nhis[i]);
	}
	kfree(nhis);
}

static int __init tb_macpm_init(void)
{
	const struct mac_model_info *model = NULL;
	struct pci_dev *pdev = NULL;
	struct mac_model_id id;
	unsigned int count = 0;
	struct tb_ctrl *ctrl;
	int ret;

	if (!macsupport_require_apple(tb_apple_dmi_table))
		return -ENODEV;
	if (test_nhi_id && sscanf(test_nhi_id, "%hx:%hx", &tb_test_vendor, &tb_test_device) != 2) {
		pr_err("test_nhi_id=%s: want VVVV:DDDD\n", test_nhi_id);
		return -EINVAL;
	}
	if (!mac_model_parse(dmi_get_system_info(DMI_PRODUCT_NAME), &id))
		model = mac_model_lookup(&id);
	tb_boot_stay_on = tb_check_osi_darwin();

	ret = class_register(&tb_class);
	if (ret)
		return ret;
	ret = bus_register_notifier(&pci_bus_type, &tb_pci_nb);
	if (ret) {
		class_unregister(&tb_class);
		wait_for_completion(&tb_class_released);
		return ret;
	}
	mutex_lock(&tb_ctrls_lock);
	for_each_pci_dev(pdev)
		tb_bind(pdev);
	list_for_each_entry(ctrl, &tb_ctrls, node)
		count++;
	mutex_unlock(&tb_ctrls_lock);
	tb_take_bound_root_switches();

	pr_info("%s: %u Thunderbolt controller(s) managed; model table: %s x%u%s\n",
		macsupport_dmi_string(DMI_PRODUCT_NAME), count,
		model ? mac_tb_gen_name(model->tb) : "unknown model",
		model ? model->tb_count : 0, tb_test_vendor ? " (TEST ONLY: test_nhi_id set)" : "");
	return 0;
}
module_init(tb_macpm_init);

static void __exit tb_macpm_exit(void)
{
	struct tb_ctrl *ctrl;
	struct pci_dev *nhi;

	/*
	 * The notifier stays registered until every controller is released:
	 * a device removed meanwhile releases its controller there, before
	 * the driver core purges its links (which must not be deleted twice).
	 */
	mutex_lock(&tb_ctrls_lock);
	tb_exiting = true;
	mutex_unlock(&tb_ctrls_lock);
	for (;;) {
		mutex_lock(&tb_ctrls_lock);
		ctrl = list_first_entry_or_null(&tb_ctrls, struct tb_ctrl, node);
		nhi = ctrl ? pci_dev_get(ctrl->nhi) : NULL;
		mutex_unlock(&tb_ctrls_lock);
		if (!nhi)
			break;
		device_lock(&nhi->dev);
		mutex_lock(&tb_ctrls_lock);
		ctrl = tb_find_ctrl(nhi);
		if (ctrl)
			tb_unbind(ctrl);
		mutex_unlock(&tb_ctrls_lock);
		device_unlock(&nhi->dev);
		pci_dev_put(nhi);
	}
	bus_unregister_notifier(&pci_bus_type, &tb_pci_nb);
	/*
	 * A deleted link drops its reference to the power switch from the
	 * device-link workqueue: wait for it, the switch's release is here.
	 */
	device_link_wait_removal();
	tb_ctrl_wait_released();
	class_unregister(&tb_class);
	wait_for_completion(&tb_class_released);
}
module_exit(tb_macpm_exit);

MODULE_AUTHOR("The macsupport developers");
MODULE_DESCRIPTION("Thunderbolt controller power management on Apple Macs");
MODULE_LICENSE("GPL");
MODULE_VERSION(MACSUPPORT_VERSION);
