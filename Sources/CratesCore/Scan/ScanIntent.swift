/// What a camera scan asks of the collection: the rule for which codes add records.
public enum ScanIntent: Hashable, Sendable {
    /// A GTIN-family code (EAN-13, EAN-8, UPC-A, UPC-E, ISBN-10/13): add it as a typed
    /// barcode would be added (the GTIN parser then checks and classifies the digits).
    case barcode(String)
    /// A QR code holding a Discogs release URL: add that release.
    case release(Int)
    /// Anything else: shown, not added.
    case ignored(ScanSymbology, String)

    /// A one-line status text for an ignored scan, e.g. `ignored QR-Code: https://example.com/`
    /// (control characters escaped, long data shortened); nil for scans that add a record.
    public var ignoredMessage: String? {
        guard case let .ignored(symbology, data) = self else { return nil }
        return "ignored \(GTIN.displayForm(of: symbology.rawValue, limit: 16)): \(GTIN.displayForm(of: data, limit: 48))"
    }
}

extension ScanEvent {
    /// What this scan asks for (see `ScanIntent`).
    public var intent: ScanIntent {
        if symbology.isGTINFamily { return .barcode(data) }
        // A QR code holding a crates label's 13 digits, as `crates labels` prints for
        // cameras: read as the EAN-13 would be (a wrong check digit is then said as such).
        if symbology == .qrCode, Self.holdsLabel(data) { return .barcode(data) }
        // Only a URL: ReleaseReference also reads "r249504", which on a random QR code is
        // more likely someone else's text than a release.
        if symbology == .qrCode, data.lowercased().contains("discogs.com/"), let id = ReleaseReference.parse(data) {
            return .release(id)
        }
        return .ignored(symbology, data)
    }

    /// Whether `text` is a crates label code, or has the shape of one (13 digits starting
    /// 290 or 291) with a wrong check digit.
    static func holdsLabel(_ text: String) -> Bool {
        guard text.count <= 32 else { return false }
        do {
            return try LabelCode.parse(text) != nil
        } catch {
            if case .checkDigit = error { return true }
            return false
        }
    }
}
