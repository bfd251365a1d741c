/* SPDX-License-Identifier: GPL-2.0 */
/*
 * gmux.asl - the T2 (MMIO) gmux of a MacBookPro15,1, ACPI object GPUC
 *
 * Mirrors Device (GPUC) in \_SB.PCI0.LPCB of the MacBookPro15,1 DSDT
 * (firmware 1037.80.53.0.0): same _HID, _CID, _STA, _CRS, the _PRW method,
 * GMGP, GMSP, GMLV and the _L15 GPE method with its Darwin/non-Darwin paths.
 *
 * Simplified for QEMU's q35:
 *  - QEMU's DSDT has no LPCB; \_SB.PCI0.LPCB is declared here as a plain
 *    container without _ADR or _HID, so it does not clash with QEMU's own
 *    node for 00:1f.0. Other SSDTs of this profile that need LPCB must use
 *    External (\_SB.PCI0.LPCB, DeviceObj) and be listed after this file.
 *  - The Mac's \OSDW returns 1 when OSYS is 0x2710, which its PINI sets
 *    when _OSI ("Darwin") answers true. Here \OSDW asks _OSI ("Darwin")
 *    directly (Linux answers true when DMI says "Apple Inc."). Other SSDTs
 *    of this profile must use External (\OSDW, MethodObj), not redefine it.
 *  - GMSP, GMLV and the non-Darwin _L15 path use the PCH GPIO pad
 *    0x03000015 through \_SB.SGII/GGII (pad RX-invert bit, DW0 bit 23) and
 *    \_SB.GGIV (pad RX state, DW0 bit 1), as on the Mac: here
 *    ../tables/gpio.asl's model of those methods (QEMU has no such pad).
 *  - Nothing decodes 0xFE0B0200 in QEMU (the T2 gmux registers are absent;
 *    the simulator window below stands in for them, TEST ONLY) and nothing
 *    raises GPE 0x15: the harness's GPE wire (macsupport_test_gpe_wire)
 *    runs _L15 while the simulated gmux's interrupt is pending.
 *  - _PRW, _L15, GMSP and GMLV record themselves in the firmware-call
 *    trace (\ZTRC, ../tables/trace.asl), which the host replays on the
 *    Mac's own tables (replay.map). No ACPI method of the Mac decides the
 *    dGPU's power (see dgpu.asl): this device only tells the gmux's
 *    interrupt, and apple_gmux_ng calls GMSP (0) after each one (the T2
 *    firmware's Darwin path leaves the pad's RX inversion to the driver).
 *  - TEST ONLY: _CRS is a method that appends a second resource, the gmux
 *    simulator's 4 KiB window (include/macsupport/gmux_sim.h), when the
 *    harness has put its ivshmem-plain device at 00:10.0 (see ZSIM and
 *    ZMSW below). Without that device _CRS returns the real
 *    resources alone.
 */
DefinitionBlock ("", "SSDT", 2, "APPLE ", "GpucMB15", 0x00001000)
{
    External (\_SB.PCI0, DeviceObj)
    External (\ZTRC, MethodObj)
    External (\_SB.SGII, MethodObj)
    External (\_SB.GGII, MethodObj)
    External (\_SB.GGIV, MethodObj)

    /*
     * TEST ONLY: the harness's gmux simulator is an ivshmem-plain device at
     * 00:10.0; its BAR2 (64-bit: config 0x18 low dword, 0x1C high dword) is
     * the shared memory that holds the window. QEMU's DSDT has a node for
     * 00:10.0 (\_SB.PCI0.S80) only while a device sits there, so this table
     * brings its own node for that address to read the BAR through. _STA 0
     * keeps Linux from making it a device or the PCI device's companion
     * (QEMU's S80 stays that); ACPICA still serves its PCI_Config region.
     */
    Device (\_SB.PCI0.ZSIM)
    {
        Name (_ADR, 0x00100000)
        Name (_STA, Zero)
        OperationRegion (ZSCF, PCI_Config, 0x00, 0x40)
        Field (ZSCF, DWordAcc, NoLock, Preserve)
        {
            Offset (0x18),
            ZSBL,   32,                 // BAR2, low dword
            ZSBH,   32                  // BAR2 high dword (BAR3) for a 64-bit BAR
        }
    }


    Method (\OSDW, 0, NotSerialized)
    {
        If (_OSI ("Darwin"))
        {
            Return (One)
        }

        Return (Zero)
    }

    Device (\_SB.PCI0.LPCB)
    {
        Device (GPUC)
        {
            Name (_HID, EisaId ("APP000B"))
            Name (_CID, "gpuc")
            Name (_STA, 0x0B)
            /* The real _CRS of the Mac. */
            Name (ZMRS, ResourceTemplate ()
            {
                Memory32Fixed (ReadWrite,
                    0xFE0B0200,         // Address Base
                    0x00000008,         // Address Length
                    )
            })

            /*
             * TEST ONLY: the simulator window, BAR2 + 0x10000
             * (GMUX_SIM_BAR_OFFSET), 0x1000 long (GMUX_SIM_WINDOW_LEN).
             * QEMU's DSDT is revision 1, so AML integers are 32 bits wide and
             * a BAR above 4 GiB (OVMF puts it there) cannot be computed as
             * one number: the low and high dwords of _MIN and _MAX are
             * filled separately. The window never crosses a 4 GiB boundary
             * (the BAR is 1 MiB, naturally aligned).
             */
            Name (ZMSW, ResourceTemplate ()
            {
                QWordMemory (ResourceConsumer, PosDecode, MinFixed, MaxFixed,
                    NonCacheable, ReadWrite,
                    0x0000000000000000, // Granularity
                    0x0000000000000000, // Range Minimum (set by _CRS)
                    0x0000000000000FFF, // Range Maximum (set by _CRS)
                    0x0000000000000000, // Translation Offset
                    0x0000000000001000, // Length
                    ,, , AddressRangeMemory, TypeStatic)
            })

            Method (_CRS, 0, Serialized)
            {
                /* No device at 00:10.0 reads all ones. */
                Store (\_SB.PCI0.ZSIM.ZSBL, Local0)
                If (LEqual (Local0, 0xFFFFFFFF))
                {
                    Return (ZMRS)       // no simulator: the Mac's resources only
                }

                /* The high dword only means something for a 64-bit BAR. */
                Store (Zero, Local1)
                If (LEqual (And (Local0, 0x06), 0x04))
                {
                    Store (\_SB.PCI0.ZSIM.ZSBH, Local1)
                }

                /* A BAR the firmware left unassigned reads 0. */
                If (LAnd (LEqual (And (Local0, 0xFFFFFFF0), Zero), LEqual (Local1, Zero)))
                {
                    Return (ZMRS)
                }

                /* QWord descriptor: _MIN at byte 14, _MAX at byte 22. */
                CreateDWordField (ZMSW, 0x0E, ZMNL)
                CreateDWordField (ZMSW, 0x12, ZMNH)
                CreateDWordField (ZMSW, 0x16, ZMXL)
                CreateDWordField (ZMSW, 0x1A, ZMXH)
                Add (And (Local0, 0xFFFFFFF0), 0x00010000, ZMNL)
                Add (ZMNL, 0x0FFF, ZMXL)
                Store (Local1, ZMNH)
                Store (Local1, ZMXH)
                Return (ConcatenateResTemplate (ZMRS, ZMSW))
            }
            Method (_PRW, 0, NotSerialized)
            {
                \ZTRC ("\\_SB.PCI0.LPCB.GPUC._PRW")
                /* Both paths return the same package on the Mac too. */
                If (OSDW ())
                {
                    Return (Package (0x02)
                    {
                        0x15,
                        0x03
                    })
                }

                Return (Package (0x02)
                {
                    0x15,
                    0x03
                })
            }

            Scope (\_GPE)
            {
                Method (_L15, 0, NotSerialized)
                {
                    \ZTRC ("\\_GPE._L15")
                    If (OSDW ())
                    {
                        Notify (\_SB.PCI0.LPCB.GPUC, 0x80)
                    }
                    ElseIf ((\_SB.GGII (0x03000015) == One))
                    {
                        \_SB.SGII (0x03000015, Zero)
                    }
                    Else
                    {
                        \_SB.SGII (0x03000015, One)
                    }
                }
            }


            Name (GMGP, 0x15)
            /* TEST ONLY: counts GMSP calls, so a test can see the driver call it */
            Name (ZMSC, Zero)
            Method (GMSP, 1, NotSerialized)
            {
                \ZTRC (Concatenate ("\\_SB.PCI0.LPCB.GPUC.GMSP ", ToDecimalString (Arg0)))
                Increment (ZMSC)
                If ((Arg0 <= One))
                {
                    \_SB.SGII (0x03000015, Arg0)
                }
            }

            Method (GMLV, 0, NotSerialized)
            {
                \ZTRC ("\\_SB.PCI0.LPCB.GPUC.GMLV")
                Return (\_SB.GGIV (0x03000015))
            }
        }
    }
}
