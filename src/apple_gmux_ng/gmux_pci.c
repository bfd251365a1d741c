// SPDX-License-Identifier: GPL-2.0
/*
 * apple_gmux_ng - which PCI device is which GPU, and whose the panel is
 *
 * Copyright (C) 2026 The macsupport developers
 */

#include <linux/pci.h>
#include <linux/vga_switcheroo.h>

#include "gmux.h"

/**
 * DOC: Who is who
 *
 * The facts that the display switch (gmux_switch.c), the automatic power-off
 * (gmux_runpm.c) and the dGPU's power owner (gmux_power.c) all read: which
 * PCI device is the integrated and which the discrete GPU, whether the
 * discrete GPU's driver forbids a cut, and which GPU the panel is on. They
 * sit beneath all three and call none of them: the switch and the runtime
 * PM are above the power owner, and the power owner tells them what
 * changed through its notifier chain (gmux_power_notify()), so that calls
 * go one way.
 */

/*
 * TEST ONLY: QEMU's display devices are all 1234:1111, neither Intel nor
 * NVIDIA. Only when this gmux is the QEMU harness's simulator, the stand-in
 * at 00:02.0 (where every Intel iGPU sits) is taken for the IGD.
 */
static bool gmux_test_sim_igd(struct apple_gmux_ng *gmux, struct pci_dev *pdev)
{
	return gmux->win.sim_journal && pdev->vendor == 0x1234 &&
	       pci_domain_nr(pdev->bus) == 0 && pdev->bus->number == 0 &&
	       pdev->devfn == PCI_DEVFN(2, 0);
}

enum vga_switcheroo_client_id gmux_client_id(struct apple_gmux_ng *gmux, struct pci_dev *pdev)
{
	if (pdev->vendor == PCI_VENDOR_ID_INTEL)
		return VGA_SWITCHEROO_IGD;
	if (pdev->vendor == PCI_VENDOR_ID_NVIDIA && pdev->device == 0x0863)
		return VGA_SWITCHEROO_IGD;	/* MCP79 (GeForce 9400M) */
	if (gmux_test_sim_igd(gmux, pdev))
		return VGA_SWITCHEROO_IGD;
	return VGA_SWITCHEROO_DIS;
}

bool gmux_pci_is_gpu(struct apple_gmux_ng *gmux, struct pci_dev *pdev,
		     enum vga_switcheroo_client_id id)
{
	return (pdev->class >> 16) == PCI_BASE_CLASS_DISPLAY && gmux_client_id(gmux, pdev) == id;
}

bool gmux_pci_is_dgpu(struct apple_gmux_ng *gmux, struct pci_dev *pdev)
{
	/* as nouveau and amdgpu tell an eGPU from the internal one */
	return gmux_pci_is_gpu(gmux, pdev, VGA_SWITCHEROO_DIS) &&
	       !pci_is_thunderbolt_attached(pdev);
}

bool gmux_pci_driver_needs_power(struct pci_dev *pdev)
{
	/*
	 * One load of the driver pointer: an unbind clears it, and the
	 * struct device_driver lives until its driver is unregistered,
	 * after every unbind.
	 */
	struct device_driver *drv = READ_ONCE(pdev->dev.driver);

	return drv && !strcmp(drv->name, "amdgpu");
}

bool gmux_igd_without_panel(struct apple_gmux_ng *gmux)
{
	return gmux->io.kind != MAC_GMUX_CLASSIC &&
	       READ_ONCE(gmux->sw.igd_probe) == GMUX_IGD_PROBE_NO_PANEL;
}

bool gmux_panel_on_igd(struct apple_gmux_ng *gmux)
{
	unsigned int val;

	return !regmap_read(gmux->regmap, GMUX_PORT_SWITCH_DISPLAY, &val) &&
	       gmux_display_owner(val) == GMUX_GPU_IGD;
}
