import CratesApp
import CratesCore
import Foundation

/// What `export` and `backup` say of a file they wrote.
enum WrittenFile {
    /// The file's size in words ("53 kB"), nil when it cannot be read (a device, gone).
    static func size(_ path: String) -> String? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
              let bytes = (attributes[.size] as? NSNumber)?.int64Value
        else { return nil }
        return ProgressText.bytes(bytes)
    }
}
