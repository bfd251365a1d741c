/* SPDX-License-Identifier: GPL-2.0 */
/*
 * battery.asl - TEST ONLY: a battery whose discharge follows the simulated
 * rails, and an AC adapter a test plugs in
 *
 * For macsupport-report --measure (qemu-tests/tests/95-report-measure.sh):
 * an ACPI control-method battery (PNP0C0A, _BIF and _BST, power unit mW:
 * Linux's battery driver shows power_now) and an AC adapter (ACPI0003,
 * _PSR). Intel Macs report their battery through the SMBus battery of the
 * SMC (ACPI0001/ACPI0002, Linux's sbs driver), which power_supply shows
 * with the same attributes; QEMU has no SMBus battery to put behind it,
 * and the tool reads only power_supply, so the simpler control-method
 * battery stands in for it.
 *
 * _BST's present rate is what the emulated Mac draws now, in mW:
 *   ZBAS                       the rest of the machine (6000)
 * + ZTBW while the Thunderbolt rail of the profile's controller is on
 *        (\_SB.PCI0.S30.UPSB.DSB0.NHI0.ZPWR, tb.asl: 1700, the 1.7 W
 *        Lukas Wunner measured on a Light Ridge MacBook Pro)
 * + ZUSW while its USB rail is on (...DSB2.XHC2.ZPWR: 300, invented)
 * + ZGPW while the simulated gmux powers the dGPU (\_SB.PCI0.S18.ZDPW,
 *        zdgpu.asl, once the fake GPU driver serves it: 10200, the
 *        23.9 -> 13.7 W t2linux owners report)
 * + noise, uniform in [-ZNSE/2, +ZNSE/2] (ZNSE 400), from a linear
 *   congruential generator stepped at every _BST.
 * A rail the profile does not have (CondRefOf) counts as off. The figures
 * are the published ones the report's estimate uses; what the test checks
 * is that the tool finds the right device with the right sign, not them.
 *
 * ZSET (Arg0, Arg1), for tests through macsupport_test_acpi: Arg0 = 0 the
 * AC adapter (1 online: _BST then says charging and _PSR 1), 1 ZNSE,
 * 2 ZGPW, 3 ZTBW, 4 ZUSW, 5 ZBAS; returns the new value, Ones for an
 * unknown index. Notifies the adapter and the battery (0x80), as a Mac's
 * EC does.
 */
DefinitionBlock ("", "SSDT", 2, "MACSUP", "ZBATT", 0x00000001)
{
    External (\_SB.PCI0.S30.UPSB.DSB0.NHI0.ZPWR, MethodObj)
    External (\_SB.PCI0.S30.UPSB.DSB2.XHC2.ZPWR, MethodObj)
    External (\_SB.PCI0.S18.ZSIN, IntObj)
    External (\_SB.PCI0.S18.ZDPW, FieldUnitObj)

    Scope (\_SB)
    {
        Device (ADP1)
        {
            Name (_HID, "ACPI0003")
            Name (_PCL, Package (0x01) { \_SB })
            Method (_STA, 0, NotSerialized)
            {
                Return (0x0F)
            }

            Method (_PSR, 0, NotSerialized)
            {
                Return (\_SB.BAT0.ZAC)
            }
        }

        Device (BAT0)
        {
            Name (_HID, EisaId ("PNP0C0A"))
            Name (_UID, Zero)
            Name (_PCL, Package (0x01) { \_SB })

            Name (ZAC, Zero)                // 1 = on AC
            Name (ZBAS, 6000)               // mW: the rest of the machine
            Name (ZTBW, 1700)               // mW: the Thunderbolt rail
            Name (ZUSW, 300)                // mW: the controller's USB rail
            Name (ZGPW, 10200)              // mW: the dGPU powered
            Name (ZNSE, 400)                // mW: noise, peak to peak
            Name (ZSED, 0x2545F491)         // the generator's state
            Name (ZBST, Package (0x04) { One, Zero, 60000, 11400 })

            Method (_STA, 0, NotSerialized)
            {
                Return (0x1F)
            }

            Method (_BIF, 0, NotSerialized)
            {
                Return (Package (0x0D)
                {
                    Zero,                   // power unit: mW/mWh
                    99500,                  // design capacity
                    95000,                  // last full charge
                    One,                    // rechargeable
                    11400,                  // design voltage, mV
                    9500,                   // warning
                    3000,                   // low
                    100,
                    100,
                    "bq20z451",
                    "ZBAT-TEST",
                    "LION",
                    "Apple Inc."
                })
            }

            /* 1 if the rail or the dGPU @Arg0 names is powered */
            Method (ZRAL, 1, Serialized)
            {
                Switch (ToInteger (Arg0))
                {
                    Case (Zero)
                    {
                        If (CondRefOf (\_SB.PCI0.S30.UPSB.DSB0.NHI0.ZPWR))
                        {
                            Return (\_SB.PCI0.S30.UPSB.DSB0.NHI0.ZPWR ())
                        }
                    }
                    Case (One)
                    {
                        If (CondRefOf (\_SB.PCI0.S30.UPSB.DSB2.XHC2.ZPWR))
                        {
                            Return (\_SB.PCI0.S30.UPSB.DSB2.XHC2.ZPWR ())
                        }
                    }
                    Case (0x02)
                    {
                        If (CondRefOf (\_SB.PCI0.S18.ZSIN))
                        {
                            If (\_SB.PCI0.S18.ZSIN)
                            {
                                If ((\_SB.PCI0.S18.ZDPW == One))
                                {
                                    Return (One)
                                }
                            }
                        }
                    }
                }
                Return (Zero)
            }

            /* the draw now, mW, with noise */
            Method (ZDRW, 0, Serialized)
            {
                Local0 = ZBAS
                If (ZRAL (Zero))
                {
                    Local0 += ZTBW
                }
                If (ZRAL (One))
                {
                    Local0 += ZUSW
                }
                If (ZRAL (0x02))
                {
                    Local0 += ZGPW
                }
                ZSED = (((ZSED * 1103515245) + 12345) & 0x7FFFFFFF)
                If (ZNSE)
                {
                    Local0 += ((ZSED >> 8) % (ZNSE + One))
                    Local0 -= (ZNSE / 0x02)
                }
                Return (Local0)
            }

            Method (_BST, 0, Serialized)
            {
                If (ZAC)
                {
                    /* charging, at a steady rate */
                    Return (Package (0x04) { 0x02, 20000, 60000, 12300 })
                }
                ZBST [One] = ZDRW ()
                Return (ZBST)
            }

            Method (ZSET, 2, Serialized)
            {
                Switch (ToInteger (Arg0))
                {
                    Case (Zero)
                    {
                        ZAC = Arg1
                        Notify (\_SB.ADP1, 0x80)
                        Notify (\_SB.BAT0, 0x80)
                        Return (ZAC)
                    }
                    Case (One)
                    {
                        ZNSE = Arg1
                        Return (ZNSE)
                    }
                    Case (0x02)
                    {
                        ZGPW = Arg1
                        Return (ZGPW)
                    }
                    Case (0x03)
                    {
                        ZTBW = Arg1
                        Return (ZTBW)
                    }
                    Case (0x04)
                    {
                        ZUSW = Arg1
                        Return (ZUSW)
                    }
                    Case (0x05)
                    {
                        ZBAS = Arg1
                        Return (ZBAS)
                    }
                }
                Return (Ones)
            }
        }
    }
}
