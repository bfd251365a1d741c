/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dgpu.asl - the dGPU's ACPI node and the firmware's link handshake (PWRD)
 *
 * Every dual-GPU Mac's firmware has, in the dGPU's node below its PCIe root
 * port, a method the operating system calls around the gmux's power
 * changes; the firmware never calls it itself:
 *  - MacBookPro8,2 (DSDT) and 10,1 (SSDT-6, \_SB.PCI0.P0P2.GFX0): PWRD(1)
 *    sets Link Disable in the root port's Link Control and sleeps 100 ms;
 *    PWRD(0) clears it, waits while Link Training is set and returns 0 if
 *    the negotiated width is x8, else 1;
 *  - MacBookPro11,3 (SSDT-4), 13,3 (SSDT-1, \_SB.PCI0.PEG0.GFX0) and 15,1
 *    (SSDT-7): PWRD(1) is PUPD(0, 4) (the link to L2/L3, lanes powered
 *    down), PWRD(0) is PUPD(1, 4) and the same training wait and width
 *    check; on 15,1 PUPD(1, ...) also writes DISCRETE_POWER = 3 to the
 *    gmux itself (MBWR).
 *
 * Shared by the profiles with a dGPU stand-in (a secondary-vga at 01:00.0
 * behind a pcie-root-port at 00:03.0, whose node in QEMU's DSDT is
 * \_SB.PCI0.S18). QEMU models no link state, so PWRD keeps its own (ZLNK),
 * and ../tables/zdgpu.asl's ZPWC counts each call and checks that the dGPU
 * has power (the link goes down before the power does, and trains only
 * once the power is back). TEST ONLY names:
 *   ZLNK  1 link up (trained), 0 disabled by PWRD(1)
 *   ZFLT  1: PWRD(0) reports the link did not train to x8 (returns 1);
 *         set with ZSFL (1 or 0)
 */
DefinitionBlock ("", "SSDT", 2, "APPLE ", "DgpuLink", 0x00001000)
{
    External (\_SB.PCI0.S18, DeviceObj)
    External (\_SB.PCI0.S18.ZPWC, MethodObj)

    Scope (\_SB.PCI0.S18)
    {
        Device (GFX0)
        {
            Name (_ADR, Zero)

            Name (ZLNK, One)
            Name (ZFLT, Zero)

            Method (ZSFL, 1, NotSerialized)
            {
                Store (Arg0, ZFLT)
            }

            Method (PWRD, 1, Serialized)
            {
                \_SB.PCI0.S18.ZPWC (Arg0)
                If (Arg0)
                {
                    Store (Zero, ZLNK)
                    Sleep (0x64)
                    Return (Zero)
                }
                Store (One, ZLNK)
                If (ZFLT)
                {
                    Return (One)
                }
                Return (Zero)
            }
        }
    }
}
