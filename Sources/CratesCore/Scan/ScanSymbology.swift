/// The kind of code a decoder read, named as zbar names it (`EAN-13`, `UPC-A`, `QR-Code`…):
/// the part before the colon in zbar's `TYPE:DATA` output, and the `symbology` member of the
/// socket protocol. A struct, not an enum, so that a daemon may report a kind crates does not
/// know yet; crates then shows and ignores it.
public struct ScanSymbology: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }

    public var description: String { rawValue }

    public static let ean13 = ScanSymbology(rawValue: "EAN-13")
    public static let ean8 = ScanSymbology(rawValue: "EAN-8")
    public static let upcA = ScanSymbology(rawValue: "UPC-A")
    public static let upcE = ScanSymbology(rawValue: "UPC-E")
    public static let isbn10 = ScanSymbology(rawValue: "ISBN-10")
    public static let isbn13 = ScanSymbology(rawValue: "ISBN-13")
    public static let qrCode = ScanSymbology(rawValue: "QR-Code")
    public static let code128 = ScanSymbology(rawValue: "CODE-128")

    /// Every name zbar prints (zbar_get_symbol_name in zbar 0.23). A decoder line must start
    /// with one of them: that is how a line of zbar's `--raw` output (data only, no name) is
    /// told from a real reading.
    public static let zbarNames: Set<String> = [
        "EAN-2", "EAN-5", "EAN-8", "UPC-E", "ISBN-10", "UPC-A", "EAN-13", "ISBN-13", "COMPOSITE",
        "I2/5", "DataBar", "DataBar-Exp", "Codabar", "CODE-39", "CODE-93", "CODE-128", "PDF417",
        "QR-Code", "SQ-Code",
    ]

    /// The GTIN family (GS1 General Specifications §5.2: EAN/UPC symbols carry a GTIN-8, -12
    /// or -13; an ISBN is a GTIN-13 in the 978/979 prefixes): the codes a record is added by.
    public var isGTINFamily: Bool {
        switch self {
        case .ean13, .ean8, .upcA, .upcE, .isbn10, .isbn13: true
        default: false
        }
    }
}
