/* SPDX-License-Identifier: GPL-2.0 */
/*
 * zdgpu.asl - TEST ONLY: the dGPU's power as the firmware's link
 * handshake meets it
 *
 * Every dual-GPU Mac's firmware has, in the dGPU's node, a link handshake
 * for the operating system (GFX0.PWRD, each profile's dgpu.asl, held to
 * that Mac's own method); the firmware never calls it itself. The link
 * goes down (PWRD (1)) before the gmux cuts the dGPU's power and comes up
 * (PWRD (0)) once the power is back: a PWRD that finds the dGPU unpowered
 * is the handshake out of order. QEMU has no link, and the dGPU's power is
 * the harness's simulated gmux's: the test-only fake GPU driver
 * (macsupport_test_gpu) serves the OEM address space 0x99, one byte that
 * reads 1 while the simulated gmux powers the dGPU, 0 while not, 0xff if
 * unknown; _REG says when it is there (ZSIN). Without it the check only
 * counts.
 *
 * Each dgpu.asl's PWRD calls ZPWC (its argument) first. Names, in the
 * scope of QEMU's root port at 00:03.0 (\_SB.PCI0.S18, in the place of
 * the Mac's PEG0 or P0P2):
 *   ZDN1  PWRD (1) calls       ZUP0  PWRD (0) calls
 *   ZBAD  calls that found the dGPU unpowered
 *   ZBDA  the argument of the last such call (0xFF: none)
 * Each dgpu.asl adds GFX0.ZLNK (1 while the link is up as the firmware
 * left it), which the fake GPU driver reads at every runtime resume, and
 * its own TEST ONLY fault ZSFL (the link trains narrower than x8).
 */
DefinitionBlock ("", "SSDT", 2, "MACSUP", "ZDGPU", 0x00000001)
{
    External (\_SB.PCI0.S18, DeviceObj)

    Scope (\_SB.PCI0.S18)
    {
        OperationRegion (ZSPW, 0x99, Zero, One)
        Field (ZSPW, ByteAcc, NoLock, Preserve)
        {
            ZDPW,   8
        }

        Name (ZSIN, Zero)
        Method (_REG, 2, NotSerialized)
        {
            If ((Arg0 == 0x99))
            {
                ZSIN = Arg1
            }
        }

        Name (ZDN1, Zero)
        Name (ZUP0, Zero)
        Name (ZBAD, Zero)
        Name (ZBDA, 0xFF)

        /* PWRD (Arg0) is about to run: count it, and was the dGPU powered? */
        Method (ZPWC, 1, Serialized)
        {
            /* (nested: AML's LAnd evaluates both sides) */
            If (ZSIN)
            {
                If ((ZDPW != One))
                {
                    ZBAD++
                    ZBDA = Arg0
                }
            }

            If (Arg0)
            {
                ZDN1++
            }
            Else
            {
                ZUP0++
            }
        }
    }
}
