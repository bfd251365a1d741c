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
 * \_SB.PCI0.S18). QEMU models no link state, so PWRD keeps its own (TLNK)
 * and checks, at each call, that the dGPU has power (the link goes down
 * before the power does, and trains only once the power is back): TEST
 * ONLY, the harness's fake GPU driver (macsupport_test_gpu) serves the
 * OEM address space 0x99, whose byte 0 reads 1 while the simulated gmux
 * powers the dGPU; _REG says when it is there (TSIN). Without it PWRD only
 * counts. TEST ONLY names:
 *   TLNK  1 link up (trained), 0 disabled by PWRD(1)
 *   TDN1  PWRD(1) calls       TUP0  PWRD(0) calls
 *   TBAD  calls that found the dGPU unpowered (the handshake out of order)
 *   TBDA  the argument of the last such call (0xFF: none)
 *   TFLT  1: PWRD(0) reports the link did not train to x8 (returns 1);
 *         set with TSFL (1 or 0)
 */
DefinitionBlock ("", "SSDT", 2, "APPLE ", "DgpuLink", 0x00001000)
{
    External (\_SB.PCI0.S18, DeviceObj)

    Scope (\_SB.PCI0.S18)
    {
        Device (GFX0)
        {
            Name (_ADR, Zero)

            /* TEST ONLY: the fake GPU driver's view of the dGPU's power */
            OperationRegion (TSPW, 0x99, Zero, One)
            Field (TSPW, ByteAcc, NoLock, Preserve)
            {
                TDPW,   8
            }
            Name (TSIN, Zero)
            Method (_REG, 2, NotSerialized)
            {
                If (LEqual (Arg0, 0x99))
                {
                    Store (Arg1, TSIN)
                }
            }

            Name (TLNK, One)
            Name (TDN1, Zero)
            Name (TUP0, Zero)
            Name (TBAD, Zero)
            Name (TBDA, 0xFF)
            Name (TFLT, Zero)

            Method (TSFL, 1, NotSerialized)
            {
                Store (Arg0, TFLT)
            }

            Method (PWRD, 1, Serialized)
            {
                If (LAnd (TSIN, LNotEqual (TDPW, One)))
                {
                    Increment (TBAD)
                    Store (Arg0, TBDA)
                }
                If (Arg0)
                {
                    Increment (TDN1)
                    Store (Zero, TLNK)
                    Sleep (0x64)
                    Return (Zero)
                }
                Increment (TUP0)
                Store (One, TLNK)
                If (TFLT)
                {
                    Return (One)
                }
                Return (Zero)
            }
        }
    }
}
