/// What an image's first bytes say it is. Only JPEG and PNG are covers crates decodes and
/// writes: WebP, GIF, SVG, a web page (a portal's, answering for the image's address) and
/// anything else is not one (the UI shows its placeholder, `crates cover` writes nothing).
public enum CoverImageFormat: Equatable, Sendable {
    case jpeg
    case png

    /// JPEG's start-of-image marker and the first byte of a marker (FF D8 FF); PNG's 8-byte
    /// signature.
    public init?(sniffing bytes: [UInt8]) {
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) {
            self = .jpeg
        } else if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            self = .png
        } else {
            return nil
        }
    }
}
