import CratesCore
import CJpeg
import CPng
import Glibc

/// An image decoded to 8-bit RGBA, every pixel opaque, rows `width` × 4 bytes; the memory is
/// the C decoder's and is freed with the value.
final class CoverImage {
    let width: Int
    let height: Int
    let pixels: UnsafeMutablePointer<UInt8>

    /// Covers are a few hundred pixels a side (Discogs serves 600): a header declaring more
    /// than this is refused before anything is allocated for its pixels.
    static let largestSide = 10_000
    /// 25 million pixels: 100 MB of RGBA at most, while the UI runs.
    static let largestPixelCount = 25_000_000

    private init(width: Int, height: Int, pixels: UnsafeMutablePointer<UInt8>) {
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    deinit { free(pixels) }

    /// Decodes `bytes` by what they are; nil for anything not a whole JPEG or PNG of a sane
    /// size. `atLeast` is the size the drawing needs: a JPEG may be decoded scaled down to it.
    static func decode(_ bytes: [UInt8], atLeast wanted: (width: Int, height: Int)) -> CoverImage? {
        guard let format = CoverImageFormat(sniffing: bytes) else { return nil }
        var width: Int32 = 0
        var height: Int32 = 0
        let decoded: UnsafeMutablePointer<UInt8>? = bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return nil }
            switch format {
            case .jpeg:
                return crates_jpeg_decode_rgba(
                    base, buffer.count, UInt32(largestSide), UInt(largestPixelCount),
                    UInt32(clamping: wanted.width), UInt32(clamping: wanted.height), &width, &height)
            case .png:
                return crates_png_decode_rgba(base, buffer.count, UInt32(largestSide), UInt(largestPixelCount), &width, &height)
            }
        }
        guard let decoded else { return nil }
        guard width > 0, height > 0 else {
            free(decoded)
            return nil
        }
        return CoverImage(width: Int(width), height: Int(height), pixels: decoded)
    }
}
