import Foundation

/// A system error as a person reads it: the C library's text for the errno behind it
/// ("No space left on device"), never Foundation's "The operation could not be completed
/// (NSCocoaErrorDomain error 640.)".
public enum SystemError {
    public static func describe(_ error: any Error) -> String {
        if let posix = error as? POSIXError { return String(cString: strerror(posix.code.rawValue)) }
        if let cocoa = error as? CocoaError {
            if let underlying = cocoa.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
                return String(cString: strerror(Int32(underlying.code)))
            }
            switch cocoa.code {
            case .fileNoSuchFile, .fileReadNoSuchFile: return "no such file"
            case .fileReadNoPermission, .fileWriteNoPermission: return "permission denied"
            case .fileWriteOutOfSpace: return "the disk is full"
            case .fileWriteVolumeReadOnly: return "the file system is read-only"
            case .fileReadTooLarge: return "the file is too large"
            case .fileReadInapplicableStringEncoding, .fileReadCorruptFile: return "the file cannot be read"
            default: return "a file error (\(cocoa.code.rawValue))"
            }
        }
        // crates' own errors describe themselves.
        return "\(error)"
    }
}
