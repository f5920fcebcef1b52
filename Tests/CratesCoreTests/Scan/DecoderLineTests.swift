import CratesCore
import Testing

@Suite("Scan: decoder output lines")
struct DecoderLineTests {
    @Test("zbar's TYPE:DATA lines", arguments: [
        ("EAN-13:5099750442227", ScanSymbology.ean13, "5099750442227"),
        ("UPC-E:04252614", .upcE, "04252614"),
        ("UPC-A:077774620024", .upcA, "077774620024"),
        ("EAN-8:96385074", .ean8, "96385074"),
        ("ISBN-13:9781617292156", .isbn13, "9781617292156"),
        ("QR-Code:https://www.discogs.com/release/249504-Rick-Astley", .qrCode, "https://www.discogs.com/release/249504-Rick-Astley"),
        ("QR-Code:a:b:c", .qrCode, "a:b:c"),
        ("CODE-128:ABC-123\r", .code128, "ABC-123"),
        ("I2/5:12345670", ScanSymbology(rawValue: "I2/5"), "12345670"),
        ("QR-Code: leading space kept", .qrCode, " leading space kept"),
    ])
    func codes(line: String, symbology: ScanSymbology, data: String) {
        #expect(DecoderLine(parsing: line) == .code(symbology, data))
    }

    @Test("odd lines are ignored with a reason", arguments: [
        ("", "empty"),
        ("   ", "empty"),
        ("5099750442227", "--raw"),
        ("https://www.discogs.com/release/249504", "--raw"),
        ("scanned 1 barcode symbols from 1 images in 0.01 seconds", "no TYPE: prefix"),
        ("ean-13:5099750442227", "symbology zbar names"),
        ("FOO:bar", "symbology zbar names"),
        ("EAN-13:", "no data"),
        ("<barcodes xmlns='http://zbar.sourceforge.net/2008/barcode'>", "symbology zbar names"),
        ("\u{1B}[2J\u{1B}]0;x\u{07}", "no TYPE: prefix"),
    ])
    func ignored(line: String, mentions: String) throws {
        guard case let .ignored(reason) = DecoderLine(parsing: line) else {
            Issue.record("\(line.debugDescription) was read as a code")
            return
        }
        #expect(reason.contains(mentions), "\(reason)")
        #expect(!reason.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 }, "control characters escaped")
    }
}
