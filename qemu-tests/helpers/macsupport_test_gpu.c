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
 *   reprobes, unpowered (mode=radeon: set_gpu_state calls that found the
 *   dGPU unpowered), state_lost (mode=radeon: ONs that found no state
 *   saved to restore, as radeon's OFF saved it; must stay 0); the iGPU's
 *   also panel: found or none, what i915 would have found when it probed
 *   (panel=edp: an eDP panel, found only if the gmux had it on the iGPU;
 *   panel=lvds: the EDID read through the handler's DDC switch)
 * - <pci name>/ddc: write N: vga_switcheroo_lock_ddc() (the handler's
 *   switch_ddc moves the DDC lines to this GPU), hold them N ms (at most
 *   10 s) as a driver reading the EDID would, vga_switcheroo_unlock_ddc()
 *   (they go back). Both in one write: lock_ddc holds a mutex until the
 *   unlock, which must not be held across a return to user space. Read:
 *   the last lock's result (the previous DDC owner's id, or an errno)
 *
 * With runpm=1 (as nouveau.runpm=1 on a Mac) the driver uses runtime PM on
 * the dGPU as nouveau and amdgpu do: it registers the client with
 * driver_power_control, enables autosuspend (autosuspend_ms), allows
 * runtime PM and drops its usage count at the end of probe. It also binds
 * the dGPU's audio function (QEMU's intel-hda in the dGPU's slot) with
 * runtime PM, as snd_hda_intel would. Both record, in each runtime-PM
 * callback, whether the simulated gmux had the dGPU powered at that moment
 * (GMUX_SIM_ST_DGPU_ON, read from the simulator's window): the dGPU must
 * be powered whenever its driver or its audio's driver runs.
 *
 * - <pci name>/runpm: suspends, resumes, and of those how many found the
 *   dGPU unpowered (must stay 0); the audio function's file counts its
 *   suspends the same way, and shows keep_power
 *
 * The audio function does what snd_hda_intel does with an NVIDIA GPU's
 * HDMI audio (init_vga_switcheroo(), azx_vs_ops): it registers as the
 * GPU's vga_switcheroo audio client and keeps its power (keep_power: its
 * runtime idle says -EBUSY, and so the dGPU it depends on stays powered)
 * until vga_switcheroo binds it to the DIS (gpu_bound), which happens once
 * a handler and both GPU clients are registered; keep_power is 0 from the
 * start where the root port above the GPU has _PR3 (no Mac's has). Not
 * modelled: the codec's audio component (nouveau's nv50 acomp), which
 * also clears it.
 * - <pci name>/hold: write 1 to take a runtime-PM reference (the device and
 *   what it depends on resume), 0 to drop it
 * - <pci name>/display (the dGPU, with runtime PM): write connect,
 *   disconnect, light, dark or detect: an external display plugged or
 *   unplugged, a CRTC lit on it or turned off, a connector probe, each
 *   through an ioctl that resumes the GPU (see test_display_write()); read:
 *   connected, crtc_lit, detects, detect_wakes (probes that found the GPU
 *   suspended), display_busy (amdgpu's suspends refused for the display).
 *   nouveau holds a reference while a CRTC is lit, amdgpu refuses to
 *   suspend while a display is connected or lit
 * - <pci name>/thunderbolt: write 1 to mark the device Thunderbolt-attached
 *   (pdev->is_thunderbolt), 0 to clear it: QEMU cannot present the Intel
 *   Thunderbolt capability from which the PCI core sets it, so this is how
 *   the harness makes an "eGPU"
 *
 * mode=amdgpu: the dGPU's driver does what Debian's amdgpu does on a Mac
 * whose chip claims BACO (amdgpu_pmops_runtime_suspend/_resume, runpm=-1):
 * the driver registers as "amdgpu" (apple_gmux_ng keys on the name; the
 * iGPU stand-in gets the name too), registers its vga_switcheroo client
 * without driver power control (no PX), uses runtime PM whatever runpm
 * says, and its runtime resume fails (-EIO, counted as "baco_failures")
 * when the chip lost power while suspended (the simulator's dgpu_offs
 * moved) or has none. The real resume sends the BACO exit to the SMU
 * first, ignores its result and re-POSTs; that a cold chip does not come
 * back from that ("No response from SMU") is what MacBookPro15,x/16,1
 * owners report, not something the 6.1 source shows. Its set_gpu_state()
 * does to the PCI device what amdgpu_switcheroo_set_state() does (OFF:
 * state saved, D3hot; ON: D0, state restored; "unpowered" counts a call
 * that found the chip without power); after an OFF its runtime PM goes
 * on, as amdgpu's does, and each runtime suspend enters BACO
 * ("baco_enters"), which a chip without power does not answer
 * ("baco_enter_cold", logged; the suspend succeeds all the same, as
 * amdgpu ignores baco_enter's result). Its runtime suspend says -EBUSY
 * while the display file has a display connected or a CRTC lit
 * ("display_busy"), as amdgpu_runtime_idle_check_display() does. Not
 * modelled: amdgpu's missing probe deferral.
 *
 * The firmware's link handshake (the profiles' dgpu.asl, GFX0.PWRD):
 * this module serves ACPI's OEM address space 0x99 (one byte: 1 while the
 * simulated gmux powers the dGPU, 0 if not, 0xff unknown), through which
 * PWRD checks the dGPU has power whenever it is called; and the runtime
 * resume of the dGPU and of its audio checks that the link is up (GFX0's
 * ZLNK): a driver resumed on a disabled link counts as "link_down" in
 * runpm (must stay 0).
 *
 * mode=radeon: what Debian's radeon does on a Mac (no ATPX, so
 * radeon_is_px() is false): the driver registers as "radeon", its client
 * without driver power control, and no runtime PM whatever runpm says
 * (the PCI core's runtime PM stays forbidden: radeon.runpm=1 changes
 * nothing without PX). Only vga_switcheroo's OFF reaches the dGPU: its
 * set_gpu_state() does what radeon_switcheroo_set_state() does to the PCI
 * device, radeon_suspend_kms() (pci_save_state(), D3hot) before the
 * handler cuts the power and radeon_resume_kms() (D0, pci_restore_state())
 * after the handler powered it; each call that finds the dGPU unpowered
 * counts as "unpowered" in the state file (must stay 0). Its HDMI audio
 * is hda_intel's vga_switcheroo audio client (below), whose OFF suspends
 * it, disables its runtime PM and calls it D3cold before the GPU is
 * switched off, and whose ON enables and resumes it after.
 *
 * With an AMD GPU (mode=amdgpu, mode=radeon), what the kernel's
 * apple_gmux_detect() answers decides, as in amdgpu and hda_intel: where
 * it finds no gmux (a T2 gmux under a kernel before 6.4, Debian's 6.1),
 * amdgpu registers no vga_switcheroo client and the HDMI audio none
 * either (it then has runtime PM of its own); the state file's
 * switcheroo_client says which.
 *
 * Cold device (cold=1, the default): QEMU's stand-ins answer config
 * reads whether the simulated gmux powers the dGPU or not; a real GPU
 * whose power is cut does not (its root port completes every config read
 * with all-ones, and writes go nowhere). So, while the simulator says the
 * dGPU is unpowered, every config access to the dGPU's bus (the dGPU and
 * its audio function, behind their root port) reads all-ones and every
 * write is dropped, through pci_bus_set_ops() on that bus; each is
 * counted, and the first few are logged with the offset. MMIO of the
 * BARs is not covered (this driver never touches it).
 *
 * - cold: enabled, reads, writes (accesses that met an unpowered dGPU;
 *   they must stay 0 unless a test makes one on purpose), last (the last
 *   such access: "read|write <devfn> <offset>"), and the nv_hda_* lines
 *   below
 *
 * NVIDIA's HDMI audio (mode=nouveau, with the cold device): an NVIDIA
 * dGPU that lost power comes back with its audio function hidden, and
 * shows it again only when bit 25 of config 0x488 of function 0 is set,
 * which the PCI core's quirk_nvidia_hda (drivers/pci/quirks.c, a HEADER
 * and RESUME_EARLY fixup of NVIDIA display devices) does at every resume
 * of function 0, and nouveau's runtime resume once more (0x088488, the
 * same bit through MMIO). So, after each cut of the simulated dGPU, every
 * config read of function 1 reads all-ones and every write is dropped
 * (counted: nv_hda_reads, nv_hda_writes; they must stay 0) until 0x488
 * of function 0 (served here, not by QEMU) gets bit 25. The quirk's table
 * entry matches NVIDIA's vendor id, not the stand-in's 1234:1111: a
 * kprobe on pci_fixup_device() plays it, running it on function 0 of the
 * dGPU whenever the PCI core runs the HEADER or RESUME_EARLY fixups there
 * (nv_hda_quirk_runs counts those that showed function 1 again).
 * - nv_hda_quirk: write 1: run the quirk on function 0 now, as the PCI
 *   core's next resume of it would (a test's way to look at function 1
 *   after an ``ON``, which runs no fixup)
 *
 * boot_vga=dis (a Mac booted on the dGPU): QEMU's VGA at 00:02.0 stays
 * the firmware's framebuffer, but the kernel's notion of the boot VGA
 * device (vga_default_device()) is moved to the dGPU stand-in before the
 * driver registers, as on a Mac whose firmware drove the panel from the
 * dGPU. The iGPU then defers its probe, as i915 does, until a handler with
 * flags is registered. vga_set_default_device() is not exported: its
 * address comes from a kprobe registered on it (and removed at once); an
 * indirect call to it is valid only without IBT enforcement (QEMU's TCG has
 * none; refused otherwise). The previous default is restored at unload.
 * The driver tells the iGPU from the dGPU by place, not by the boot VGA
 * device: the iGPU stand-in is on the root bus (00:02.0), the dGPU behind
 * a root port.
 *
 * Never installed by DKMS, never loaded outside QEMU.
 */

#include <linux/acpi.h>
#include <linux/apple-gmux.h>
#include <linux/atomic.h>
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/pci.h>
#include <linux/pm_runtime.h>
#include <linux/rcupdate.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/vgaarb.h>
#include <linux/vga_switcheroo.h>

#include "macsupport/gmux_sim.h"
#include "macsupport/mac_model.h"

#define TEST_GPU_MAX_DEFER	4
#define TEST_COLD_LOG		5	/* cold accesses logged, then only counted */

static bool runpm;
module_param(runpm, bool, 0444);
MODULE_PARM_DESC(runpm, "Use runtime PM on the dGPU and its audio function, as nouveau.runpm=1");

static bool cold = true;
module_param(cold, bool, 0444);
MODULE_PARM_DESC(cold, "Config accesses to the dGPU's bus read all-ones while the simulated gmux has it unpowered (default 1)");

static char *mode = "nouveau";
module_param(mode, charp, 0444);
MODULE_PARM_DESC(mode, "Which real driver the dGPU's driver plays: nouveau (default), amdgpu (BACO runtime PM) or radeon (no runtime PM, vga_switcheroo OFF only)");

static char *panel = "edp";
module_param(panel, charp, 0444);
MODULE_PARM_DESC(panel, "How the iGPU's driver finds the panel at probe, as i915 does: edp (indexed and T2 gmux) or lvds (classic)");

static char *boot_vga = "";
module_param(boot_vga, charp, 0444);
MODULE_PARM_DESC(boot_vga, "dis: make the dGPU stand-in the kernel's boot VGA device (a Mac booted on the dGPU); default: leave the firmware's");

static int autosuspend_ms = 500;
static int fail_probe;
module_param(fail_probe, int, 0644);
MODULE_PARM_DESC(fail_probe, "A negative errno: the dGPU's probe fails with it after the PCI core has resumed the device, as amdgpu without its firmware or nouveau on an unknown chip (0: probe normally)");

module_param(autosuspend_ms, int, 0444);
MODULE_PARM_DESC(autosuspend_ms, "Autosuspend delay of the dGPU and its audio function (ms)");

struct test_gpu {
	struct pci_dev *pdev;
	struct dentry *dir;
	bool runpm;
	bool held;
	unsigned int suspends;
	unsigned int resumes;
	unsigned int unpowered;
	unsigned int baco_failures;
	unsigned int state_lost;
	unsigned int link_down;
	u32 offs_at_suspend;	/* the simulator's dgpu_offs when BACO was entered */
	bool baco;
	bool switched_off;	/* amdgpu: vga_switcheroo's OFF (DRM_SWITCH_POWER_OFF) */
	unsigned int baco_enters;
	unsigned int baco_enter_cold;	/* BACO enters that met a chip without power */
	/* the dGPU's display (see test_display_write()) */
	bool connected;		/* an external display on the connector */
	bool crtc_lit;		/* a CRTC active, driving it */
	unsigned int detects;	/* connector probes from user space */
	unsigned int detect_wakes;	/* of those, how many found the GPU suspended */
	unsigned int display_busy;	/* amdgpu: suspends refused for the display */
	bool client;		/* registered with vga_switcheroo as a GPU */
	bool audio_client;	/* registered with vga_switcheroo as audio */
	bool keep_power;	/* hda_intel's bus.keep_power: idle refused */
	enum vga_switcheroo_state state;
	unsigned int state_calls;
	unsigned int reprobes;
	int ddc_result;
	const char *panel;	/* the iGPU's: what i915 would have found at probe */
};

static struct dentry *test_gpu_root;
static void __iomem *test_sim_st;	/* the simulator's ST_* fields, or NULL */
static int test_sim_kind = -1;		/* the enum mac_gmux_kind it plays, or -1 */
static bool test_gpu_amdgpu;	/* mode=amdgpu */
static bool test_gpu_radeon;	/* mode=radeon */

/* The iGPU stand-in sits on the root bus (00:02.0); the dGPU behind a port */
static bool test_gpu_is_igd(struct pci_dev *pdev)
{
	return pci_is_root_bus(pdev->bus);
}

/* 1 if the simulated gmux has the dGPU powered, 0 if not, -1 unknown */
static int test_dgpu_powered(void)
{
	if (!test_sim_st)
		return -1;
	return ioread32(test_sim_st + GMUX_SIM_ST_DGPU_ON - GMUX_SIM_ST_READS) ? 1 : 0;
}

/* Power cuts of the simulated dGPU so far (0 without the simulator) */
static u32 test_dgpu_offs(void)
{
	if (!test_sim_st)
		return 0;
	return ioread32(test_sim_st + GMUX_SIM_ST_DGPU_OFFS - GMUX_SIM_ST_READS);
}

/* A field of the simulator's state, or -1 without the simulator */
static int test_sim_get(unsigned int field)
{
	if (!test_sim_st)
		return -1;
	return ioread32(test_sim_st + field - GMUX_SIM_ST_READS);
}

/*
 * The iGPU's driver looks for the panel, as i915 does once, at probe:
 * an eDP panel (indexed and T2 gmux) through its AUX channel, which the
 * gmux switches with the panel, so it is found only if the panel is on
 * the iGPU (SWITCH_DISPLAY 2); an LVDS panel's EDID (classic gmux) through
 * drm_get_edid_switcheroo(), which has the handler move the DDC lines to
 * the iGPU for the read (SWITCH_DDC 1 while they are held). Not modelled:
 * i915's VBT fallbacks; the panel itself.
 */
static const char *test_igd_find_panel(struct pci_dev *pdev)
{
	int ddc;

	if (!test_sim_st)
		return "unknown";
	if (strcmp(panel, "lvds"))
		return test_sim_get(GMUX_SIM_ST_SWITCH_DISPLAY) == 2 ? "found" : "none";
	vga_switcheroo_lock_ddc(pdev);
	ddc = test_sim_get(GMUX_SIM_ST_SWITCH_DDC);
	vga_switcheroo_unlock_ddc(pdev);
	return ddc == 1 ? "found" : "none";
}

/* Map the simulator's state fields in the ivshmem BAR (read only). */
static void test_sim_map(void)
{
	struct pci_dev *ivshmem = pci_get_device(0x1af4, 0x1110, NULL);
	resource_size_t start;

	if (!ivshmem)
		return;
	start = pci_resource_start(ivshmem, 2);
	if (start && pci_resource_len(ivshmem, 2) >= GMUX_SIM_BAR_OFFSET + GMUX_SIM_WINDOW_LEN) {
		void __iomem *id = ioremap(start + GMUX_SIM_BAR_OFFSET + GMUX_SIM_MAGIC, 8);

		if (id) {
			if (ioread32(id) == GMUX_SIM_MAGIC_VALUE)
				test_sim_kind = ioread32(id + GMUX_SIM_KIND - GMUX_SIM_MAGIC);
			iounmap(id);
		}
		test_sim_st = ioremap(start + GMUX_SIM_BAR_OFFSET + GMUX_SIM_ST_READS, 0x80);
	}
	pci_dev_put(ivshmem);
}

/*
 * What the kernel's apple_gmux_detect() (linux/apple-gmux.h, compiled into
 * amdgpu and snd_hda_intel) answers on this Mac: a gmux with an I/O port
 * range (classic, indexed) is found; the memory-mapped T2 gmux only by a
 * header that knows it (6.4 on: GMUX_MMIO_PORT_SELECT), which Debian's 6.1
 * is not. So on a T2 Mac under 6.1, amdgpu registers no vga_switcheroo
 * client (amdgpu_device_should_register_switcheroo()) and an AMD GPU's
 * HDMI audio is no audio client (get_bound_vga()). The simulated gmux is
 * reached through its window, not through ports, so the real function
 * cannot run against it: this is its answer for the simulated kind.
 */
static bool test_kernel_detects_gmux(void)
{
	if (!IS_ENABLED(CONFIG_APPLE_GMUX))
		return false;
	switch (test_sim_kind) {
	case MAC_GMUX_CLASSIC:
	case MAC_GMUX_INDEXED:
		return true;
	case MAC_GMUX_T2:
#ifdef GMUX_MMIO_PORT_SELECT
		return true;
#else
		return false;
#endif
	}
	return false;
}

/* The cold device: the dGPU's bus, its own ops, and what met it unpowered */
static bool test_power_space_on;	/* the OEM space handler is installed */
static struct pci_bus *test_cold_bus;
static struct pci_ops *test_cold_orig;
static atomic_t test_cold_reads = ATOMIC_INIT(0);
static atomic_t test_cold_writes = ATOMIC_INIT(0);
static atomic_t test_cold_busy = ATOMIC_INIT(0);
static atomic64_t test_cold_last = ATOMIC64_INIT(-1);

static void test_cold_note(bool write, unsigned int devfn, int where)
{
	atomic_t *n = write ? &test_cold_writes : &test_cold_reads;

	atomic64_set(&test_cold_last, (u64)write << 32 | devfn << 16 | where);
	if (atomic_inc_return(n) <= TEST_COLD_LOG)
		pr_info("TEST ONLY: config %s of %02x.%d offset %#x while the dGPU is unpowered: %s\n",
			write ? "write" : "read", PCI_SLOT(devfn), PCI_FUNC(devfn), where,
			write ? "dropped" : "all-ones");
}

/* NVIDIA's HDMI audio hidden after a cut (mode=nouveau; see the top) */
#define TEST_NV_HDA_REG		0x488
#define TEST_NV_HDA_ENABLE	BIT(25)
static DEFINE_SPINLOCK(test_nvhda_lock);
static bool test_nvhda_on;		/* modelled */
static bool test_nvhda_kprobe_on;	/* the quirk's stand-in is registered */
static unsigned int test_nvhda_slot;	/* the dGPU's slot on test_cold_bus */
static u32 test_nvhda_offs;		/* the simulator's dgpu_offs last seen */
static bool test_nvhda_hidden;		/* 0x488 bit 25 of function 0 clear */
static atomic_t test_nvhda_reads = ATOMIC_INIT(0);
static atomic_t test_nvhda_writes = ATOMIC_INIT(0);
static atomic_t test_nvhda_quirks = ATOMIC_INIT(0);

/*
 * A config access the model answers (true), or one for QEMU (false):
 * function 1 while hidden, 0x488 of function 0. Called with the dGPU
 * powered. A cut since the last access hides function 1 again.
 */
static bool test_nvhda_access(unsigned int devfn, int where, int size, u32 *val, bool write)
{
	unsigned long flags;
	bool hidden, mine = false;
	int shift;
	u32 offs;

	if (!test_nvhda_on || PCI_SLOT(devfn) != test_nvhda_slot)
		return false;
	spin_lock_irqsave(&test_nvhda_lock, flags);
	offs = test_dgpu_offs();
	if (offs != test_nvhda_offs) {
		test_nvhda_offs = offs;
		test_nvhda_hidden = true;
	}
	hidden = test_nvhda_hidden;
	if (PCI_FUNC(devfn) == 1 && hidden) {
		mine = true;
		if (write)
			atomic_inc(&test_nvhda_writes);
		else
			*val = ~0U;
	} else if (PCI_FUNC(devfn) == 0 && where >= TEST_NV_HDA_REG &&
		   where < TEST_NV_HDA_REG + 4) {
		mine = true;
		shift = (where - TEST_NV_HDA_REG) * 8;
		if (!write) {
			*val = (hidden ? 0 : TEST_NV_HDA_ENABLE) >> shift;
			if (size < 4)
				*val &= (1U << (size * 8)) - 1;
		} else if (shift <= 25 && 25 < shift + size * 8) {
			test_nvhda_hidden = !(((u64)val[0] << shift) & TEST_NV_HDA_ENABLE);
		}
	}
	spin_unlock_irqrestore(&test_nvhda_lock, flags);
	if (PCI_FUNC(devfn) == 1 && hidden && !write &&
	    atomic_inc_return(&test_nvhda_reads) <= TEST_COLD_LOG)
		pr_info("TEST ONLY: config read of %02x.1 offset %#x while NVIDIA hides it (0x488 bit 25 of %02x.0 not set since the last cut): all-ones\n",
			PCI_SLOT(devfn), where, PCI_SLOT(devfn));
	else if (PCI_FUNC(devfn) == 0 && write && hidden && !test_nvhda_hidden)
		pr_info("TEST ONLY: 0x488 bit 25 of %02x.0 set: its HDMI audio %02x.1 shows again\n",
			PCI_SLOT(devfn), PCI_SLOT(devfn));
	return mine;
}

static int test_cold_read(struct pci_bus *bus, unsigned int devfn, int where, int size,
			  u32 *val)
{
	int ret;

	atomic_inc(&test_cold_busy);
	if (test_dgpu_powered() == 0) {
		test_cold_note(false, devfn, where);
		*val = ~0U;
		ret = PCIBIOS_SUCCESSFUL;
	} else if (test_nvhda_access(devfn, where, size, val, false)) {
		ret = PCIBIOS_SUCCESSFUL;
	} else {
		ret = test_cold_orig->read(bus, devfn, where, size, val);
	}
	atomic_dec(&test_cold_busy);
	return ret;
}

static int test_cold_write(struct pci_bus *bus, unsigned int devfn, int where, int size,
			   u32 val)
{
	int ret;

	atomic_inc(&test_cold_busy);
	if (test_dgpu_powered() == 0) {
		test_cold_note(true, devfn, where);
		ret = PCIBIOS_SUCCESSFUL;
	} else if (test_nvhda_access(devfn, where, size, &val, true)) {
		ret = PCIBIOS_SUCCESSFUL;
	} else {
		ret = test_cold_orig->write(bus, devfn, where, size, val);
	}
	atomic_dec(&test_cold_busy);
	return ret;
}

static struct pci_ops test_cold_ops = {
	.read	= test_cold_read,
	.write	= test_cold_write,
};

static int test_cold_show(struct seq_file *s, void *unused)
{
	s64 last = atomic64_read(&test_cold_last);
	unsigned int devfn = (last >> 16) & 0xff;

	seq_printf(s, "enabled: %d\n", !!test_cold_bus);
	seq_printf(s, "reads: %d\n", atomic_read(&test_cold_reads));
	seq_printf(s, "writes: %d\n", atomic_read(&test_cold_writes));
	if (last < 0)
		seq_puts(s, "last: none\n");
	else
		seq_printf(s, "last: %s %02x.%u %#x\n", last >> 32 ? "write" : "read",
			   PCI_SLOT(devfn), PCI_FUNC(devfn), (unsigned int)(last & 0xffff));
	seq_printf(s, "nv_hda: %d\n", test_nvhda_on && test_nvhda_kprobe_on);
	seq_printf(s, "nv_hda_hidden: %d\n", READ_ONCE(test_nvhda_hidden));
	seq_printf(s, "nv_hda_reads: %d\n", atomic_read(&test_nvhda_reads));
	seq_printf(s, "nv_hda_writes: %d\n", atomic_read(&test_nvhda_writes));
	seq_printf(s, "nv_hda_quirk_runs: %d\n", atomic_read(&test_nvhda_quirks));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(test_cold);

/*
 * quirk_nvidia_hda() on the dGPU's function 0: bit 25 of 0x488 set if
 * clear, through the config accessors (dropped while unpowered). Counted
 * when it showed function 1 again.
 */
static void test_nvhda_quirk(struct pci_dev *gpu)
{
	u32 val;

	if (pci_read_config_dword(gpu, TEST_NV_HDA_REG, &val) || (val & TEST_NV_HDA_ENABLE))
		return;
	pci_write_config_dword(gpu, TEST_NV_HDA_REG, val | TEST_NV_HDA_ENABLE);
	if (!READ_ONCE(test_nvhda_hidden))
		atomic_inc(&test_nvhda_quirks);
}

/* pci_fixup_device(pass, dev): the quirk's table entry, for the stand-in */
static int test_nvhda_fixup_pre(struct kprobe *p, struct pt_regs *regs)
{
	enum pci_fixup_pass pass = regs_get_kernel_argument(regs, 0);
	struct pci_dev *dev = (struct pci_dev *)regs_get_kernel_argument(regs, 1);

	if ((pass == pci_fixup_header || pass == pci_fixup_resume_early) &&
	    dev && dev->bus == test_cold_bus &&
	    dev->devfn == PCI_DEVFN(test_nvhda_slot, 0))
		test_nvhda_quirk(dev);
	return 0;
}

static struct kprobe test_nvhda_kprobe = {
	.symbol_name	= "pci_fixup_device",
	.pre_handler	= test_nvhda_fixup_pre,
};

static ssize_t test_nvhda_quirk_write(struct file *file, const char __user *ubuf, size_t count,
				      loff_t *ppos)
{
	struct pci_dev *gpu;
	bool run;
	int ret;

	ret = kstrtobool_from_user(ubuf, count, &run);
	if (ret)
		return ret;
	if (!test_nvhda_on)
		return -ENODEV;
	if (!run)
		return count;
	gpu = pci_get_slot(test_cold_bus, PCI_DEVFN(test_nvhda_slot, 0));
	if (!gpu)
		return -ENODEV;
	test_nvhda_quirk(gpu);
	pci_dev_put(gpu);
	return count;
}

static const struct file_operations test_nvhda_quirk_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.write	= test_nvhda_quirk_write,
	.llseek	= default_llseek,
};

/*
 * Take over the config accesses of the dGPU's bus: the bus below a root
 * port holding a 1234:1111 display device that is not the boot VGA device.
 */
static void test_cold_start(void)
{
	struct pci_dev *pdev = NULL;

	if (!cold || !test_sim_st)
		return;
	while ((pdev = pci_get_device(0x1234, 0x1111, pdev))) {
		if (!test_gpu_is_igd(pdev)) {
			test_cold_bus = pdev->bus;
			get_device(&test_cold_bus->dev);
			test_nvhda_slot = PCI_SLOT(pdev->devfn);
			test_nvhda_offs = test_dgpu_offs();
			/* nouveau: NVIDIA's audio function, hidden after a cut */
			test_nvhda_on = !test_gpu_amdgpu && !test_gpu_radeon;
			if (test_nvhda_on) {
				test_nvhda_kprobe_on = !register_kprobe(&test_nvhda_kprobe);
				if (!test_nvhda_kprobe_on)
					pr_warn("TEST ONLY: no kprobe on pci_fixup_device(): nothing plays quirk_nvidia_hda\n");
			}
			test_cold_orig = pci_bus_set_ops(test_cold_bus, &test_cold_ops);
			pr_info("TEST ONLY: bus %04x:%02x reads all-ones while the simulated dGPU is unpowered%s\n",
				pci_domain_nr(test_cold_bus), test_cold_bus->number,
				test_nvhda_on ?
				", function 1 after a cut until 0x488 bit 25 is set" : "");
			pci_dev_put(pdev);
			return;
		}
	}
}

/*
 * Give the bus its ops back. x86 config accesses take no lock
 * (CONFIG_PCI_LOCKLESS_CONFIG) and no RCU read lock: a task may have
 * loaded our ops and been preempted before or inside them. Tasks RCU waits
 * until every task has passed a voluntary context switch, so none is left
 * between loading the pointer and returning from our code; the counter
 * covers accesses that sleep (none should) before the module's text goes.
 */
static void test_cold_stop(void)
{
	if (!test_cold_bus)
		return;
	if (test_nvhda_kprobe_on)
		unregister_kprobe(&test_nvhda_kprobe);
	test_nvhda_kprobe_on = false;
	pci_bus_set_ops(test_cold_bus, test_cold_orig);
	synchronize_rcu_tasks();
	while (atomic_read(&test_cold_busy))
		usleep_range(1000, 2000);
	put_device(&test_cold_bus->dev);
	test_cold_bus = NULL;
}

#define TEST_POWER_SPACE	0x99	/* the profiles' dgpu.asl: OEM defined */

/* ACPI's view of the dGPU's power, for the firmware's PWRD (dgpu.asl) */
static acpi_status test_power_space(u32 function, acpi_physical_address address, u32 bits,
				    u64 *value, void *handler_context, void *region_context)
{
	int powered = test_dgpu_powered();

	if (function != ACPI_READ)
		return AE_OK;
	*value = powered < 0 ? 0xff : powered;
	return AE_OK;
}

/* 0 if the link of the dGPU's slot is down (GFX0.ZLNK of fn 0), else 1 */
static int test_link_up(struct pci_dev *pdev)
{
	struct pci_dev *fn0 = pci_get_slot(pdev->bus, PCI_DEVFN(PCI_SLOT(pdev->devfn), 0));
	acpi_handle handle = fn0 ? ACPI_HANDLE(&fn0->dev) : NULL;
	unsigned long long zlnk = 1;

	if (handle)
		acpi_evaluate_integer(handle, "ZLNK", NULL, &zlnk);
	pci_dev_put(fn0);
	return zlnk != 0;
}

static void test_count(struct test_gpu *gpu, bool resume)
{
	if (resume)
		gpu->resumes++;
	else
		gpu->suspends++;
	if (resume && !test_link_up(gpu->pdev)) {
		gpu->link_down++;
		dev_err(&gpu->pdev->dev, "TEST ONLY: runtime resume while the firmware has the link down (PWRD(1) not undone)\n");
	}
	if (test_dgpu_powered() == 0) {
		gpu->unpowered++;
		dev_err(&gpu->pdev->dev, "TEST ONLY: runtime %s while the dGPU is unpowered\n",
			resume ? "resume" : "suspend");
	}
}

/* amdgpu_runtime_idle_check_display(): busy while connected or lit */
static bool test_display_busy(struct test_gpu *gpu)
{
	return test_gpu_amdgpu && (READ_ONCE(gpu->connected) || READ_ONCE(gpu->crtc_lit));
}

static int test_gpu_runtime_suspend(struct device *dev)
{
	struct test_gpu *gpu = dev_get_drvdata(dev);

	/* amdgpu_pmops_runtime_suspend() checks the display first */
	if (gpu->baco && test_display_busy(gpu)) {
		gpu->display_busy++;
		return -EBUSY;
	}
	test_count(gpu, false);
	if (gpu->baco) {
		/*
		 * amdgpu_device_prepare()/_suspend() return at once after a
		 * vga_switcheroo OFF (switch_power_state OFF), but
		 * amdgpu_device_baco_enter() is called all the same: an SMU
		 * message, which a chip without power does not answer (its
		 * result is ignored: the suspend succeeds).
		 */
		gpu->baco_enters++;
		if (test_dgpu_powered() == 0) {
			gpu->baco_enter_cold++;
			dev_err(dev, "TEST ONLY: BACO enter on a chip without power%s: No response from SMU\n",
				gpu->switched_off ? " (after vga_switcheroo OFF)" : "");
		}
	}
	/* amdgpu_device_baco_enter(): the chip keeps its state, powered */
	gpu->offs_at_suspend = test_dgpu_offs();
	return 0;
}

static int test_gpu_runtime_resume(struct device *dev)
{
	struct test_gpu *gpu = dev_get_drvdata(dev);

	test_count(gpu, true);
	/* amdgpu_device_baco_exit() talks to an SMU that must have kept power */
	if (gpu->baco && (test_dgpu_offs() != gpu->offs_at_suspend || test_dgpu_powered() == 0)) {
		gpu->baco_failures++;
		dev_err(dev, "TEST ONLY: BACO exit on a chip that lost power while suspended: No response from SMU\n");
		return -EIO;
	}
	return 0;
}

static int test_gpu_runtime_idle(struct device *dev)
{
	struct test_gpu *gpu = dev_get_drvdata(dev);

	/* azx_runtime_idle(): needs_eld_notify_link() while keep_power */
	if (READ_ONCE(gpu->keep_power))
		return -EBUSY;
	/*
	 * amdgpu_pmops_runtime_idle() asks for the autosuspend whatever its
	 * display check says; the suspend checks again
	 */
	pm_runtime_mark_last_busy(dev);
	pm_runtime_autosuspend(dev);
	return -EBUSY;
}

static const struct dev_pm_ops test_gpu_pm_ops = {
	SET_RUNTIME_PM_OPS(test_gpu_runtime_suspend, test_gpu_runtime_resume,
			   test_gpu_runtime_idle)
};

static int test_runpm_show(struct seq_file *s, void *unused)
{
	struct test_gpu *gpu = s->private;

	seq_printf(s, "runpm: %d\n", gpu->runpm);
	seq_printf(s, "status: %s\n",
		   pm_runtime_suspended(&gpu->pdev->dev) ? "suspended" : "active");
	seq_printf(s, "suspends: %u\n", gpu->suspends);
	seq_printf(s, "resumes: %u\n", gpu->resumes);
	seq_printf(s, "unpowered: %u\n", gpu->unpowered);
	seq_printf(s, "link_down: %u\n", gpu->link_down);
	seq_printf(s, "baco: %d\n", gpu->baco);
	seq_printf(s, "keep_power: %d\n", READ_ONCE(gpu->keep_power));
	seq_printf(s, "audio_client: %d\n", gpu->audio_client);
	seq_printf(s, "baco_failures: %u\n", gpu->baco_failures);
	seq_printf(s, "baco_enters: %u\n", gpu->baco_enters);
	seq_printf(s, "baco_enter_cold: %u\n", gpu->baco_enter_cold);
	seq_printf(s, "dgpu_powered_now: %d\n", test_dgpu_powered());
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(test_runpm);

static ssize_t test_hold_write(struct file *file, const char __user *ubuf, size_t count,
			       loff_t *ppos)
{
	struct test_gpu *gpu = file->private_data;
	struct device *dev = &gpu->pdev->dev;
	bool hold;
	int ret;

	ret = kstrtobool_from_user(ubuf, count, &hold);
	if (ret)
		return ret;
	if (hold == gpu->held)
		return count;
	if (hold) {
		ret = pm_runtime_resume_and_get(dev);
		if (ret)
			return ret;
	} else {
		pm_runtime_mark_last_busy(dev);
		pm_runtime_put_autosuspend(dev);
	}
	gpu->held = hold;
	return count;
}

static ssize_t test_thunderbolt_write(struct file *file, const char __user *ubuf, size_t count,
				      loff_t *ppos)
{
	struct test_gpu *gpu = file->private_data;
	bool tb;
	int ret;

	ret = kstrtobool_from_user(ubuf, count, &tb);
	if (ret)
		return ret;
	gpu->pdev->is_thunderbolt = tb;
	return count;
}

static const struct file_operations test_thunderbolt_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.write	= test_thunderbolt_write,
	.llseek	= default_llseek,
};

static const struct file_operations test_hold_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.write	= test_hold_write,
	.llseek	= default_llseek,
};

/*
 * The dGPU's display, as a compositor and the real drivers meet it. Every
 * command is what user space does through DRM ioctls, each of which
 * nouveau_drm_ioctl() and amdgpu_drm_ioctl() wrap in pm_runtime_get_sync()
 * and pm_runtime_put_autosuspend(), so each resumes a suspended GPU:
 * - detect: a connector probe (GETCONNECTOR; nouveau_connector_detect()
 *   from user space resumes the GPU too)
 * - connect: a display plugged in, then the probe its hotplug event brings
 * - light: a CRTC lit on it (an atomic commit): nouveau then holds one
 *   runtime-PM reference per active CRTC (nv50_disp_atomic_commit_tail());
 *   amdgpu holds none, but its runtime idle and suspend say -EBUSY while
 *   a connector is connected or a CRTC active
 *   (amdgpu_runtime_idle_check_display())
 * - dark: the CRTC off again
 * - disconnect: unplugged; the compositor turns its CRTC off and probes
 * Not modelled: the hotplug interrupt (a GPU without power sees none; the
 * gmux's is apple_gmux_ng's), output polling, EDID, the panel's CRTC.
 */
static ssize_t test_display_write(struct file *file, const char __user *ubuf, size_t count,
				  loff_t *ppos)
{
	struct test_gpu *gpu = ((struct seq_file *)file->private_data)->private;
	struct device *dev = &gpu->pdev->dev;
	bool probe, light, dark, woke;
	char cmd[16];
	int ret;

	if (count >= sizeof(cmd))
		return -EINVAL;
	if (copy_from_user(cmd, ubuf, count))
		return -EFAULT;
	cmd[count] = '\0';
	strim(cmd);
	probe = !strcmp(cmd, "detect") || !strcmp(cmd, "connect") || !strcmp(cmd, "disconnect");
	light = !strcmp(cmd, "light");
	dark = !strcmp(cmd, "dark") || !strcmp(cmd, "disconnect");
	if (!probe && !light && !dark)
		return -EINVAL;
	if (!strcmp(cmd, "connect"))
		WRITE_ONCE(gpu->connected, true);
	else if (!strcmp(cmd, "disconnect"))
		WRITE_ONCE(gpu->connected, false);
	/* the ioctl */
	woke = pm_runtime_suspended(dev);
	ret = pm_runtime_get_sync(dev);
	if (ret < 0) {
		pm_runtime_put_noidle(dev);
		return ret;
	}
	if (probe) {
		gpu->detects++;
		if (woke)
			gpu->detect_wakes++;
	}
	if (light && !gpu->crtc_lit) {
		WRITE_ONCE(gpu->crtc_lit, true);
		if (!test_gpu_amdgpu)
			pm_runtime_get_noresume(dev);
	}
	if (dark && gpu->crtc_lit) {
		WRITE_ONCE(gpu->crtc_lit, false);
		if (!test_gpu_amdgpu)
			pm_runtime_put_noidle(dev);
	}
	pm_runtime_mark_last_busy(dev);
	pm_runtime_put_autosuspend(dev);
	return count;
}

static int test_display_show(struct seq_file *s, void *unused)
{
	struct test_gpu *gpu = s->private;

	seq_printf(s, "connected: %d\n", READ_ONCE(gpu->connected));
	seq_printf(s, "crtc_lit: %d\n", READ_ONCE(gpu->crtc_lit));
	seq_printf(s, "detects: %u\n", gpu->detects);
	seq_printf(s, "detect_wakes: %u\n", gpu->detect_wakes);
	seq_printf(s, "display_busy: %u\n", gpu->display_busy);
	return 0;
}

static int test_display_open(struct inode *inode, struct file *file)
{
	return single_open(file, test_display_show, inode->i_private);
}

static const struct file_operations test_display_fops = {
	.owner		= THIS_MODULE,
	.open		= test_display_open,
	.read		= seq_read,
	.write		= test_display_write,
	.llseek		= seq_lseek,
	.release	= single_release,
};

/* Runtime PM as nouveau (runpm=1) and snd_hda_intel set it up. */
static void test_runpm_start(struct test_gpu *gpu)
{
	struct device *dev = &gpu->pdev->dev;

	gpu->runpm = true;
	debugfs_create_file("runpm", 0444, gpu->dir, gpu, &test_runpm_fops);
	debugfs_create_file("hold", 0200, gpu->dir, gpu, &test_hold_fops);
	debugfs_create_file("thunderbolt", 0200, gpu->dir, gpu, &test_thunderbolt_fops);
	pm_runtime_set_autosuspend_delay(dev, autosuspend_ms);
	pm_runtime_use_autosuspend(dev);
	pm_runtime_allow(dev);
	pm_runtime_mark_last_busy(dev);
	/* the PCI core's probe-time reference */
	pm_runtime_put_autosuspend(dev);
}

static void test_runpm_stop(struct test_gpu *gpu)
{
	struct device *dev = &gpu->pdev->dev;

	if (!gpu->runpm)
		return;
	if (gpu->held)
		pm_runtime_put_noidle(dev);
	/* nouveau's reference of a lit CRTC */
	if (gpu->crtc_lit && !test_gpu_amdgpu)
		pm_runtime_put_noidle(dev);
	/* back to what the PCI core expects of an unbound device */
	pm_runtime_get_sync(dev);
	pm_runtime_forbid(dev);
	pm_runtime_dont_use_autosuspend(dev);
}

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
	bool on = state == VGA_SWITCHEROO_ON;

	gpu->state = state;
	gpu->state_calls++;
	dev_info(&pdev->dev, "TEST ONLY: set_gpu_state %s\n", on ? "on" : "off");
	if (!(test_gpu_radeon || test_gpu_amdgpu) || test_gpu_is_igd(pdev))
		return;
	/*
	 * radeon_suspend_kms() and radeon_resume_kms(), amdgpu's
	 * amdgpu_device_suspend() and amdgpu_device_resume() (from
	 * amdgpu_switcheroo_set_state()) run on a powered chip
	 */
	if (test_gpu_amdgpu)
		gpu->switched_off = !on;
	if (test_dgpu_powered() == 0) {
		gpu->unpowered++;
		dev_err(&pdev->dev, "TEST ONLY: set_gpu_state %s while the dGPU is unpowered\n",
			on ? "on" : "off");
	}
	if (on) {
		/* radeon's and amdgpu's ON restore what their OFF saved: it must be there */
		if (!pdev->state_saved) {
			gpu->state_lost++;
			dev_err(&pdev->dev, "TEST ONLY: set_gpu_state on: the state saved at OFF is gone\n");
		}
		pci_set_power_state(pdev, PCI_D0);
		pci_restore_state(pdev);
	} else {
		pci_save_state(pdev);
		pci_set_power_state(pdev, PCI_D3hot);
	}
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
	seq_printf(s, "unpowered: %u\n", gpu->unpowered);
	seq_printf(s, "state_lost: %u\n", gpu->state_lost);
	seq_printf(s, "switcheroo_state: %s\n",
		   vga_switcheroo_get_client_state(gpu->pdev) == VGA_SWITCHEROO_ON ? "on" : "off");
	seq_printf(s, "switcheroo_client: %d\n", gpu->client);
	if (gpu->panel)
		seq_printf(s, "panel: %s\n", gpu->panel);
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
	bool dgpu_runpm;
	int ret;

	/* as i915, nouveau and radeon do, before anything else */
	if (vga_switcheroo_client_probe_defer(pdev)) {
		test_gpu_count_defer(pdev);
		dev_info(&pdev->dev, "TEST ONLY: vga_switcheroo says defer\n");
		return -EPROBE_DEFER;
	}

	if (READ_ONCE(fail_probe) < 0 && !test_gpu_is_igd(pdev)) {
		dev_info(&pdev->dev, "TEST ONLY: the probe fails (%d), as a real driver's can\n",
			 READ_ONCE(fail_probe));
		return READ_ONCE(fail_probe);
	}

	gpu = devm_kzalloc(&pdev->dev, sizeof(*gpu), GFP_KERNEL);
	if (!gpu)
		return -ENOMEM;
	gpu->pdev = pdev;
	gpu->state = VGA_SWITCHEROO_ON;
	pci_set_drvdata(pdev, gpu);

	/* amdgpu: BACO runtime PM by default, whatever runpm says */
	gpu->baco = test_gpu_amdgpu && !test_gpu_is_igd(pdev);
	/* radeon: no runtime PM without PX, which no Mac has */
	dgpu_runpm = ((runpm && !test_gpu_radeon) || gpu->baco) && !test_gpu_is_igd(pdev);
	if (test_gpu_is_igd(pdev))
		gpu->panel = test_igd_find_panel(pdev);
	/*
	 * amdgpu registers without driver power control where it has no PX,
	 * and on a Mac only where apple_gmux_detect() finds the gmux
	 */
	gpu->client = !gpu->baco || test_kernel_detects_gmux();
	if (gpu->client) {
		ret = vga_switcheroo_register_client(pdev, &test_gpu_ops,
						     dgpu_runpm && !gpu->baco);
		if (ret)
			return ret;
	}
	gpu->dir = debugfs_create_dir(pci_name(pdev), test_gpu_root);
	debugfs_create_file("state", 0444, gpu->dir, gpu, &test_gpu_state_fops);
	debugfs_create_file("ddc", 0600, gpu->dir, gpu, &test_gpu_ddc_fops);
	if (dgpu_runpm) {
		test_runpm_start(gpu);
		debugfs_create_file("display", 0600, gpu->dir, gpu, &test_display_fops);
	}
	dev_info(&pdev->dev, "TEST ONLY: fake GPU bound, %s%s\n",
		 gpu->client ? "vga_switcheroo client registered" :
		 "no vga_switcheroo client (amdgpu: the kernel's apple_gmux_detect() finds no gmux)",
		 pdev == vga_default_device() ? " (boot VGA device)" : "");
	return 0;
}

static void test_gpu_remove(struct pci_dev *pdev)
{
	struct test_gpu *gpu = pci_get_drvdata(pdev);

	test_runpm_stop(gpu);
	debugfs_remove_recursive(gpu->dir);
	if (gpu->client)
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
	.driver.pm	= &test_gpu_pm_ops,
};

/*
 * hda_intel's vga_switcheroo audio client (azx_vs_ops): the dGPU's HDMI
 * audio keeps its power (bus.keep_power, runtime idle refused) from probe
 * until vga_switcheroo says which GPU it belongs to (gpu_bound), which it
 * does once the handler and both GPU clients are there.
 */
static void test_hda_set_state(struct pci_dev *pdev, enum vga_switcheroo_state state)
{
	struct test_gpu *hda = pci_get_drvdata(pdev);

	hda->state = state;
	hda->state_calls++;
	if (!hda->runpm)
		return;
	/*
	 * azx_vs_set_state(): OFF (before the GPU is switched off) suspends
	 * the codecs and the controller, disables the controller's runtime
	 * PM and calls the function D3cold; ON (after the GPU is back)
	 * enables it again and resumes the codecs, and so the controller
	 */
	if (state == VGA_SWITCHEROO_OFF) {
		pm_runtime_suspend(&pdev->dev);
		pm_runtime_disable(&pdev->dev);
		pdev->current_state = PCI_D3cold;
	} else {
		pm_runtime_enable(&pdev->dev);
		pm_runtime_get_sync(&pdev->dev);
		pm_runtime_mark_last_busy(&pdev->dev);
		pm_runtime_put_autosuspend(&pdev->dev);
	}
}

static bool test_hda_can_switch(struct pci_dev *pdev)
{
	return true;
}

static void test_hda_gpu_bound(struct pci_dev *pdev, enum vga_switcheroo_client_id id)
{
	struct test_gpu *hda = pci_get_drvdata(pdev);

	if (id != VGA_SWITCHEROO_DIS || !READ_ONCE(hda->keep_power))
		return;
	WRITE_ONCE(hda->keep_power, false);
	dev_info(&pdev->dev, "TEST ONLY: vga_switcheroo bound the audio to the DIS: keep_power cleared\n");
	/* the codecs may runtime-suspend now, and the controller after them */
	pm_runtime_mark_last_busy(&pdev->dev);
	pm_runtime_put_autosuspend(&pdev->dev);
}

static const struct vga_switcheroo_client_ops test_hda_vs_ops = {
	.set_gpu_state	= test_hda_set_state,
	.can_switch	= test_hda_can_switch,
	.gpu_bound	= test_hda_gpu_bound,
};

/*
 * The dGPU's audio function: QEMU's intel-hda, but only one that shares
 * its slot with a display device (function 0), as a dGPU's HDMI audio does.
 */
static int test_hda_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	struct pci_dev *fn0;
	struct test_gpu *hda;
	bool gpu_slot, amd;
	int ret;

	fn0 = pci_get_slot(pdev->bus, PCI_DEVFN(PCI_SLOT(pdev->devfn), 0));
	gpu_slot = fn0 && fn0 != pdev && (fn0->class >> 16) == PCI_BASE_CLASS_DISPLAY;
	amd = test_gpu_amdgpu || test_gpu_radeon;
	/* the HDMI audio of amdgpu's chips has runtime PM of its own */
	if (!gpu_slot || !(runpm || amd)) {
		pci_dev_put(fn0);
		return -ENODEV;
	}

	hda = devm_kzalloc(&pdev->dev, sizeof(*hda), GFP_KERNEL);
	if (!hda) {
		pci_dev_put(fn0);
		return -ENOMEM;
	}
	hda->pdev = pdev;
	hda->state = VGA_SWITCHEROO_ON;
	pci_set_drvdata(pdev, hda);
	/*
	 * As init_vga_switcheroo() sets it up for an NVIDIA GPU's HDMI audio,
	 * and for an AMD GPU's where apple_gmux_detect() finds the gmux
	 * (get_bound_vga()): keep_power unless the root port above the GPU
	 * has _PR3 (no Mac's has), runtime PM, an audio client of the GPU's.
	 * An AMD GPU's audio elsewhere: runtime PM of its own (amdgpu's
	 * chips), no client.
	 */
	if (!amd || test_kernel_detects_gmux()) {
		struct pci_dev *port = pci_upstream_bridge(fn0);

		/*
		 * keep_power keeps the codecs (the controller's children)
		 * powered, and so the controller: one runtime-PM reference,
		 * dropped when it is cleared
		 */
		hda->keep_power = port ? !pci_pr3_present(port) : true;
		if (hda->keep_power)
			pm_runtime_get_noresume(&pdev->dev);
		ret = vga_switcheroo_register_audio_client(pdev, &test_hda_vs_ops, fn0);
		if (ret) {
			if (hda->keep_power)
				pm_runtime_put_noidle(&pdev->dev);
			pci_dev_put(fn0);
			return ret;
		}
		hda->audio_client = true;
	}
	pci_dev_put(fn0);
	hda->dir = debugfs_create_dir(pci_name(pdev), test_gpu_root);
	test_runpm_start(hda);
	dev_info(&pdev->dev, "TEST ONLY: fake HDMI audio bound, runtime PM on%s\n",
		 hda->keep_power ? ", keep_power until vga_switcheroo binds it to its GPU" : "");
	return 0;
}

static void test_hda_remove(struct pci_dev *pdev)
{
	struct test_gpu *hda = pci_get_drvdata(pdev);

	if (hda->audio_client)
		vga_switcheroo_unregister_client(pdev);
	/* what the PCI core expects of an unbound device: runtime PM enabled */
	if (hda->runpm && hda->state == VGA_SWITCHEROO_OFF)
		pm_runtime_enable(&pdev->dev);
	if (hda->keep_power)
		pm_runtime_put_noidle(&pdev->dev);
	test_runpm_stop(hda);
	debugfs_remove_recursive(hda->dir);
}

static const struct pci_device_id test_hda_ids[] = {
	{ PCI_DEVICE(PCI_VENDOR_ID_INTEL, 0x2668) },	/* QEMU intel-hda */
	{ }
};

static struct pci_driver test_hda_driver = {
	.name		= "macsupport_test_gpu_audio",
	.id_table	= test_hda_ids,
	.probe		= test_hda_probe,
	.remove		= test_hda_remove,
	.driver.pm	= &test_gpu_pm_ops,
};

/* boot_vga=dis: the firmware's boot VGA device, to give back at unload */
static struct pci_dev *test_boot_vga_prev;
static bool test_boot_vga_moved;

/* vga_set_default_device(), not exported: found through a kprobe on it */
static int test_set_default_vga(struct pci_dev *pdev)
{
	struct kprobe kp = { .symbol_name = "vga_set_default_device" };
	void (*set)(struct pci_dev *pdev);
	int ret;

#ifdef X86_FEATURE_IBT
	/* an indirect call to a function whose ENDBR may be sealed */
	if (cpu_feature_enabled(X86_FEATURE_IBT))
		return -EOPNOTSUPP;
#endif
	ret = register_kprobe(&kp);
	if (ret)
		return ret;
	set = (void (*)(struct pci_dev *))kp.addr;
	unregister_kprobe(&kp);
	set(pdev);
	return 0;
}

/* boot_vga=dis: the dGPU stand-in becomes the boot VGA device */
static int test_boot_vga_move(void)
{
	struct pci_dev *pdev = NULL;
	int ret = -ENODEV;

	if (!*boot_vga)
		return 0;
	if (strcmp(boot_vga, "dis")) {
		pr_err("TEST ONLY: unknown boot_vga '%s' (dis)\n", boot_vga);
		return -EINVAL;
	}
	while ((pdev = pci_get_device(0x1234, 0x1111, pdev))) {
		if (test_gpu_is_igd(pdev))
			continue;
		test_boot_vga_prev = pci_dev_get(vga_default_device());
		ret = test_set_default_vga(pdev);
		if (!ret) {
			test_boot_vga_moved = true;
			pr_info("TEST ONLY: %s is the boot VGA device now (was %s): a Mac booted on the dGPU\n",
				pci_name(pdev),
				test_boot_vga_prev ? pci_name(test_boot_vga_prev) : "none");
		}
		pci_dev_put(pdev);
		break;
	}
	if (ret) {
		pr_err("TEST ONLY: boot_vga=dis: cannot move the boot VGA device: %d\n", ret);
		pci_dev_put(test_boot_vga_prev);
		test_boot_vga_prev = NULL;
	}
	return ret;
}

static void test_boot_vga_restore(void)
{
	if (test_boot_vga_moved && test_set_default_vga(test_boot_vga_prev))
		pr_warn("TEST ONLY: the boot VGA device could not be given back\n");
	test_boot_vga_moved = false;
	pci_dev_put(test_boot_vga_prev);
	test_boot_vga_prev = NULL;
}

static int __init test_gpu_init(void)
{
	acpi_status status;
	int ret;

	if (!strcmp(mode, "amdgpu")) {
		test_gpu_amdgpu = true;
		test_gpu_driver.name = "amdgpu";
	} else if (!strcmp(mode, "radeon")) {
		test_gpu_radeon = true;
		test_gpu_driver.name = "radeon";
	} else if (strcmp(mode, "nouveau")) {
		pr_err("TEST ONLY: unknown mode '%s' (nouveau, amdgpu, radeon)\n", mode);
		return -EINVAL;
	}
	ret = test_boot_vga_move();
	if (ret)
		return ret;

	test_gpu_root = debugfs_create_dir("macsupport_test_gpu", NULL);
	debugfs_create_file("defers", 0444, test_gpu_root, NULL, &test_gpu_defers_fops);
	debugfs_create_bool("can_switch", 0600, test_gpu_root, &test_gpu_can_switch);
	debugfs_create_file("lastclose", 0200, test_gpu_root, NULL, &test_gpu_lastclose_fops);
	debugfs_create_file("cold", 0444, test_gpu_root, NULL, &test_cold_fops);
	test_sim_map();
	test_cold_start();
	if (test_nvhda_on)
		debugfs_create_file("nv_hda_quirk", 0200, test_gpu_root, NULL,
				    &test_nvhda_quirk_fops);
	/* PWRD (dgpu.asl) may run from here on: gmux power changes call it */
	status = acpi_install_address_space_handler(ACPI_ROOT_OBJECT, TEST_POWER_SPACE,
						    test_power_space, NULL, NULL);
	test_power_space_on = ACPI_SUCCESS(status);
	ret = pci_register_driver(&test_gpu_driver);
	if (ret)
		goto err;
	ret = pci_register_driver(&test_hda_driver);
	if (ret) {
		pci_unregister_driver(&test_gpu_driver);
		goto err;
	}
	return 0;
err:
	if (test_power_space_on)
		acpi_remove_address_space_handler(ACPI_ROOT_OBJECT, TEST_POWER_SPACE,
						  test_power_space);
	test_cold_stop();
	debugfs_remove_recursive(test_gpu_root);
	if (test_sim_st)
		iounmap(test_sim_st);
	test_boot_vga_restore();
	return ret;
}
module_init(test_gpu_init);

static void __exit test_gpu_exit(void)
{
	pci_unregister_driver(&test_hda_driver);
	pci_unregister_driver(&test_gpu_driver);
	if (test_power_space_on)
		acpi_remove_address_space_handler(ACPI_ROOT_OBJECT, TEST_POWER_SPACE,
						  test_power_space);
	test_cold_stop();
	debugfs_remove_recursive(test_gpu_root);
	if (test_sim_st)
		iounmap(test_sim_st);
	test_boot_vga_restore();
}
module_exit(test_gpu_exit);

MODULE_DESCRIPTION("TEST ONLY: fake GPU driver registering QEMU's display devices with vga_switcheroo");
MODULE_LICENSE("GPL");
MODULE_INFO(test, "Y");
