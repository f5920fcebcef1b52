import CratesCore
import Foundation
import Testing

@Suite("Scan: which codes add records")
struct ScanIntentTests {
    static func event(_ symbology: ScanSymbology, _ data: String) -> ScanEvent {
        ScanEvent(symbology: symbology, data: data, at: Date(timeIntervalSince1970: 0))
    }

    @Test("GTIN-family symbologies add a barcode", arguments: [
        (ScanSymbology.ean13, "5099750442227"), (.ean8, "96385074"), (.upcA, "077774620024"),
        (.upcE, "04252614"), (.isbn13, "9781617292156"), (.isbn10, "161729215X"),
    ])
    func gtinFamily(symbology: ScanSymbology, data: String) {
        #expect(symbology.isGTINFamily)
        #expect(Self.event(symbology, data).intent == .barcode(data))
        #expect(Self.event(symbology, data).intent.ignoredMessage == nil)
    }

    @Test("a QR code holding a Discogs release URL adds that release", arguments: [
        ("https://www.discogs.com/release/249504-Rick-Astley-Never-Gonna-Give-You-Up", 249504),
        ("http://discogs.com/release/1", 1),
        ("https://www.discogs.com/de/release/33356-Nirvana-Nevermind", 33356),
        ("www.discogs.com/sell/release/2911293", 2911293),
    ])
    func releaseQR(data: String, id: Int) {
        #expect(Self.event(.qrCode, data).intent == .release(id))
    }

    @Test("anything else is ignored, with a status text", arguments: [
        (ScanSymbology.qrCode, "https://example.com/release/249504", "ignored QR-Code: https://example.com/release/249504"),
        (.qrCode, "r249504", "ignored QR-Code: r249504"),
        (.qrCode, "https://www.discogs.com/artist/72872-Rick-Astley", "ignored QR-Code: https://www.discogs.com/artist/72872-Rick-Astley"),
        (.code128, "ABC-123", "ignored CODE-128: ABC-123"),
        (ScanSymbology(rawValue: "EAN-5"), "52495", "ignored EAN-5: 52495"),
        (.qrCode, "evil\u{1B}[2Jtext", "ignored QR-Code: evil\\u{1B}[2Jtext"),
    ])
    func ignored(symbology: ScanSymbology, data: String, message: String) {
        let intent = Self.event(symbology, data).intent
        #expect(intent == .ignored(symbology, data))
        #expect(intent.ignoredMessage == message)
    }
}
