/* SPDX-License-Identifier: GPL-2.0 */
/*
 * gpio.asl - TEST ONLY: the PCH GPIO pads that Apple's tables switch
 *
 * The Thunderbolt 3 Macs' tables switch the controller's power rails, its
 * reset and the plug pad's RX inversion through methods of the DSDT that
 * read and write the PCH's pad registers (\_SB.SGDI, SGDO, SGOV, GGDV,
 * GGOV, GGII, SGII, GGIV, with the pad number as the real firmware gives
 * it, e.g. 0x02060000 for MacBookPro14,1's Thunderbolt rail). QEMU has no
 * such pads: this table gives the same methods over a small table of pads,
 * with the register fields those methods touch (DW0: output value bit 0,
 * input value bit 1, direction bits 8-9 (1 input, 2 output), RX inversion
 * bit 23), each pad starting as zeroed memory does (direction 0, which
 * GGDV reads as 1: a rail on). A power rail is on while its pad is an
 * input (SGDI; pulled up on the board) and off while it drives 0 (SGOV
 * (pad, 0), SGDO), as the firmware's UGIO and the real DSDT's methods
 * have it.
 *
 * TEST ONLY on top: per pad, how often it went off (output) and on
 * (input) again (ZPOF, ZPON: the profiles' ZCOF/ZCON), how long it has
 * been off in all (ZPTO, ms, from the AML's Timer: what the benchmark's
 * idle-off share is taken from), and a fault that keeps it from going off
 * (ZPFS: a chip stuck on). More than ZPDX pads:
 * ZPER counts the overflow and the pad reads as Ones.
 *
 * TEST ONLY, the pads for the stand-in chip: every write of a pad's DW0
 * also goes, pad number then value, to the OperationRegion of \_SB.ZGPM,
 * of the user-defined space 0x9A (0x99 is macsupport_test_gpu's, served
 * from the root), once a handler for that space is installed (its _REG):
 * the stand-in NHI's (macsupport_test_nhi, lc_sleep) learns there, in the
 * AML step that switches a rail, whether the chip it stands in for is
 * powered, as the real chip is by its pad. Without the handler (any
 * other boot, the host's acpiexec) nothing is written there.
 */
DefinitionBlock ("", "SSDT", 2, "MACSUP", "ZGPIO", 0x00000001)
{
    Scope (\_SB)
    {
        Name (ZPDX, 0x10)                           // room for pads
        Name (ZPDN, Package (0x10) {                // pad numbers (0: free)
            Zero, Zero, Zero, Zero, Zero, Zero, Zero, Zero,
            Zero, Zero, Zero, Zero, Zero, Zero, Zero, Zero })
        Name (ZPDW, Package (0x10) {                // DW0 of each pad
            Zero, Zero, Zero, Zero, Zero, Zero, Zero, Zero,
            Zero, Zero, Zero, Zero, Zero, Zero, Zero, Zero })
        Name (ZPOF, Package (0x10) {                // times it went off (output)
            Zero, Zero, Zero, Zero, Zero, Zero, Zero, Zero,
            Zero, Zero, Zero, Zero, Zero, Zero, Zero, Zero })
        Name (ZPON, Package (0x10) {                // times it went on again (input)
            Zero, Zero, Zero, Zero, Zero, Zero, Zero, Zero,
            Zero, Zero, Zero, Zero, Zero, Zero, Zero, Zero })
        Name (ZPFS, Package (0x10) {                // fault: 1 = never goes off
            Zero, Zero, Zero, Zero, Zero, Zero, Zero, Zero,
            Zero, Zero, Zero, Zero, Zero, Zero, Zero, Zero })
        Name (ZPTA, Package (0x10) {                // ms off, up to ZPTB
            Zero, Zero, Zero, Zero, Zero, Zero, Zero, Zero,
            Zero, Zero, Zero, Zero, Zero, Zero, Zero, Zero })
        Name (ZPTB, Package (0x10) {                // Timer when it went off (0: on)
            Zero, Zero, Zero, Zero, Zero, Zero, Zero, Zero,
            Zero, Zero, Zero, Zero, Zero, Zero, Zero, Zero })
        Name (ZPER, Zero)                           // pads that found no room

        /* the slot of pad Arg0, taken at its first use; Ones if none is left */
        Method (ZPAD, 1, Serialized)
        {
            Local0 = Zero
            While ((Local0 < ZPDX))
            {
                Local1 = DerefOf (ZPDN [Local0])
                If ((Local1 == Zero))
                {
                    ZPDN [Local0] = Arg0
                    Return (Local0)
                }

                If ((Local1 == Arg0))
                {
                    Return (Local0)
                }

                Local0++
            }

            ZPER++
            Return (Ones)
        }

        /* DW0 of pad Arg0 */
        Method (ZPRD, 1, Serialized)
        {
            Local0 = ZPAD (Arg0)
            If ((Local0 == Ones))
            {
                Return (Ones)
            }

            Return (DerefOf (ZPDW [Local0]))
        }

        /* DW0 of pad Arg0 := (DW0 & ~Arg1) | Arg2, counting rail changes */
        Method (ZPWR, 3, Serialized)
        {
            Local0 = ZPAD (Arg0)
            If ((Local0 == Ones))
            {
                Return (Zero)
            }

            Local1 = DerefOf (ZPDW [Local0])
            Local2 = ((Local1 & ~Arg1) | Arg2)
            If ((((Local2 >> 0x08) & 0x03) == 0x02))
            {
                If ((DerefOf (ZPFS [Local0]) != Zero))
                {
                    Return (Zero)
                }

                If ((((Local1 >> 0x08) & 0x03) != 0x02))
                {
                    ZPOF [Local0] = (DerefOf (ZPOF [Local0]) + One)
                    ZPTB [Local0] = Timer
                }
            }
            ElseIf ((((Local1 >> 0x08) & 0x03) == 0x02))
            {
                ZPON [Local0] = (DerefOf (ZPON [Local0]) + One)
                ZPTA [Local0] = (DerefOf (ZPTA [Local0]) +
                    ((Timer - DerefOf (ZPTB [Local0])) / 0x2710))
                ZPTB [Local0] = Zero
            }

            ZPDW [Local0] = Local2
            If (\_SB.ZGPM.ZREG)
            {
                \_SB.ZGPM.ZMPD = Arg0
                \_SB.ZGPM.ZMDW = Local2
            }

            Return (Zero)
        }

        /* TEST ONLY: the pads' mirror for the stand-in chip (see the top) */
        Device (ZGPM)
        {
            Name (ZREG, Zero)                       // a handler for 0x9A is there
            OperationRegion (ZPMR, 0x9A, Zero, 0x08)
            Field (ZPMR, DWordAcc, NoLock, Preserve)
            {
                ZMPD,   32,                         // the pad written
                ZMDW,   32                          // its new DW0
            }

            Method (_REG, 2, NotSerialized)
            {
                If ((Arg0 == 0x9A))
                {
                    ZREG = Arg1
                }
            }
        }

        /* the real DSDT's pad methods, on this table */
        Method (SGDI, 1, Serialized)
        {
            ZPWR (Arg0, 0x0300, 0x0100)
        }

        Method (SGDO, 1, Serialized)
        {
            ZPWR (Arg0, 0x0300, 0x0200)
        }

        Method (GGDV, 1, Serialized)
        {
            If ((((ZPRD (Arg0) >> 0x08) & 0x03) == 0x02))
            {
                Return (Zero)
            }

            Return (One)
        }

        Method (GGOV, 1, Serialized)
        {
            Return ((ZPRD (Arg0) & One))
        }

        Method (SGOV, 2, Serialized)
        {
            ZPWR (Arg0, One, (Arg1 & One))
        }

        Method (GGIV, 1, Serialized)
        {
            Return (((ZPRD (Arg0) >> One) & One))
        }

        Method (GGII, 1, Serialized)
        {
            Return (((ZPRD (Arg0) >> 0x17) & One))
        }

        Method (SGII, 2, Serialized)
        {
            ZPWR (Arg0, 0x00800000, ((Arg1 & One) << 0x17))
        }

        /* TEST ONLY: the counters and the fault of pad Arg0 */
        Method (ZPCF, 1, Serialized)
        {
            Local0 = ZPAD (Arg0)
            Return (DerefOf (ZPOF [Local0]))
        }

        Method (ZPCN, 1, Serialized)
        {
            Local0 = ZPAD (Arg0)
            Return (DerefOf (ZPON [Local0]))
        }

        /* ms pad Arg0 has been off (an output) in all, until now */
        Method (ZPTO, 1, Serialized)
        {
            Local0 = ZPAD (Arg0)
            Local1 = DerefOf (ZPTA [Local0])
            If ((DerefOf (ZPTB [Local0]) != Zero))
            {
                Local1 += ((Timer - DerefOf (ZPTB [Local0])) / 0x2710)
            }

            Return (Local1)
        }

        /* ms now, on the clock ZPTO counts with (the AML's Timer) */
        Method (ZPTM, 0, Serialized)
        {
            Return ((Timer / 0x2710))
        }

        Method (ZPST, 2, Serialized)
        {
            Local0 = ZPAD (Arg0)
            ZPFS [Local0] = Arg1
        }
    }
}
