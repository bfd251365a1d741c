/* SPDX-License-Identifier: GPL-2.0 */
/*
 * osdw.asl - the Macs' \OSDW ("is the OS Darwin?") for profiles without a gmux.asl
 *
 * The Mac's \OSDW (DSDT) returns 1 when OSYS is 0x2710, which its PINI
 * stores when _OSI ("Darwin") answers true, as Linux on a Mac does (and
 * not with acpi_osi=!Darwin). QEMU's DSDT has neither: here \OSDW asks
 * _OSI ("Darwin") itself. Every Darwin branch of the real methods that a
 * profile carries is kept under If (OSDW ()). Profiles with a gmux.asl get
 * the same method from there; one table defines it, the others use
 * External (\OSDW, MethodObj).
 */
DefinitionBlock ("", "SSDT", 2, "MACSUP", "ZOSDW", 0x00000001)
{
    Method (\OSDW, 0, NotSerialized)
    {
        If (_OSI ("Darwin"))
        {
            Return (One)
        }

        Return (Zero)
    }
}
