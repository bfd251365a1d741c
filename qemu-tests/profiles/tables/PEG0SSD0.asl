/* SPDX-License-Identifier: GPL-2.0 */
/*
 * PEG0SSD0.asl - a header-only SSDT, as the Macs' firmware serves it
 *
 * Apple's firmware serves SSDTs with no definition block at all (36 bytes,
 * the header alone: "SmcDppt" on every Mac in the DarwinDumped dumps,
 * "PEG0SSD0" on MacBookPro13,3 and MacPro7,1; MacPro6,1's OEM ID is
 * "Apple"). A profile carries the ones its Mac has, so that whatever walks
 * the SSDTs (tb_macpm's search for the plug GPE) meets them as on the Mac.
 * Signature, OEM ID, table ID and revisions are the real ones; the creator
 * revision is iasl's.
 */
DefinitionBlock ("", "SSDT", 1, "APPLE ", "PEG0SSD0", 0x00001000)
{
}
