import Foundation

/// One code read by a camera daemon: what kind of code it was, what it holds, and when it was
/// read. The unit of the scanner socket protocol (one JSON object per line, see
/// `ScanEvent+JSONLine.swift` and the README's "Camera scanning" section).
public struct ScanEvent: Hashable, Sendable {
    /// The symbology, as zbar names it.
    public var symbology: ScanSymbology
    /// The decoded text, verbatim (digits for a barcode, a URL or any text for a QR code).
    /// Untrusted: strip control characters before showing it on a terminal.
    public var data: String
    /// When the daemon read it.
    public var at: Date

    public init(symbology: ScanSymbology, data: String, at: Date) {
        self.symbology = symbology
        self.data = data
        self.at = at
    }
}
